//! The engine protocol's server: a session of `docs/protocol.md` over any
//! reader and writer (`gamut engine` runs it on standard input and
//! output). Input is read on its own thread and the search runs on
//! another; both send what they have to the session's thread, which
//! answers commands and writes every line (flushed at once), so `stop`
//! reaches a running search and `info` lines stream as iterations
//! complete.
//!
//! Games of more than two players are searched as `analyze` searches them:
//! the seat asked for, with its team, against all the others
//! ([`gamut_search::sides::TwoSided`]).
//!
//! Kept in one file (over 800 lines): one session's state machine, whose
//! commands (`position`, `go`, `stop`, `setoption`, …) all read and change
//! the same session.

use crate::{move_items, Base, Command, Go};
use gamut_core::game::{NodeKind, Player};
use gamut_core::message::one_line;
use gamut_engine::sides::{SidesPlan, SidesText, TupleText};
use gamut_engine::{game, AnyGame, Position};
use gamut_games::GameId;
use gamut_search::draw::pick;
use gamut_search::options::SearchOptions;
use gamut_search::params::{Tunables, MAX_MULTIPV, TUNABLES};
use gamut_search::score::Score;
use gamut_search::sides_analysis::Schedule;
use gamut_search::{self as search, Clock, Eval, Progress, Table, Verdict};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest input line read, in bytes; a longer one is skipped to its
/// end and answered by one error line.
const LINE_LIMIT: usize = 1 << 20;

/// How often a perft count's divide lines are written while it runs: the
/// lines counted since the last write go out together.
const PERFT_LINES_EVERY: Duration = Duration::from_millis(20);

/// Actions kept per player when several players of a side choose together
/// (as `analyze --width` has it by default).
const SIDES_WIDTH: usize = 8;

/// What the main thread waits for.
enum Event {
    /// A line of input, or `None` at its end.
    Input(Option<String>),
    /// A line longer than [`LINE_LIMIT`] was skipped.
    TooLong,
    /// A line the search wants written.
    Output(String),
    /// The search has ended with this `bestmove` line. The session is idle
    /// again before the line is written, so a driver that answers at once
    /// finds it ready.
    Finished(String),
}

/// The settings `setoption` changes.
#[derive(Clone, Debug)]
struct Options {
    /// The search's settings (its limits come with each `go`).
    search: SearchOptions,
    seed: u64,
    /// Lines each iteration reports at a decision root (MultiPV).
    multipv: u32,
}

impl Options {
    /// The search options with the limits of `go`.
    fn search_args(&self, go: &Go) -> SearchOptions {
        SearchOptions {
            depth: go.depth,
            time: go.movetime,
            nodes: go.nodes,
            ..self.search.clone()
        }
    }
}

/// Whether the protocol sets search option `name` by its own name
/// (`setoption`): every one of [`SearchOptions::NAMES`] but the limits,
/// which come with each `go`, and the network file, which is UCI's
/// `EvalFile`.
fn set_by_name(name: &str) -> bool {
    SearchOptions::NAMES.contains(&name) && !matches!(name, "depth" | "time" | "nodes" | "net")
}

/// A search (or perft count) running on its own thread.
struct Running {
    interrupt: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// Whether it ends by itself (a limit or a clock): the end of input
    /// then waits for its `bestmove` instead of stopping it.
    bounded: bool,
    /// Whether it is a perft count, which cannot be stopped.
    perft: bool,
}

/// The engine's state between commands.
struct Session {
    game: Option<GameId>,
    /// The current position: a start, or the text of the position the
    /// last `position` command reached.
    base: Base,
    /// The last `position` command's base and moves, when it had moves:
    /// a command that only adds moves to them plays just the new ones.
    last_position: Option<(Base, Vec<String>)>,
    options: Options,
    table: Arc<Table>,
    table_mib: u32,
    searches: u64,
    /// Searches and perft counts started.
    started: u64,
    /// Whether the driving program said `uci` (rather than `gamut`): proven
    /// scores are then written as UCI's `mate <moves>`.
    uci: bool,
    running: Option<Running>,
    events: Sender<Event>,
}

