//! The search options, typed once: the command line flattens
//! [`SearchOptions`] into `analyze`, `bench` and the engine protocol's
//! defaults, a tournament spec and the protocol's `setoption` set them by
//! name ([`SearchOptions::set`]), and [`SearchOptions::setup`] checks them
//! against a game in one place, so every command refuses in one line what
//! a game cannot use.

use crate::evaluation::{Eval, Evaluation};
use crate::ordering::Ordering;
use crate::params::Selective;
use crate::{params, Config, Limits, Parallel};
use gamut_core::evaluate::{terms_off, Evaluate};
use std::path::PathBuf;
use std::time::Duration;

/// On or off.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

impl Switch {
    /// A switch's text: `on`/`off`, or UCI's `true`/`false`.
    pub fn parse(text: &str) -> Result<bool, String> {
        match text {
            "on" | "true" => Ok(true),
            "off" | "false" => Ok(false),
            _ => Err(format!("on or off, not '{text}'")),
        }
    }
}

/// Which static evaluation a search uses: the options of every command
/// that evaluates (`analyze`, `bench`, `datagen`, engine specs, `serve`).
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalOptions {
    /// The static evaluation: classic (the hand-written terms), net (the
    /// game's learned network; every game of two players has one) or game
    /// (the game's own: net for apart, epaminondas and two-player spokes,
    /// whose matches say it is stronger, classic for the others).
    #[arg(long, value_name = "KIND", value_enum, default_value_t = Eval::Game)]
    pub eval: Eval,
    /// The network file to evaluate with instead of the built-in one
    /// (written by tools/train.sh; it must be the game's).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
}

impl EvalOptions {
    /// The evaluation these options ask for in game `G`, or why it cannot
    /// be had, in one line.
    pub fn evaluation<G: Evaluate>(&self) -> Result<Evaluation, String> {
        Evaluation::of_game::<G>(self.eval, self.net.as_deref())
    }
}

/// How a search is set up and when it stops: every option the commands
/// that search share.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Stop after completing this depth (plies).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Stop after this many milliseconds (the best move comes by then).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time: Option<u64>,
    /// Stop after this many nodes (over all threads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = params::DEFAULT_HASH_MIB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// How threads share the work: lazysmp (all search, sharing the table)
    /// or rootsplit (root moves spread over threads).
    #[arg(long, value_name = "MODE", value_enum, default_value_t = Parallel::LazySmp)]
    pub parallel: Parallel,
    /// Evaluation terms to switch off, comma-separated (names per game in
    /// docs/rules/<game>.md).
    #[arg(long, value_name = "TERMS")]
    pub eval_off: Option<String>,
    /// The static evaluation.
    #[command(flatten)]
    pub evaluation: EvalOptions,
    /// Ordering heuristics to switch off, comma-separated: tt, captures,
    /// killers, history.
    #[arg(long, value_name = "LIST", value_parser = parse_ordering_off)]
    pub ordering_off: Option<String>,
    /// Switch off the capture search at the leaves.
    #[arg(long)]
    pub no_quiescence: bool,
    /// Switch off aspiration windows.
    #[arg(long)]
    pub no_aspiration: bool,
    /// Switch off Star1 pruning at chance nodes (plain expectimax).
    #[arg(long)]
    pub no_star1: bool,
    /// Exact mode: every unsound pruning and reduction off (late-move
    /// reductions, null moves, futility, partial move lists, narrow matrix
    /// games), so the score is the minimax value at the depth searched.
    #[arg(long)]
    pub exact: bool,
    /// Late-move reductions on or off (default: as the game has them).
    #[arg(long, value_name = "SWITCH", value_enum)]
    pub lmr: Option<Switch>,
    /// Null-move pruning on or off, where the game has null moves
    /// (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_enum)]
    pub nmp: Option<Switch>,
    /// Reverse futility pruning on or off (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_enum)]
    pub rfp: Option<Switch>,
    /// Futility pruning on or off (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_enum)]
    pub futility: Option<Switch>,
    /// Partial move lists below the root on or off: a Spokes resolution
    /// inside the search ends with the outcomes found after a hundred
    /// boards (default: as the game has it).
    #[arg(long, value_name = "SWITCH", value_enum)]
    pub partial: Option<Switch>,
    /// Narrow matrix games below a simultaneous root on or off: each player
    /// keeps sixteen actions, ten that did best at the root in the last
    /// completed iteration and six the game calls urgent (default: as the
    /// game has it).
    #[arg(long, value_name = "SWITCH", value_enum)]
    pub narrow: Option<Switch>,
    /// Set a search parameter: NAME=VALUE, repeatable (`gamut params`
    /// lists them with their defaults and ranges).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub params: Vec<(&'static str, i32)>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            depth: None,
            time: None,
            nodes: None,
            threads: 1,
            hash: params::DEFAULT_HASH_MIB as u32,
            parallel: Parallel::LazySmp,
            eval_off: None,
            evaluation: EvalOptions::default(),
            ordering_off: None,
            no_quiescence: false,
            no_aspiration: false,
            no_star1: false,
            exact: false,
            lmr: None,
            nmp: None,
            rfp: None,
            futility: None,
            partial: None,
            narrow: None,
            params: Vec::new(),
        }
    }
}

/// Checks a parameter's `NAME=VALUE` (for clap).
fn parse_param(text: &str) -> Result<(&'static str, i32), String> {
    params::parse_setting(text)
}

/// Checks a list of ordering heuristics to switch off (for clap).
fn parse_ordering_off(list: &str) -> Result<String, String> {
    Ordering::without(list).map_err(|e| e.to_string())?;
    Ok(list.to_string())
}

