//! The engine spec grammar: a spec split into its parts ([`SpecText`]),
//! then read for a game into an [`Engine`] — searchers, greedy and random
//! players, programs (`cmd=`), and the paranoid and MCTS players of games
//! of more than two sides.

use crate::clock::TimeControl;
use crate::engine::{Engine, Kind};
use crate::exact::ExactTable;
use crate::external::External;
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{NodeRules, ParseError};
use gamut_search::mcts::MctsConfig;
use gamut_search::options::SearchOptions;
use gamut_search::sides::{TwoSided, DEFAULT_WIDTH};
use gamut_search::{Limits, Table};
use std::path::PathBuf;
use std::time::Duration;

/// A spec split into its parts, before the game gives the options meaning:
/// `name=d4,search=alphabeta,depth=4`. One grammar for every engine:
/// searchers, greedy and random players, programs (`cmd=`), and the
/// paranoid and MCTS players of games of more than two sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecText {
    /// The engine's name (`name=`), or the spec text itself.
    pub name: String,
    /// The player (`search=`, or a bare `alphabeta`, `random`, `greedy`,
    /// `paranoid`, `mcts`), if the spec names one.
    pub search: Option<PlayerKind>,
    /// The other `key=value` options in order (a bare key has no value).
    pub options: Vec<(String, Option<String>)>,
    /// The whole spec as given.
    pub text: String,
}

/// Which kind of player a spec names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// The searcher (the default in games of two sides).
    AlphaBeta,
    /// Uniformly random legal moves.
    Random,
    /// The move with the best one-ply evaluation.
    Greedy,
    /// The exact two-sided search of one side against all the others
    /// (games of more than two sides).
    Paranoid,
    /// Simultaneous-move Monte Carlo tree search (games of more than two
    /// sides).
    Mcts,
}

impl PlayerKind {
    /// Every player by its name in specs.
    const NAMES: [(&'static str, PlayerKind); 5] = [
        ("alphabeta", PlayerKind::AlphaBeta),
        ("random", PlayerKind::Random),
        ("greedy", PlayerKind::Greedy),
        ("paranoid", PlayerKind::Paranoid),
        ("mcts", PlayerKind::Mcts),
    ];

    /// Its name in specs.
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("alphabeta", |(n, _)| n)
    }
}

impl SpecText {
    /// The files the spec reads, each with the item that names it (`an
    /// engine's net=`, `an engine's table=`).
    #[must_use]
    pub fn files(&self) -> Vec<(&'static str, PathBuf)> {
        self.options
            .iter()
            .filter_map(|(key, value)| match (key.as_str(), value) {
                ("net", Some(v)) => Some(("an engine's net=", PathBuf::from(v))),
                ("table", Some(v)) => Some(("an engine's table=", PathBuf::from(v))),
                _ => None,
            })
            .collect()
    }

