//! Tuning the search's parameters by SPSA (simultaneous perturbation
//! stochastic approximation), as OpenBench runs it: at each iteration every
//! parameter is moved by its perturbation `c_k` up or down at random (Δ),
//! the two settings θ + c_kΔ and θ − c_kΔ play pairs of games against each
//! other (each pair on one opening, sides swapped) through the tournament
//! runner, and θ moves by `a_k (wins − losses) / (c_k Δ)` of the first.
//! Every iteration is one line of a ledger, from which a killed run
//! resumes to the same ledger as an unbroken one. See `docs/tune.md`.

use crate::play::Plan;
use crate::report::Summary;
use crate::runner::{self, Settings, Watch};
use crate::schedule::Openings;
use crate::session::Ended;
use crate::stats::Wdl;
use gamut_core::game::ParseError;
use gamut_core::paths::check_outputs;
use gamut_engine::AnyGame;
use gamut_players::spec::SpecText;
use gamut_search::params::{Tunable, TUNABLES};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// SPSA's gains, with OpenBench's defaults. They count game pairs: a run
/// of `iterations` iterations of `pairs` pairs has `N = iterations × pairs`,
/// and iteration `k` starts at pair `k × pairs`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// Each parameter's learning rate at the last pair (OpenBench's
    /// `r_end`): its `a_end` is `r_end × c_end²`.
    pub r_end: f64,
    /// The stability constant `A` as a share of `N`.
    pub a_ratio: f64,
    /// The decay of the learning rate `a_k = a / (A + k + 1)^α`.
    pub alpha: f64,
    /// The decay of the perturbation `c_k = c / (k + 1)^γ`.
    pub gamma: f64,
}

impl Default for Gains {
    fn default() -> Gains {
        Gains {
            r_end: 0.002,
            a_ratio: 0.1,
            alpha: 0.602,
            gamma: 0.101,
        }
    }
}

/// One parameter under SPSA: its name, where it starts, its range and its
/// perturbation at the end of the run (`c_end`).
#[derive(Clone, Debug, PartialEq)]
pub struct Dimension {
    /// The parameter's name.
    pub name: String,
    /// Its value before the first iteration.
    pub start: f64,
    /// The smallest value it takes.
    pub min: f64,
    /// The largest value it takes.
    pub max: f64,
    /// Its perturbation at the last pair (OpenBench's `c_end`).
    pub step: f64,
}

impl From<&Tunable> for Dimension {
    fn from(t: &Tunable) -> Dimension {
        Dimension {
            name: t.name.to_string(),
            start: f64::from(t.default),
            min: f64::from(t.min),
            max: f64::from(t.max),
            step: t.step,
        }
    }
}

/// What one iteration plays: each parameter's direction (±1), its
/// perturbation and learning rate, and the two settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration, from 0.
    pub iteration: u64,
    /// Each parameter's direction, +1 or −1.
    pub delta: Vec<i8>,
    /// Each parameter's perturbation `c_k`.
    pub c: Vec<f64>,
    /// Each parameter's learning rate `a_k`.
    pub a: Vec<f64>,
    /// θ + c_kΔ, inside the ranges.
    pub plus: Vec<f64>,
    /// θ − c_kΔ, inside the ranges.
    pub minus: Vec<f64>,
}

/// The state of an SPSA run: θ after the iterations done so far.
#[derive(Clone, Debug)]
pub struct Spsa {
    dims: Vec<Dimension>,
    gains: Gains,
    /// Iterations in the run, and game pairs in each.
    iterations: u64,
    pairs: u64,
    seed: u64,
    theta: Vec<f64>,
    done: u64,
}

/// SplitMix64's finaliser over `seed`, a stream and an index: the seed of
/// iteration `index`'s directions (stream 1) and games (stream 2).
fn mix(seed: u64, stream: u64, index: u64) -> u64 {
    let f = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    f(f(f(seed) ^ stream) ^ index)
}

