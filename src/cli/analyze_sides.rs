//! `gamut analyze` of a game of more than two players: each side's
//! recommended mixed strategy and expected outcome, by the paranoid
//! (two-sided) search of every side in turn or by one sampling search of
//! all sides at once.

use super::args::AnalyzeArgs;
use super::interrupt::Interrupt;
use super::searching::emit;
use super::CliError;
use gamut_core::game::{NodeKind, Player};
use gamut_engine::sides::{SidesPlan, SidesText};
use gamut_engine::Position;
use gamut_search::mcts::{MctsConfig, MctsResult};
use gamut_search::sides::Tuple;
use gamut_search::sides_analysis::Schedule;
use gamut_search::{Limits, Progress, Table, Verdict};
use std::io::Write;
use std::time::Duration;

/// Choices printed per strategy at most.
const SHOWN: usize = 12;

/// Analyses `pos`: per side (only the mover at a decision) its strategy
/// and value.
pub fn analyze(pos: &Position, a: &AnalyzeArgs, out: &mut impl Write) -> Result<(), CliError> {
    let s = &a.search;
    let game = pos.game();
    let id = game.id();
    // Every search option is checked against the game, whichever method
    // runs: one line for what the game cannot use.
    let config = game.config(s)?;
    if a.json {
        return Err(CliError(format!("--json does not apply to {id} yet")));
    }
    if let Some(o) = pos.outcome() {
        return Err(CliError(format!(
            "the game is over ({}): nothing to search",
            o.describe(game.info().sides)
        )));
    }
    if a.clock.is_some() {
        return Err(CliError(format!(
            "--clock applies to games of two players, not {id}"
        )));
    }
    if s.threads > 1 {
        return Err(CliError(format!("{id} is searched on one thread")));
    }
    if a.infinite && (s.depth.is_some() || s.time.is_some() || s.nodes.is_some()) {
        return Err(CliError(
            "--infinite analyses until interrupted; drop --depth, --time and --nodes".into(),
        ));
    }
    // The budget counts from the start of the process and leaves time to
    // print.
    let budget = s.time.map(|t| {
        Duration::from_millis(t)
            .saturating_sub(super::since_start() + Duration::from_millis(10))
            .max(Duration::from_millis(1))
    });
    let interrupt = Interrupt::install()?;
    let width = a.width as usize;
    if a.method == "mcts" {
        if s.depth.is_some() || s.nodes.is_some() {
            return Err(CliError(
                "--method mcts stops by --time or --iterations".into(),
            ));
        }
        let config = MctsConfig {
            iterations: a.iterations,
            time: budget,
            width,
            exploration: gamut_search::params::MCTS_EXPLORATION,
            seed: 1,
        };
        let mut io_err = None;
        let every = Duration::from_millis(500);
        let r = pos.mcts(&config, Some(interrupt.flag()), Some(every), &mut |r| {
            if let Err(e) = emit(out, &mcts_line(r)) {
                io_err.get_or_insert(e);
            }
        });
        if let Some(e) = io_err {
            return Err(e.into());
        }
        emit(out, &mcts_line(&r))?;
        for side in &r.sides {
            if !side.strategy.is_empty() {
                emit(out, &strategy_line(side.side, &side.strategy))?;
            }
        }
        for side in &r.sides {
            emit(
                out,
                &format!("expected {} {:.3}", side.side.index() + 1, side.expected),
            )?;
        }
        if let Some(m) = r.best {
            emit(out, &format!("bestmove {m}"))?;
        }
    } else {
        if a.iterations.is_some() {
            return Err(CliError("--iterations applies to --method mcts".into()));
        }
        let sides = pos.sides_to_analyse();
        let tt = Table::try_new(s.hash as usize)?;
        // Without a limit the sides deepen in turn, one depth each, until
        // interrupted: every side has a verdict whenever that comes.
        let unlimited = s.depth.is_none() && s.time.is_none() && s.nodes.is_none();
        let (schedule, limits) = if unlimited {
            (Schedule::Rounds, Limits::default())
        } else {
            let limits = Limits {
                depth: s.depth,
                time: budget,
                nodes: s.nodes,
                clock: None,
            };
            (Schedule::InTurn, limits)
        };
        let mut analysis = pos.sides_analysis(SidesPlan {
            sides: sides.clone(),
            width,
            schedule,
            limits,
            fresh_table: true,
            shorts: None,
        });
        let mut io_err = None;
        analysis.run(&config, &tt, Some(interrupt.flag()), &mut |r| {
            let SidesText::Iteration { us, progress } = r else {
                return true;
            };
            let side = us.index() + 1;
            let line = match progress {
                Progress::Simultaneous(m) => format!(
                    "side {side} depth {} value {:.0} nodes {} matrix entries {} searched {} time {}",
                    m.depth,
                    m.value,
                    m.nodes,
                    m.entries,
                    m.evaluated,
                    super::since_start().as_millis()
                ),
                Progress::Decision(it) => format!(
                    "side {side} depth {} score {} nodes {} time {}",
                    it.depth,
                    it.score,
                    it.nodes,
                    super::since_start().as_millis()
                ),
                Progress::Chance(_) => return true,
            };
            // A failed write ends the analysis after this search.
            emit(out, &line).map_err(|e| io_err.get_or_insert(e)).is_ok()
        });
        if let Some(e) = io_err {
            return Err(e.into());
        }
        let verdicts = analysis.verdicts();
        let mut choices = Vec::new();
        for (side, v) in &verdicts {
            match v {
                Verdict::Simultaneous(r) => {
                    let strategy: Vec<(Tuple<String>, f64)> = r.strategies[0]
                        .iter()
                        .map(|(t, p)| (t.actions.clone(), *p))
                        .collect();
                    emit(out, &strategy_line(*side, &strategy))?;
                    emit(
                        out,
                        &format!(
                            "value {} {:.0} depth {}",
                            side.index() + 1,
                            r.value,
                            r.depth
                        ),
                    )?;
                    choices.push(r.strategies[0][0].0.actions.clone());
                }
                Verdict::Decision(r) => {
                    let m = r.best.actions[0].as_deref().expect("a decision's move");
                    emit(out, &format!("bestmove {m}"))?;
                }
                _ => {}
            }
        }
        // At a round of placements: every side's most likely choice.
        if choices.len() == sides.len() && pos.node() == NodeKind::Simultaneous {
            let joint: Vec<String> = (0..game.players())
                .map(|i| {
                    choices
                        .iter()
                        .find_map(|t| t[i].clone())
                        .expect("every player has an action")
                })
                .collect();
            let (text, _) = pos.play_actions(&joint)?;
            emit(out, &format!("bestmove {text}"))?;
        }
    }
    interrupt.exit_if_signalled();
    Ok(())
}

/// A sampling search's progress: iterations, tree size, time and every
/// side's expected outcome.
fn mcts_line(r: &MctsResult<String>) -> String {
    let expected: Vec<String> = r
        .sides
        .iter()
        .map(|s| format!("{:.3}", s.expected))
        .collect();
    format!(
        "iterations {} nodes {} time {} expected {}",
        r.iterations,
        r.nodes,
        super::since_start().as_millis(),
        expected.join(" ")
    )
}

/// `strategy <side> <choice> <probability> …`, most likely first.
fn strategy_line(side: Player, strategy: &[(Tuple<String>, f64)]) -> String {
    let mut s = format!("strategy {}", side.index() + 1);
    for (t, p) in strategy.iter().take(SHOWN) {
        let texts: Vec<&str> = t.iter().flatten().map(String::as_str).collect();
        s.push_str(&format!(" {} {p:.4}", texts.join("+")));
    }
    if strategy.len() > SHOWN {
        s.push_str(&format!(" (+{} more)", strategy.len() - SHOWN));
    }
    s
}