/// The options `setoption` knows, as `gamut` lists them before `gamutok`.
const OPTION_LINES: &[&str] = &[
    "option name hash type spin default 64 min 1 max 65536",
    "option name threads type spin default 1 min 1 max 256",
    "option name parallel type combo default lazysmp var lazysmp var rootsplit",
    "option name eval_off type string default <empty>",
    "option name eval type combo default game var game var classic var net",
    "option name EvalFile type string default <empty>",
    "option name ordering_off type string default <empty>",
    "option name quiescence type check default on",
    "option name aspiration type check default on",
    "option name star1 type check default on",
    "option name exact type check default off",
    "option name lmr type combo default game var game var on var off",
    "option name nmp type combo default game var game var on var off",
    "option name rfp type combo default game var game var on var off",
    "option name futility type combo default game var game var on var off",
    "option name partial type combo default game var game var on var off",
    "option name narrow type combo default game var game var on var off",
    "option name seed type spin default <clock>",
    "option name multipv type spin default 1 min 1 max 256",
];

/// The options as `uci` lists them before `uciok`: the same names, in
/// UCI's types (`check` options default to `true` or `false`, a spin's
/// default is a number).
const UCI_OPTION_LINES: &[&str] = &[
    "option name hash type spin default 64 min 1 max 65536",
    "option name threads type spin default 1 min 1 max 256",
    "option name parallel type combo default lazysmp var lazysmp var rootsplit",
    "option name eval_off type string default <empty>",
    "option name eval type combo default game var game var classic var net",
    "option name EvalFile type string default <empty>",
    "option name ordering_off type string default <empty>",
    "option name quiescence type check default true",
    "option name aspiration type check default true",
    "option name star1 type check default true",
    "option name exact type check default false",
    "option name lmr type combo default game var game var on var off",
    "option name nmp type combo default game var game var on var off",
    "option name rfp type combo default game var game var on var off",
    "option name futility type combo default game var game var on var off",
    "option name partial type combo default game var game var on var off",
    "option name narrow type combo default game var game var on var off",
    "option name seed type string default <clock>",
    "option name MultiPV type spin default 1 min 1 max 256",
];

/// The search's tunable parameters as options, after the others: a spin
/// each, by its own name, with its default and range.
fn tunable_lines() -> impl Iterator<Item = String> {
    TUNABLES.iter().map(|t| {
        format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        )
    })
}

/// A protocol session: the lines of `input` (read on their own thread)
/// answered on `out` until `quit` or the end of input, starting with game
/// `game` (if any), random choices from `seed` and a table of `hash` MiB
/// (until `setoption name hash` changes it). Returns how many searches
/// and perft counts `go` started, and the thread of a perft count that
/// `quit` left running (it cannot be stopped, so its last line is never
/// written; the command line exits without waiting for it): every other
/// one has written its one `bestmove` (or `Nodes searched`) line. The
/// fuzz target `fuzz/fuzz_targets/session.rs` checks that, and waits for
/// the thread.
pub fn session(
    game: Option<GameId>,
    seed: u64,
    hash: u32,
    input: impl Read + Send + 'static,
    out: &mut impl Write,
) -> std::io::Result<(u64, Option<JoinHandle<()>>)> {
    let (events, receive) = channel();
    let lines = events.clone();
    std::thread::spawn(move || read_input(input, lines));
    let mut s = Session {
        game,
        base: Base::Start,
        last_position: None,
        options: Options {
            search: SearchOptions {
                hash,
                ..SearchOptions::default()
            },
            seed,
            multipv: gamut_search::params::DEFAULT_MULTIPV as u32,
        },
        table: Arc::new(Table::try_new(hash as usize).map_err(std::io::Error::other)?),
        table_mib: hash,
        searches: 0,
        started: 0,
        uci: false,
        running: None,
        events,
    };
    let perft_left = s.serve(&receive, out)?;
    Ok((s.started, perft_left))
}

