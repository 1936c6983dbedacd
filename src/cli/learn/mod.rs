//! `gamut learn`: the loop of generations that makes a game's network
//! stronger by itself (docs/learn.md). Each generation has four steps:
//! self-play data played by the current best evaluation, a network
//! trained on it (`gamut_train`) from the best network's weights (the
//! built-in network's until one is promoted) unless the run is
//! `--fresh`, a gate (an SPRT match of the candidate
//! against the best, one process, the tournament library's runner; in a
//! game of more than two players a seats match of paranoid searches,
//! judged by its interval) and the promotion. Each completed step is one JSON line of the ledger in
//! the directory, recorded only once its outputs are complete (written to
//! a temporary name, synced and renamed); a step without its line is done
//! again from a clean state, so a run killed at any point and started
//! again ends as an uninterrupted run does.

mod files;
mod gate;
mod ledger;
mod page;

use super::args::parse_game;
use super::datagen::share_count;
use super::progress::{GamesBar, Progress};
use super::CliError;
use clap::Args;
use files::{builtin_slot, rename, sync, temp_name};
use gamut_core::bits::splitmix64;
use gamut_engine::AnyGame;
use gamut_games::data::{encode_game, write_header, Reader};
use gamut_games::GameId;
use gamut_search::{Evaluation, Limits};
use gamut_tournament::report::Summary;
use gamut_tournament::runner;
use gamut_tournament::schedule::Shard;
use gamut_tournament::session::Ended;
use gamut_tournament::stats::Sprt;
#[cfg(feature = "learn")]
use gate::round6;
use gate::{elo_text, promotes, state_name, MatchResult};
use ledger::{file_entry, Ledger, Settings, SettingsArgs};
use serde_json::{json, Value};
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Options of `gamut learn`.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// The game (any with a network: aporia, apart, empedocles,
    /// epaminondas, spokes, spokes4, spokes2v2).
    #[arg(value_parser = parse_game)]
    pub game: GameId,
    /// The directory of the run: its ledger (`ledger.jsonl`, `ledger.html`),
    /// the best network (`best.net`) and each generation's files
    /// (`gen-001/`…). Created if missing; an existing one is resumed.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// Stop once this many generations are complete in DIR (counted from
    /// the first, not from this run).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub generations: u64,
    /// Play only share K of N of the current generation's data (the games
    /// numbered K-1 modulo N, as `datagen --shard` does) into its own file
    /// in DIR, then stop; a run without --shard plays the shares still
    /// missing and goes on. N is the run's number of shares (--shards).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, conflicts_with_all = ["shards", "install"])]
    pub shard: Option<Shard>,
    /// Copy the best network of DIR into the game's built-in slot, the
    /// one file <game>.net under src/games/ in the current directory (the
    /// repository's root), and stop; anything that is not a network of
    /// the game is refused.
    #[arg(long)]
    pub install: bool,
    /// Games played at once in the gate (1 keeps it reproducible: where
    /// an SPRT stops may depend on the order games finish).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// The run's settings, fixed when DIR is made (see docs/learn.md).
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// What a candidate trained from no network starts from, as the ledger
/// names it.
const NEW_WEIGHTS: &str = "new weights";

/// The steps of a generation, in order, as the ledger names them.
const STEPS: [&str; 5] = ["data", "train", "gate", "classic", "promotion"];

/// The environment variable that makes a run stop for good inside a
/// step (`data`, `train`, `gate`, `classic` or `promotion`) with part of its
/// outputs written, after a line on stderr: the kill-and-resume test
/// kills it there.
const PAUSE: &str = "GAMUT_LEARN_PAUSE";

/// Waits forever inside `step` if [`PAUSE`] names it.
fn pause(step: &str) {
    if std::env::var(PAUSE).is_ok_and(|v| v == step) {
        eprintln!("paused in {step}");
        loop {
            std::thread::sleep(std::time::Duration::from_secs(60));
        }
    }
}