    /// Splits a spec at commas into `key=value` items, taking out `name=`
    /// and `search=`; rejects empty items and repeated keys.
    pub fn parse(text: &str) -> Result<SpecText, ParseError> {
        let mut name = None;
        let mut search = None;
        let mut options: Vec<(String, Option<String>)> = Vec::new();
        let fail = |msg: String| ParseError::new(format!("engine '{text}': {msg}"));
        // Names go into every game line, record and page: text only.
        if text.contains(char::is_control) {
            return Err(fail(
                "a control character (a newline, an escape) has no place in a spec".into(),
            ));
        }
        for item in text.split(',') {
            let item = item.trim();
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim().to_string())),
                None => (item, None),
            };
            if key.is_empty() || value.as_deref() == Some("") {
                return Err(fail(format!("empty option '{item}'")));
            }
            let bare_player = value.is_none() && Self::kind(key).is_some();
            let seen = match key {
                "name" => name.is_some(),
                "search" => search.is_some(),
                _ if bare_player => search.is_some(),
                _ => options.iter().any(|(k, _)| k == key),
            };
            if seen {
                let key = if bare_player { "search" } else { key };
                return Err(fail(format!("'{key}' given twice")));
            }
            match (key, value) {
                ("name", Some(v)) => name = Some(v),
                ("search", Some(v)) => {
                    search = Some(Self::kind(&v).ok_or_else(|| {
                        fail(format!(
                            "unknown search '{v}' (alphabeta, random, greedy, paranoid, mcts)"
                        ))
                    })?)
                }
                (k, None) if bare_player => search = Self::kind(k),
                ("name" | "search", None) => return Err(fail(format!("'{key}' needs a value"))),
                (k, v) => options.push((k.to_string(), v)),
            }
        }
        Ok(SpecText {
            name: name.unwrap_or_else(|| text.to_string()),
            search,
            options,
            text: text.to_string(),
        })
    }

    fn kind(v: &str) -> Option<PlayerKind> {
        PlayerKind::NAMES
            .iter()
            .find(|(n, _)| *n == v)
            .map(|(_, k)| *k)
    }

    /// The player: the one named, or the searcher.
    #[must_use]
    pub fn player(&self) -> PlayerKind {
        self.search.unwrap_or(PlayerKind::AlphaBeta)
    }

    /// An error about this spec: `engine '<spec>': <msg>`.
    pub fn error(&self, msg: impl std::fmt::Display) -> ParseError {
        ParseError::new(format!("engine '{}': {msg}", self.text))
    }

    /// The value of option `key`: `None` if it is not given, an error if it
    /// is given bare.
    pub fn value(&self, key: &str) -> Result<Option<&str>, ParseError> {
        match self.options.iter().find(|(k, _)| k == key) {
            None => Ok(None),
            Some((_, None)) => Err(self.error(format!("'{key}' needs a value"))),
            Some((_, Some(v))) => Ok(Some(v)),
        }
    }

    /// `value` read as a whole number from `lo` to `hi`.
    fn number(&self, key: &str, value: &str, lo: u64, hi: u64) -> Result<u64, ParseError> {
        value
            .parse::<u64>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| {
                if hi == u64::MAX {
                    self.error(format!("{key}={value}: not a whole number from {lo}"))
                } else {
                    self.error(format!(
                        "{key}={value}: not a whole number from {lo} to {hi}"
                    ))
                }
            })
    }

    /// A switch: a bare key or `on` is true, `off` false.
    fn switch(&self, key: &str, value: Option<&str>) -> Result<bool, ParseError> {
        match value {
            None | Some("on") => Ok(true),
            Some("off") => Ok(false),
            Some(v) => Err(self.error(format!("{key}={v}: use on or off"))),
        }
    }

    /// The game clock `tc=` gives, if any.
    fn time_control(&self) -> Result<Option<TimeControl>, ParseError> {
        self.value("tc")?
            .map(|v| TimeControl::parse(v).map_err(|e| self.error(e)))
            .transpose()
    }
}

/// The options a searcher's spec may give, for error messages.
const SEARCH_KEYS: &str = "name, search, depth, time, nodes, tc, threads, hash, parallel, eval, net, eval_off, ordering_off, quiescence, aspiration, exact, lmr, nmp, rfp, futility, partial, narrow, history, table, param.<name>";

/// The options a program's spec may give, for error messages.
const PROGRAM_KEYS: &str =
    "name, cmd, time, depth, nodes, tc, margin, hash, threads, option.<name>";

/// The options a spec may give in a game of more than two sides, for error
/// messages.
const SEAT_KEYS: &str =
    "name, search, depth, time, nodes, iterations, width, exploration, hash, eval, net";