/// Sends each line of `input` (invalid UTF-8 replaced), then `None`. A
/// line longer than [`LINE_LIMIT`] is skipped without being held.
fn read_input(input: impl Read, events: Sender<Event>) {
    let mut lock = std::io::BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match Read::take(&mut lock, LINE_LIMIT as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) if buf.len() > LINE_LIMIT && buf.last() != Some(&b'\n') => {
                let rest = lock.skip_until(b'\n');
                if events.send(Event::TooLong).is_err() || matches!(rest, Ok(0) | Err(_)) {
                    break;
                }
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                if events.send(Event::Input(Some(line))).is_err() {
                    return;
                }
            }
        }
    }
    let _ = events.send(Event::Input(None));
}

impl Session {
    /// Answers events until `quit` or the end of input.
    ///
    /// Lines are answered strictly in order: each waits behind the lines
    /// before it, and is answered when it reaches the front as if it had
    /// just arrived. While a search with a limit or a clock runs, the line
    /// at the front (but `isready`, `stop` and `ponderhit`) waits for its
    /// `bestmove`, as a script piped in expects; during an unbounded search
    /// it is answered (an error, but `stop`). So a `stop` stops the search
    /// running when its turn comes, never an earlier one. `quit` is
    /// answered as it arrives: it stops a running search at once (its
    /// `bestmove` is still written) and the lines waiting are dropped. At
    /// the end of input a search with a limit or a clock runs to its end
    /// and the lines waiting are answered; an unbounded search is stopped.
    /// Returns the thread of a perft count left running at `quit`.
    fn serve(
        &mut self,
        receive: &Receiver<Event>,
        out: &mut impl Write,
    ) -> std::io::Result<Option<JoinHandle<()>>> {
        let mut waiting: VecDeque<String> = VecDeque::new();
        let mut ended = false;
        let mut quit = false;
        while !quit {
            while let Some(line) = waiting.front() {
                if self.waits(line) {
                    break;
                }
                let line = waiting.pop_front().expect("a line at the front");
                quit = !self.answer(&line, out)?;
                self.stop_unbounded_after_end(ended);
                if quit {
                    break;
                }
            }
            if quit || (ended && self.running.is_none()) {
                break;
            }
            match receive.recv().expect("the session holds a sender") {
                Event::Input(None) => {
                    ended = true;
                    self.stop_unbounded_after_end(ended);
                }
                Event::Input(Some(line)) => {
                    if first_word(&line) == "quit" {
                        quit = !self.answer(&line, out)?;
                    } else {
                        waiting.push_back(line);
                    }
                }
                Event::TooLong => emit(
                    out,
                    &format!("info string error: a line longer than {LINE_LIMIT} bytes, skipped"),
                )?,
                Event::Output(line) => emit(out, &line)?,
                Event::Finished(line) => {
                    self.join();
                    emit(out, &line)?;
                }
            }
        }
        if let Some(r) = &self.running {
            if r.perft {
                return Ok(self.running.take().map(|r| r.handle));
            }
            r.interrupt.store(true, Relaxed);
            loop {
                match receive.recv().expect("the session holds a sender") {
                    Event::Output(line) => emit(out, &line)?,
                    Event::Finished(line) => {
                        self.join();
                        emit(out, &line)?;
                        break;
                    }
                    Event::Input(_) | Event::TooLong => {}
                }
            }
        }
        Ok(None)
    }

    /// Whether `line`, at the front of the lines waiting, waits for the
    /// running search: a search with a limit or a clock holds every line
    /// but `isready`, `stop`, `quit` and `ponderhit`.
    fn waits(&self, line: &str) -> bool {
        let bounded = self.running.as_ref().is_some_and(|r| r.bounded);
        bounded && !matches!(first_word(line), "isready" | "stop" | "quit" | "ponderhit")
    }