/// Runs `gamut learn`.
pub fn learn(a: &LearnArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let game = gamut_engine::game(a.game);
    if game.network_bytes().is_none() {
        return Err(CliError(format!("{} has no network to learn", a.game)));
    }
    let dir_text = a.dir.to_string_lossy();
    if dir_text.contains(',') || dir_text.contains('=') {
        return Err(CliError(format!(
            "--dir {dir_text}: engine specs name files in it, so it may hold no ',' or '='"
        )));
    }
    if a.install {
        return install(game, a, out);
    }
    let mut given = a.settings.given();
    if let Some(shard) = a.shard {
        given.insert("shards".into(), shard.count.into());
    }
    let mut ledger = Ledger::open_or_start(game, &a.dir, given)?;
    let run = Run {
        game,
        dir: a.dir.clone(),
        settings: ledger.settings.clone(),
        concurrency: a.concurrency,
        quiet,
    };
    if let Some(shard) = a.shard {
        let k = shard.index + 1;
        let (generation, step) = ledger.next_step();
        if step != "data" {
            writeln!(
                out,
                "generation {generation}'s data is complete: nothing to play"
            )?;
            return Ok(());
        }
        if !run.play_share(&ledger, generation, k, out)? {
            let (games, _) = run.check_share(generation, k)?;
            writeln!(
                out,
                "generation {generation}: share {k} of {} of the data is played already ({games} games, checked)",
                run.settings.shards
            )?;
        }
        return Ok(());
    }
    if !cfg!(feature = "learn") && ledger.next_step().0 <= a.generations {
        return Err(no_trainer());
    }
    loop {
        let (generation, step) = ledger.next_step();
        if generation > a.generations {
            break;
        }
        let started = Instant::now();
        let mut record = match step {
            "data" => run.data(&ledger, generation, out)?,
            #[cfg(feature = "learn")]
            "train" => run.train(&ledger, generation, out)?,
            #[cfg(not(feature = "learn"))]
            "train" => return Err(no_trainer()),
            "gate" => run.gate(&ledger, generation, out)?,
            "classic" => run.classic(generation, out)?,
            _ => run.promote(&ledger, generation, out)?,
        };
        record["generation"] = generation.into();
        record["step"] = step.into();
        record["seconds"] = json!((started.elapsed().as_secs_f64() * 10.0).round() / 10.0);
        ledger.record(record)?;
        page::write(&ledger)?;
    }
    // Also after a kill between a step's line and its page.
    page::write(&ledger)?;
    let best = ledger.best();
    writeln!(
        out,
        "{} generations complete in {}; best: {}",
        ledger.generations(),
        a.dir.display(),
        best.describe()
    )?;
    Ok(())
}

/// The refusal of a build without the trainer (the `learn` feature),
/// which can still play shards of data and install a network.
fn no_trainer() -> CliError {
    CliError(
        "this gamut was built without the trainer: build it with `cargo build --release --features learn` \
         (--shard and --install work without it)"
            .into(),
    )
}

/// What plays as the best so far: the starting evaluation, or the
/// network `best.net` promoted last (its size and CRC as recorded).
#[derive(Clone, Debug, PartialEq)]
pub enum Best {
    /// The game's classic terms.
    Classic,
    /// The game's built-in network.
    Builtin,
    /// `best.net` in the directory, promoted in this generation.
    File {
        /// The generation whose candidate it is.
        generation: u64,
        /// Its ledger entry (path, bytes, crc32).
        entry: Value,
    },
}

impl Best {
    /// In words, for the end of a run.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Best::Classic => "the classic evaluation (no network promoted)".into(),
            Best::Builtin => "the built-in network (no network promoted)".into(),
            Best::File { generation, .. } => {
                format!("best.net, generation {generation}'s network")
            }
        }
    }

    /// Its name as the ledger and the page show it.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Best::Classic => "the classic evaluation".into(),
            Best::Builtin => "the built-in network".into(),
            Best::File { generation, .. } => format!("generation {generation}'s network"),
        }
    }
}

/// One run's steps.
struct Run {
    game: &'static dyn AnyGame,
    dir: PathBuf,
    settings: Settings,
    concurrency: u32,
    quiet: bool,
}

impl Run {
    /// The folder of generation `g`'s files, relative to the directory.
    fn folder(g: u64) -> String {
        format!("gen-{g:03}")
    }

    /// The seed of generation `g`'s step `what` (data, training, gate).
    fn seed(&self, g: u64, what: u64) -> u64 {
        splitmix64(self.settings.seed ^ splitmix64(g.wrapping_mul(4).wrapping_add(what)))
    }

    /// The best evaluation as a value, its file checked against the
    /// ledger.
    fn best_evaluation(&self, best: &Best) -> Result<Evaluation, CliError> {
        match best {
            Best::Classic => Ok(Evaluation::Classic),
            Best::Builtin => Ok(self
                .game
                .builtin_evaluation()
                .expect("the game has a network")),
            Best::File { entry, .. } => {
                let path = self.check_best(entry)?;
                let net = self.game.read_network(&path)?;
                Ok(Evaluation::Net(std::sync::Arc::new(net)))
            }
        }
    }

