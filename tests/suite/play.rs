//! `gamut play`: whole games of all five games driven line by line through
//! the console's core (the engine on both sides; a person's side fed the
//! engine's own hints, with an undo and a save that `replay` checks), bad
//! input answered without ending the game, and whole games of all five
//! through a real pseudo-terminal (tmux).

use crate::common;
use crate::common::{ok, tool_here};
use gamut::console::{self, Settings};
use gamut_core::evaluate::FullGame;
use gamut_core::game::{Diagram, Game, Notation};
use gamut_engine::Position;
use gamut_games::apart::Apart;
use gamut_games::aporia::Aporia;
use gamut_games::empedocles::Empedocles;
use gamut_games::epaminondas::Epaminondas;
use gamut_games::spokes::Spokes;
use gamut_players::engine::{Engine, Kind};
use gamut_search::{Config, Limits};
use gamut_tournament::records;
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A late Spokes position (round 28), so that depth-1 games are short.
const SPOKES_LATE: &str = "X/XXXb/XXXXXXXw/XbXXXXXbX1XXXwXw/2w9w2X 28";

/// An Aporia position that player 2 wins within a few moves at depth 1
/// whatever player 1 plays first (`positions/aporia.tactics`).
const APORIA_LATE: &str = "2B1/B1B1/2WW/B1WW 1 b4-c3 d4-b4";

/// An Epaminondas position 48 plies into a depth-1 game.
const EPAMINONDAS_LATE: &str = "8B2BBB/B4B8/2B11/5WB7/5BWB6/7B6/14/4W9/6W1W5/1W6W5/W2WW9/9WWWWW w";

fn temp(name: &str) -> PathBuf {
    let dir = common::scratch_dir("play");
    dir.join(name)
}

