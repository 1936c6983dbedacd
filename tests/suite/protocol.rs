//! `gamut engine` driven as a child process through the engine protocol
//! (`docs/protocol.md`), and tournaments against programs that speak it:
//! gamut itself, and the deliberately broken engines of `engines/`, whose
//! games must end as forfeits with their reasons.

use crate::common;
use gamut_core::game::{Game, NodeRules, Notation, Player};
use gamut_core::moves::play_moves;
use gamut_games::aporia::Aporia;
use gamut_games::epaminondas::Epaminondas;
use gamut_games::spokes::Spokes;
use gamut_players::record::GameRecord;
use gamut_tournament::records;
use std::io::Write;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Generous bound for an answer on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `gamut engine` with its input and its output lines.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = crate::common::gamut_command()
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gamut engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let input = child.stdin.take().expect("piped stdin");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
        self.input.flush().unwrap();
    }

    /// The next line, waiting at most `limit`.
    fn next_within(&self, limit: Duration) -> Option<String> {
        self.lines.recv_timeout(limit).ok()
    }

    /// Every line up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line = self
                .next_within(PATIENCE)
                .unwrap_or_else(|| panic!("no '{prefix}' line; got {got:?}"));
            let done = line.starts_with(prefix);
            got.push(line);
            if done {
                return got;
            }
        }
    }

    /// Sends `quit` and checks that the engine exits successfully.
    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("the engine exits");
        assert!(status.success(), "{status}");
    }
}

/// The move of a `bestmove` line.
fn best(line: &str) -> &str {
    line.strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not a bestmove line: {line}"))
}

#[test]
fn handshake_lists_options_and_answers_isready() {
    let mut e = Engine::start();
    e.send("gamut");
    let lines = e.until("gamutok");
    assert!(lines[0].starts_with("id name gamut "), "{lines:?}");
    for option in ["hash", "threads", "eval_off", "quiescence", "seed"] {
        let head = format!("option name {option} type ");
        assert!(lines.iter().any(|l| l.starts_with(&head)), "{option}");
    }
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    e.quit();
}