    /// `best.net`'s path once its size and CRC are those the ledger
    /// recorded.
    fn check_best(&self, entry: &Value) -> Result<PathBuf, CliError> {
        let path = self.dir.join("best.net");
        let now = file_entry(&self.dir, "best.net")?;
        if now["bytes"] != entry["bytes"] || now["crc32"] != entry["crc32"] {
            return Err(CliError(format!(
                "{} is not the network the ledger promoted (size or CRC differ)",
                path.display()
            )));
        }
        Ok(path)
    }

    /// The path of share `k` of generation `g`'s data, relative to the
    /// directory.
    fn share_name(&self, g: u64, k: u64) -> String {
        let n = self.settings.shards;
        format!("{}/data-{k}-of-{n}.dat", Self::folder(g))
    }

    /// Plays share `k` of generation `g`'s data into its file, unless
    /// that file is there already (a file is only ever there complete, as
    /// it is renamed into place); whether it played it.
    fn play_share(
        &self,
        ledger: &Ledger,
        g: u64,
        k: u64,
        out: &mut impl Write,
    ) -> Result<bool, CliError> {
        let name = self.share_name(g, k);
        let path = self.dir.join(&name);
        if path.exists() {
            return Ok(false);
        }
        std::fs::create_dir_all(self.dir.join(Self::folder(g))).map_err(|e| {
            CliError(format!(
                "cannot make a folder in {}: {e}",
                self.dir.display()
            ))
        })?;
        let best = ledger.best();
        let self_play = self.game.self_play(self.best_evaluation(&best)?);
        let limits = Limits {
            nodes: Some(self.settings.nodes),
            ..Limits::default()
        };
        let n = self.settings.shards;
        let count = share_count(self.settings.games, k, n);
        let tmp = temp_name(&path);
        let cannot = |e: io::Error| CliError(format!("cannot write {}: {e}", tmp.display()));
        let mut file = File::create(&tmp).map_err(cannot)?;
        write_header(&mut file, self.game.id().name()).map_err(cannot)?;
        let bar = Progress::new(
            count,
            "{prefix} {bar:30} {pos}/{len} games eta {eta}",
            self.quiet,
        );
        bar.set_prefix(format!("generation {g} data {k}/{n}"));
        let seed = self.seed(g, 0);
        for (played, i) in (0..count).map(|j| k - 1 + j * n).enumerate() {
            let game = self_play.game(seed, self.settings.random_plies, i, &limits);
            file.write_all(&encode_game(&game)).map_err(cannot)?;
            bar.inc();
            if played == 0 {
                file.flush().map_err(cannot)?;
                pause("data");
            }
        }
        bar.finish();
        file.sync_all().map_err(cannot)?;
        drop(file);
        rename(&tmp, &path)?;
        writeln!(
            out,
            "generation {g}: share {k} of {n} of the data ({count} games) played by {}",
            best.name()
        )?;
        Ok(true)
    }

    /// Share `k` of generation `g`'s data, read through and checked before
    /// it is trusted: data of the game, every game whole, and as many
    /// games as the share has. Its games and positions.
    fn check_share(&self, g: u64, k: u64) -> Result<(u64, u64), CliError> {
        let name = self.share_name(g, k);
        let path = self.dir.join(&name);
        let bad = |e: String| {
            CliError(format!(
                "{}: {e}: not share {k} of generation {g}'s data (remove it to play the share again)",
                path.display()
            ))
        };
        let file = File::open(&path).map_err(|e| bad(e.to_string()))?;
        let mut reader = Reader::new(BufReader::new(file)).map_err(|e| bad(e.to_string()))?;
        if reader.game() != self.game.id().name() {
            return Err(bad(format!("holds {} data", reader.game())));
        }
        let (mut games, mut positions) = (0u64, 0u64);
        while let Some(game) = reader.next_game().map_err(|e| bad(e.to_string()))? {
            games += 1;
            positions += game.samples.len() as u64;
        }
        let want = share_count(self.settings.games, k, self.settings.shards);
        if games != want {
            return Err(bad(format!("{games} games where the share has {want}")));
        }
        Ok((games, positions))
    }

