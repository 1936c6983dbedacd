//! `gamut play`: whole games of all five games driven line by line through
//! the console's core (the engine on both sides; a person's side fed the
//! engine's own hints, with an undo and a save that `replay` checks), bad
//! input answered without ending the game, and one game through a real
//! pseudo-terminal (tmux).

use crate::common::ok;
use gamut::console::{self, Settings};
use gamut::game::{Evaluate, Game};
use gamut::games::apart::Apart;
use gamut::games::aporia::Aporia;
use gamut::games::empedocles::Empedocles;
use gamut::games::epaminondas::Epaminondas;
use gamut::games::spokes::Spokes;
use gamut::search::{Config, Limits};
use gamut::tournament::engine::{Engine, Kind};
use gamut::tournament::records;
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A late Spokes position (round 28), so that depth-1 games are short.
const SPOKES_LATE: &str = "X/XXXb/XXXXXXXw/XbXXXXXbX1XXXwXw/2w9w2X 28";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamut-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The searcher at depth 1.
fn depth_one<G: Evaluate>() -> Engine {
    Engine {
        name: "d1".into(),
        spec: "name=d1,depth=1".into(),
        kind: Kind::Search {
            config: Config::for_game::<G>(1),
            limits: Limits {
                depth: Some(1),
                ..Limits::default()
            },
            hash_mib: 1,
            exact: None,
        },
    }
}

/// Input fed line by line from a channel: the console blocks on it as on
/// a person typing.
struct Typed {
    lines: Receiver<String>,
    pending: Vec<u8>,
}