impl Engine {
    /// The engine a spec gives in game `G`: in a game of two sides a
    /// searcher (`name=d4,depth=4`), `greedy`, `random`, or a program
    /// speaking the engine protocol (`cmd=<program>,time=100`); in a game
    /// of more than two the paranoid search, MCTS or `random`; see
    /// docs/tournament.md.
    pub fn parse<G: Evaluate>(text: &str) -> Result<Engine, ParseError> {
        let spec = SpecText::parse(text)?;
        if G::players() != 2 {
            return Self::seated::<G>(spec);
        }
        if spec.options.iter().any(|(k, _)| k == "cmd") {
            return Self::program(spec);
        }
        let player = spec.player();
        if matches!(player, PlayerKind::Paranoid | PlayerKind::Mcts) {
            return Err(spec.error(format!(
                "{} plays games of more than two sides; {} has two (alphabeta, greedy, random)",
                player.name(),
                G::ID
            )));
        }
        let tc = spec.time_control()?;
        let mut options = SearchOptions {
            hash: gamut_search::params::TOURNAMENT_HASH_MIB as u32,
            ..SearchOptions::default()
        };
        let mut table = None;
        for (key, value) in &spec.options {
            let allowed = match player {
                PlayerKind::Greedy => key == "eval_off" || key == "tc",
                PlayerKind::Random => key == "tc",
                _ => true,
            };
            if !allowed {
                return Err(spec.error(format!("'{key}' does not apply to this player")));
            }
            let value = value.as_deref();
            match key.as_str() {
                // `history=off` is `ordering_off=history`.
                "history" => {
                    if !spec.switch(key, value)? {
                        let mut list: Vec<&str> =
                            options.ordering_off.iter().map(String::as_str).collect();
                        list.push("history");
                        let list = list.join(",");
                        options
                            .set("ordering_off", Some(&list))
                            .map_err(|e| spec.error(e))?;
                    }
                }
                "ordering_off" => {
                    let mut list: Vec<String> = options.ordering_off.iter().cloned().collect();
                    list.extend(value.map(str::to_string));
                    let list = list.join(",");
                    options.set(key, Some(&list)).map_err(|e| spec.error(e))?;
                }
                "eval" if value == Some("game") => {
                    return Err(spec.error("eval=game: use classic or net"));
                }
                "table" => table = Some(value),
                "tc" => {}
                _ => {
                    if !options.set(key, value).map_err(|e| spec.error(e))? {
                        return Err(spec.error(format!("unknown option '{key}' ({SEARCH_KEYS})")));
                    }
                }
            }
        }
        let config = options.setup::<G>().map_err(|e| spec.error(e))?;
        let limits = options.limits();
        let hash_mib = options.hash as usize;
        let kind = match player {
            PlayerKind::Greedy => Kind::Greedy {
                terms: config.terms,
            },
            PlayerKind::Random => Kind::Random,
            _ => {
                if limits == Limits::default() && tc.is_none() {
                    return Err(spec.error("alphabeta needs depth=, time=, nodes= or tc="));
                }
                // Each game makes its own table: find out now, not mid-game,
                // whether the machine can give one of this size.
                Table::try_new(hash_mib).map_err(|e| spec.error(e))?;
                let exact = match table {
                    None => None,
                    Some(path) => Some(
                        ExactTable::open::<G>(path.map(std::path::Path::new))
                            .map_err(|e| spec.error(e))?,
                    ),
                };
                Kind::Search {
                    config,
                    limits,
                    hash_mib,
                    exact,
                }
            }
        };
        Ok(Engine {
            reads: spec.files(),
            name: spec.name,
            spec: spec.text,
            kind,
            tc,
        })
    }

    /// The engine of a spec with `cmd=<program> [args]`: that program
    /// speaking the engine protocol, `time=`, `depth=` or `nodes=` per
    /// move, `margin=` (ms) past `time=` before a silent engine forfeits
    /// (default 1000; 60000 without `time=`; plus twice the tournament's
    /// own time to list the position's moves), `hash=` and `threads=` sent
    /// as options.
    fn program(spec: SpecText) -> Result<Engine, ParseError> {
        if spec.search.is_some() {
            return Err(spec.error("cmd= names the program; it takes no search="));
        }
        let mut command = Vec::new();
        let mut go = Vec::new();
        let mut time = None;
        let mut margin = None;
        let mut options = Vec::new();
        let tc = spec.time_control()?;
        for (key, value) in &spec.options {
            let value = value
                .as_deref()
                .ok_or_else(|| spec.error(format!("'{key}' needs a value")))?;
            let number = || {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| spec.error(format!("{key}={value}: not a positive number")))
            };
            match key.as_str() {
                "cmd" => command = value.split_whitespace().map(String::from).collect(),
                "time" => {
                    time = Some(number()?);
                    go.push(format!("movetime {value}"));
                }
                "depth" | "nodes" => go.push(format!("{key} {}", number()?)),
                "margin" => margin = Some(number()?),
                "hash" | "threads" => options.push((key.clone(), number()?.to_string())),
                "tc" => {}
                _ if key.starts_with("option.") && key.len() > "option.".len() => {
                    options.push((key["option.".len()..].to_string(), value.to_string()))
                }
                _ => {
                    return Err(spec.error(format!(
                        "unknown option '{key}' for a program ({PROGRAM_KEYS})"
                    )))
                }
            }
        }
        if command.is_empty() {
            return Err(spec.error("cmd= needs a program"));
        }
        if go.is_empty() && tc.is_none() {
            return Err(spec.error("a program needs time=, depth=, nodes= or tc="));
        }
        let timed = time.is_some() || tc.is_some();
        let margin = margin.unwrap_or(if timed { 1000 } else { 60_000 });
        Ok(Engine {
            reads: spec.files(),
            name: spec.name,
            spec: spec.text,
            kind: Kind::External(External {
                command,
                go: go.join(" "),
                allowance: Duration::from_millis(time.unwrap_or(0) + margin),
                options,
            }),
            tc,
        })
    }
}