    /// Generation `g`'s data: every share played (those complete kept),
    /// then counted.
    fn data(&self, ledger: &Ledger, g: u64, out: &mut impl Write) -> Result<Value, CliError> {
        let mut files = Vec::new();
        let (mut games, mut positions) = (0u64, 0u64);
        for k in 1..=self.settings.shards {
            self.play_share(ledger, g, k, out)?;
            let (share_games, share_positions) = self.check_share(g, k)?;
            games += share_games;
            positions += share_positions;
            files.push(file_entry(&self.dir, &self.share_name(g, k))?);
        }
        writeln!(
            out,
            "generation {g}: data {games} games, {positions} positions"
        )?;
        Ok(json!({
            "played_by": ledger.best().name(),
            "games": games,
            "positions": positions,
            "files": files,
        }))
    }

    /// The network generation `g`'s candidate starts from, unless the
    /// run trains from new weights: the best network (the built-in one
    /// until a network is promoted), copied to `gen-NNN/init.net`. Its
    /// name, and its path relative to the directory.
    #[cfg(feature = "learn")]
    fn init(&self, ledger: &Ledger, g: u64) -> Result<(String, Option<String>), CliError> {
        if self.settings.fresh {
            return Ok((NEW_WEIGHTS.into(), None));
        }
        let best = ledger.best();
        let bytes = match &best {
            Best::File { entry, .. } => {
                let path = self.check_best(entry)?;
                std::fs::read(&path)
                    .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?
            }
            Best::Classic | Best::Builtin => self
                .game
                .network_bytes()
                .expect("the game has a network")
                .to_vec(),
        };
        let name = match best {
            Best::Classic => Best::Builtin.name(),
            best => best.name(),
        };
        let rel = format!("{}/init.net", Self::folder(g));
        let path = self.dir.join(&rel);
        ledger::replace_file(&temp_name(&path), &path, &bytes)?;
        Ok((name, Some(rel)))
    }

    /// Generation `g`'s training: a candidate network from the data of
    /// the last `window` generations, started from [`Run::init`].
    #[cfg(feature = "learn")]
    fn train(&self, ledger: &Ledger, g: u64, out: &mut impl Write) -> Result<Value, CliError> {
        let first = g.saturating_sub(self.settings.window - 1).max(1);
        let data: Vec<PathBuf> = (first..=g)
            .flat_map(|h| ledger.files(h, "data"))
            .map(|name| self.dir.join(name))
            .collect();
        let (init, init_file) = self.init(ledger, g)?;
        let name = format!("{}/candidate.net", Self::folder(g));
        let path = self.dir.join(&name);
        let tmp = temp_name(&path);
        let s = &self.settings;
        let training = gamut_train::Training {
            data,
            out: tmp.clone(),
            curve: None,
            hidden: Some(s.hidden),
            buckets: None,
            epochs: s.epochs,
            batch: s.batch,
            lr: s.lr,
            lambda: s.lambda as f32,
            scale: s.scale,
            validation: s.validation,
            max_positions: None,
            no_mirror: false,
            seed: self.seed(g, 1),
            on_classic: false,
            balance_results: false,
            init: init_file.as_ref().map(|f| self.dir.join(f)),
        };
        let bar = Progress::new(
            s.epochs as u64,
            "{prefix} {bar:30} {pos}/{len} epochs",
            self.quiet,
        );
        bar.set_prefix(format!("generation {g} training"));
        let mut log = |line: &str| {
            if line.starts_with("epoch ") {
                bar.inc();
            }
        };
        let report = gamut_train::train_game(self.game, &training, &mut log).map_err(CliError)?;
        bar.finish();
        pause("train");
        sync(&tmp)?;
        rename(&tmp, &path)?;
        let last = report.losses.last().copied().unwrap_or_default();
        writeln!(
            out,
            "generation {g}: trained from {init} on {} games of generations {first} to {g}: loss {:.6}, validation {:.6}",
            report.games, last.0, last.1
        )?;
        let mut files = vec![file_entry(&self.dir, &name)?];
        if let Some(f) = &init_file {
            files.push(file_entry(&self.dir, f)?);
        }
        Ok(json!({
            "init": init,
            "init_validation": report.init_loss.map(round6),
            "data_generations": [first, g],
            "games": report.games,
            "positions": [report.positions.0, report.positions.1],
            "losses": report.losses.iter().map(|(t, v)| json!([round6(*t), round6(*v)])).collect::<Vec<_>>(),
            "quantization": (report.quantization * 100.0).round() / 100.0,
            "files": files,
        }))
    }