impl Read for Typed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(l) => self.pending = format!("{l}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Output shared with the test.
#[derive(Clone, Default)]
struct Screen(Arc<Mutex<Vec<u8>>>);

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Plays a game from `start` with the person on `humans`, answering each
/// prompt with `answer(prompt line, output since the last answer)`; returns
/// the whole output once the console returns.
fn drive<G: Evaluate>(
    start: G,
    humans: [bool; 2],
    mut answer: impl FnMut(&str, &str) -> String,
) -> String {
    let engine = depth_one::<G>();
    let settings = Settings {
        engine: &engine,
        humans,
        seed: 7,
        colour: false,
    };
    let (send, lines) = channel();
    let screen = Screen::default();
    let mut out = screen.clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    std::thread::scope(|s| {
        let console = s.spawn(move || {
            let mut input = BufReader::new(Typed {
                lines,
                pending: Vec::new(),
            });
            console::play(start, &settings, &mut input, &mut out).unwrap();
        });
        let mut seen = 0;
        while !console.is_finished() {
            assert!(Instant::now() < deadline, "the game takes too long");
            let text = String::from_utf8(screen.0.lock().unwrap().clone()).unwrap();
            if text.len() > seen && text.ends_with("> ") {
                let new = &text[seen..];
                let prompt = new.rsplit('\n').next().unwrap_or("");
                let line = answer(prompt, new);
                seen = text.len();
                if send.send(line).is_err() {
                    break;
                }
            } else {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    });
    let bytes = screen.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

/// The engine plays both sides at depth 1 to the end; the game is saved
/// and the record replays to the same end.
fn engine_plays_both<G: Evaluate>(start: G) {
    let file = temp(&format!("{}-both.jsonl", G::ID));
    let mut asked = Vec::new();
    let text = drive(start, [false, false], |prompt, _| {
        asked.push(prompt.to_string());
        match asked.len() {
            1 => format!("save {}", file.display()),
            _ => "quit".into(),
        }
    });
    assert_eq!(asked, ["game over> ", "game over> "], "{text}");
    assert!(text.contains("game over: "), "{text}");
    assert!(text.contains("saved "), "{text}");
    let recs = records::read(&file).expect("the saved game is a valid record");
    let rec = &recs[0].1;
    let steps = records::replay::<G>(rec).unwrap();
    let last = &steps.last().unwrap().1;
    assert!(
        last.outcome().is_some() || rec.reason == "ply limit",
        "{}",
        rec.reason
    );
    assert!(!rec.scores.is_empty(), "the engine's scores are kept");
    let replayed = ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
    assert!(replayed.contains(&format!("result {}", rec.result)));
}

/// The move or action an engine's `hint: …` line names: `b1-b3 (score 4)`
/// at a decision, `wD12 45%, bB3 55%` (most likely first) at a
/// simultaneous node.
fn hinted(new: &str) -> String {
    let hint = new
        .lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .unwrap_or_else(|| panic!("no hint in {new}"));
    if hint.contains('%') {
        hint.split(' ').next().unwrap().to_string()
    } else {
        hint.split(" (score").next().unwrap().trim().to_string()
    }
}

/// The person plays side 1 with the engine's hints: each prompt is
/// answered by `hint`, then the hinted move (by its number where a
/// numbered list was shown, as after a joint step); after the first move an
/// `undo`, a bad line and an unknown number, each answered while the game
/// goes on; at the end a save that `replay` reads.
fn person_plays_hints<G: Evaluate>(start: G, humans: [bool; 2]) {
    let file = temp(&format!("{}-hints.jsonl", G::ID));
    let html = temp(&format!("{}.html", G::ID));
    let (mut moves, mut numbered) = (0, 0);
    let mut last = String::new();
    let mut saved = false;
    let mut list = String::new();
    let text = drive(start, humans, |prompt, new| {
        if moves == 1 {
            moves += 1;
            last = "undo".into();
            return last.clone();
        }
        if prompt == "game over> " {
            if saved {
                return "quit".into();
            }
            saved = true;
            return format!("save {}", file.display());
        }
        if new.contains("   1. ") {
            list = new.to_string();
        }
        let line = match last.as_str() {
            "hint" => {
                let choice = hinted(new);
                moves += 1;
                // Answer by number where the choices were listed.
                let number = list.lines().find_map(|l| {
                    let (n, text) = l.trim().split_once(". ")?;
                    (text == choice).then(|| n.to_string())
                });
                list.clear();
                match number {
                    Some(n) => {
                        numbered += 1;
                        n
                    }
                    None => choice,
                }
            }
            "undo" => {
                assert!(new.contains("took back to step"), "{new}");
                "no-such-move".into()
            }
            "no-such-move" => {
                assert!(new.contains("error: 'no-such-move'"), "{new}");
                "99999".into()
            }
            "99999" => {
                assert!(new.contains("error: there is no choice 99999"), "{new}");
                "hint".into()
            }
            _ => "hint".into(),
        };
        last = line.clone();
        line
    });
    assert!(moves >= 2, "{text}");
    assert!(text.contains("took back"), "{text}");
    assert!(text.contains("game over: "), "{text}");
    let recs = records::read(&file).expect("the saved game is a valid record");
    let rec = &recs[0].1;
    let person = usize::from(humans[1]);
    assert_eq!(rec.engines[person], "human");
    assert_eq!(rec.engines[1 - person], "d1");
    records::replay::<G>(rec).unwrap();
    ok(&[
        "replay",
        file.to_str().unwrap(),
        "--game",
        "1",
        "--html",
        html.to_str().unwrap(),
    ]);
    // Where the person chose from a numbered list (a Spokes resolution),
    // they answered by number.
    assert_eq!(numbered > 0, text.contains("   1. "), "{text}");
}

#[test]
fn the_engine_plays_whole_games_of_every_game() {
    engine_plays_both(Aporia::start());
    engine_plays_both(Apart::start());
    engine_plays_both(Empedocles::start());
    engine_plays_both(Epaminondas::start());
    engine_plays_both(Spokes::parse(SPOKES_LATE).unwrap());
}

#[test]
fn a_person_plays_whole_games_with_hints_undo_and_save() {
    person_plays_hints(Aporia::start(), [true, false]);
    person_plays_hints(Apart::start(), [true, false]);
    person_plays_hints(Empedocles::start(), [true, false]);
    person_plays_hints(Epaminondas::start(), [true, false]);
    person_plays_hints(Spokes::parse(SPOKES_LATE).unwrap(), [false, true]);
}

#[test]
fn an_unfinished_game_saves_and_replays() {
    let file = temp("unfinished.jsonl");
    let mut n = 0;
    let text = drive(Epaminondas::start(), [true, false], |_, _| {
        n += 1;
        match n {
            1 => "a2-a3".into(),
            2 => format!("save {}", file.display()),
            3 => "save".into(),
            _ => "quit".into(),
        }
    });
    assert!(text.contains("error: save needs a file name"), "{text}");
    let rec = records::read(&file).unwrap().remove(0).1;
    assert_eq!(
        (rec.result.as_str(), rec.reason.as_str()),
        ("*", "unfinished")
    );
    assert_eq!(rec.moves.len(), 2, "the person's move and the engine's");
    let replayed = ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
    assert!(
        replayed.contains("result * (unfinished), 2 plies"),
        "{replayed}"
    );
}

/// Runs `tmux` with `args`, or says why not.
fn tmux(args: &[&str]) -> Option<String> {
    let o = std::process::Command::new("tmux")
        .args(args)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).to_string())
}

#[test]
fn a_game_through_a_pseudo_terminal() {
    if tmux(&["-V"]).is_none() {
        eprintln!("no tmux: the pseudo-terminal game is skipped");
        return;
    }
    let session = format!("gamut-play-{}", std::process::id());
    let socket = format!("gamut-play-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_gamut");
    let command =
        format!("env -u NO_COLOR {bin} play apart --depth 1 --seed 5; echo exit=$?; sleep 30");
    tmux(&[
        "-L",
        &socket,
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "120",
        "-y",
        "50",
        &command,
    ])
    .expect("tmux starts a session");
    let screen = |escapes: bool| {
        let mut args = vec!["-L", &socket, "capture-pane", "-p", "-t", &session];
        if escapes {
            args.push("-e");
        }
        tmux(&args).unwrap_or_default()
    };
    let wait_for = |what: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let s = screen(false);
            if s.contains(what) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "no '{what}' on the terminal:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let keys = |text: &str| {
        tmux(&["-L", &socket, "send-keys", "-t", &session, text, "Enter"]).unwrap();
    };
    wait_for("White>");
    let coloured = screen(true);
    keys("b1-b3");
    wait_for("Black plays");
    keys("bogus");
    wait_for("error: 'bogus'");
    keys("quit");
    let end = wait_for("exit=");
    let _ = tmux(&["-L", &socket, "kill-server"]);
    assert!(
        coloured.contains("\u{1b}["),
        "a terminal gets colour:\n{coloured}"
    );
    assert!(end.contains("exit=0"), "{end}");
}

#[test]
fn bad_options_exit_2_and_the_end_of_input_ends_the_game() {
    use crate::common::rejected;
    rejected(&["play", "chess"]);
    rejected(&["play", "apart", "--fen", "not a position"]);
    rejected(&["play", "apart", "--engine", "depth=1,bogus=2"]);
    rejected(&["play", "apart", "--side", "3"]);
    rejected(&["play", "apart", "--depth", "1", "--engine", "depth=2"]);
    // No input at all: the board, one prompt, and a clean exit.
    let out = ok(&["play", "apart", "--depth", "1", "--seed", "1"]);
    assert!(out.contains("White> "), "{out}");
    assert!(!out.contains('\u{1b}'), "no colour off a terminal: {out}");
}