    /// Answers one line, writing its error line if it has one; `Ok(false)`
    /// on `quit`.
    fn answer(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<bool> {
        match self.command(line, out) {
            Ok(go_on) => Ok(go_on),
            Err(msg) => {
                emit(out, &format!("info string error: {}", one_line(&msg)))?;
                Ok(true)
            }
        }
    }

    /// After the end of input, stops a running search that would not end
    /// by itself.
    fn stop_unbounded_after_end(&self, ended: bool) {
        if let Some(r) = self.running.as_ref().filter(|r| ended && !r.bounded) {
            r.interrupt.store(true, Relaxed);
        }
    }

    /// Waits for the finished search's thread.
    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }

    /// Answers one line; `Ok(false)` on `quit`. An error is the text of its
    /// `info string error:` line.
    fn command(&mut self, line: &str, out: &mut impl Write) -> Result<bool, String> {
        let Some(command) = Command::parse(line)? else {
            return Ok(true);
        };
        let write = |out: &mut dyn Write, lines: &[String]| {
            for l in lines {
                writeln!(out, "{l}").map_err(|e| e.to_string())?;
            }
            out.flush().map_err(|e| e.to_string())
        };
        match command {
            Command::Hello => {
                let mut lines = vec![format!("id name gamut {}", env!("CARGO_PKG_VERSION"))];
                lines.push(format!("id games {}", GameId::names()));
                lines.extend(OPTION_LINES.iter().map(|l| l.to_string()));
                lines.extend(tunable_lines());
                lines.push("gamutok".into());
                self.uci = false;
                write(out, &lines)?;
            }
            Command::Uci => {
                self.uci = true;
                let mut lines = vec![
                    format!("id name gamut {}", env!("CARGO_PKG_VERSION")),
                    "id author the gamut authors".to_string(),
                ];
                lines.extend(UCI_OPTION_LINES.iter().map(|l| l.to_string()));
                lines.extend(tunable_lines());
                lines.push("uciok".into());
                write(out, &lines)?;
            }
            Command::IsReady => write(out, &["readyok".into()])?,
            Command::PonderHit => {}
            Command::Quit => return Ok(false),
            Command::Stop => {
                if let Some(r) = &self.running {
                    r.interrupt.store(true, Relaxed);
                }
            }
            _ if self.running.is_some() => {
                let word = first_word(line);
                return Err(format!("'{word}' while searching; send stop first"));
            }
            Command::Game(id) => {
                self.game = Some(id);
                self.base = Base::Start;
                self.last_position = None;
                self.table.clear();
                if let Some(dropped) = self.recheck_options(id) {
                    return Err(dropped);
                }
            }
            Command::Display => {
                let id = self.game()?;
                let pos = self.base.position(game(id), None)?;
                let mut lines: Vec<String> = pos.diagram().lines().map(str::to_string).collect();
                lines.push(format!("fen {}", pos.text()));
                write(out, &lines)?;
            }
            Command::NewGame => {
                self.base = Base::Start;
                self.last_position = None;
                self.table.clear();
            }
            Command::SetOption { name, value } => self.set_option(&name, &value)?,
            Command::Position { base, moves } => self.position(base, moves)?,
            Command::Go(go) => self.go(go)?,
        }
        Ok(true)
    }

    /// The game chosen by `game`, or an error.
    fn game(&self) -> Result<GameId, String> {
        self.game
            .ok_or_else(|| format!("no game chosen; send 'game <id>' ({})", GameId::names()))
    }