impl Spsa {
    /// A run over `dims` of `iterations` iterations of `pairs` game pairs
    /// each (both at least 1), its directions drawn from `seed`.
    #[must_use]
    pub fn new(dims: Vec<Dimension>, gains: Gains, iterations: u64, pairs: u64, seed: u64) -> Spsa {
        let theta = dims.iter().map(|d| d.start).collect();
        Spsa {
            dims,
            gains,
            iterations: iterations.max(1),
            pairs: pairs.max(1),
            seed,
            theta,
            done: 0,
        }
    }

    /// The parameters.
    #[must_use]
    pub fn dims(&self) -> &[Dimension] {
        &self.dims
    }

    /// θ now.
    #[must_use]
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// Iterations done.
    #[must_use]
    pub fn done(&self) -> u64 {
        self.done
    }

    /// The seed of the games of the next iteration.
    #[must_use]
    pub fn games_seed(&self) -> u64 {
        mix(self.seed, 2, self.done)
    }

    /// The next iteration's perturbation: its directions are drawn from
    /// the seed and the iteration's number alone, so a resumed run draws
    /// the same.
    #[must_use]
    pub fn perturbation(&self) -> Perturbation {
        let g = &self.gains;
        let n = (self.iterations * self.pairs) as f64;
        let k = (self.done * self.pairs) as f64;
        let big_a = g.a_ratio * n;
        let mut rng = StdRng::seed_from_u64(mix(self.seed, 1, self.done));
        let mut p = Perturbation {
            iteration: self.done,
            delta: Vec::new(),
            c: Vec::new(),
            a: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
        };
        for (d, &theta) in self.dims.iter().zip(&self.theta) {
            let delta: i8 = if rng.gen::<bool>() { 1 } else { -1 };
            let c = d.step * n.powf(g.gamma) / (k + 1.0).powf(g.gamma);
            let a = g.r_end * d.step * d.step * (big_a + n).powf(g.alpha)
                / (big_a + k + 1.0).powf(g.alpha);
            let shift = c * f64::from(delta);
            p.delta.push(delta);
            p.c.push(c);
            p.a.push(a);
            p.plus.push((theta + shift).clamp(d.min, d.max));
            p.minus.push((theta - shift).clamp(d.min, d.max));
        }
        p
    }

    /// Ends the iteration of `p` (the one [`perturbation`](Self::perturbation)
    /// gave) whose games θ + c_kΔ won `score` more than it lost: θ moves by
    /// `a_k × gradient`, inside the ranges. Returns the gradient estimate,
    /// `score / (c_k Δ)` for each parameter.
    pub fn step(&mut self, p: &Perturbation, score: i64) -> Vec<f64> {
        let mut gradient = Vec::with_capacity(self.dims.len());
        for (i, d) in self.dims.iter().enumerate() {
            // Adding 0 turns a zero gradient's sign positive.
            let g = score as f64 / (p.c[i] * f64::from(p.delta[i])) + 0.0;
            self.theta[i] = (self.theta[i] + p.a[i] * g).clamp(d.min, d.max);
            gradient.push(g);
        }
        self.done += 1;
        gradient
    }
}

/// What `gamut tune` is asked to do.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// The engine's spec items both settings share (`depth=3`,
    /// `time=50,hash=8`); `param.<name>=` gives a tuned parameter's start.
    pub engine: String,
    /// The parameters to tune, by name (none: all of them).
    pub params: Vec<String>,
    /// SPSA's gains.
    pub gains: Gains,
    /// Iterations.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// The seed of the directions and the games.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: u32,
    /// Openings made by this many random plies from the start.
    pub random_plies: u32,
    /// An openings file, used in turn across the iterations (instead of
    /// random openings).
    pub openings: Option<PathBuf>,
    /// Plies after which a game is a draw (default: the game's own).
    pub ply_limit: Option<u32>,
    /// The ledger: one JSON line per iteration.
    pub ledger: Option<PathBuf>,
    /// Continue the run in the ledger.
    pub resume: bool,
    /// Replace the ledger if it exists.
    pub overwrite: bool,
}

