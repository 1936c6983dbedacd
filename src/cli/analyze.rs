//! `gamut analyze`: the search's iterations, one line each as soon as it
//! completes, then the verdict (`bestmove`, a chance root's plans, or a
//! simultaneous root's mixed strategies).

use super::args::position;
use super::args::AnalyzeArgs;
use super::interrupt::Interrupt;
use super::searching::{emit, run_streamed, search_setup};
use super::CliError;
use gamut_core::game::NodeKind;
use gamut_core::tablebase::Probe;
use gamut_engine::Position;
use gamut_search::score::Score;
use gamut_search::{
    self as search, ChanceIteration, Iteration, MixedResult, Progress, Table, Verdict,
};
use std::io::Write;
use std::time::Duration;

/// The part of a `--time` budget kept for printing the verdict.
const OUTPUT_MARGIN: Duration = Duration::from_millis(10);

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

/// Nodes per second.
fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// A score as JSON fields: the number, its text, and the plies to a proven
/// end (or null).
fn json_score(key: &str, score: i32) -> String {
    let s = Score(score);
    let end = s
        .plies_to_end()
        .map_or_else(|| "null".to_string(), |n| n.to_string());
    format!(
        "\"{key}\":{score},\"{key}_text\":{},\"plies_to_end\":{end}",
        json_string(&s.to_string())
    )
}

/// One completed iteration at a decision root: one line, or with
/// `multipv` one line per line of the iteration, each with its rank.
fn iteration_line(it: &Iteration<String>, json: bool, multipv: bool) -> String {
    if !multipv {
        return line_text(it, None, it.score, &it.pv, json);
    }
    let lines: Vec<String> = it
        .lines
        .iter()
        .enumerate()
        .map(|(k, l)| line_text(it, Some(k + 1), l.score, &l.pv, json))
        .collect();
    lines.join("\n")
}

/// The text of one line of iteration `it`: the line of rank `rank` (none
/// without MultiPV) with `score` and `pv`.
fn line_text(
    it: &Iteration<String>,
    rank: Option<usize>,
    score: i32,
    pv: &[String],
    json: bool,
) -> String {
    let ms = it.time.as_millis();
    let nps = nps(it.nodes, it.time);
    if json {
        let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
        let rank = rank.map_or_else(String::new, |k| format!("\"multipv\":{k},"));
        format!(
            "{{\"depth\":{},{rank}{},\"nodes\":{},\"nps\":{nps},\"hashfull\":{},\"time_ms\":{ms},\"pv\":[{}]}}",
            it.depth,
            json_score("score", score),
            it.nodes,
            it.hashfull,
            pv.join(",")
        )
    } else {
        let rank = rank.map_or_else(String::new, |k| format!("multipv {k} "));
        format!(
            "depth {} {rank}score {} nodes {} nps {nps} hashfull {} time {ms} pv {}",
            it.depth,
            Score(score),
            it.nodes,
            it.hashfull,
            pv.join(" ")
        )
    }
}

/// One completed iteration at a chance root: the expected value.
fn chance_line<M>(it: &ChanceIteration<M>, json: bool) -> String {
    let ms = it.time.as_millis();
    let nps = nps(it.nodes, it.time);
    if json {
        format!(
            "{{\"depth\":{},{},\"nodes\":{},\"nps\":{nps},\"time_ms\":{ms}}}",
            it.depth,
            json_score("expected", it.expected),
            it.nodes
        )
    } else {
        format!(
            "depth {} expected {} nodes {} nps {nps} time {ms}",
            it.depth,
            Score(it.expected),
            it.nodes
        )
    }
}

/// One completed depth at a simultaneous root: the matrix game's value.
fn mixed_line<M>(m: &MixedResult<M>, json: bool) -> String {
    let ms = m.time.as_millis();
    if json {
        format!(
            "{{\"depth\":{},\"value\":{:.3},\"nodes\":{},\"matrix_entries\":{},\"matrix_searched\":{},\"time_ms\":{ms}}}",
            m.depth, m.value, m.nodes, m.entries, m.evaluated
        )
    } else {
        format!(
            "depth {} value {:.3} nodes {} matrix entries {} searched {} time {ms}",
            m.depth, m.value, m.nodes, m.entries, m.evaluated
        )
    }
}