/// A number from `min` to `max`, or why not.
fn number(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| match max {
            u64::MAX => format!("{name} takes a whole number from {min} up, not '{value}'"),
            _ => format!("{name} takes a whole number from {min} to {max}, not '{value}'"),
        })
}

impl SearchOptions {
    /// The names [`set`](Self::set) knows, for messages and option lists.
    pub const NAMES: [&'static str; 20] = [
        "depth",
        "time",
        "nodes",
        "threads",
        "hash",
        "parallel",
        "eval_off",
        "eval",
        "net",
        "ordering_off",
        "quiescence",
        "aspiration",
        "star1",
        "exact",
        "lmr",
        "nmp",
        "rfp",
        "futility",
        "partial",
        "narrow",
    ];

    /// Sets option `name` (as [`NAMES`](Self::NAMES) spells it, or
    /// `param.<name>` for a tunable parameter of [`params::TUNABLES`]) from
    /// its text: the one parser of a tournament spec's `name=value` and the
    /// protocol's `setoption`. A switch given without a value is on; a
    /// list option given `none`, `<empty>` or nothing is cleared. `Ok(false)`
    /// for a name it does not know; an error, in one line, for a value out
    /// of range. Whether the game can use the value is
    /// [`setup`](Self::setup)'s to say.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<bool, String> {
        let need = || value.ok_or_else(|| format!("'{name}' needs a value"));
        let switch = || {
            value
                .map_or(Ok(true), Switch::parse)
                .map_err(|e| format!("{name} is {e}"))
        };
        let game_switch = || match value {
            Some("game" | "default") => Ok(None),
            _ => switch().map(|on| Some(if on { Switch::On } else { Switch::Off })),
        };
        let list = || match value {
            None | Some("" | "<empty>" | "none") => None,
            Some(v) => Some(v.to_string()),
        };
        if let Some(param) = name.strip_prefix("param.") {
            let t = params::Tunable::named(param)?;
            let v = t.parse(need()?)?;
            self.params.retain(|(n, _)| *n != t.name);
            self.params.push((t.name, v));
            return Ok(true);
        }
        match name {
            "depth" => self.depth = Some(number(name, need()?, 1, 100)? as u32),
            "time" => self.time = Some(number(name, need()?, 1, u64::MAX)?),
            "nodes" => self.nodes = Some(number(name, need()?, 1, u64::MAX)?),
            "threads" => self.threads = number(name, need()?, 1, 256)? as u32,
            "hash" => self.hash = number(name, need()?, 1, 65536)? as u32,
            "parallel" => {
                self.parallel = match need()? {
                    "lazysmp" => Parallel::LazySmp,
                    "rootsplit" => Parallel::RootSplit,
                    v => return Err(format!("parallel is lazysmp or rootsplit, not '{v}'")),
                }
            }
            "eval_off" => self.eval_off = list().map(|l| l.replace('+', ",")),
            "eval" => {
                self.evaluation.eval = match need()? {
                    "default" => Eval::Game,
                    v => v
                        .parse()
                        .map_err(|_| format!("eval is game, classic or net, not '{v}'"))?,
                }
            }
            "net" => self.evaluation.net = list().map(PathBuf::from),
            "ordering_off" => {
                let l = list().map(|l| l.replace('+', ","));
                if let Some(l) = &l {
                    parse_ordering_off(l)?;
                }
                self.ordering_off = l;
            }
            "quiescence" => self.no_quiescence = !switch()?,
            "aspiration" => self.no_aspiration = !switch()?,
            "star1" => self.no_star1 = !switch()?,
            "exact" => self.exact = switch()?,
            "lmr" => self.lmr = game_switch()?,
            "nmp" => self.nmp = game_switch()?,
            "rfp" => self.rfp = game_switch()?,
            "futility" => self.futility = game_switch()?,
            "partial" => self.partial = game_switch()?,
            "narrow" => self.narrow = game_switch()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The selective feature switches given, by name.
    fn selective_switches(&self) -> [(&'static str, Option<Switch>); 6] {
        [
            ("lmr", self.lmr),
            ("nmp", self.nmp),
            ("rfp", self.rfp),
            ("futility", self.futility),
            ("partial", self.partial),
            ("narrow", self.narrow),
        ]
    }

    /// The limits asked for (none: until stopped).
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            time: self.time.map(Duration::from_millis),
            nodes: self.nodes,
            clock: None,
        }
    }

    /// The search configuration these options ask for in game `G`: the one
    /// place they are checked against the game (its evaluation terms, its
    /// network), each refusal one line.
    pub fn setup<G: Evaluate>(&self) -> Result<Config, String> {
        let mut config =
            Config::new::<G>(self.threads as usize, self.evaluation.evaluation::<G>()?);
        config.parallel = self.parallel;
        config.quiescence &= !self.no_quiescence;
        config.aspiration = !self.no_aspiration;
        config.star1 = !self.no_star1;
        for (name, switch) in self.selective_switches() {
            if let (Some(on), Some(s)) = (config.selective.switch(name), switch) {
                *on = s == Switch::On;
            }
        }
        if self.exact {
            config.selective = Selective::NONE;
        }
        if let Some(list) = &self.eval_off {
            config.terms = terms_off::<G>(list).map_err(|e| e.to_string())?;
        }
        if let Some(list) = &self.ordering_off {
            config.ordering = Ordering::without(list).map_err(|e| e.to_string())?;
        }
        for &(name, value) in &self.params {
            config.tunables.set(name, value)?;
        }
        Ok(config)
    }
}
