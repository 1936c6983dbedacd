//! `gamut engine --check "<command>"`: runs a program through the engine
//! protocol's contract (`docs/protocol.md`), as a tournament will use it,
//! and names each check it passes or the first it fails.

use super::searching::emit;
use super::CliError;
use gamut_core::game::{NodeKind, Player};
use gamut_engine::Position;
use gamut_games::GameId;
use gamut_players::external::spawn_with_lines;
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// `go movetime` of the timed check, and the margin past it.
const MOVETIME: Duration = Duration::from_millis(200);
const MOVETIME_MARGIN: Duration = Duration::from_millis(1000);
/// How long a search runs before `stop`, and how soon its answer must come.
const BEFORE_STOP: Duration = Duration::from_millis(300);
const AFTER_STOP: Duration = Duration::from_millis(1000);

/// The program under test, with its output lines.
struct Program {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Program {
    fn start(command: &str) -> Result<Program, CliError> {
        let words: Vec<String> = command.split_whitespace().map(String::from).collect();
        let (name, args) = words
            .split_first()
            .ok_or_else(|| CliError("--check needs a command".into()))?;
        let (child, input, lines) = spawn_with_lines(name, args)
            .map_err(|e| CliError(format!("cannot start '{name}': {e}")))?;
        Ok(Program {
            child,
            input,
            lines,
        })
    }

    /// Sends `line`; an error if the program no longer reads.
    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|_| format!("the program stopped reading (at '{line}')"))
    }

    /// The lines up to and including the first starting with `word`,
    /// within `limit`.
    fn until(&mut self, word: &str, limit: Duration) -> Result<Vec<String>, String> {
        let end = Instant::now() + limit;
        let mut got = Vec::new();
        loop {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    let done = line.split_whitespace().next() == Some(word);
                    got.push(line);
                    if done {
                        return Ok(got);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no '{word}' within {} ms", limit.as_millis()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .wait()
                        .map_or_else(|e| e.to_string(), |s| s.to_string());
                    return Err(format!("the program exited ({status}) before '{word}'"));
                }
            }
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One check of the contract: its name and what it does.
type Check<'a> = (
    &'static str,
    Box<dyn Fn(&mut Program) -> Result<(), String> + 'a>,
);

/// Runs `command` through the contract for game `game` (the first game if
/// none), an answer that should come at once given `prompt`, writing
/// `ok <check>` per check passed, then the first failure
/// as `FAIL <check>: <reason>` (an error: the command fails).
pub fn check(
    command: &str,
    game: Option<GameId>,
    prompt: Duration,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let id = game.unwrap_or(GameId::ALL[0]);
    let mut program = Program::start(command)?;
    let checks = contract(id, prompt)?;
    let total = checks.len();
    for (name, run) in checks {
        match run(&mut program) {
            Ok(()) => emit(out, &format!("ok {name}"))?,
            Err(why) => {
                emit(out, &format!("FAIL {name}: {why}"))?;
                return Err(CliError(format!(
                    "'{command}' failed the check '{name}': {why}"
                )));
            }
        }
    }
    emit(out, &format!("passed all {total} checks"))?;
    Ok(())
}