/// The move `gamut analyze aporia --depth <depth> --moves <moves>` answers.
fn analyzed_best(depth: u32, moves: &str) -> String {
    let out = crate::common::gamut_command()
        .args([
            "analyze",
            "aporia",
            "--depth",
            &depth.to_string(),
            "--moves",
            moves,
        ])
        .output()
        .expect("analyze runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    best(text.lines().last().unwrap()).to_string()
}

/// The Aporia position after `n` plies from the start, with their texts:
/// at ply `i` the move `pick(i, moves)` indexes.
fn aporia_plies(
    n: usize,
    pick: impl Fn(usize, &[<Aporia as Game>::Move]) -> usize,
) -> (Aporia, Vec<String>) {
    let mut pos = Aporia::start();
    let mut played = Vec::new();
    for i in 0..n {
        let mut list = Vec::new();
        pos.moves(&mut list);
        let m = list[pick(i, &list)];
        played.push(pos.move_text(m));
        pos = pos.play(m);
    }
    (pos, played)
}

#[test]
fn go_depth_after_moves_agrees_with_analyze() {
    // The last legal move, twice: a position a few plies from the start.
    let (pos, played) = aporia_plies(2, |_, list| list.len() - 1);
    let moves = &played.join(";");
    let expected = analyzed_best(4, moves);

    let mut e = Engine::start();
    e.send("game aporia");
    e.send(&format!("position startpos moves {moves}"));
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (d, line) in infos.iter().enumerate() {
        let head = format!("info depth {} seldepth ", d + 1);
        assert!(line.starts_with(&head) && line.contains(" pv "), "{line}");
    }
    let got = best(lines.last().unwrap());
    assert_eq!(got, expected);
    let replayed = play_moves(Aporia::start(), moves, "the test").unwrap();
    assert_eq!(replayed, pos);
    assert!(pos.parse_move(got).is_ok(), "{got} is not legal");
    e.quit();
}

/// `position` commands that add moves to the last one play only the new
/// moves; those that take moves back or change one start again. Every
/// answer is the one `analyze` gives for the same moves.
#[test]
fn positions_that_extend_rewind_or_branch_reach_the_moves_given() {
    // First and last legal moves, alternately: six plies.
    let (_, played) = aporia_plies(6, |i, list| if i % 2 == 0 { 0 } else { list.len() - 1 });
    let (first, _) = aporia_plies(1, |_, _| 0);
    let mut other = Vec::new();
    first.moves(&mut other);
    let branch = format!("{};{}", played[0], first.move_text(other[1]));
    assert_ne!(first.move_text(other[1]), played[1]);
    let mut e = Engine::start();
    e.send("game aporia");
    for moves in [
        played[..2].join(";"),
        played[..4].join(";"),
        played[..6].join(";"),
        played[..1].join(";"),
        branch,
        played[..3].join(";"),
    ] {
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 3");
        let lines = e.until("bestmove");
        assert_eq!(
            best(lines.last().unwrap()),
            analyzed_best(3, &moves),
            "{moves}"
        );
    }
    // A bad move added to the last list is numbered in the whole list.
    e.send(&format!(
        "position startpos moves {};zz",
        played[..3].join(";")
    ));
    let error = e.until("info string error");
    assert!(error[0].contains("move 4 'zz'"), "{error:?}");
    e.quit();
}

#[test]
fn go_movetime_streams_info_before_bestmove_in_time() {
    let mut e = Engine::start();
    e.send("game epaminondas");
    e.send("position startpos");
    let asked = Instant::now();
    e.send("go movetime 400");
    let lines = e.until("bestmove");
    let took = asked.elapsed();
    assert!(lines.len() >= 2, "no info before bestmove: {lines:?}");
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l.starts_with("info depth ")));
    assert!(took >= Duration::from_millis(400), "{took:?}");
    assert!(took < Duration::from_millis(400) + PATIENCE / 3, "{took:?}");
    e.quit();
}

#[test]
fn stop_ends_go_infinite_with_a_bestmove() {
    let mut e = Engine::start();
    e.send("game epaminondas");
    e.send("position startpos");
    e.send("go infinite");
    let wait = Instant::now() + Duration::from_millis(500);
    while let Some(line) = e.next_within(wait.saturating_duration_since(Instant::now())) {
        assert!(line.starts_with("info depth "), "{line}");
    }
    e.send("isready");
    assert_eq!(e.until("readyok").last().unwrap(), "readyok");
    let stopped = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(stopped.elapsed() < PATIENCE / 3, "{:?}", stopped.elapsed());
    let mv = best(lines.last().unwrap());
    assert!(gamut_games::epaminondas::Epaminondas::start()
        .parse_move(mv)
        .is_ok());
    e.quit();
}

#[test]
fn every_bad_line_gets_one_error_line_and_the_engine_goes_on() {
    let mut e = Engine::start();
    let bad = [
        "go depth 2",
        "position startpos",
        "frobnicate",
        "game chess",
        "game aporia",
        "position fen not a position",
        "position startpos moves a1-b2;zz",
        "position sideways",
        "go depth x",
        "go depth",
        "go sideways 3",
        "setoption name nope value 1",
        "setoption name hash value 0",
        "setoption name MultiPV value 0",
        "setoption name multipv value 257",
        "setoption name eval_off value nonsense",
        "setoption threads 2",
    ];
    for line in bad {
        e.send(line);
        e.send("isready");
        let lines = e.until("readyok");
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .collect();
        // "game aporia" is the one good line of the list.
        let want = usize::from(line != "game aporia");
        assert_eq!(errors.len(), want, "{line}: {lines:?}");
        assert_eq!(lines.len(), want + 1, "{line}: {lines:?}");
    }
    e.input.write_all(b"go \xff\xfe depth\n").unwrap();
    e.send("isready");
    let lines = e.until("readyok");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string error: "));
    // Still a working engine: the last good position was kept.
    e.send("go depth 1");
    let mv = best(e.until("bestmove").last().unwrap()).to_string();
    assert!(Aporia::start().parse_move(&mv).is_ok(), "{mv}");
    e.send("go infinite");
    e.send("go depth 1");
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: ")),
        "a second go while searching: {lines:?}"
    );
    e.quit();
}

