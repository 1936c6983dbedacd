//! `gamut analyze`: iterative-deepening search with one line per iteration.

use super::args::{AnalyzeArgs, SearchArgs};
use super::commands::position;
use super::CliError;
use gamut::game::{Evaluate, Game, NodeKind, TermMask};
use gamut::search::score::outcome_score;
use gamut::search::score::Score;
use gamut::search::{self, Config, Iteration, Limits, Parallel, SearchResult, Table};
use std::io::Write;
use std::time::Duration;

/// The search configuration and limits the options ask for.
pub fn search_setup<G: Evaluate>(a: &SearchArgs) -> Result<(Config, Limits), CliError> {
    let mut config = Config::for_game::<G>(a.threads as usize);
    config.parallel = if a.parallel == "rootsplit" {
        Parallel::RootSplit
    } else {
        Parallel::LazySmp
    };
    config.quiescence &= !a.no_quiescence;
    config.aspiration = !a.no_aspiration;
    config.star1 = !a.no_star1;
    if let Some(list) = &a.eval_off {
        let mut mask = TermMask::ALL;
        for name in list.split(',') {
            let i = G::TERMS.iter().position(|t| *t == name).ok_or_else(|| {
                CliError(format!(
                    "unknown evaluation term '{name}' for {} (terms: {})",
                    G::ID,
                    G::TERMS.join(", ")
                ))
            })?;
            mask = mask.without(i);
        }
        config.terms = mask;
    }
    if let Some(list) = &a.ordering_off {
        for name in list.split(',') {
            let o = &mut config.ordering;
            match name {
                "tt" => o.tt_move = false,
                "captures" => o.captures = false,
                "killers" => o.killers = false,
                "history" => o.history = false,
                _ => {
                    return Err(CliError(format!(
                        "unknown ordering heuristic '{name}' (tt, captures, killers, history)"
                    )))
                }
            }
        }
    }
    let limits = Limits {
        depth: a.depth,
        time: a.time.map(Duration::from_millis),
        nodes: a.nodes,
    };
    Ok((config, limits))
}

/// The texts of a principal variation from `pos`.
pub fn pv_texts<G: Game>(pos: &G, pv: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        out.push(p.move_text(m));
        p = p.play(m);
    }
    out
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

fn iteration_line<G: Game>(pos: &G, it: &Iteration<G::Move>, json: bool) -> String {
    let ms = it.time.as_millis();
    let nps = (it.nodes as f64 / it.time.as_secs_f64().max(1e-6)) as u64;
    let pv = pv_texts(pos, &it.pv);
    let score = Score(it.score);
    if json {
        let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
        let end = match score.plies_to_end() {
            Some(n) => n.to_string(),
            None => "null".into(),
        };
        format!(
            "{{\"depth\":{},\"score\":{},\"score_text\":{},\"plies_to_end\":{end},\"nodes\":{},\"nps\":{nps},\"hashfull\":{},\"time_ms\":{ms},\"pv\":[{}]}}",
            it.depth,
            it.score,
            json_string(&score.to_string()),
            it.nodes,
            it.hashfull,
            pv.join(",")
        )
    } else {
        format!(
            "depth {} score {score} nodes {} nps {nps} hashfull {} time {ms} pv {}",
            it.depth,
            it.nodes,
            it.hashfull,
            pv.join(" ")
        )
    }
}

/// Runs `gamut analyze`.
pub fn analyze<G: Evaluate>(a: &AnalyzeArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    let s = &a.search;
    if s.depth.is_none() && s.time.is_none() && s.nodes.is_none() {
        return Err(CliError("analyze needs --depth, --time or --nodes".into()));
    }
    let (config, limits) = search_setup::<G>(s)?;
    let tt = Table::new(s.hash as usize);
    match pos.node() {
        NodeKind::Terminal => {
            let o = pos.outcome().map(|o| o.to_string()).unwrap_or_default();
            Err(CliError(format!(
                "the game is over ({o}): nothing to search"
            )))
        }
        NodeKind::Decision(_) => {
            let best = decision(&pos, &limits, &config, &tt, a.json, "", out)?;
            let text = pos.move_text(best.best);
            if a.json {
                writeln!(
                    out,
                    "{{\"bestmove\":{},\"score\":{},\"depth\":{},\"nodes\":{}}}",
                    json_string(&text),
                    best.score,
                    best.depth,
                    best.nodes
                )?;
            } else {
                writeln!(out, "bestmove {text}")?;
            }
            Ok(())
        }
        NodeKind::Chance => chance(&pos, &limits, &config, &tt, a.json, out),
        NodeKind::Simultaneous => simultaneous(&pos, &limits, &config, &tt, a.json, out),
    }
}

