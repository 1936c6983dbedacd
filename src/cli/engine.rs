//! `gamut engine`: the engine protocol of `docs/protocol.md` on standard
//! input and output. Input is read on its own thread and the search runs
//! on another; both send what they have to the main thread, which answers
//! commands and writes every line (flushed at once), so `stop` reaches a
//! running search and `info` lines stream as iterations complete.

use super::analyze::{pv_texts, search_setup};
use super::args::{EngineArgs, SearchArgs};
use super::CliError;
use gamut::game::{Evaluate, Game, NodeKind, Player};
use gamut::games::GameId;
use gamut::protocol::{Base, Command, Go};
use gamut::search::params::Selective;
use gamut::search::score::Score;
use gamut::search::{self, Progress, Table, Verdict};
use gamut::tournament::engine::pick;
use gamut::with_game;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What the main thread waits for.
enum Event {
    /// A line of input, or `None` at its end.
    Input(Option<String>),
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
    threads: u32,
    hash: u32,
    parallel: String,
    eval_off: Option<String>,
    ordering_off: Option<String>,
    quiescence: bool,
    aspiration: bool,
    star1: bool,
    /// Every unsound pruning off.
    exact: bool,
    /// The selective feature switches set (`lmr`, ...), `None` for the
    /// game's default.
    selective: [Option<bool>; 6],
    seed: u64,
}

impl Options {
    /// The options as `gamut analyze` would take them, with `limits`.
    fn search_args(&self, go: &Go) -> SearchArgs {
        SearchArgs {
            depth: go.depth,
            time: go.movetime,
            nodes: go.nodes,
            threads: self.threads,
            hash: self.hash,
            parallel: self.parallel.clone(),
            eval_off: self.eval_off.clone(),
            eval: None,
            net: None,
            ordering_off: self.ordering_off.clone(),
            no_quiescence: !self.quiescence,
            no_aspiration: !self.aspiration,
            no_star1: !self.star1,
            exact: self.exact,
            lmr: switch_text(self.selective[0]),
            nmp: switch_text(self.selective[1]),
            rfp: switch_text(self.selective[2]),
            futility: switch_text(self.selective[3]),
            partial: switch_text(self.selective[4]),
            narrow: switch_text(self.selective[5]),
        }
    }
}

/// A selective feature switch as `gamut analyze` takes it.
fn switch_text(on: Option<bool>) -> Option<String> {
    on.map(|b| if b { "on" } else { "off" }.to_string())
}

/// A search running on its own thread.
struct Running {
    interrupt: Arc<AtomicBool>,
    handle: JoinHandle<()>,
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
    running: Option<Running>,
    events: Sender<Event>,
}

/// The options `setoption` knows, as `gamutok` lists them.
const OPTION_LINES: &[&str] = &[
    "option name hash type spin default 64 min 1 max 65536",
    "option name threads type spin default 1 min 1 max 256",
    "option name parallel type combo default lazysmp var lazysmp var rootsplit",
    "option name eval_off type string default <empty>",
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
];

/// Runs `gamut engine` until `quit` or the end of input.
pub fn engine(a: &EngineArgs, out: &mut impl Write) -> Result<(), CliError> {
    let (events, receive) = channel();
    let input = events.clone();
    std::thread::spawn(move || read_input(input));
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut s = Session {
        game: a.game,
        base: Base::Start,
        last_position: None,
        options: Options {
            threads: 1,
            hash: 64,
            parallel: "lazysmp".into(),
            eval_off: None,
            ordering_off: None,
            quiescence: true,
            aspiration: true,
            star1: true,
            exact: false,
            selective: [None; 6],
            seed,
        },
        table: Arc::new(Table::try_new(64)?),
        table_mib: 64,
        searches: 0,
        running: None,
        events,
    };
    s.serve(&receive, out)
}

