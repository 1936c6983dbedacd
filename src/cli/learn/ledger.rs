//! The ledger of a `gamut learn` directory: `ledger.jsonl`, one JSON line
//! per completed step, the first line the run's settings. It is replaced
//! whole (written to a temporary name, synced, renamed) for each new
//! line, so a kill leaves either the old ledger or the new one.

use super::files::{rename, sync, temp_name};
use super::{Best, STEPS};
use crate::cli::CliError;
use clap::Args;
use gamut_engine::AnyGame;
use gamut_tournament::stats::Sprt;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The settings of a run as options: those given on the command line.
/// They are fixed when the directory is made; a run that resumes it may
/// repeat them but not change them.
#[derive(Args, Debug, Default, Serialize)]
pub struct SettingsArgs {
    /// Self-play games per generation, over all shares [default: 1000;
    /// 2000 for spokes4 and spokes2v2].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=gamut_tournament::schedule::MAX_GAMES))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// Search nodes per move in self-play [default: 4000; 1000 for
    /// spokes4 and spokes2v2].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Uniformly random plies at the start of each self-play game and
    /// each gate opening [default: 6; 2 for spokes4 and spokes2v2].
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random_plies: Option<u32>,
    /// Shares (files) of each generation's data, for --shard [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<u64>,
    /// The seed every generation's data, training and gate derive from
    /// [default: 1].
    #[arg(long, value_name = "K")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Train on the data of this many generations, the newest last
    /// [default: 2].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<u64>,
    /// Training passes over the positions [default: 6; 12 for spokes4
    /// and spokes2v2].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epochs: Option<u64>,
    /// Hidden units per perspective [default: 128; 32 for spokes4 and
    /// spokes2v2].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<u64>,
    /// Positions per optimiser step [default: 1024].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<u64>,
    /// The optimiser's learning rate at the start [default: 0.001; 0.003
    /// for spokes4 and spokes2v2].
    #[arg(long, value_name = "X")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lr: Option<f64>,
    /// Weight of the game's result in the training target, the search
    /// score's being one minus this [default: 0.3; 1 for spokes4 and
    /// spokes2v2].
    #[arg(long, value_name = "X")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lambda: Option<f64>,
    /// Evaluation units per unit of the network's output [default: 400;
    /// 150 for spokes, spokes4 and spokes2v2].
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<i32>,
    /// Fraction of the games held out to validate the training
    /// [default: 0.05].
    #[arg(long, value_name = "X")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<f64>,
    /// The gate's search limit, as engine specs write it: `depth=4`,
    /// `nodes=8000`, `time=100` (a time limit makes the run
    /// unreproducible) [default: nodes=8000; depth=1,width=4 for spokes4
    /// and spokes2v2, whose engines are paranoid searches].
    #[arg(long, value_name = "SPEC")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<String>,
    /// The gate's most games (even), if the SPRT does not decide first
    /// [default: 800; 396 for spokes4 and spokes2v2].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate_games: Option<u64>,
    /// The gate's sequential test, candidate against best: promoted when
    /// it accepts elo1 [default: elo0=0,elo1=10,alpha=0.05,beta=0.05]; in
    /// spokes4 and spokes2v2 (a seats match) unused: promoted when the
    /// Elo interval of the candidate's share lies above 0.
    #[arg(long, value_name = "TEST")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// Games of each generation's candidate against the classic
    /// evaluation at the gate's limit (even; 0: none), for the ledger's
    /// Elo against classic [default: 200; 396 for spokes4 and spokes2v2].
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classic_games: Option<u64>,
    /// What plays generation 1's data and is the first best: `net` (the
    /// game's built-in network) or `classic` [default: net].
    #[arg(long, value_name = "KIND", value_parser = ["net", "classic"])]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Train each candidate from new weights. Without it each starts
    /// from the best network: the game's built-in network until one is
    /// promoted (whatever --start says), then the one promoted last.
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fresh: bool,
}

impl SettingsArgs {
    /// The settings given, by name.
    #[must_use]
    pub fn given(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }
}