/// One line of the ledger: one iteration, with what identifies the run
/// (checked when it is resumed) and, by parameter name, θ before it, the
/// directions, perturbations, learning rates, the two settings as played,
/// the gradient estimate and θ after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The game's id.
    pub game: String,
    /// The shared spec items.
    pub engine: String,
    /// The run's seed.
    pub seed: u64,
    /// Iterations in the run.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// SPSA's gains.
    pub gains: Gains,
    /// This iteration's number, from 1.
    pub iteration: u64,
    /// θ before the iteration.
    pub theta: BTreeMap<String, f64>,
    /// The directions, ±1.
    pub delta: BTreeMap<String, i8>,
    /// The perturbations `c_k`.
    pub c: BTreeMap<String, f64>,
    /// The learning rates `a_k`.
    pub a: BTreeMap<String, f64>,
    /// The values engine `plus` played (θ + c_kΔ, rounded).
    pub plus: BTreeMap<String, i32>,
    /// The values engine `minus` played (θ − c_kΔ, rounded).
    pub minus: BTreeMap<String, i32>,
    /// Engine `plus`'s wins, draws and losses against `minus`.
    pub results: Wdl,
    /// The gradient estimate, `(wins − losses) / (c_k Δ)`.
    pub gradient: BTreeMap<String, f64>,
    /// θ after the iteration.
    pub next: BTreeMap<String, f64>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The parameters tuned.
    pub dims: Vec<Dimension>,
    /// θ after the iterations done.
    pub theta: Vec<f64>,
    /// Iterations done (those of a resumed ledger included).
    pub done: u64,
    /// Iterations in the run.
    pub iterations: u64,
    /// Whether it was stopped before the end (the iteration in progress is
    /// played again on resuming).
    pub interrupted: bool,
}

impl Tuned {
    /// θ as spec items with whole values: `param.rfp_margin=93,...`.
    #[must_use]
    pub fn spec_items(&self) -> String {
        items(&self.dims, &self.theta)
    }
}

/// `param.<name>=<value rounded>` for every parameter, comma-separated.
fn items(dims: &[Dimension], values: &[f64]) -> String {
    let v: Vec<String> = dims
        .iter()
        .zip(values)
        .map(|(d, x)| format!("param.{}={}", d.name, x.round() as i32))
        .collect();
    v.join(",")
}

/// The parameters to tune and the spec items the two settings share (the
/// base spec without the tuned parameters' `param.` items, which give
/// their start instead).
fn dimensions(s: &TuneSettings) -> Result<(Vec<Dimension>, Vec<String>), ParseError> {
    let spec = SpecText::parse(&s.engine)?;
    if s.engine.split(',').any(|i| i.trim().starts_with("name=")) {
        return Err(ParseError::new(
            "--engine: tune names its two engines itself (plus and minus); give no name=",
        ));
    }
    let mut dims: Vec<Dimension> = if s.params.is_empty() {
        TUNABLES.iter().map(Dimension::from).collect()
    } else {
        let mut v: Vec<Dimension> = Vec::new();
        for name in &s.params {
            let t = Tunable::named(name).map_err(|e| ParseError::new(format!("--params: {e}")))?;
            if v.iter().any(|d| d.name == t.name) {
                return Err(ParseError::new(format!("--params: {name} given twice")));
            }
            v.push(Dimension::from(t));
        }
        v
    };
    let mut shared = Vec::new();
    if let Some(kind) = spec.search {
        shared.push(format!("search={}", kind.name()));
    }
    for (key, value) in &spec.options {
        let tuned = key
            .strip_prefix("param.")
            .and_then(|p| dims.iter_mut().find(|d| d.name == p));
        match (tuned, value) {
            (Some(d), Some(v)) => {
                let t = Tunable::named(&d.name).map_err(ParseError::new)?;
                d.start = f64::from(t.parse(v).map_err(|e| spec.error(e))?);
            }
            (_, Some(v)) => shared.push(format!("{key}={v}")),
            (_, None) => shared.push(key.clone()),
        }
    }
    Ok((dims, shared))
}