    /// `setoption name <name> value <value>`.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        // UCI programs send `Hash` and `Threads`.
        let name = name.to_ascii_lowercase();
        let name = name.as_str();
        let mut o = self.options.clone();
        match name {
            "multipv" => {
                o.multipv = value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_MULTIPV as u32).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "multipv takes a whole number from 1 to {MAX_MULTIPV}, not '{value}'"
                        )
                    })?
            }
            "seed" => {
                o.seed = value
                    .parse()
                    .map_err(|_| format!("seed is a number, not '{value}'"))?
            }
            "evalfile" => {
                o.search.set("net", Some(value))?;
            }
            _ if set_by_name(name) => {
                o.search.set(name, Some(value))?;
            }
            _ if Tunables::spec(name).is_some() => {
                o.search.set(&format!("param.{name}"), Some(value))?;
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        if let Some(id) = self.game {
            check_options(id, &o)?;
        }
        if o.search.hash != self.table_mib {
            let table = Table::try_new(o.search.hash as usize).map_err(|e| e.to_string())?;
            self.table = Arc::new(table);
            self.table_mib = o.search.hash;
        }
        self.options = o;
        Ok(())
    }

    /// `position`: checked against the chosen game, then kept as the text
    /// of the position it reaches, so that `go` does not play the moves
    /// again (a Spokes outcome is checked by resolving its board, which
    /// can take seconds).
    fn position(&mut self, base: Base, moves: Option<String>) -> Result<(), String> {
        let id = self.game()?;
        let Some(moves) = moves else {
            base.position(game(id), None)?;
            self.base = base;
            self.last_position = None;
            return Ok(());
        };
        let items = move_items(&moves);
        // A game in progress sends its moves so far plus the last ones.
        let (from, new) = match &self.last_position {
            Some((b, played))
                if *b == base && played.len() < items.len() && items.starts_with(played) =>
            {
                (self.base.clone(), &items[played.len()..])
            }
            _ => (base.clone(), &items[..]),
        };
        let play = |from: &Base, moves: &[String]| {
            from.position(game(id), Some(&moves.join(";")))
                .map(|p| p.text())
        };
        let text = match play(&from, new) {
            Ok(text) => text,
            // A bad new move is reported as the whole list numbers it.
            Err(_) if new.len() < items.len() => play(&base, &items)?,
            Err(e) => return Err(e),
        };
        self.base = Base::Fen(text);
        self.last_position = Some((base, items));
        Ok(())
    }

    /// `go`: starts a search, or a perft count with `go perft N`.
    fn go(&mut self, go: Go) -> Result<(), String> {
        let id = self.game()?;
        self.searches += 1;
        let seed = self.options.seed.wrapping_add(self.searches);
        let running = match go.perft {
            Some(depth) => self.perft(id, depth)?,
            None if game(id).players() == 2 => self.start(id, &go, seed)?,
            None => self.start_sides(id, &go, seed)?,
        };
        self.running = Some(running);
        self.started += 1;
        Ok(())
    }

    /// `go perft N`: each child's leaf count at depth `N`, then the total,
    /// as UCI engines print them (`<move>: <count>`, `Nodes searched: <n>`).
    fn perft(&self, id: GameId, depth: u32) -> Result<Running, String> {
        let pos = self.base.position(game(id), None)?;
        let events = self.events.clone();
        // Where the children are every combination of several players'
        // actions (32 million at the start of four-player Spokes), the count
        // is made by action, without listing them, and only the total is
        // printed.
        let handle = std::thread::spawn(move || {
            let total = if pos.divides() {
                // Lines go out as they are counted, gathered into one
                // write per `PERFT_LINES_EVERY` (a Spokes round start has
                // thousands of children counted in a millisecond).
                let mut lines = String::new();
                let mut sent = Instant::now();
                let total = pos.divide(depth, 1, &mut |_| {}, &mut |text, n| {
                    if !lines.is_empty() {
                        lines.push('\n');
                    }
                    lines.push_str(&format!("{text}: {n}"));
                    if sent.elapsed() >= PERFT_LINES_EVERY {
                        let _ = events.send(Event::Output(std::mem::take(&mut lines)));
                        sent = Instant::now();
                    }
                });
                if !lines.is_empty() {
                    let _ = events.send(Event::Output(lines));
                }
                total
            } else {
                pos.perft(depth, 1, &mut || {})
            };
            let _ = events.send(Event::Output(String::new()));
            let _ = events.send(Event::Finished(format!("Nodes searched: {total}")));
        });
        Ok(Running {
            interrupt: Arc::new(AtomicBool::new(false)),
            handle,
            bounded: true,
            perft: true,
        })
    }

    /// The search's limits and settings for `go` at `pos`, where `mover`
    /// (a player, or a seat of several) is to move: `wtime`/`winc` are the
    /// clock of players 1 and 3, `btime`/`binc` of players 2 and 4.
    fn setup(
        &self,
        game: &dyn AnyGame,
        go: &Go,
        mover: Player,
    ) -> Result<(search::Config, search::Limits), String> {
        let args = self.options.search_args(go);
        let (config, mut limits) = (game.config(&args)?, args.limits());
        let c = mover.index() % 2;
        if go.time.iter().any(Option::is_some) && !go.infinite {
            let remaining = go.time[c].ok_or_else(|| {
                let name = ["wtime", "btime"][c];
                format!("go: the clock of the side to move ({name}) is missing")
            })?;
            limits.clock = Some(Clock {
                remaining: Duration::from_millis(remaining),
                increment: Duration::from_millis(go.inc[c].unwrap_or(0)),
                moves_to_go: go.movestogo,
            });
        }
        if go.infinite {
            limits = search::Limits::default();
        }
        Ok((config, limits))
    }

    /// Starts the search of `go` at the current position on its own thread.
    fn start(&self, id: GameId, go: &Go, seed: u64) -> Result<Running, String> {
        let pos = self.base.position(game(id), None)?;
        let (side, mover) = asked(&pos, go)?;
        let (mut config, limits) = self.setup(game(id), go, mover)?;
        config.multipv = self.options.multipv as usize;
        let uci = self.uci;
        let one_line = config.multipv > 1 && !matches!(pos.node(), NodeKind::Decision(_));
        Ok(self.spawn(go, move |flag, table, events| {
            if one_line {
                let _ = events.send(Event::Output(
                    "info string multipv: only a decision root has several lines; this one reports one"
                        .into(),
                ));
            }
            let multipv = config.multipv > 1;
            let mut observe = |p: Progress<'_, String>| {
                let line = match p {
                    Progress::Decision(it) if multipv => {
                        // One line per rank, best first.
                        let last = it.lines.len() - 1;
                        for k in 0..last {
                            let line = info_line(it, uci, Some(k), <[String]>::to_vec);
                            let _ = events.send(Event::Output(line));
                        }
                        info_line(it, uci, Some(last), <[String]>::to_vec)
                    }
                    Progress::Decision(it) => info_line(it, uci, None, <[String]>::to_vec),
                    Progress::Simultaneous(m) => {
                        let p = side.unwrap_or(Player::FIRST);
                        mixed_info_line(m, p, &m.strategies[p.index()])
                    }
                    Progress::Chance(_) => return,
                };
                let _ = events.send(Event::Output(line));
            };
            let verdict = pos.search(&limits, &config, table, Some(flag), &mut observe);
            let best = match verdict {
                Verdict::Decision(r) => r.best,
                Verdict::Simultaneous(r) => {
                    let p = side.unwrap_or(Player::FIRST);
                    let strategy = &r.strategies[p.index()];
                    let mut rng = StdRng::seed_from_u64(seed);
                    let i = pick(&mut rng, strategy.iter().enumerate().map(|(i, &(_, q))| (i, q)));
                    strategy[i].0.clone()
                }
                Verdict::Chance(_) | Verdict::Over(_) | Verdict::Stopped => "(none)".into(),
            };
            let _ = events.send(Event::Finished(format!("bestmove {best}")));
        }))
    }

    /// Starts the search of `go` in a game of more than two players: the
    /// seat to move (or the seat `go side N` names at a round of
    /// placements), with its team, against all the others, as `analyze`
    /// searches it; `bestmove` is the seat's own action, drawn from its
    /// side's mixed strategy at a round of placements.
    fn start_sides(&self, id: GameId, go: &Go, seed: u64) -> Result<Running, String> {
        let pos = self.base.position(game(id), None)?;
        let (seat, mover) = asked(&pos, go)?;
        let side = match seat {
            Some(s) => game(id).side_of(s),
            None => mover,
        };
        let (config, limits) = self.setup(game(id), go, mover)?;
        let uci = self.uci;
        let one_line = self.options.multipv > 1;
        Ok(self.spawn(go, move |flag, table, events| {
            if one_line {
                let _ = events.send(Event::Output(
                    "info string multipv: a game of more than two players reports one line".into(),
                ));
            }
            let mut analysis = pos.sides_analysis(SidesPlan {
                sides: vec![side],
                width: SIDES_WIDTH,
                schedule: Schedule::InTurn,
                limits,
                fresh_table: false,
                shorts: None,
            });
            analysis.run(&config, table, Some(flag), &mut |r| {
                let SidesText::Iteration { progress, .. } = r else {
                    return true;
                };
                let line = match progress {
                    Progress::Decision(it) => {
                        info_line(it, uci, None, |pv| pv.iter().map(TupleText::text).collect())
                    }
                    Progress::Simultaneous(m) => {
                        let s = seat.unwrap_or(side);
                        mixed_info_line(m, s, &seat_strategy(s, &m.strategies[0]))
                    }
                    Progress::Chance(_) => return true,
                };
                let _ = events.send(Event::Output(line));
                true
            });
            let (_, verdict) = analysis.verdicts().pop().expect("the side searched");
            let action = match (verdict, seat) {
                (Verdict::Decision(r), _) => r.best.actions[0].clone(),
                (Verdict::Simultaneous(r), Some(s)) => {
                    let mut rng = StdRng::seed_from_u64(seed);
                    let strategy = &r.strategies[0];
                    let i = pick(
                        &mut rng,
                        strategy.iter().enumerate().map(|(i, &(_, q))| (i, q)),
                    );
                    strategy[i].0.actions[s.index()].clone()
                }
                _ => None,
            };
            let best = action.unwrap_or_else(|| "(none)".into());
            let _ = events.send(Event::Finished(format!("bestmove {best}")));
        }))
    }

    /// Runs `search` on its own thread with the stop flag, the table and
    /// the channel to the main thread.
    fn spawn(
        &self,
        go: &Go,
        search: impl FnOnce(&AtomicBool, &Table, Sender<Event>) + Send + 'static,
    ) -> Running {
        let interrupt = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&interrupt);
        let table = Arc::clone(&self.table);
        let events = self.events.clone();
        let handle = std::thread::spawn(move || search(&flag, &table, events));
        Running {
            interrupt,
            handle,
            bounded: go.bounded(),
            perft: false,
        }
    }

    /// Checks the options against a newly chosen game: an evaluation term
    /// it does not know is dropped (the option back at its default) and
    /// named in the error returned.
    fn recheck_options(&mut self, id: GameId) -> Option<String> {
        let err = check_options(id, &self.options).err()?;
        // The options a game can reject: its evaluation terms, and a
        // network it does not have.
        let mut dropped = Vec::new();
        if self.options.search.eval_off.take().is_some() {
            dropped.push("eval_off");
        }
        if check_options(id, &self.options).is_err()
            && self.options.search.evaluation.net.take().is_some()
        {
            dropped.push("EvalFile");
        }
        if check_options(id, &self.options).is_err()
            && self.options.search.evaluation.eval != Eval::Game
        {
            self.options.search.evaluation.eval = Eval::Game;
            dropped.push("eval");
        }
        Some(format!("{err}: option {} dropped", dropped.join(", ")))
    }
}