/// Sends each line of standard input (invalid UTF-8 replaced), then `None`.
fn read_input(events: Sender<Event>) {
    let stdin = std::io::stdin();
    let mut lock = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match lock.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
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

/// Writes `line` and flushes it.
fn emit(out: &mut impl Write, line: &str) -> std::io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

impl Session {
    /// Answers events until `quit` or the end of input; a running search
    /// is then stopped and its `bestmove` written first.
    fn serve(&mut self, receive: &Receiver<Event>, out: &mut impl Write) -> Result<(), CliError> {
        loop {
            match receive.recv().expect("the session holds a sender") {
                Event::Input(None) => break,
                Event::Input(Some(line)) => match self.command(&line, out) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(msg) => emit(
                        out,
                        &format!("info string error: {}", super::one_line(&msg)),
                    )?,
                },
                Event::Output(line) => emit(out, &line)?,
                Event::Finished(line) => {
                    self.join();
                    emit(out, &line)?;
                }
            }
        }
        if let Some(r) = &self.running {
            r.interrupt.store(true, Relaxed);
            loop {
                match receive.recv().expect("the session holds a sender") {
                    Event::Output(line) => emit(out, &line)?,
                    Event::Finished(line) => {
                        self.join();
                        emit(out, &line)?;
                        break;
                    }
                    Event::Input(_) => {}
                }
            }
        }
        Ok(())
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
                lines.push("gamutok".into());
                write(out, &lines)?;
            }
            Command::IsReady => write(out, &["readyok".into()])?,
            Command::Quit => return Ok(false),
            Command::Stop => {
                if let Some(r) = &self.running {
                    r.interrupt.store(true, Relaxed);
                }
            }
            _ if self.running.is_some() => {
                let word = line.split_whitespace().next().unwrap_or_default();
                return Err(format!("'{word}' while searching; send stop first"));
            }
            Command::Game(id) => {
                self.game = Some(id);
                self.base = Base::Start;
                self.last_position = None;
                self.table.clear();
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
        let number = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n >= 1 && n <= max)
                .ok_or_else(|| format!("{name} takes a number from 1 to {max}, not '{value}'"))
        };
        let switch = || match value {
            "on" | "true" => Ok(true),
            "off" | "false" => Ok(false),
            _ => Err(format!("{name} is on or off, not '{value}'")),
        };
        let list = || match value {
            "" | "<empty>" | "none" => None,
            v => Some(v.to_string()),
        };
        let mut o = self.options.clone();
        match name {
            "hash" => o.hash = number(65536)? as u32,
            "threads" => o.threads = number(256)? as u32,
            "parallel" => match value {
                "lazysmp" | "rootsplit" => o.parallel = value.into(),
                _ => return Err(format!("parallel is lazysmp or rootsplit, not '{value}'")),
            },
            "eval_off" => o.eval_off = list(),
            "ordering_off" => o.ordering_off = list(),
            "quiescence" => o.quiescence = switch()?,
            "aspiration" => o.aspiration = switch()?,
            "star1" => o.star1 = switch()?,
            "exact" => o.exact = switch()?,
            "lmr" | "nmp" | "rfp" | "futility" | "partial" | "narrow" => {
                let i = Selective::NAMES
                    .iter()
                    .position(|n| *n == name)
                    .expect("a selective feature");
                o.selective[i] = match value {
                    "game" | "default" => None,
                    _ => Some(switch()?),
                };
            }
            "seed" => {
                o.seed = value
                    .parse()
                    .map_err(|_| format!("seed is a number, not '{value}'"))?
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        if let Some(id) = self.game {
            let args = o.search_args(&Go::default());
            with_game!(id, G => search_setup::<G>(&args).map_err(|e| e.0)?);
        }
        if o.hash != self.table_mib {
            let table = Table::try_new(o.hash as usize).map_err(|e| e.to_string())?;
            self.table = Arc::new(table);
            self.table_mib = o.hash;
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
            with_game!(id, G => base.position::<G>(None).map(|_| ()))?;
            self.base = base;
            self.last_position = None;
            return Ok(());
        };
        let items: Vec<String> = moves.split(';').map(|m| m.trim().to_string()).collect();
        // A game in progress sends its moves so far plus the last ones.
        let (from, new) = match &self.last_position {
            Some((b, played))
                if *b == base && played.len() < items.len() && items.starts_with(played) =>
            {
                (self.base.clone(), &items[played.len()..])
            }
            _ => (base.clone(), &items[..]),
        };
        let play = |from: &Base, moves: &[String]| with_game!(id, G => from.position::<G>(Some(&moves.join(";"))).map(|p| p.text()));
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

    /// `go`: starts a search.
    fn go(&mut self, go: Go) -> Result<(), String> {
        let id = self.game()?;
        self.searches += 1;
        let seed = self.options.seed.wrapping_add(self.searches);
        let running = with_game!(id, G => self.start::<G>(&go, seed))?;
        self.running = Some(running);
        Ok(())
    }

    /// Starts the search of `go` at the current position on its own thread.
    fn start<G: Evaluate + Send + 'static>(&self, go: &Go, seed: u64) -> Result<Running, String>
    where
        G::Move: Send,
    {
        let pos: G = self.base.position(None)?;
        let side = match pos.node() {
            NodeKind::Terminal => return Err("the game is over at this position".into()),
            NodeKind::Chance => {
                return Err("a chance node: the program driving the game rolls".into())
            }
            NodeKind::Simultaneous => Some(
                go.side
                    .ok_or("a simultaneous node: say whose placement, 'go side 1|2 ...'")?,
            ),
            NodeKind::Decision(_) => None,
        };
        let (config, limits) = search_setup::<G>(&self.options.search_args(go)).map_err(|e| e.0)?;
        let interrupt = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&interrupt);
        let table = Arc::clone(&self.table);
        let events = self.events.clone();
        let handle = std::thread::spawn(move || {
            let mut observe = |p: Progress<'_, G::Move>| {
                let line = match p {
                    Progress::Decision(it) => {
                        let ms = it.time.as_millis();
                        format!(
                            "info depth {} score {} nodes {} nps {} hashfull {} time {ms} pv {}",
                            it.depth,
                            score_text(it.score),
                            it.nodes,
                            nps(it.nodes, it.time),
                            it.hashfull,
                            pv_texts(&pos, &it.pv).join(" ")
                        )
                    }
                    Progress::Simultaneous(m) => {
                        let p = side.unwrap_or(Player::FIRST);
                        format!(
                            "info depth {} value {:.4} nodes {} time {} {}",
                            m.depth,
                            m.value,
                            m.nodes,
                            m.time.as_millis(),
                            strategy_text(&pos, p, &m.strategies[p.index()])
                        )
                    }
                    Progress::Chance(_) => return,
                };
                let _ = events.send(Event::Output(line));
            };
            let verdict = search::run(&pos, &limits, &config, &table, Some(&flag), &mut observe);
            let best = match verdict {
                Verdict::Decision(r) => pos.move_text(r.best),
                Verdict::Simultaneous(r) => {
                    let p = side.unwrap_or(Player::FIRST);
                    let strategy = &r.strategies[p.index()];
                    let mut rng = StdRng::seed_from_u64(seed);
                    pos.move_text(pick(&mut rng, strategy.iter().copied()))
                }
                Verdict::Chance(_) | Verdict::Over(_) => "(none)".into(),
            };
            let _ = events.send(Event::Finished(format!("bestmove {best}")));
        });
        Ok(Running { interrupt, handle })
    }
}

/// A score as the protocol writes it: `cp <n>`, or `win <plies>` /
/// `loss <plies>` for a proven result.
fn score_text(score: i32) -> String {
    let s = Score(score);
    match s.plies_to_end() {
        Some(n) if n >= 0 && score > 0 => format!("win {n}"),
        Some(n) => format!("loss {}", -n),
        None => format!("cp {score}"),
    }
}

/// `strategy <side> <action> <probability> ...`, most likely first.
fn strategy_text<G: Game>(pos: &G, side: Player, strategy: &[(G::Move, f64)]) -> String {
    let mut s = format!("strategy {}", side.index() + 1);
    for &(m, p) in strategy {
        s.push_str(&format!(" {} {p:.4}", pos.move_text(m)));
    }
    s
}

/// Nodes per second.
fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}