/// A run's settings, as its ledger's first line keeps them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Settings {
    pub games: u64,
    pub nodes: u64,
    pub random_plies: u32,
    pub shards: u64,
    pub seed: u64,
    pub window: u64,
    pub epochs: usize,
    pub hidden: usize,
    pub batch: usize,
    pub lr: f64,
    pub lambda: f64,
    pub scale: i32,
    pub validation: f64,
    pub gate: String,
    pub gate_games: u64,
    pub sprt: String,
    pub start: String,
    /// Absent from runs started before the measure against classic:
    /// those take the default.
    #[serde(default = "default_classic_games")]
    pub classic_games: u64,
    /// Whether each candidate is trained from new weights rather than
    /// from the best network. Runs started before candidates started
    /// from the best trained from new weights, and go on doing so.
    #[serde(default = "started_before_warm_starts")]
    pub fresh: bool,
}

/// Games of each candidate against classic, unless the run says.
fn default_classic_games() -> u64 {
    200
}

/// `fresh` in a run whose settings do not say: one started when every
/// candidate was trained from new weights.
fn started_before_warm_starts() -> bool {
    true
}

impl Settings {
    /// The defaults in game `G`: in a game of more than two players
    /// (where each side's paranoid search plays) the four-player recipe of
    /// docs/nnue.md, with gates of whole cycles of seatings. The scale is
    /// the game's built-in network's, so that a candidate reads scores in
    /// the units the searches use.
    fn defaults(game: &dyn AnyGame) -> Settings {
        let seated = super::seated(game);
        let scale = game.network_bytes().map_or(400, |b| {
            game.network_from_bytes(b)
                .expect("the built-in network is well-formed")
                .scale
        });
        let two = Settings {
            games: 1000,
            nodes: 4000,
            random_plies: 6,
            shards: 1,
            seed: 1,
            window: 2,
            epochs: 6,
            hidden: 128,
            batch: 1024,
            lr: 0.001,
            lambda: 0.3,
            scale,
            validation: 0.05,
            gate: "nodes=8000".into(),
            gate_games: 800,
            sprt: "elo0=0,elo1=10,alpha=0.05,beta=0.05".into(),
            start: "net".into(),
            classic_games: default_classic_games(),
            fresh: false,
        };
        if !seated {
            return two;
        }
        Settings {
            games: 2000,
            nodes: 1000,
            random_plies: 2,
            epochs: 12,
            hidden: 32,
            lr: 0.003,
            lambda: 1.0,
            gate: "depth=1,width=4".into(),
            gate_games: 396,
            classic_games: 396,
            ..two
        }
    }

    /// Checks what the command line's parser cannot: the ranges of the
    /// training's numbers, the test and the gate's limit.
    fn check(&self, game: &dyn AnyGame) -> Result<(), CliError> {
        if !(self.validation > 0.0 && self.validation < 1.0) {
            return Err(CliError(format!(
                "--validation takes a fraction between 0 and 1, not {}",
                self.validation
            )));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(CliError(format!(
                "--lambda takes a weight from 0 to 1, not {}",
                self.lambda
            )));
        }
        if self.lr.is_nan() || self.lr <= 0.0 || self.scale < 1 {
            return Err(CliError(
                "--lr and --scale take numbers above 0".to_string(),
            ));
        }
        let max = gamut_tournament::schedule::MAX_GAMES;
        for (option, games) in [
            ("games", self.games),
            ("gate-games", self.gate_games),
            ("classic-games", self.classic_games),
        ] {
            if games > max {
                return Err(CliError(format!(
                    "--{option} {games}: a run plays at most {max} games a step"
                )));
            }
        }
        if self.classic_games % 2 == 1 {
            return Err(CliError(format!(
                "--classic-games takes an even number (pairs of games), not {}",
                self.classic_games
            )));
        }
        if self.gate_games % 2 == 1 {
            return Err(CliError(format!(
                "--gate-games takes an even number (pairs of games), not {}",
                self.gate_games
            )));
        }
        Sprt::parse(&self.sprt).map_err(|e| CliError(format!("--sprt {}: {e}", self.sprt)))?;
        for key in ["name", "eval", "net"] {
            if self
                .gate
                .split(',')
                .any(|o| o.split('=').next() == Some(key))
            {
                return Err(CliError(format!(
                    "--gate {}: the gate chooses '{key}' itself",
                    self.gate
                )));
            }
        }
        game.engine(&format!(
            "name=gate,{}eval=classic,{}",
            super::searcher(game),
            self.gate
        ))
        .map_err(|e| CliError(format!("--gate {}: {e}", self.gate)))?;
        if !self.fresh {
            self.check_warm_start(game)?;
        }
        Ok(())
    }