/// Runs `gamut analyze`: without `--depth`, `--time` or `--nodes` (or with
/// `--infinite`) until interrupted. Ctrl-C or SIGTERM stop the search; the
/// verdict is still printed, then the command exits with the signal's
/// shell status.
pub fn analyze(a: &AnalyzeArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos = position(&a.position)?;
    let game = pos.game();
    if game.players() != 2 {
        note_one_line(a.multipv, "a game of more than two players");
        return super::analyze_sides::analyze(&pos, a, out);
    }
    let s = &a.search;
    if a.infinite && (s.depth.is_some() || s.time.is_some() || s.nodes.is_some()) {
        return Err(CliError(
            "--infinite analyses until interrupted; drop --depth, --time and --nodes".into(),
        ));
    }
    let (mut config, mut limits) = search_setup(game, s)?;
    config.multipv = a.multipv as usize;
    limits.clock = a.clock.map(|remaining| search::Clock {
        remaining: Duration::from_millis(remaining),
        increment: Duration::from_millis(a.inc),
        moves_to_go: a.movestogo,
    });
    // The budget counts from the start of the process, and leaves time to
    // print the verdict.
    if let Some(t) = limits.time {
        let spent = super::since_start() + OUTPUT_MARGIN;
        limits.time = Some(t.saturating_sub(spent).max(Duration::from_millis(1)));
    }
    if let Some(o) = pos.outcome() {
        return Err(CliError(format!(
            "the game is over ({}): nothing to search",
            o.describe(game.info().sides)
        )));
    }
    if !a.no_table {
        if let Some(oracle) = super::solve::open_table(a.position.game, a.table.as_deref())? {
            return table_verdict(&oracle.probe(&pos.text())?, a.json, out);
        }
    }
    match pos.node() {
        NodeKind::Chance => note_one_line(a.multipv, "a chance root"),
        NodeKind::Simultaneous => note_one_line(a.multipv, "a simultaneous root"),
        _ => {}
    }
    let tt = Table::try_new(s.hash as usize)?;
    let interrupt = Interrupt::install()?;
    let json = a.json;
    let multipv = a.multipv > 1;
    let verdict = run_streamed(&pos, &limits, &config, &tt, &interrupt, out, |p| {
        Some(match p {
            Progress::Decision(it) => iteration_line(it, json, multipv),
            Progress::Chance(it) => chance_line(it, json),
            Progress::Simultaneous(m) => mixed_line(m, json),
        })
    })?;
    match verdict {
        Verdict::Over(o) => {
            return Err(CliError(format!(
                "the game is over ({}): nothing to search",
                o.describe(game.info().sides)
            )))
        }
        Verdict::Decision(best) => {
            let text = best.best;
            let line = if json {
                format!(
                    "{{\"bestmove\":{},{},\"depth\":{},\"nodes\":{}}}",
                    json_string(&text),
                    json_score("score", best.score),
                    best.depth,
                    best.nodes
                )
            } else {
                format!("bestmove {text}")
            };
            emit(out, &line)?;
        }
        Verdict::Chance(it) => chance_verdict(&it, json, out)?,
        Verdict::Simultaneous(r) => mixed_verdict(&pos, &r, json, out)?,
        Verdict::Stopped => unreachable!("no stop check ends a listing here"),
    }
    interrupt.exit_if_signalled();
    Ok(())
}

/// With `--multipv` above 1 at a root that has no several lines (`what`),
/// says so in one line on standard error.
fn note_one_line(multipv: u32, what: &str) {
    if multipv > 1 {
        eprintln!("note: --multipv {multipv}: {what} reports one line");
    }
}

/// The verdict of a table of exact values: the value, every move keeping
/// it, and the first of them as the best move.
fn table_verdict(probe: &Probe, json: bool, out: &mut impl Write) -> Result<(), CliError> {
    let best = probe.best.first().cloned().unwrap_or_else(|| "none".into());
    if json {
        let moves: Vec<String> = probe.best.iter().map(|m| json_string(m)).collect();
        emit(
            out,
            &format!(
                "{{\"table\":{},\"best\":[{}]}}",
                json_string(&probe.value.to_string()),
                moves.join(",")
            ),
        )?;
        emit(
            out,
            &format!(
                "{{\"bestmove\":{},\"value\":{}}}",
                json_string(&best),
                json_string(&probe.value.to_string())
            ),
        )?;
    } else {
        emit(
            out,
            &format!("table {} best {}", probe.value, probe.best.join(" ")),
        )?;
        emit(out, &format!("bestmove {best}"))?;
    }
    Ok(())
}

/// A chance root's verdict: each outcome's value and plan, then the
/// expected value for the player about to roll.
fn chance_verdict(
    it: &ChanceIteration<String>,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    for plan in &it.outcomes {
        let name = &plan.outcome;
        let pv = &plan.pv;
        let best = pv.first().cloned().unwrap_or_else(|| "none".into());
        let line = if json {
            let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
            format!(
                "{{\"outcome\":{},\"probability\":{:.6},{},\"bestmove\":{},\"pv\":[{}]}}",
                json_string(name),
                plan.probability,
                json_score("score", plan.score),
                json_string(&best),
                pv.join(",")
            )
        } else {
            format!(
                "outcome {name} probability {:.6} score {} bestmove {best} pv {}",
                plan.probability,
                Score(plan.score),
                pv.join(" ")
            )
        };
        emit(out, &line)?;
    }
    let line = if json {
        format!(
            "{{{},\"depth\":{}}}",
            json_score("expected", it.expected),
            it.depth
        )
    } else {
        format!("expected {}", Score(it.expected))
    };
    emit(out, &line)?;
    Ok(())
}

/// A simultaneous root's verdict: both players' mixed strategies (actions
/// of probability at least 1%), then the most likely joint action.
fn mixed_verdict(
    pos: &Position,
    r: &MixedResult<String>,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    for (i, strategy) in r.strategies.iter().enumerate() {
        let shown: Vec<&(String, f64)> = strategy.iter().filter(|(_, p)| *p >= 0.01).collect();
        let line = if json {
            let items: Vec<String> = shown
                .iter()
                .map(|(t, p)| format!("[{},{p:.4}]", json_string(t)))
                .collect();
            format!(
                "{{\"player\":{},\"strategy\":[{}]}}",
                i + 1,
                items.join(",")
            )
        } else {
            let items: Vec<String> = shown.iter().map(|(t, p)| format!("{t} {p:.4}")).collect();
            format!("strategy {} {}", i + 1, items.join(" "))
        };
        emit(out, &line)?;
    }
    let likely = [r.strategies[0][0].0.clone(), r.strategies[1][0].0.clone()];
    let (joint, _) = pos.play_actions(&likely)?;
    let line = if json {
        format!(
            "{{\"bestmove\":{},\"value\":{:.3}}}",
            json_string(&joint),
            r.value
        )
    } else {
        format!("bestmove {joint}")
    };
    emit(out, &line)?;
    Ok(())
}