/// The searcher at depth 1.
fn depth_one<G: FullGame>() -> Engine {
    Engine {
        reads: Vec::new(),
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
        tc: None,
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
fn drive<G: FullGame>(
    start: G,
    humans: [bool; 2],
    mut answer: impl FnMut(&str, &str) -> String,
) -> String {
    let engine = depth_one::<G>();
    let settings = Settings {
        engine: &engine,
        humans: humans.to_vec(),
        seed: 7,
        colour: false,
    };
    let (send, lines) = channel();
    let screen = Screen::default();
    let mut out = screen.clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    std::thread::scope(|s| {
        // Owned here, so that a failing answer ends the input and the
        // console's thread with it.
        let send = send;
        let console = s.spawn(move || {
            let mut input = BufReader::new(Typed {
                lines,
                pending: Vec::new(),
            });
            console::play(Position::new(start), &settings, &mut input, &mut out).unwrap();
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
fn engine_plays_both<G: FullGame>(start: G) {
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
    let steps = records::replay(rec).unwrap();
    let last = &steps.last().unwrap().1;
    assert!(
        last.outcome().is_some() || rec.reason == "ply limit",
        "{}",
        rec.reason
    );
    assert!(!rec.scores.is_empty(), "the engine's scores are kept");
    let replayed = ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
    assert!(replayed.contains(&format!("result {}", rec.result.as_deref().unwrap())));
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
fn person_plays_hints<G: FullGame>(start: G, humans: [bool; 2]) {
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
    records::replay(rec).unwrap();
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
        (rec.result.as_deref().unwrap(), rec.reason.as_str()),
        ("*", "unfinished")
    );
    assert_eq!(rec.moves.len(), 2, "the person's move and the engine's");
    let replayed = ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
    assert!(
        replayed.contains("result * (unfinished), 2 plies"),
        "{replayed}"
    );
}

/// A game of four players saved before its end replays as unfinished
/// (`*`), not as a draw.
#[test]
fn an_unfinished_four_player_game_replays_as_unfinished() {
    use std::io::Write as _;
    let file = temp("unfinished4.jsonl");
    let mut child = crate::common::gamut_command()
        .args(["play", "spokes4", "--side", "1", "--depth", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "save {}\nquit", file.display()).unwrap();
    drop(input);
    assert!(child.wait().unwrap().success());
    let replayed = ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
    assert!(
        replayed.contains("result * (unfinished), 0 plies"),
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

/// Whether tmux is installed (see [`tool_here`]).
fn tmux_here() -> bool {
    tool_here(tmux(&["-V"]).is_some(), "tmux", "the pseudo-terminal tests")
}

/// `gamut play` with colour allowed in a tmux session of its own (120×50,
/// the whole history kept), killed when dropped.
struct Terminal {
    socket: String,
}

impl Terminal {
    /// Starts `gamut <args>` in a new session (its server named for
    /// `name`, unique among the tests running at once); the
    /// shell prints `exit=<status>` when gamut ends.
    fn start(name: &str, args: &[&str]) -> Terminal {
        Terminal::start_with(name, "-u NO_COLOR", args)
    }

    /// [`Terminal::start`] with `env` given `env_args` (`NO_COLOR=1`).
    fn start_with(name: &str, env_args: &str, args: &[&str]) -> Terminal {
        let socket = format!("gamut-play-{}-{name}", std::process::id());
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let command = format!(
            "env {env_args} {} {}; echo exit=$?; sleep 60",
            env!("CARGO_BIN_EXE_gamut"),
            quoted.join(" ")
        );
        #[rustfmt::skip]
        tmux(&[
            "-L", &socket, "-f", "/dev/null", "start-server", ";",
            "set-option", "-g", "history-limit", "100000", ";",
            "new-session", "-d", "-s", "play", "-x", "120", "-y", "50", &command,
        ])
        .expect("tmux starts a session");
        Terminal { socket }
    }

    /// Everything the terminal showed (wrapped lines joined), with its
    /// colour escapes when `escapes`.
    fn screen(&self, escapes: bool) -> String {
        let mut args = vec!["-L", &self.socket, "capture-pane", "-p", "-J"];
        args.extend(["-S", "-", "-t", "play"]);
        if escapes {
            args.push("-e");
        }
        tmux(&args).unwrap_or_default()
    }

    /// The screen once it shows `what` (within 20 s).
    fn wait_for(&self, what: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let s = self.screen(false);
            if s.contains(what) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "no '{what}' on the terminal:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Types `text` and Enter.
    fn keys(&self, text: &str) {
        tmux(&["-L", &self.socket, "send-keys", "-t", "play", text, "Enter"]).unwrap();
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = tmux(&["-L", &self.socket, "kill-server"]);
    }
}

#[test]
fn a_game_through_a_pseudo_terminal() {
    let args = ["play", "apart", "--depth", "1", "--seed", "5"];
    if !tmux_here() {
        return;
    }
    let t = Terminal::start("apart", &args);
    t.wait_for("White>");
    let coloured = t.screen(true);
    t.keys("b1-b3");
    t.wait_for("Black plays");
    t.keys("bogus");
    t.wait_for("error: 'bogus'");
    t.keys("quit");
    let end = t.wait_for("exit=");
    assert!(
        coloured.contains("\u{1b}["),
        "a terminal gets colour:\n{coloured}"
    );
    assert!(end.contains("exit=0"), "{end}");
}

#[test]
fn no_colour_at_a_terminal_when_no_color_is_set() {
    let args = ["play", "epaminondas", "--depth", "1", "--seed", "5"];
    if !tmux_here() {
        return;
    }
    let t = Terminal::start_with("no-color", "NO_COLOR=1", &args);
    t.wait_for("White>");
    t.keys("a2-a3");
    t.wait_for("Black plays");
    t.keys("quit");
    t.wait_for("exit=");
    let screen = t.screen(true);
    assert!(
        screen.contains("[W]"),
        "the last move is still marked:\n{screen}"
    );
    assert!(!screen.contains('\u{1b}'), "NO_COLOR: no colour:\n{screen}");
}

/// Plays `gamut play <game> <args>` at a terminal to the end, typing `1`
/// (the first of the listed choices) at every prompt, then saves the game
/// and quits; checks the saved record is finished and replays. Returns how
/// many moves were typed, everything the terminal showed and the record.
fn whole_game_at_a_terminal(
    game: &str,
    args: &[&str],
) -> (usize, String, gamut_players::record::GameRecord) {
    let file = temp(&format!("{game}-terminal.jsonl"));
    let mut all = vec!["play", game, "--depth", "1", "--seed", "5"];
    all.extend(args);
    let t = Terminal::start(&format!("whole-{game}"), &all);
    // Prompts seen so far: every line ending in a prompt, answered or not.
    let prompts = |screen: &str| -> Vec<String> {
        screen
            .lines()
            .map(str::trim_end)
            .filter(|l| l.ends_with('>') || l.contains("> "))
            .map(str::to_string)
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut answered = 0;
    loop {
        let screen = t.screen(false);
        let seen = prompts(&screen);
        match seen.last() {
            Some(last) if seen.len() > answered && last.ends_with('>') => {
                if last == "game over>" {
                    break;
                }
                t.keys("1");
                answered = seen.len();
            }
            _ => {
                assert!(
                    Instant::now() < deadline,
                    "{game}: the game takes too long:\n{screen}"
                );
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    t.keys(&format!("save {}", file.display()));
    t.wait_for("saved ");
    t.keys("quit");
    let end = t.wait_for("exit=");
    assert!(end.contains("game over: "), "{end}");
    assert!(end.contains("exit=0"), "{end}");
    assert!(
        !end.contains("error:"),
        "every typed line was taken:\n{end}"
    );
    let rec = records::read(&file).unwrap().remove(0).1;
    assert_eq!(rec.game, game);
    assert_ne!(
        rec.reason, "unfinished",
        "{game}: the saved game is finished"
    );
    assert!(
        rec.moves.len() >= answered,
        "{game}: {answered} typed moves"
    );
    let replayed = ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
    // A game of two players shows its result text, one of more the
    // winning side or a draw.
    let result = rec.result.clone().unwrap_or_else(|| match rec.winner {
        Some(w) => format!("player {w} wins"),
        None => "draw".into(),
    });
    assert!(replayed.contains(&format!("result {result}")), "{replayed}");
    (answered, end, rec)
}

#[test]
fn whole_games_of_every_game_through_a_pseudo_terminal() {
    if !tmux_here() {
        return;
    }
    let games: [(&str, &[&str]); 5] = [
        ("aporia", &["--fen", APORIA_LATE]),
        ("apart", &[]),
        ("empedocles", &[]),
        ("epaminondas", &["--fen", EPAMINONDAS_LATE]),
        ("spokes", &["--fen", SPOKES_LATE]),
    ];
    for (game, args) in games {
        let (typed, _, _) = whole_game_at_a_terminal(game, args);
        assert!(typed >= 1, "{game}: no move typed");
    }
}

/// A late `spokes4` round: three empty placeable nodes, every other one
/// blocked, the home nodes empty.
const SPOKES4_LATE: &str = "X/XXXX/1XXXXXXX/XX2XXXXXXXXXXXX/16 20";

#[test]
fn a_person_plays_seat_3_of_spokes4_through_a_pseudo_terminal() {
    if !tmux_here() {
        return;
    }
    let (typed, screen, rec) =
        whole_game_at_a_terminal("spokes4", &["--side", "3", "--fen", SPOKES4_LATE]);
    assert!(typed >= 1, "no move typed:\n{screen}");
    assert!(
        screen.contains("you play player 3, the engine 'gamut' plays the others"),
        "{screen}"
    );
    // The person places in secret for seat 3; the engine's placements for
    // the other three seats are revealed after.
    assert!(screen.contains("player 3 (secret)>"), "{screen}");
    for seat in [1, 2, 4] {
        assert!(
            screen.contains(&format!("player {seat} placed ")),
            "{screen}"
        );
    }
    assert!(!screen.contains("player 3 placed "), "{screen}");
    assert_eq!(rec.engines, ["gamut", "gamut", "human", "gamut"]);
    assert_eq!(rec.specs[2], "human");
    let first = &rec.joint[0];
    assert_eq!(first.actions.len(), 4, "one action per player");
    assert_eq!(
        first.strategies[2],
        vec![(first.actions[2].clone(), 1.0)],
        "the person's placement, chosen for certain"
    );
}

#[test]
fn bad_options_exit_2_and_the_end_of_input_ends_the_game() {
    use crate::common::rejected;
    rejected(&["play", "chess"]);
    rejected(&["play", "apart", "--fen", "not a position"]);
    rejected(&["play", "apart", "--engine", "depth=1,bogus=2"]);
    rejected(&["play", "apart", "--side", "3"]);
    rejected(&["play", "spokes4", "--side", "5"]);
    rejected(&["play", "spokes4", "--side", "1,1"]);
    rejected(&["play", "spokes2v2", "--side", "3"]);
    rejected(&["play", "spokes4", "--engine", "depth=1"]);
    rejected(&["play", "apart", "--depth", "1", "--engine", "depth=2"]);
    // No input at all: the board, one prompt, and a clean exit.
    let out = ok(&["play", "apart", "--depth", "1", "--seed", "1"]);
    assert!(out.contains("White> "), "{out}");
    assert!(!out.contains('\u{1b}'), "no colour off a terminal: {out}");
}

#[test]
fn the_board_marks_the_last_move_and_colours_stones_only_when_asked() {
    let after = Epaminondas::start().play(Epaminondas::start().parse_move("a2-a3").unwrap());
    let marked = console::board(&after.diagram(), &["a2".into(), "a3".into()], false);
    let rank = |n: &str| {
        marked
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap()
            .to_string()
    };
    assert!(rank("3").contains("3 [W]. . ."), "{marked}");
    assert!(rank("2").contains("2 [.]W W"), "{marked}");
    assert!(!marked.contains('\u{1b}'), "{marked}");
    // Neighbours share a bar; Spokes' nodes are marked by name.
    let both = console::board(&after.diagram(), &["a3".into(), "b3".into()], false);
    assert!(both.contains("[W|.]"), "{both}");
    let spokes = console::board(&Spokes::start().diagram(), &["D10".into()], false);
    assert!(spokes.contains("D10[.] D11 ."), "{spokes}");
    assert!(spokes.contains("D9 .  D10"), "{spokes}");
    // Colour: the stones of each side, not the labels.
    let coloured = console::board(&Epaminondas::start().diagram(), &[], true);
    assert!(coloured.contains("\u{1b}[1;33mW\u{1b}[0m"), "{coloured}");
    assert!(coloured.contains("\u{1b}[1;34mB\u{1b}[0m"), "{coloured}");
    let files = coloured.lines().last().unwrap();
    assert!(!files.contains('\u{1b}'), "{files}");
    let plain: String = coloured
        .replace("\u{1b}[1;33m", "")
        .replace("\u{1b}[1;34m", "");
    let plain = plain.replace("\u{1b}[2m", "").replace("\u{1b}[0m", "");
    assert_eq!(plain, Epaminondas::start().diagram());
}

#[test]
fn typed_numbers_are_echoed_and_a_wrong_rear_stone_is_named() {
    let mut n = 0;
    let text = drive(Epaminondas::start(), [true, false], |_, _| {
        n += 1;
        match n {
            1 => "b2-b4".into(),
            2 => "1".into(),
            _ => "quit".into(),
        }
    });
    assert!(
        text.contains("error: 'b2-b4': ") && text.contains("name b1, write b1-b4"),
        "{text}"
    );
    assert!(text.contains("choice 1: a1-a3\n"), "{text}");
    assert!(text.contains("last move: a1-a3\n"), "{text}");
    let after = text.split("choice 1: a1-a3").nth(1).unwrap();
    assert!(after.contains("  3 [W]. ."), "the move is marked:\n{after}");
}

#[test]
fn a_single_choice_is_played_without_asking() {
    let mut prompts = Vec::new();
    let text = drive(Spokes::start(), [true, false], |prompt, _| {
        prompts.push(prompt.to_string());
        match prompts.len() {
            1 => "wA".into(),
            _ => "quit".into(),
        }
    });
    // Player 1 resolves the first round; two stones placed apart have one
    // outcome, played for the person.
    assert!(text.contains("round 1: resolution by player 1"), "{text}");
    assert!(text.contains("the only choice here: "), "{text}");
    assert!(text.contains("round 2: placement"), "{text}");
    assert!(
        !prompts.iter().any(|p| p == "player 1> "),
        "no prompt for the only choice: {prompts:?}\n{text}"
    );
}