/// The checks, in order, at game `G`'s start position, an answer that
/// should come at once given `prompt`.
fn contract(id: GameId, prompt: Duration) -> Result<Vec<Check<'static>>, CliError> {
    let start = gamut_engine::game(id).start();
    let side = match start.node() {
        NodeKind::Decision(_) => "",
        NodeKind::Simultaneous => "side 1 ",
        _ => {
            return Err(CliError(format!(
                "{id} starts at a chance node or its end; check with another game"
            )))
        }
    };
    // The first move (or joint action) of the start position's list.
    let moves = if side.is_empty() {
        start.move_texts().swap_remove(0)
    } else {
        let first = [Player::FIRST, Player::SECOND].map(|p| start.action_texts(p).swap_remove(0));
        start.play_actions(&first).map_err(|e| CliError(e.0))?.0
    };
    let after = start
        .play_moves(&moves, "the check")
        .map_err(|e| CliError(e.0))?;
    let go = move |p: &mut Program, pos: &Position, args: &str, limit: Duration| {
        p.send(&format!("go {side}{args}"))?;
        let asked = Instant::now();
        let lines = p.until("bestmove", limit)?;
        if let Some(bad) = lines[..lines.len() - 1]
            .iter()
            .find(|l| !l.starts_with("info "))
        {
            return Err(format!("a line before bestmove is not 'info ...': '{bad}'"));
        }
        let mv = lines.last().and_then(|l| l.split_whitespace().nth(1));
        let mv = mv.ok_or("an empty bestmove")?;
        legal(pos, mv)?;
        Ok(asked.elapsed())
    };
    let (s1, s2, s3) = (start.clone(), after, start);
    Ok(vec![
        (
            "handshake",
            Box::new(move |p: &mut Program| {
                p.send("gamut")?;
                let lines = p.until("gamutok", prompt)?;
                if !lines.iter().any(|l| l.starts_with("id name ")) {
                    return Err("no 'id name' line before gamutok".into());
                }
                Ok(())
            }),
        ),
        (
            "isready",
            Box::new(move |p: &mut Program| {
                p.send("isready")?;
                p.until("readyok", prompt).map(|_| ())
            }),
        ),
        (
            "go depth 1 at the start",
            Box::new(move |p: &mut Program| {
                p.send(&format!("game {id}"))?;
                p.send("position startpos")?;
                go(p, &s1, "depth 1", prompt).map(|_| ())
            }),
        ),
        (
            "go movetime after a move",
            Box::new(move |p: &mut Program| {
                p.send(&format!("position startpos moves {moves}"))?;
                let limit = MOVETIME + MOVETIME_MARGIN;
                let arg = format!("movetime {}", MOVETIME.as_millis());
                go(p, &s2, &arg, limit).map(|_| ())
            }),
        ),
        (
            "stop ends go infinite",
            Box::new(move |p: &mut Program| {
                p.send("position startpos")?;
                p.send(&format!("go {side}infinite"))?;
                std::thread::sleep(BEFORE_STOP);
                p.send("isready")?;
                let lines = p.until("readyok", prompt)?;
                if let Some(l) = lines.iter().find(|l| l.starts_with("bestmove")) {
                    return Err(format!("'{l}' before stop"));
                }
                p.send("stop")?;
                let lines = p.until("bestmove", AFTER_STOP)?;
                let mv = lines.last().and_then(|l| l.split_whitespace().nth(1));
                legal(&s3, mv.ok_or("an empty bestmove")?)
            }),
        ),
        (
            "an unknown command is survived",
            Box::new(move |p: &mut Program| {
                p.send("frobnicate 42")?;
                p.send("isready")?;
                p.until("readyok", prompt).map(|_| ())
            }),
        ),
        (
            "quit",
            Box::new(move |p: &mut Program| {
                p.send("quit")?;
                let end = Instant::now() + prompt;
                while Instant::now() < end {
                    if let Some(status) = p.child.try_wait().map_err(|e| e.to_string())? {
                        return if status.success() {
                            Ok(())
                        } else {
                            Err(format!("exited with {status}"))
                        };
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(format!(
                    "still running {} ms after quit",
                    prompt.as_millis()
                ))
            }),
        ),
    ])
}

/// Whether `text` names a legal move (at a round of placements, player
/// 1's action) at `pos`.
fn legal(pos: &Position, text: &str) -> Result<(), String> {
    let ok = match pos.node() {
        NodeKind::Simultaneous => pos.action_texts(Player::FIRST).iter().any(|a| a == text),
        _ => pos.play_text(text).is_ok(),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("illegal bestmove '{text}'"))
    }
}