    /// The engine spec of the best evaluation at the gate's limit.
    fn best_spec(&self, best: &Best) -> Result<String, CliError> {
        let what = match best {
            Best::Classic => "eval=classic".to_string(),
            Best::Builtin => "eval=net".to_string(),
            Best::File { entry, .. } => format!("net={}", self.check_best(entry)?.display()),
        };
        Ok(format!(
            "name=best,{}{what},{}",
            searcher(self.game),
            self.settings.gate
        ))
    }

    /// A match of generation `g`'s candidate against `opponent` (an engine
    /// spec named `opponent_name`), `games` games at most with seed
    /// `seed`, stopped by `sprt` if given: its records go to
    /// `gen-NNN/<stem>.jsonl` and its pages to `gen-NNN/<stem>.html`.
    fn candidate_match(
        &self,
        g: u64,
        stem: &'static str,
        opponent: String,
        games: u64,
        seed: u64,
        sprt: Option<String>,
    ) -> Result<(MatchResult, Ended, String), CliError> {
        let folder = self.dir.join(Self::folder(g));
        let candidate = folder.join("candidate.net");
        let name = format!("{}/{stem}.jsonl", Self::folder(g));
        let records = self.dir.join(&name);
        let tmp = temp_name(&records);
        let settings = runner::Settings {
            concurrency: self.concurrency,
            random_plies: Some(self.settings.random_plies),
            sprt: sprt
                .filter(|_| !seated(self.game))
                .map(|text| Sprt::parse(&text))
                .transpose()
                .map_err(CliError)?,
            records: Some(tmp.clone()),
            overwrite: true,
            html: Some(folder.join(format!("{stem}.html"))),
            ..runner::Settings::new(
                vec![
                    format!(
                        "name=candidate,{}net={},{}",
                        searcher(self.game),
                        candidate.display(),
                        self.settings.gate
                    ),
                    opponent,
                ],
                games,
                seed,
            )
        };
        let pause_here = || pause(stem);
        let mut watch = GamesBar::new(self.quiet, format!("generation {g} {stem}"), None)
            .after_each_game(&pause_here);
        let never = AtomicBool::new(false);
        let outcome = runner::run(self.game, &settings, &never, &mut watch)?;
        if let Some(e) = outcome.unwritten {
            return Err(e.into());
        }
        let played = match outcome.summary {
            Summary::Pairs(report) => {
                let e = report
                    .encounters
                    .into_iter()
                    .next()
                    .ok_or_else(|| CliError(format!("the {stem} match played no games")))?;
                if e.engines[0] != "candidate" {
                    return Err(CliError(format!(
                        "the {stem} match's results are counted for {}, not the candidate",
                        e.engines[0]
                    )));
                }
                MatchResult {
                    games: e.games,
                    wdl: [e.wdl.wins, e.wdl.draws, e.wdl.losses],
                    score: e.score,
                    elo: e.penta_elo.or(e.elo),
                    sprt: e.sprt.map(|s| (s.llr, s.bounds, s.state)),
                    seat: None,
                }
            }
            Summary::Seats(report) => MatchResult::of_seats(&report)
                .ok_or_else(|| CliError(format!("the {stem} match played no games")))?,
        };
        sync(&tmp)?;
        rename(&tmp, &records)?;
        Ok((played, outcome.ended, name))
    }

    /// Generation `g`'s gate: the candidate against the best in an SPRT.
    fn gate(&self, ledger: &Ledger, g: u64, out: &mut impl Write) -> Result<Value, CliError> {
        let best = ledger.best();
        let (e, ended, name) = self.candidate_match(
            g,
            "gate",
            self.best_spec(&best)?,
            self.settings.gate_games,
            self.seed(g, 2),
            Some(self.settings.sprt.clone()),
        )?;
        let state = e.sprt.map(|s| s.2);
        writeln!(
            out,
            "generation {g}: gate against {}: {} over {} games ({}-{}-{}){}, sprt {}",
            best.name(),
            elo_text(e.elo),
            e.games,
            e.wdl[0],
            e.wdl[1],
            e.wdl[2],
            e.seat_text(),
            state.map_or("none", state_name),
        )?;
        let mut record = e.json();
        record["against"] = best.name().into();
        record["sprt"] = json!(e.sprt.map(|(llr, bounds, state)| json!({
            "test": self.settings.sprt,
            "llr": (llr * 1000.0).round() / 1000.0,
            "bounds": [(bounds.0 * 1000.0).round() / 1000.0, (bounds.1 * 1000.0).round() / 1000.0],
            "state": state_name(state),
        })));
        record["ended"] = ended.as_str().into();
        record["files"] = json!([{"path": name, "games": e.games}]);
        Ok(record)
    }