/// Who is asked to move at `pos` by `go`: at a round of placements the
/// seat `go side N` names (and it is the mover), else `None` and the side
/// to move; an error where no one is asked.
fn asked(pos: &Position, go: &Go) -> Result<(Option<Player>, Player), String> {
    match pos.node() {
        NodeKind::Terminal => Err("the game is over at this position".into()),
        NodeKind::Chance => Err("a chance node: the program driving the game rolls".into()),
        NodeKind::Simultaneous => {
            let n = pos.game().players();
            let s = go.side.ok_or_else(|| {
                format!("a simultaneous node: say whose placement, 'go side 1..{n} ...'")
            })?;
            if s.index() >= n {
                return Err(format!("{} has players 1 to {n}", pos.game().id()));
            }
            Ok((Some(s), s))
        }
        NodeKind::Decision(p) => Ok((None, p)),
    }
}

/// Whether `options` are valid for game `id` (as `analyze` would take them).
fn check_options(id: GameId, options: &Options) -> Result<(), String> {
    let args = options.search_args(&Go::default());
    game(id).config(&args).map(|_| ())
}

/// The `info` line of a completed iteration at a decision root.
/// (`seldepth` is the length of the principal variation, at least the
/// depth).
fn info_line<M>(
    it: &search::Iteration<M>,
    uci: bool,
    line: Option<usize>,
    pv_texts: impl Fn(&[M]) -> Vec<String>,
) -> String {
    let ms = it.time.as_millis();
    let (rank, score, pv) = match line {
        Some(k) => (
            format!(" multipv {}", k + 1),
            it.lines[k].score,
            &it.lines[k].pv,
        ),
        None => (String::new(), it.score, &it.pv),
    };
    format!(
        "info depth {} seldepth {}{rank} score {} nodes {} nps {} hashfull {} time {ms} pv {}",
        it.depth,
        pv.len().max(it.depth as usize),
        score_text(score, uci),
        it.nodes,
        nps(it.nodes, it.time),
        it.hashfull,
        pv_texts(pv).join(" ")
    )
}