impl Engine {
    /// The engine a spec gives in a game of more than two sides:
    /// `name=p,paranoid,time=200`, `name=m,mcts,time=200`, `random`. The
    /// limits and the table size read as a searcher's
    /// ([`SearchOptions::set`]); `iterations=`, `width=` and
    /// `exploration=` are the MCTS's and the paranoid search's own;
    /// `eval=` and `net=` choose the paranoid search's evaluation (a
    /// network of the game reads each side's view against its rival's).
    fn seated<G: Evaluate>(spec: SpecText) -> Result<Engine, ParseError> {
        let kind = spec
            .search
            .ok_or_else(|| spec.error("no search given (paranoid, mcts, random)"))?;
        let allowed: &[&str] = match kind {
            PlayerKind::Random => &[],
            PlayerKind::Paranoid => &["depth", "time", "nodes", "width", "hash", "eval", "net"],
            PlayerKind::Mcts => &["time", "iterations", "width", "exploration"],
            PlayerKind::AlphaBeta | PlayerKind::Greedy => {
                return Err(spec.error(format!(
                    "{} plays games of two sides; games of more than two have paranoid, mcts and random",
                    kind.name()
                )))
            }
        };
        let mut options = SearchOptions {
            hash: gamut_search::params::TOURNAMENT_HASH_MIB as u32,
            ..SearchOptions::default()
        };
        let mut iterations = None;
        let mut width = DEFAULT_WIDTH;
        let mut exploration = gamut_search::params::MCTS_EXPLORATION;
        for (key, value) in &spec.options {
            let v = value
                .as_deref()
                .ok_or_else(|| spec.error(format!("'{key}' needs a value")))?;
            let number = |lo: u64| spec.number(key, v, lo, u64::MAX);
            match key.as_str() {
                "eval" if v == "game" => return Err(spec.error("eval=game: use classic or net")),
                "depth" | "time" | "nodes" | "hash" | "eval" | "net" => {
                    options.set(key, Some(v)).map_err(|e| spec.error(e))?;
                }
                "iterations" => iterations = Some(number(1)?),
                "width" => width = number(1)? as usize,
                "exploration" => {
                    exploration = v
                        .parse::<f64>()
                        .ok()
                        .filter(|x| (0.0..=1.0).contains(x))
                        .ok_or_else(|| spec.error(format!("exploration={v}: not from 0 to 1")))?
                }
                "tc" => {
                    return Err(spec.error(
                        "tc= does not apply to games of more than two sides: their rules do not say who wins when one side's clock runs out (use time= or iterations=)",
                    ))
                }
                _ => return Err(spec.error(format!("unknown option '{key}' ({SEAT_KEYS})"))),
            }
            if !allowed.contains(&key.as_str()) {
                return Err(spec.error(format!("'{key}' does not apply to {}", kind.name())));
            }
        }
        let limits = options.limits();
        let kind = match kind {
            PlayerKind::Random => Kind::Random,
            PlayerKind::Paranoid => {
                if limits == Limits::default() {
                    return Err(spec.error("paranoid needs depth=, time= or nodes="));
                }
                let eval = options
                    .evaluation
                    .evaluation::<TwoSided<G>>()
                    .map_err(|e| spec.error(e))?;
                Kind::Paranoid {
                    limits,
                    width,
                    hash_mib: options.hash as usize,
                    eval,
                }
            }
            _ => {
                if limits.time.is_none() && iterations.is_none() {
                    return Err(spec.error("mcts needs time= or iterations="));
                }
                Kind::Mcts(MctsConfig {
                    iterations,
                    time: limits.time,
                    width,
                    exploration,
                    seed: 0,
                })
            }
        };
        Ok(Engine {
            reads: spec.files(),
            name: spec.name,
            spec: spec.text,
            kind,
            tc: None,
        })
    }
}