    /// Checks that candidates can start from the game's built-in network
    /// (and so from the networks promoted after it): the same hidden
    /// size and scale, and no classic evaluation under it.
    fn check_warm_start(&self, game: &dyn AnyGame) -> Result<(), CliError> {
        let b = game.network_bytes().expect("the game has a network");
        let net = game
            .network_from_bytes(b)
            .expect("the built-in network is well-formed");
        let why = if net.hidden != self.hidden {
            format!(
                "--hidden {}: the built-in network has {} hidden units",
                self.hidden, net.hidden
            )
        } else if net.scale != self.scale {
            format!(
                "--scale {}: the built-in network's scale is {}",
                self.scale, net.scale
            )
        } else if net.on_classic {
            "the built-in network adds to the classic evaluation, and learn trains networks that do not".into()
        } else {
            return Ok(());
        };
        Err(CliError(format!(
            "{why}, and each candidate starts from it or from a network trained from it \
             (--fresh trains them from new weights)"
        )))
    }
}

/// A `gamut learn` directory's ledger.
pub struct Ledger {
    /// The directory.
    pub dir: PathBuf,
    /// The game's id.
    pub game: String,
    /// The run's settings.
    pub settings: Settings,
    /// Every line, the settings' first.
    pub records: Vec<Value>,
}

impl Ledger {
    /// The ledger file of directory `dir`.
    fn path(dir: &Path) -> PathBuf {
        dir.join("ledger.jsonl")
    }