/// The `info` line of a completed depth at a round of placements: the
/// value and the strategy of `seat`.
fn mixed_info_line<M>(
    m: &search::MixedResult<M>,
    seat: Player,
    strategy: &[(String, f64)],
) -> String {
    let mut s = format!(
        "info depth {} value {:.4} nodes {} time {} strategy {}",
        m.depth,
        m.value,
        m.nodes,
        m.time.as_millis(),
        seat.index() + 1
    );
    for (text, p) in strategy {
        s.push_str(&format!(" {text} {p:.4}"));
    }
    s
}

/// The strategy of `seat` alone, from its side's strategy over the joint
/// choices of the side's players: each action's total probability, most
/// likely first.
fn seat_strategy(seat: Player, strategy: &[(TupleText, f64)]) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for (t, p) in strategy {
        let Some(text) = t.actions[seat.index()].clone() else {
            continue;
        };
        match out.iter_mut().find(|(x, _)| *x == text) {
            Some(e) => e.1 += p,
            None => out.push((text, *p)),
        }
    }
    out.sort_by(|x, y| y.1.total_cmp(&x.1));
    out
}

/// A score as the protocol writes it: `cp <n>`, or `win <plies>` /
/// `loss <plies>` for a proven result (after `uci`: `mate <moves>`, moves
/// of the side to move, negative when it loses).
fn score_text(score: i32, uci: bool) -> String {
    let s = Score(score);
    match (s.plies_to_end(), uci) {
        (Some(n), false) if n >= 0 && score > 0 => format!("win {n}"),
        (Some(n), false) => format!("loss {}", -n),
        (Some(n), true) if n >= 0 && score > 0 => format!("mate {}", (n + 1) / 2),
        (Some(n), true) => format!("mate -{}", (-n + 1) / 2),
        (None, _) => format!("cp {score}"),
    }
}

/// Nodes per second.
fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// Writes `line` and flushes it at once.
fn emit(out: &mut impl Write, line: &str) -> std::io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// The command word of `line` (empty for a blank line).
fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or_default()
}