/// The spec of engine `name` playing `values`.
fn engine_spec(name: &str, shared: &[String], dims: &[Dimension], values: &[f64]) -> String {
    let mut parts = vec![format!("name={name}")];
    parts.extend(shared.iter().cloned());
    parts.push(items(dims, values));
    parts.join(",")
}

/// The values by parameter name.
fn by_name<T: Copy>(dims: &[Dimension], values: &[T]) -> BTreeMap<String, T> {
    dims.iter()
        .zip(values)
        .map(|(d, &v)| (d.name.clone(), v))
        .collect()
}

/// Whoever shows a run's progress.
pub trait Observer {
    /// What watches each iteration's games.
    fn games(&mut self) -> &mut dyn Watch;
    /// Before the first game: iterations already done (those of a resumed
    /// ledger).
    fn start(&mut self, done: u64);
    /// An iteration is done (and in the ledger).
    fn iteration(&mut self, e: &Entry) -> Result<(), ParseError>;
}

/// Runs `gamut tune` in `game`: the iterations left (all, or those after
/// a resumed ledger's), each iteration's games shown by `observer`, each
/// finished iteration appended to the ledger, then given to `observer`.
/// Raising `stop` ends the run after the games in progress; the iteration
/// they belong to is not counted.
pub fn run(
    game: &'static dyn AnyGame,
    s: &TuneSettings,
    stop: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Tuned, ParseError> {
    if game.players() != 2 {
        return Err(ParseError::new(format!(
            "tune plays pairs of games of two sides; {} has {}",
            game.id(),
            game.players()
        )));
    }
    let (dims, shared) = dimensions(s)?;
    check_paths(s)?;
    let mut spsa = Spsa::new(dims, s.gains, s.iterations, s.pairs, s.seed);
    let (mut ledger, previous) = open_ledger(s, observer.games())?;
    for (line, e) in previous.iter().enumerate() {
        replay(game, s, &mut spsa, &shared, e).map_err(|msg| ledger_error(s, line + 1, &msg))?;
    }
    observer.start(spsa.done());
    // The first iteration's engines are built before any game: a spec
    // that does not parse fails now, not after a night of games.
    let p = spsa.perturbation();
    let dims = spsa.dims().to_vec();
    let specs = |p: &Perturbation| {
        vec![
            engine_spec("plus", &shared, &dims, &p.plus),
            engine_spec("minus", &shared, &dims, &p.minus),
        ]
    };
    runner::plan(game, &settings(s, specs(&p), spsa.games_seed()))?;
    let mut interrupted = false;
    while spsa.done() < s.iterations {
        if stop.load(Relaxed) {
            interrupted = true;
            break;
        }
        let p = spsa.perturbation();
        let settings = settings(s, specs(&p), spsa.games_seed());
        let mut plan: Plan = runner::plan(game, &settings)?;
        if let Openings::List(list) = &mut plan.openings {
            // Each iteration plays the next openings of the file.
            let len = list.len() as u64;
            list.rotate_left(((p.iteration % len) * (s.pairs % len) % len) as usize);
        }
        let outcome = runner::run_plan(&settings, &plan, false, stop, observer.games())?;
        if outcome.ended == Ended::Interrupted {
            interrupted = true;
            break;
        }
        let results = plus_results(&outcome.summary)?;
        let theta = spsa.theta().to_vec();
        let score = results.wins as i64 - results.losses as i64;
        let gradient = spsa.step(&p, score);
        let entry = entry(game, s, &spsa, &p, &theta, results, &gradient);
        if let Some(file) = ledger.as_mut() {
            append(file, &entry, s)?;
        }
        observer.iteration(&entry)?;
    }
    Ok(Tuned {
        dims: spsa.dims().to_vec(),
        theta: spsa.theta().to_vec(),
        done: spsa.done(),
        iterations: s.iterations,
        interrupted,
    })
}

/// The tournament of one iteration: `specs` (plus, minus) playing
/// `s.pairs` pairs from `seed`.
fn settings(s: &TuneSettings, specs: Vec<String>, seed: u64) -> Settings {
    Settings {
        concurrency: s.concurrency,
        openings: s.openings.clone(),
        random_plies: Some(s.random_plies),
        ply_limit: s.ply_limit,
        ..Settings::new(specs, 2 * s.pairs, seed)
    }
}

/// Engine `plus`'s wins, draws and losses in an iteration's report.
fn plus_results(summary: &Summary) -> Result<Wdl, ParseError> {
    match summary {
        Summary::Pairs(report) => match report.encounters.first() {
            Some(e) if e.engines[0] == "plus" => Ok(e.wdl),
            Some(e) if e.engines[1] == "plus" => Ok(Wdl {
                wins: e.wdl.losses,
                draws: e.wdl.draws,
                losses: e.wdl.wins,
            }),
            _ => Err(ParseError::new("an iteration played no games")),
        },
        Summary::Seats(_) => Err(ParseError::new("tune plays pairs of games of two sides")),
    }
}

/// The ledger line of iteration `p`, which started at `theta`.
fn entry(
    game: &dyn AnyGame,
    s: &TuneSettings,
    spsa: &Spsa,
    p: &Perturbation,
    theta: &[f64],
    results: Wdl,
    gradient: &[f64],
) -> Entry {
    let dims = spsa.dims();
    let rounded = |v: &[f64]| -> Vec<i32> { v.iter().map(|x| x.round() as i32).collect() };
    Entry {
        game: game.id().to_string(),
        engine: s.engine.clone(),
        seed: s.seed,
        iterations: s.iterations,
        pairs: s.pairs,
        gains: s.gains,
        iteration: p.iteration + 1,
        theta: by_name(dims, theta),
        delta: by_name(dims, &p.delta),
        c: by_name(dims, &p.c),
        a: by_name(dims, &p.a),
        plus: by_name(dims, &rounded(&p.plus)),
        minus: by_name(dims, &rounded(&p.minus)),
        results,
        gradient: by_name(dims, gradient),
        next: by_name(dims, spsa.theta()),
    }
}

/// Replays ledger line `e` on `spsa`: the line must be this run's next
/// iteration, its settings those the run plays, and θ after it the one
/// its results give.
fn replay(
    game: &dyn AnyGame,
    s: &TuneSettings,
    spsa: &mut Spsa,
    shared: &[String],
    e: &Entry,
) -> Result<(), String> {
    let p = spsa.perturbation();
    let expected = entry(game, s, spsa, &p, spsa.theta(), e.results, &[]);
    let same_run = e.game == expected.game
        && e.engine == expected.engine
        && e.seed == expected.seed
        && e.iterations == expected.iterations
        && e.pairs == expected.pairs
        && e.gains == expected.gains;
    if !same_run {
        return Err(format!(
            "is a run of {} with engine '{}', seed {}, {} iterations of {} pairs and other gains, or of other settings: --resume continues only the same run (--overwrite starts afresh)",
            e.game, e.engine, e.seed, e.iterations, e.pairs
        ));
    }
    if e.iteration != expected.iteration {
        return Err(format!(
            "holds iteration {} where iteration {} was due",
            e.iteration, expected.iteration
        ));
    }
    if e.plus != expected.plus || e.minus != expected.minus || e.delta != expected.delta {
        return Err(format!(
            "iteration {}: its settings are not those this run plays (other parameters: {})",
            e.iteration,
            shared.join(",")
        ));
    }
    spsa.step(&p, e.results.wins as i64 - e.results.losses as i64);
    let after = by_name(spsa.dims(), spsa.theta());
    let close = after.iter().all(|(k, v)| {
        e.next
            .get(k)
            .is_some_and(|w| (v - w).abs() <= 1e-9 * v.abs().max(1.0))
    });
    if !close {
        return Err(format!(
            "iteration {}: θ after it is not what its results give",
            e.iteration
        ));
    }
    Ok(())
}

/// `ledger line <n>: <msg>`, naming the file.
fn ledger_error(s: &TuneSettings, line: usize, msg: &str) -> ParseError {
    let path = s.ledger.as_deref().unwrap_or(Path::new("ledger"));
    ParseError::new(format!("{} line {line} {msg}", path.display()))
}

/// Refuses a run whose ledger names one of its inputs (the openings file,
/// a network or table of the engine), or cannot be written.
fn check_paths(s: &TuneSettings) -> Result<(), ParseError> {
    let spec_files: Vec<(&str, PathBuf)> = SpecText::parse(&s.engine)?
        .options
        .into_iter()
        .filter_map(|(key, value)| match (key.as_str(), value) {
            ("net", Some(v)) => Some(("--engine's net=", PathBuf::from(v))),
            ("table", Some(v)) => Some(("--engine's table=", PathBuf::from(v))),
            _ => None,
        })
        .collect();
    let mut inputs: Vec<(&str, &Path)> =
        spec_files.iter().map(|(k, p)| (*k, p.as_path())).collect();
    if let Some(p) = &s.openings {
        inputs.push(("--openings", p));
    }
    let outputs: Vec<(&str, &Path)> = s.ledger.iter().map(|p| ("--ledger", p.as_path())).collect();
    check_outputs(&inputs, &outputs)
}

/// The ledger, if one was asked for: a new file (an existing one only with
/// `overwrite`), or with `resume` the file so far and its iterations; a
/// last line cut off by a kill is dropped (its iteration is played again).
fn open_ledger(
    s: &TuneSettings,
    watch: &mut dyn Watch,
) -> Result<(Option<File>, Vec<Entry>), ParseError> {
    let Some(path) = &s.ledger else {
        return Ok((None, Vec::new()));
    };
    let cannot =
        |e: std::io::Error| ParseError::new(format!("cannot write {}: {e}", path.display()));
    if !s.resume {
        if !s.overwrite && path.exists() {
            return Err(ParseError::new(format!(
                "{} already exists: --resume continues it, --overwrite replaces it",
                path.display()
            )));
        }
        return Ok((Some(File::create(path).map_err(cannot)?), Vec::new()));
    }
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            return Err(ParseError::new(format!(
                "cannot read {}: {e}",
                path.display()
            )))
        }
    };
    let mut entries = Vec::new();
    let mut kept = 0;
    let mut rest = &text[..];
    let mut line = 0;
    while !rest.is_empty() {
        line += 1;
        let (body, terminated) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], true),
            None => (rest, false),
        };
        if !terminated {
            // A last line without its newline, cut off by a kill.
            watch.warn(&format!(
                "warning: {} line {line}: dropped a cut-off last line; that iteration is played again",
                path.display()
            ));
            break;
        }
        let e = serde_json::from_slice::<Entry>(body)
            .map_err(|e| ledger_error(s, line, &format!("is not a ledger line: {e}")))?;
        entries.push(e);
        kept += body.len() + 1;
        rest = &rest[body.len() + 1..];
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(cannot)?;
    file.set_len(kept as u64).map_err(cannot)?;
    Ok((Some(file), entries))
}

/// Appends `e` to the ledger as one line, flushed at once.
fn append(file: &mut File, e: &Entry, s: &TuneSettings) -> Result<(), ParseError> {
    let mut line = serde_json::to_string(e).map_err(|e| ParseError::new(e.to_string()))?;
    line.push('\n');
    file.write_all(line.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|err| {
            let path = s.ledger.as_deref().unwrap_or(Path::new("ledger"));
            ParseError::new(format!("cannot write {}: {err}", path.display()))
        })
}