#[test]
fn spokes_round_answers_a_placement_from_the_strategy() {
    let start = Spokes::start();
    assert_eq!(start.node(), gamut_core::game::NodeKind::Simultaneous);
    let mut legal = Vec::new();
    start.actions(Player::SECOND, &mut legal);
    let legal: Vec<String> = legal.iter().map(|&m| start.move_text(m)).collect();

    let mut e = Engine::start();
    e.send("game spokes");
    e.send("position startpos");
    e.send("go depth 1");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    e.send("setoption name seed value 7");
    e.send("go side 2 depth 1");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 1 value "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let strategy: Vec<&str> = info
        .split(" strategy 2 ")
        .nth(1)
        .expect("the strategy of player 2")
        .split(' ')
        .collect();
    let mut total = 0.0;
    let mut actions = Vec::new();
    for pair in strategy.chunks(2) {
        actions.push(pair[0]);
        total += pair[1].parse::<f64>().unwrap();
    }
    assert!((total - 1.0).abs() < 1e-3, "{info}");
    let mv = best(lines.last().unwrap());
    assert!(actions.contains(&mv), "{mv} not in {info}");
    assert!(legal.iter().any(|l| l == mv), "{mv} not legal");
    e.quit();
}

fn temp(name: &str) -> PathBuf {
    let dir = common::scratch_dir("protocol");
    dir.join(name)
}