/// Checks that engine names are unique.
pub fn check_names(engines: &[Engine]) -> Result<(), ParseError> {
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|f| f.name == e.name) {
            return Err(ParseError::new(format!(
                "two engines are named '{}'; give each a name=",
                e.name
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_games::epaminondas::Epaminondas;
    use gamut_games::spokes::{Spokes, Spokes2v2, Spokes4};

    /// The error a spec gives in a game of two sides.
    fn pair_error(text: &str) -> String {
        let e = Engine::parse::<Epaminondas>(text).expect_err(text).0;
        assert!(!e.contains('\n'), "{e}");
        e
    }

    /// The error a spec gives in a game of more than two sides.
    fn seat_error(text: &str) -> String {
        let e = Engine::parse::<Spokes4>(text).expect_err(text).0;
        assert!(!e.contains('\n'), "{e}");
        e
    }

    #[test]
    fn one_grammar_splits_every_spec() {
        let s = SpecText::parse("name=m, mcts ,iterations=50").unwrap();
        assert_eq!(s.name, "m");
        assert_eq!(s.search, Some(PlayerKind::Mcts));
        assert_eq!(s.options, vec![("iterations".into(), Some("50".into()))]);
        let s = SpecText::parse("depth=4,exact").unwrap();
        assert_eq!((s.name.as_str(), s.search), ("depth=4,exact", None));
        assert_eq!(s.player(), PlayerKind::AlphaBeta);
        assert_eq!(s.options[1], ("exact".into(), None));
        assert_eq!(
            SpecText::parse("search=paranoid").unwrap().search,
            Some(PlayerKind::Paranoid)
        );
        for (text, msg) in [
            ("name=a,,depth=1", "engine 'name=a,,depth=1': empty option ''"),
            ("depth=", "engine 'depth=': empty option 'depth='"),
            ("name=a,name=b", "engine 'name=a,name=b': 'name' given twice"),
            ("random,greedy", "engine 'random,greedy': 'search' given twice"),
            ("mcts,search=random", "engine 'mcts,search=random': 'search' given twice"),
            ("depth=1,depth=2", "engine 'depth=1,depth=2': 'depth' given twice"),
            ("name", "engine 'name': 'name' needs a value"),
            (
                "search=minimax",
                "engine 'search=minimax': unknown search 'minimax' (alphabeta, random, greedy, paranoid, mcts)",
            ),
        ] {
            assert_eq!(SpecText::parse(text).unwrap_err().0, msg);
        }
    }

    #[test]
    fn a_spec_of_a_game_of_two_sides_sets_the_search() {
        let e = Engine::parse::<Epaminondas>("name=d4,depth=4,quiescence=off,lmr=off,history=off")
            .unwrap();
        assert_eq!(e.name, "d4");
        let Kind::Search {
            config,
            limits,
            hash_mib,
            exact,
        } = &e.kind
        else {
            panic!("{e:?}")
        };
        assert_eq!(limits.depth, Some(4));
        assert_eq!(*hash_mib, gamut_search::params::TOURNAMENT_HASH_MIB);
        assert!(exact.is_none() && !config.quiescence && !config.selective.lmr);
        assert!(!config.ordering.history && config.ordering.killers);
        let e = Engine::parse::<Epaminondas>("time=50,hash=2,threads=3,ordering_off=tt+killers")
            .unwrap();
        let Kind::Search {
            config, hash_mib, ..
        } = &e.kind
        else {
            panic!("{e:?}")
        };
        assert_eq!((config.threads, *hash_mib), (3, 2));
        assert!(!config.ordering.tt_move && !config.ordering.killers);
        let exact = Engine::parse::<Epaminondas>("depth=2,exact").unwrap();
        let Kind::Search { config, .. } = &exact.kind else {
            panic!()
        };
        assert_eq!(config.selective, gamut_search::params::Selective::NONE);
        assert!(matches!(
            Engine::parse::<Epaminondas>("greedy,eval_off=material").map(|e| e.kind),
            Ok(Kind::Greedy { .. })
        ));
        assert_eq!(
            Engine::parse::<Epaminondas>("random,tc=1+0").unwrap().tc,
            Some(TimeControl::parse("1+0").unwrap())
        );
        assert!(matches!(
            Engine::parse::<Epaminondas>("cmd=prog --x,time=10").map(|e| e.kind),
            Ok(Kind::External(External { .. }))
        ));
    }

    #[test]
    fn a_bad_spec_of_a_game_of_two_sides_says_what_is_wrong_in_one_line() {
        for (text, msg) in [
            ("depth=0", "engine 'depth=0': depth takes a whole number from 1 to 100, not '0'"),
            ("depth=101", "engine 'depth=101': depth takes a whole number from 1 to 100, not '101'"),
            ("time=x", "engine 'time=x': time takes a whole number from 1 up, not 'x'"),
            ("depth=1,threads=0", "engine 'depth=1,threads=0': threads takes a whole number from 1 to 256, not '0'"),
            ("name=a", "engine 'name=a': alphabeta needs depth=, time=, nodes= or tc="),
            ("random,depth=2", "engine 'random,depth=2': 'depth' does not apply to this player"),
            ("greedy,eval=net", "engine 'greedy,eval=net': 'eval' does not apply to this player"),
            ("depth=2,quiescence=maybe", "engine 'depth=2,quiescence=maybe': quiescence is on or off, not 'maybe'"),
            ("depth=2,parallel=x", "engine 'depth=2,parallel=x': parallel is lazysmp or rootsplit, not 'x'"),
            ("depth=2,iterations=5", "engine 'depth=2,iterations=5': unknown option 'iterations' (name, search, depth, time, nodes, tc, threads, hash, parallel, eval, net, eval_off, ordering_off, quiescence, aspiration, exact, lmr, nmp, rfp, futility, partial, narrow, history, table, param.<name>)"),
            ("depth=2,depth", "engine 'depth=2,depth': 'depth' given twice"),
            ("depth", "engine 'depth': 'depth' needs a value"),
            ("depth=2,ordering_off=tt+pv", "engine 'depth=2,ordering_off=tt+pv': unknown ordering heuristic 'pv' (tt, captures, killers, history)"),
            ("depth=2,tc=0+1", "engine 'depth=2,tc=0+1': tc=0+1: not [moves/]base+increment in seconds (tc=10+0.1, tc=40/60+0)"),
            ("mcts,iterations=5", "engine 'mcts,iterations=5': mcts plays games of more than two sides; epaminondas has two (alphabeta, greedy, random)"),
            ("cmd=prog", "engine 'cmd=prog': a program needs time=, depth=, nodes= or tc="),
            ("cmd=prog,greedy,time=5", "engine 'cmd=prog,greedy,time=5': cmd= names the program; it takes no search="),
            ("cmd=prog,time=5,width=2", "engine 'cmd=prog,time=5,width=2': unknown option 'width' for a program (name, cmd, time, depth, nodes, tc, margin, hash, threads, option.<name>)"),
        ] {
            assert_eq!(pair_error(text), msg);
        }
        assert!(pair_error("greedy,eval_off=nothing").contains("unknown evaluation term 'nothing'"));
        assert!(pair_error("depth=2,table").contains("no table of exact values for epaminondas"));
        let _ = Engine::parse::<Spokes>("name=g,greedy").unwrap();
    }

    #[test]
    fn a_spec_of_a_game_of_more_than_two_sides_reads_with_the_same_grammar() {
        let m = Engine::parse::<Spokes4>("name=m,mcts,iterations=50,exploration=0.2").unwrap();
        assert_eq!(m.name, "m");
        let Kind::Mcts(c) = &m.kind else {
            panic!("{m:?}")
        };
        assert_eq!((c.iterations, c.time, c.exploration), (Some(50), None, 0.2));
        let p = Engine::parse::<Spokes4>("search=paranoid,depth=2,width=3").unwrap();
        assert_eq!(p.name, "search=paranoid,depth=2,width=3");
        assert!(matches!(
            p.kind,
            Kind::Paranoid {
                width: 3,
                limits: Limits { depth: Some(2), .. },
                ..
            }
        ));
        assert_eq!(
            Engine::parse::<Spokes4>("random").unwrap().kind,
            Kind::Random
        );
        // The side's view evaluates with the game's network by default and
        // where asked, classic where asked; another game's network file is
        // refused.
        fn with_net<G: Evaluate>(text: &str) -> bool {
            match Engine::parse::<G>(text).unwrap().kind {
                Kind::Paranoid { eval, .. } => eval.is_net(),
                k => panic!("{k:?}"),
            }
        }
        assert!(with_net::<Spokes4>("paranoid,depth=1,eval=net"));
        assert!(!with_net::<Spokes4>("paranoid,depth=1,eval=classic"));
        assert!(with_net::<Spokes4>("paranoid,depth=1"));
        assert!(with_net::<Spokes2v2>("paranoid,depth=1,eval=net"));
        assert!(with_net::<Spokes2v2>("paranoid,depth=1"));
        assert!(!with_net::<Spokes2v2>("paranoid,depth=1,eval=classic"));
        let four = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../games/spokes/multi/spokes4.net"
        );
        assert!(with_net::<Spokes4>(&format!("paranoid,depth=1,net={four}")));
        let e = Engine::parse::<Spokes2v2>(&format!("paranoid,depth=1,net={four}"));
        let e = e.unwrap_err().to_string();
        assert!(e.contains("spokes4") && e.contains("spokes2v2"), "{e}");
        for (text, msg) in [
            ("name=m,time=5", "engine 'name=m,time=5': no search given (paranoid, mcts, random)"),
            ("paranoid", "engine 'paranoid': paranoid needs depth=, time= or nodes="),
            ("mcts,width=3", "engine 'mcts,width=3': mcts needs time= or iterations="),
            ("mcts,depth=3", "engine 'mcts,depth=3': 'depth' does not apply to mcts"),
            ("random,iterations=3", "engine 'random,iterations=3': 'iterations' does not apply to random"),
            ("mcts,iterations=0", "engine 'mcts,iterations=0': iterations=0: not a whole number from 1"),
            ("mcts,iterations=5,exploration=2", "engine 'mcts,iterations=5,exploration=2': exploration=2: not from 0 to 1"),
            ("paranoid,depth=1,threads=2", "engine 'paranoid,depth=1,threads=2': unknown option 'threads' (name, search, depth, time, nodes, iterations, width, exploration, hash, eval, net)"),
            ("mcts,iterations=5,eval=classic", "engine 'mcts,iterations=5,eval=classic': 'eval' does not apply to mcts"),
            ("paranoid,depth=1,eval=game", "engine 'paranoid,depth=1,eval=game': eval=game: use classic or net"),
            ("paranoid,depth=0", "engine 'paranoid,depth=0': depth takes a whole number from 1 to 100, not '0'"),
            ("cmd=prog,time=5", "engine 'cmd=prog,time=5': no search given (paranoid, mcts, random)"),
            ("depth=2", "engine 'depth=2': no search given (paranoid, mcts, random)"),
            ("greedy", "engine 'greedy': greedy plays games of two sides; games of more than two have paranoid, mcts and random"),
            ("mcts,mcts", "engine 'mcts,mcts': 'search' given twice"),
            ("mcts,tc=1+0", "engine 'mcts,tc=1+0': tc= does not apply to games of more than two sides: their rules do not say who wins when one side's clock runs out (use time= or iterations=)"),
        ] {
            assert_eq!(seat_error(text), msg);
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_time_control_reads_as_fastchess_writes_it_and_runs_by_periods() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, ms(10_000), ms(100))
        );
        assert_eq!(TimeControl::parse("2").unwrap().increment, Duration::ZERO);
        for bad in ["0+1", "x", "1+", "0/5+1", "-1+0", "1+inf", "/1+0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        let c = tc.after_move(tc.start(), ms(400));
        assert_eq!((c.remaining, c.moves_to_go), (ms(9_700), None));
        let tc = TimeControl::parse("2/1+0").unwrap();
        let c = tc.after_move(tc.start(), ms(300));
        assert_eq!((c.remaining, c.moves_to_go), (ms(700), Some(1)));
        // The period's last move: the base comes back, two moves to go.
        let c = tc.after_move(c, ms(200));
        assert_eq!((c.remaining, c.moves_to_go), (ms(1_500), Some(2)));
    }
}