/// Searches decision node `pos`, printing each iteration with `prefix`.
fn decision<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    json: bool,
    prefix: &str,
    out: &mut impl Write,
) -> Result<SearchResult<G::Move>, CliError> {
    let mut io_err = None;
    let result = search::search(pos, limits, config, tt, |it| {
        let line = iteration_line(pos, it, json);
        let line = if json {
            line.replacen('{', &format!("{{{prefix}"), 1)
        } else {
            format!("{prefix}{line}")
        };
        if let Err(e) = writeln!(out, "{line}") {
            io_err = Some(e);
        }
    });
    match io_err {
        Some(e) => Err(e.into()),
        None => Ok(result),
    }
}

/// A chance node (a die to roll): each outcome's best plan and value, then
/// the expected value for the player about to roll. Time is shared equally
/// between the outcomes.
fn chance<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let me = pos.perspective();
    let mut outcomes = Vec::new();
    pos.moves(&mut outcomes);
    let share = Limits {
        time: limits.time.map(|t| t / outcomes.len().max(1) as u32),
        ..limits.clone()
    };
    let mut expected = 0.0;
    for &m in &outcomes {
        let child = pos.play(m);
        let name = pos.move_text(m);
        let p = pos.probability(m);
        let (score, best) = match child.node() {
            NodeKind::Decision(_) => {
                let prefix = if json {
                    format!("\"outcome\":{},\"probability\":{p:.6},", json_string(&name))
                } else {
                    format!("outcome {name} probability {p:.6} ")
                };
                let r = decision(&child, &share, config, tt, json, &prefix, out)?;
                (r.score, Some(child.move_text(r.best)))
            }
            NodeKind::Terminal => {
                let o = child.outcome().expect("terminal positions have an outcome");
                (outcome_score(&o, child.perspective(), 1), None)
            }
            _ => {
                return Err(CliError(format!(
                    "outcome {name} leads to a node analyze cannot search"
                )))
            }
        };
        let score = if child.perspective() == me {
            score
        } else {
            -score
        };
        expected += p * score as f64;
        let best = best.unwrap_or_else(|| "none".into());
        if json {
            writeln!(
                out,
                "{{\"outcome\":{},\"probability\":{p:.6},\"score\":{score},\"bestmove\":{}}}",
                json_string(&name),
                json_string(&best)
            )?;
        } else {
            writeln!(
                out,
                "outcome {name} probability {p:.6} score {} bestmove {best}",
                Score(score)
            )?;
        }
    }
    if json {
        writeln!(out, "{{\"expected\":{expected:.3}}}")?;
    } else {
        writeln!(out, "expected {expected:.3}")?;
    }
    Ok(())
}

/// A simultaneous node: the matrix game's value at each depth, then both
/// players' mixed strategies (actions of probability at least 1%), and the
/// most likely joint action.
fn simultaneous<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let mut io_err = None;
    let r = search::search_simultaneous(pos, limits, config, tt, |m| {
        let line = if json {
            format!(
                "{{\"depth\":{},\"value\":{:.3},\"nodes\":{},\"matrix_entries\":{},\"matrix_searched\":{}}}",
                m.depth, m.value, m.nodes, m.entries, m.evaluated
            )
        } else {
            format!(
                "depth {} value {:.3} nodes {} matrix entries {} searched {}",
                m.depth, m.value, m.nodes, m.entries, m.evaluated
            )
        };
        if let Err(e) = writeln!(out, "{line}") {
            io_err = Some(e);
        }
    });
    if let Some(e) = io_err {
        return Err(e.into());
    }
    for (i, strategy) in r.strategies.iter().enumerate() {
        let shown: Vec<(String, f64)> = strategy
            .iter()
            .filter(|(_, p)| *p >= 0.01)
            .map(|&(m, p)| (pos.move_text(m), p))
            .collect();
        if json {
            let items: Vec<String> = shown
                .iter()
                .map(|(t, p)| format!("[{},{p:.4}]", json_string(t)))
                .collect();
            writeln!(
                out,
                "{{\"player\":{},\"strategy\":[{}]}}",
                i + 1,
                items.join(",")
            )?;
        } else {
            let items: Vec<String> = shown.iter().map(|(t, p)| format!("{t} {p:.4}")).collect();
            writeln!(out, "strategy {} {}", i + 1, items.join(" "))?;
        }
    }
    let joint = pos.joint_text(r.strategies[0][0].0, r.strategies[1][0].0);
    if json {
        writeln!(
            out,
            "{{\"bestmove\":{},\"value\":{:.3}}}",
            json_string(&joint),
            r.value
        )?;
    } else {
        writeln!(out, "bestmove {joint}")?;
    }
    Ok(())
}