fn engine_script(name: &str) -> String {
    format!("{}/tests/suite/engines/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Plays `games` games of `game` between `a` and `b` into a records file
/// and returns the records, checked as `tournament merge` checks them.
fn tournament(game: &str, a: &str, b: &str, games: &str, file: &str) -> Vec<GameRecord> {
    let path = temp(file);
    let o = crate::common::gamut_command()
        .args(["tournament", game, "--engine", a, "--engine", b])
        .args(["--games", games, "--concurrency", "2", "--overwrite"])
        .arg("--records")
        .arg(&path)
        .output()
        .expect("the tournament runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let merged = crate::common::gamut_command()
        .args(["tournament", "merge"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    records::read(&path)
        .unwrap()
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

/// Every game lost by `loser`, with `why` in its forfeit reason.
fn assert_forfeits(recs: &[GameRecord], loser: &str, why: &str) {
    assert_eq!(recs.len(), 2);
    for r in recs {
        let side = r.engines.iter().position(|e| e == loser).unwrap();
        assert_eq!(r.winner, Some(2 - side as u8), "{r:?}");
        assert!(r.adjudicated);
        assert!(
            r.reason.starts_with("forfeit: ") && r.reason.contains(why),
            "{}",
            r.reason
        );
    }
}

#[test]
fn broken_programs_forfeit_with_their_reasons_and_the_tournament_goes_on() {
    let crash = format!("name=crash,cmd={},time=50", engine_script("crash.sh"));
    let recs = tournament("aporia", &crash, "random", "2", "crash.jsonl");
    assert_forfeits(&recs, "crash", "exited (exit status: 3)");

    let illegal = format!("name=illegal,cmd={},depth=2", engine_script("illegal.sh"));
    let recs = tournament("aporia", "random", &illegal, "2", "illegal.jsonl");
    assert_forfeits(&recs, "illegal", "illegal move 'z99-z98'");

    let hang = format!(
        "name=hang,cmd={},time=50,margin=300",
        engine_script("hang.sh")
    );
    let started = Instant::now();
    let recs = tournament("spokes", &hang, "random", "2", "hang.jsonl");
    assert_forfeits(&recs, "hang", "no bestmove within 350 ms");
    assert!(started.elapsed() < PATIENCE, "{:?}", started.elapsed());
}

#[test]
fn gamut_as_a_program_plays_legal_games_to_their_end() {
    // Empedocles has chance nodes: the tournament rolls, the program moves.
    for (game, depth) in [("aporia", 2), ("empedocles", 2)] {
        let gamut = format!(
            "name=ext,cmd={} engine,depth={depth}",
            env!("CARGO_BIN_EXE_gamut")
        );
        let recs = tournament(game, &gamut, "random", "2", &format!("ext-{game}.jsonl"));
        assert_eq!(recs.len(), 2);
        for r in &recs {
            assert!(!r.reason.starts_with("forfeit"), "{game}: {}", r.reason);
            assert!(r.plies > 0);
        }
    }
}

/// `gamut engine`'s whole standard output for `script` piped in (input
/// closed after it, without `quit`).
fn piped(script: &str) -> Vec<String> {
    let mut child = crate::common::gamut_command()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", out.status);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A session as a UCI user types it: `uci`, options by their UCI names,
/// `ucinewgame`, moves separated by spaces, a clock, `d` and `go perft`.
#[test]
fn a_uci_session_works_end_to_end() {
    let (pos, played) = aporia_plies(3, |i, list| i % list.len());
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name gamut "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "hash type spin default 64 min 1 max",
        "quiescence type check",
    ] {
        let head = format!("option name {option}");
        assert!(lines.iter().any(|l| l.starts_with(&head)), "{option}");
    }
    e.send("setoption name Hash value 16");
    e.send("setoption name Threads value 1");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    e.send("game aporia");
    e.send("ucinewgame");
    e.send(&format!("position startpos moves {}", played.join(" ")));
    e.send("d");
    let lines = e.until("fen ");
    assert_eq!(lines.last().unwrap(), &format!("fen {}", pos.text()));
    e.send("go wtime 10000 btime 10000 winc 100 binc 100");
    let lines = e.until("bestmove");
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l.starts_with("info depth ")
            && l.contains(" seldepth ")
            && l.contains(" nps ")
            && l.contains(" hashfull ")));
    assert!(pos.parse_move(best(lines.last().unwrap())).is_ok());
    e.send("go perft 3");
    let lines = e.until("Nodes searched: ");
    let total: u64 = lines.last().unwrap()[16..].parse().unwrap();
    assert_eq!(total, gamut_core::perft::perft(&pos, 3));
    let mut children = Vec::new();
    pos.moves(&mut children);
    let divided: Vec<u64> = lines[..lines.len() - 2]
        .iter()
        .filter_map(|l| l.split_once(": ").map(|(_, n)| n.parse().unwrap()))
        .collect();
    assert_eq!(divided.len(), children.len(), "{lines:?}");
    assert_eq!(divided.iter().sum::<u64>(), total);
    e.send("ponderhit");
    e.send("go infinite");
    e.send("isready");
    e.until("readyok");
    e.send("quit");
    // `quit` stops the search at once, and still answers its bestmove.
    let last = e.until("bestmove");
    assert!(pos.parse_move(best(last.last().unwrap())).is_ok());
    assert!(e.child.wait().unwrap().success());
}

/// `go perft 1` at the start of four-player Spokes counts its 32 million
/// joint placements by action: the total only, no line per placement.
#[test]
fn perft_of_four_players_gives_the_total_without_a_line_per_placement() {
    for game in ["spokes4", "spokes2v2"] {
        let mut e = Engine::start();
        e.send(&format!("game {game}"));
        e.send("position startpos");
        e.send("go perft 1");
        let lines = e.until("Nodes searched: ");
        assert_eq!(lines, ["", "Nodes searched: 32458792"], "{game}");
        e.send("quit");
        assert!(e.child.wait().unwrap().success());
    }
}

/// The end of input is no `quit`: a search with a limit runs to it, and
/// the lines sent during it are answered after its `bestmove`, in order.
#[test]
fn a_piped_script_is_answered_to_its_end() {
    let lines = piped(
        "game aporia\nposition startpos\ngo depth 5\nposition startpos moves b2-c1\nisready\ngo nodes 300\n",
    );
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    assert_eq!(depths.len(), 1, "{lines:?}");
    let bests: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("bestmove "))
        .collect();
    assert_eq!(bests.len(), 2, "{lines:?}");
    assert_eq!(lines[bests[0] + 1], "readyok");
    let after = play_moves(Aporia::start(), "b2-c1", "the test").unwrap();
    assert!(after.parse_move(best(&lines[bests[1]])).is_ok());
    // An unbounded search is stopped at the end of input.
    let lines = piped("game epaminondas\nposition startpos\ngo infinite\n");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

/// Lines are answered strictly in order: a `stop` behind a waiting `go`
/// stops the search that `go` starts, not the one running when the `stop`
/// arrived, which runs to its depth (it was cut at depth 1 before).
#[test]
fn a_stop_behind_a_waiting_go_stops_that_go_only() {
    let lines = piped("game aporia\ngo depth 6\nposition startpos moves b2-a3\ngo depth 6\nstop\n");
    let bests: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("bestmove "))
        .collect();
    assert_eq!(bests.len(), 2, "{lines:?}");
    assert!(
        lines[..bests[0]]
            .iter()
            .any(|l| l.starts_with("info depth 6 ")),
        "the first search did not reach depth 6: {lines:?}"
    );
    let after = play_moves(Aporia::start(), "b2-a3", "the test").unwrap();
    assert!(after.parse_move(best(&lines[bests[1]])).is_ok());
}

/// The end of input stops an unbounded search at once: the engine writes
/// its `bestmove` and exits with status 0.
#[test]
fn the_end_of_input_stops_an_unbounded_search_and_the_engine_exits() {
    let mut e = Engine::start();
    e.send("game epaminondas");
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 1 ");
    let Engine {
        mut child,
        input,
        lines,
    } = e;
    let closed = Instant::now();
    drop(input);
    let last = loop {
        let line = lines
            .recv_timeout(PATIENCE)
            .expect("a bestmove after the end of input");
        if line.starts_with("bestmove ") {
            break line;
        }
    };
    let status = child.wait().expect("the engine exits");
    assert!(closed.elapsed() < PATIENCE / 3, "{:?}", closed.elapsed());
    assert!(status.success(), "{status}");
    assert!(Epaminondas::start().parse_move(best(&last)).is_ok());
}

/// An option is checked when it is set, with or without a game, and again
/// when the game changes: one the new game does not know is reported once
/// and dropped.
#[test]
fn options_are_checked_when_set_and_when_the_game_changes() {
    let lines = piped(
        "setoption name ordering_off value bogus\ngame aporia\nposition startpos\ngo depth 1\n",
    );
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    use gamut_core::evaluate::Evaluate;
    use gamut_games::epaminondas::Epaminondas;
    let term = Aporia::TERMS
        .iter()
        .find(|t| !Epaminondas::TERMS.contains(t))
        .expect("a term of Aporia's own");
    let lines = piped(&format!(
        "setoption name eval_off value {term}\ngame aporia\ngame epaminondas\ngo depth 1\ngame aporia\ngo depth 1\n"
    ));
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("eval_off dropped"), "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        2
    );
}

/// `setoption name eval value net` searches with the game's network, in
/// a game of four players each side's paranoid search too.
#[test]
fn the_evaluation_is_an_option() {
    let lines = piped(
        "setoption name eval value net\ngame epaminondas\nposition startpos\ngo depth 2\ngame spokes4\ngo side 1 depth 1\n",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert!(errors.is_empty(), "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        2,
        "{lines:?}"
    );
    let lines = piped("setoption name eval value neural\n");
    assert!(
        lines[0].starts_with("info string error: eval is game, classic or net"),
        "{lines:?}"
    );
}

/// Four-player Spokes: `go side N` answers player N's own placement.
#[test]
fn four_player_spokes_answers_the_seat_asked() {
    for game in ["spokes4", "spokes2v2"] {
        let lines = piped(&format!(
            "game {game}\nposition startpos\ngo depth 1\ngo side 3 depth 1\n"
        ));
        assert!(lines[0].starts_with("info string error: "), "{lines:?}");
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth 1 value "))
            .unwrap_or_else(|| panic!("{lines:?}"));
        assert!(info.contains(" strategy 3 "), "{info}");
        let mv = best(lines.last().unwrap());
        gamut_games::with_game!(game.parse().unwrap(), G => {
            let mut legal = Vec::new();
            G::start().actions(Player::nth(2), &mut legal);
            let texts: Vec<String> = legal.iter().map(|&m| G::start().move_text(m)).collect();
            assert!(texts.iter().any(|t| t == mv), "{game}: {mv}");
        });
    }
}

/// `setoption name hash value 8192` is taken at once and costs no memory
/// until the search writes the table: the process's peak stays far below
/// the table's 8 GiB through `readyok` and a search of depth 1 (the table
/// was written through at allocation before).
#[test]
#[cfg(target_os = "linux")]
fn a_large_hash_is_set_without_taking_its_memory() {
    let mut e = Engine::start();
    let pid = e.child.id();
    e.send("game aporia");
    e.send("position startpos");
    e.send("setoption name hash value 8192");
    e.send("isready");
    e.until("readyok");
    e.send("go depth 1");
    e.until("bestmove");
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let peak: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap();
    assert!(peak < 512 << 10, "peak {peak} kB with a table of 8 GiB");
    e.quit();
}

/// A line longer than 1 MiB is skipped with one error line, without
/// holding it: the process's peak memory grows by far less than the line
/// (the peak before it includes the hash table, prepared at start).
#[test]
fn an_overlong_line_is_one_error_and_is_not_held() {
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok");
    let pid = e.child.id();
    let peak_kb = || -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
    };
    let before = peak_kb();
    let huge = vec![b'x'; 64 << 20];
    e.input.write_all(&huge).unwrap();
    e.send("");
    e.send("isready");
    let lines = e.until("readyok");
    assert_eq!(lines.len(), 2, "{:?}", &lines[0][..60.min(lines[0].len())]);
    assert!(lines[0].starts_with("info string error: "));
    if let (Some(before), Some(after)) = (before, peak_kb()) {
        assert!(
            after < before + (16 << 10),
            "peak {before} kB before the line, {after} kB after"
        );
    }
    e.quit();
}

/// `gamut engine --check` passes gamut itself, at a game of moves and at
/// one of simultaneous placements, and fails each broken engine with the
/// check and the reason.
#[test]
fn the_compliance_check_passes_gamut_and_names_what_each_broken_engine_breaks() {
    let gamut = format!("{} engine", env!("CARGO_BIN_EXE_gamut"));
    for game in ["aporia", "spokes"] {
        let o = common::gamut(&["engine", game, "--check", &gamut]);
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(o.status.success(), "{game}: {text}");
        assert!(text
            .lines()
            .all(|l| l.starts_with("ok ") || l.starts_with("passed all ")));
        assert!(text.lines().count() >= 8, "{text}");
    }
    for (engine, why) in [
        (
            "crash.sh",
            "go depth 1 at the start: the program exited (exit status: 3)",
        ),
        (
            "illegal.sh",
            "go depth 1 at the start: illegal bestmove 'z99-z98'",
        ),
        (
            "hang.sh",
            "go depth 1 at the start: no 'bestmove' within 1500 ms",
        ),
    ] {
        let script = engine_script(engine);
        let o = common::gamut(&["engine", "--check", &script, "--patience", "1500"]);
        assert_eq!(o.status.code(), Some(2), "{engine}");
        let text = String::from_utf8(o.stdout).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.starts_with(&format!("FAIL {why}")), "{engine}: {text}");
        assert!(text.starts_with("ok handshake\nok isready\n"), "{text}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// `analyze --clock` spends the clock as `go wtime` does: it answers well
/// within the time left, after at least one iteration.
#[test]
fn analyze_under_a_clock_answers_within_it() {
    let o = common::gamut(&["analyze", "epaminondas", "--clock", "4000", "--inc", "50"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let last_time: u64 = text
        .lines()
        .filter_map(|l| l.split(" time ").nth(1))
        .filter_map(|t| t.split(' ').next()?.parse().ok())
        .next_back()
        .unwrap_or_else(|| panic!("no iteration: {text}"));
    // The hard limit is half the time left at most.
    assert!(
        last_time <= 2000 + PATIENCE.as_millis() as u64 / 10,
        "{text}"
    );
    assert!(text.lines().last().unwrap().starts_with("bestmove "));
    let bad = common::gamut(&["analyze", "spokes4", "--clock", "1000"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The `info` lines of one `go`, by depth, as (rank, score, first move).
fn ranked_lines(lines: &[String]) -> Vec<Vec<(usize, String, String)>> {
    let mut by_depth: Vec<Vec<(usize, String, String)>> = Vec::new();
    for l in lines.iter().filter(|l| l.starts_with("info depth ")) {
        let w: Vec<&str> = l.split(' ').collect();
        let field = |name: &str| w[w.iter().position(|x| *x == name).unwrap() + 1];
        let depth: usize = field("depth").parse().unwrap();
        let rank: usize = field("multipv").parse().unwrap();
        let score = format!(
            "{} {}",
            field("score"),
            w[w.iter().position(|x| *x == "score").unwrap() + 2]
        );
        if by_depth.len() < depth {
            by_depth.resize(depth, Vec::new());
        }
        by_depth[depth - 1].push((rank, score, field("pv").to_string()));
    }
    by_depth
}

#[test]
fn multipv_option_reports_each_depths_best_lines_by_rank() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name MultiPV type spin default 1 min 1 max 256"),
        "{lines:?}"
    );
    e.send("setoption name MultiPV value 3");
    e.send("game epaminondas");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let by_depth = ranked_lines(&lines);
    assert_eq!(by_depth.len(), 3, "{lines:?}");
    for ranks in &by_depth {
        let got: Vec<usize> = ranks.iter().map(|r| r.0).collect();
        assert_eq!(got, [1, 2, 3], "{lines:?}");
        let firsts: std::collections::HashSet<&String> = ranks.iter().map(|r| &r.2).collect();
        assert_eq!(firsts.len(), 3, "{lines:?}");
        let cp: Vec<i64> = ranks
            .iter()
            .map(|r| r.1.strip_prefix("cp ").unwrap().parse().unwrap())
            .collect();
        assert!(cp.windows(2).all(|w| w[0] >= w[1]), "{cp:?}");
    }
    assert_eq!(best(lines.last().unwrap()), by_depth[2][0].2);
    // Back to one line: no rank in the info lines.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains(" multipv ")), "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .count(),
        2
    );
    e.quit();
}

#[test]
fn multipv_at_a_round_of_placements_says_it_reports_one_line() {
    let mut e = Engine::start();
    e.send("gamut");
    let lines = e.until("gamutok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name multipv type spin default 1 min 1 max 256"),
        "{lines:?}"
    );
    e.send("setoption name multipv value 2");
    e.send("setoption name seed value 7");
    e.send("game spokes");
    e.send("position startpos");
    e.send("go side 2 depth 1");
    let lines = e.until("bestmove");
    let notes: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string multipv"))
        .collect();
    assert_eq!(notes.len(), 1, "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains(" multipv ")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 value ")),
        "{lines:?}"
    );
    e.quit();
}