    /// Reads the ledger of `dir`, which must be a run of game `game`.
    pub fn open(dir: &Path, game: &str) -> Result<Ledger, CliError> {
        let path = Ledger::path(dir);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
        let mut records = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line)
                .map_err(|e| CliError(format!("{} line {}: {e}", path.display(), i + 1)))?;
            records.push(v);
        }
        let first = records.first().cloned().unwrap_or(Value::Null);
        if first["step"] != "start" {
            return Err(CliError(format!(
                "{}: the first line is not the run's settings",
                path.display()
            )));
        }
        if first["game"] != game {
            return Err(CliError(format!(
                "{} is a run of {}, not {game}",
                dir.display(),
                first["game"].as_str().unwrap_or("another game")
            )));
        }
        let settings: Settings = serde_json::from_value(first["settings"].clone())
            .map_err(|e| CliError(format!("{} line 1: {e}", path.display())))?;
        Ok(Ledger {
            dir: dir.to_path_buf(),
            game: game.to_string(),
            settings,
            records,
        })
    }

    /// Reads the ledger of `dir`, the options `given` the same as its
    /// settings; or, where there is none, makes the directory and its
    /// ledger with the settings given (the rest default).
    pub fn open_or_start(
        game: &dyn AnyGame,
        dir: &Path,
        given: Map<String, Value>,
    ) -> Result<Ledger, CliError> {
        if Ledger::path(dir).exists() {
            let ledger = Ledger::open(dir, game.id().name())?;
            let kept = serde_json::to_value(&ledger.settings)?;
            for (key, value) in &given {
                if kept[key] != *value && value.is_boolean() {
                    return Err(CliError(format!(
                        "{} was started {} --{}: settings are fixed when the run starts",
                        dir.display(),
                        if kept[key] == true { "with" } else { "without" },
                        key.replace('_', "-"),
                    )));
                }
                if kept[key] != *value {
                    return Err(CliError(format!(
                        "{} was started with --{} {}, not {}: settings are fixed when the run starts",
                        dir.display(),
                        key.replace('_', "-"),
                        shown(&kept[key]),
                        shown(value)
                    )));
                }
            }
            return Ok(ledger);
        }
        let mut settings = serde_json::to_value(Settings::defaults(game))?;
        for (key, value) in given {
            settings[key] = value;
        }
        let settings: Settings = serde_json::from_value(settings)?;
        settings.check(game)?;
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("cannot make {}: {e}", dir.display())))?;
        let mut ledger = Ledger {
            dir: dir.to_path_buf(),
            game: game.id().name().to_string(),
            settings: settings.clone(),
            records: Vec::new(),
        };
        ledger.record(json!({
            "generation": 0,
            "step": "start",
            "game": game.id().name(),
            "settings": settings,
        }))?;
        Ok(ledger)
    }

    /// Adds `record` (with the time) and replaces the file.
    pub fn record(&mut self, mut record: Value) -> Result<(), CliError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        record["time"] = now.into();
        self.records.push(record);
        let mut text = String::new();
        for r in &self.records {
            text.push_str(&serde_json::to_string(r)?);
            text.push('\n');
        }
        // Each process its own temporary name: shares started at once
        // may all write the first line.
        let path = Ledger::path(&self.dir);
        let tmp = temp_name(&path.with_extension(format!("jsonl.{}", std::process::id())));
        replace_file(&tmp, &path, text.as_bytes())
    }

    /// The next step to do: its generation and name.
    #[must_use]
    pub fn next_step(&self) -> (u64, &'static str) {
        let last = self.records.last().expect("the settings' line");
        let g = last["generation"].as_u64().unwrap_or(0);
        match STEPS.iter().position(|s| last["step"] == *s) {
            Some(i) if i + 1 < STEPS.len() => (g, STEPS[i + 1]),
            _ => (g + 1, STEPS[0]),
        }
    }

    /// The record of generation `g`'s step `step`.
    #[must_use]
    pub fn find(&self, g: u64, step: &str) -> Option<&Value> {
        self.records
            .iter()
            .find(|r| r["generation"] == g && r["step"] == step)
    }

    #[cfg(feature = "learn")]
    /// The paths (relative to the directory) of the files of generation
    /// `g`'s step `step`.
    #[must_use]
    pub fn files(&self, g: u64, step: &str) -> Vec<String> {
        self.find(g, step)
            .and_then(|r| r["files"].as_array())
            .map(|files| {
                files
                    .iter()
                    .filter_map(|f| f["path"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Generations complete (promoted or not).
    #[must_use]
    pub fn generations(&self) -> u64 {
        self.records
            .iter()
            .filter(|r| r["step"] == "promotion")
            .count() as u64
    }

    /// The best so far: the network promoted last, else the start.
    #[must_use]
    pub fn best(&self) -> Best {
        let promoted = self
            .records
            .iter()
            .rev()
            .find(|r| r["step"] == "promotion" && r["decision"] == "promoted");
        match promoted {
            Some(r) => Best::File {
                generation: r["generation"].as_u64().unwrap_or(0),
                entry: r["files"][0].clone(),
            },
            None if self.settings.start == "classic" => Best::Classic,
            None => Best::Builtin,
        }
    }
}

/// A setting as the command line writes it.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The ledger entry of file `name` of directory `dir`: its path, size
/// and CRC-32.
pub fn file_entry(dir: &Path, name: &str) -> Result<Value, CliError> {
    let path = dir.join(name);
    let bytes = std::fs::read(&path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    Ok(json!({
        "path": name,
        "bytes": bytes.len(),
        "crc32": format!("{:08x}", crc32fast::hash(&bytes)),
    }))
}

/// Replaces `path` by `bytes`: written to `tmp`, synced, renamed.
pub fn replace_file(tmp: &Path, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    std::fs::write(tmp, bytes)
        .map_err(|e| CliError(format!("cannot write {}: {e}", tmp.display())))?;
    sync(tmp)?;
    rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_engine::game_of;
    use gamut_games::apart::Apart;
    use gamut_games::spokes::{Spokes, Spokes4};

    /// The training scale is the built-in network's: 150 in Spokes (home
    /// stones), 400 where the networks read centistones.
    #[test]
    fn the_default_scale_is_the_built_in_networks() {
        assert_eq!(Settings::defaults(game_of::<Apart>()).scale, 400);
        assert_eq!(Settings::defaults(game_of::<Spokes>()).scale, 150);
        assert_eq!(Settings::defaults(game_of::<Spokes4>()).scale, 150);
    }

    /// A run started before the measure against classic keeps its
    /// settings line and takes that measure's default.
    #[test]
    fn settings_written_before_the_measure_against_classic_still_read() {
        let mut old = serde_json::to_value(Settings::defaults(game_of::<Apart>())).unwrap();
        old.as_object_mut().unwrap().remove("classic_games");
        let read: Settings = serde_json::from_value(old).unwrap();
        assert_eq!(read, Settings::defaults(game_of::<Apart>()));
        assert_eq!(read.classic_games, 200);
    }

    /// A run started before candidates started from the best network
    /// goes on training them from new weights.
    #[test]
    fn settings_written_before_warm_starts_train_from_new_weights() {
        let mut old = serde_json::to_value(Settings::defaults(game_of::<Apart>())).unwrap();
        old.as_object_mut().unwrap().remove("fresh");
        let read: Settings = serde_json::from_value(old).unwrap();
        assert!(read.fresh);
        assert!(!Settings::defaults(game_of::<Apart>()).fresh);
    }
}