    /// Generation `g`'s measure: the candidate against the classic
    /// evaluation over `--classic-games` games (none if 0), for the
    /// ledger's Elo against classic.
    fn classic(&self, g: u64, out: &mut impl Write) -> Result<Value, CliError> {
        if self.settings.classic_games == 0 {
            return Ok(json!({"against": "classic", "games": 0}));
        }
        let (e, ended, name) = self.candidate_match(
            g,
            "classic",
            format!(
                "name=classic,{}eval=classic,{}",
                searcher(self.game),
                self.settings.gate
            ),
            self.settings.classic_games,
            self.seed(g, 3),
            None,
        )?;
        writeln!(
            out,
            "generation {g}: the candidate against classic: {} over {} games ({}-{}-{}){}",
            elo_text(e.elo),
            e.games,
            e.wdl[0],
            e.wdl[1],
            e.wdl[2],
            e.seat_text(),
        )?;
        let mut record = e.json();
        record["against"] = "classic".into();
        record["ended"] = ended.as_str().into();
        record["files"] = json!([{"path": name, "games": e.games}]);
        Ok(record)
    }

    /// Generation `g`'s promotion: the candidate becomes `best.net` if
    /// the gate's SPRT accepted it.
    fn promote(&self, ledger: &Ledger, g: u64, out: &mut impl Write) -> Result<Value, CliError> {
        let gate = ledger
            .find(g, "gate")
            .ok_or_else(|| CliError(format!("generation {g} has no gate in the ledger")))?;
        let (accepted, reason) = promotes(gate);
        let mut record = json!({
            "decision": if accepted { "promoted" } else { "kept" },
            "reason": reason,
        });
        if accepted {
            let candidate = self.dir.join(Self::folder(g)).join("candidate.net");
            let best = self.dir.join("best.net");
            let tmp = temp_name(&best);
            std::fs::copy(&candidate, &tmp)
                .map_err(|e| CliError(format!("cannot write {}: {e}", tmp.display())))?;
            sync(&tmp)?;
            rename(&tmp, &best)?;
            record["files"] = json!([file_entry(&self.dir, "best.net")?]);
        }
        pause("promotion");
        writeln!(
            out,
            "generation {g}: {} ({reason})",
            if accepted {
                "the candidate is the new best (best.net)".to_string()
            } else {
                format!("the best stays {}", ledger.best().name())
            }
        )?;
        Ok(record)
    }
}

/// Whether `G` is played by more than two players, each side by its own
/// paranoid search.
pub(super) fn seated(game: &dyn AnyGame) -> bool {
    game.players() > 2
}

/// The engine kind an engine spec of `G` names first: the paranoid search
/// in a game of more than two players, none (the searcher) otherwise.
pub(super) fn searcher(game: &dyn AnyGame) -> &'static str {
    if seated(game) {
        "paranoid,"
    } else {
        ""
    }
}

/// `gamut learn --install`: the best network into the game's built-in
/// slot.
fn install(
    game: &'static dyn AnyGame,
    a: &LearnArgs,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let id = game.id().name();
    let ledger = Ledger::open(&a.dir, id)?;
    let Best::File { generation, entry } = ledger.best() else {
        return Err(CliError(format!(
            "{}: no network has been promoted yet",
            a.dir.display()
        )));
    };
    let run = Run {
        game,
        dir: a.dir.clone(),
        settings: ledger.settings.clone(),
        concurrency: 1,
        quiet: true,
    };
    let path = run.check_best(&entry)?;
    game.read_network(&path)?;
    let slot = builtin_slot(Path::new("src/games"), &format!("{id}.net")).ok_or_else(|| {
        CliError(format!(
            "no built-in slot {id}.net under src/games here: run from the repository's root"
        ))
    })?;
    let tmp = temp_name(&slot);
    std::fs::copy(&path, &tmp)
        .map_err(|e| CliError(format!("cannot write {}: {e}", tmp.display())))?;
    sync(&tmp)?;
    rename(&tmp, &slot)?;
    writeln!(
        out,
        "installed generation {generation}'s network as {} (build gamut again to play it)",
        slot.display()
    )?;
    Ok(())
}
