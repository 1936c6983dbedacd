//! The trainer's core: trains a game's learned evaluation on the CPU from
//! the files `gamut datagen` writes, and exports it as a quantized network
//! file (`gamut_search::nnue::network`). The model, loss and export are
//! described in `docs/nnue.md`. The `gamut-train` binary and `gamut learn`
//! both train through [`train_game`].

mod model;

use candle_core::Device;
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use gamut_core::evaluate::TermMask;
use gamut_core::game::Player;
use gamut_core::paths::check_outputs;
use gamut_engine::{AnyGame, Position};
use gamut_games::data::Reader;
use gamut_search::nnue::network::{FloatNetwork, MAX_BUCKETS, WEIGHT_CLIP};
use model::{batch, loss, set_loss, Model};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A training run: its data, its outputs and its settings (the defaults
/// are `gamut-train`'s).
#[derive(Clone, Debug, PartialEq)]
pub struct Training {
    /// Data files written by `gamut datagen`.
    pub data: Vec<PathBuf>,
    /// The network file to write.
    pub out: PathBuf,
    /// Where to write the loss per epoch as CSV
    /// (`epoch,train,validation,seconds`).
    pub curve: Option<PathBuf>,
    /// Hidden units per perspective: [`DEFAULT_HIDDEN`] if `None`, or
    /// `init`'s. A start from a network of fewer units widens it: the new
    /// units start with new weights into them and nothing out of them, so
    /// that the widened network evaluates as the file did.
    pub hidden: Option<usize>,
    /// Output buckets (by the count of active features): 1 if `None`, or
    /// `init`'s. A start from a network of one bucket gives every bucket
    /// its output; the bounds split the training positions into buckets
    /// of equal size.
    pub buckets: Option<usize>,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// AdamW's learning rate at the start (halved at 50% and 75% of the
    /// epochs).
    pub lr: f64,
    /// Weight of the game's result in the target; the search score's is
    /// one minus this.
    pub lambda: f32,
    /// Evaluation units per unit of the network's output, also the scale
    /// of the sigmoid that turns a search score into an expected result.
    pub scale: i32,
    /// Fraction of the games held out for validation.
    pub validation: f64,
    /// Use at most this many positions (the first ones).
    pub max_positions: Option<usize>,
    /// Do not add the mirror images of the training positions.
    pub no_mirror: bool,
    /// Seed of the initial weights, the split and the shuffles.
    pub seed: u64,
    /// Train on what the classic evaluation leaves out (the file says so).
    pub on_classic: bool,
    /// Weigh the training positions so that the games' results (won,
    /// drawn, lost) weigh alike, however rare one is.
    pub balance_results: bool,
    /// A network file to start from instead of new weights: its
    /// quantized weights, dequantized. Its game, hidden size, scale and
    /// base must be the training's.
    pub init: Option<PathBuf>,
}

/// Hidden units per perspective of a network trained from new weights,
/// unless the training says.
pub const DEFAULT_HIDDEN: usize = 128;

impl Default for Training {
    fn default() -> Training {
        Training {
            data: Vec::new(),
            out: PathBuf::new(),
            curve: None,
            hidden: None,
            buckets: None,
            epochs: 10,
            batch: 1024,
            lr: 0.001,
            lambda: 0.3,
            scale: 400,
            validation: 0.05,
            max_positions: None,
            no_mirror: false,
            seed: 1,
            on_classic: false,
            balance_results: false,
            init: None,
        }
    }
}

/// Trains a network of game `game` (every game of the registry has input
/// features) as `training` says, writing its file (and curve); each line
/// of what it measures goes to `log`.
pub fn train_game(
    game: &dyn AnyGame,
    training: &Training,
    log: &mut dyn FnMut(&str),
) -> Result<Report, String> {
    train(game, training, log)
}

/// Positions with their features and targets, each seen by the side its
/// sample names (the side to move, or in a game of more than two sides
/// any side whose search scored the position).
#[derive(Default)]
struct Set {
    /// Active features of the sample's side, then of that side's rival
    /// ([`AnyGame::rival`]), per position: `offsets[i]..offsets[i + 1]` into `features`, with the
    /// split at `splits[i]`.
    features: Vec<u16>,
    offsets: Vec<usize>,
    splits: Vec<usize>,
    /// The search score, the side's view.
    scores: Vec<f32>,
    /// The game's result for the side.
    results: Vec<f32>,
    /// Each position's weight in the loss: 1, or with `--balance-results`
    /// in the training set the weight that gives every result (won,
    /// drawn, lost) the same total.
    weights: Vec<f32>,
    /// The classic evaluation, the side's view, with `--on-classic`
    /// (else 0).
    bases: Vec<f32>,
    /// The position texts and sides (kept for the export check).
    texts: Vec<(String, Player)>,
}

impl Set {
    fn len(&self) -> usize {
        self.scores.len()
    }

    /// Position `i`'s training target: the game's result and the expected
    /// result of the search score, blended by `--lambda`.
    fn target(&self, i: usize, args: &Training) -> f32 {
        args.lambda * self.results[i] + (1.0 - args.lambda) * sigmoid(self.scores[i], args.scale)
    }

    /// Adds a position, and with `mirror` also its mirror image (the
    /// same score and result, the features mirrored).
    fn push(
        &mut self,
        game: &dyn AnyGame,
        pos: &Position,
        seen: (String, Player),
        target: Target,
        mirror: Option<fn(u16) -> u16>,
    ) {
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let side = seen.1;
        pos.features(side, &mut us);
        pos.features(game.rival(side), &mut them);
        if let Some(m) = mirror {
            let flip = |list: &[u16]| list.iter().map(|&f| m(f)).collect::<Vec<_>>();
            self.push_features(&flip(&us), &flip(&them), seen.clone(), target);
        }
        self.push_features(&us, &them, seen, target);
    }

    fn push_features(&mut self, us: &[u16], them: &[u16], seen: (String, Player), target: Target) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.features.extend(us);
        self.splits.push(self.features.len());
        self.features.extend(them);
        self.offsets.push(self.features.len());
        self.scores.push(target.score);
        self.results.push(target.result);
        self.weights.push(1.0);
        self.bases.push(target.base);
        self.texts.push(seen);
    }

    fn sides(&self, i: usize) -> (&[u16], &[u16]) {
        (
            &self.features[self.offsets[i]..self.splits[i]],
            &self.features[self.splits[i]..self.offsets[i + 1]],
        )
    }

    /// Weighs the positions so that each result the set holds has the
    /// same total weight, and the mean weight is 1; returns the
    /// positions of each result (lost, drawn, won).
    fn balance_results(&mut self) -> [usize; 3] {
        let class = |r: f32| (r * 2.0).round() as usize;
        let mut counts = [0usize; 3];
        self.results.iter().for_each(|&r| counts[class(r)] += 1);
        let present = counts.iter().filter(|&&c| c > 0).count();
        for (w, &r) in self.weights.iter_mut().zip(&self.results) {
            *w = self.scores.len() as f32 / (present * counts[class(r)]) as f32;
        }
        counts
    }

    /// Position `i`'s count of active features, both halves together
    /// (what its output bucket depends on).
    fn count(&self, i: usize) -> usize {
        self.offsets[i + 1] - self.offsets[i]
    }

    /// The bounds that split this set into `buckets` buckets of about
    /// equal size by count (`bucket_of`); fewer where counts repeat
    /// (never two equal bounds, nor a bound that leaves a bucket empty).
    fn bounds(&self, buckets: usize) -> Vec<u16> {
        let mut counts: Vec<usize> = (0..self.len()).map(|i| self.count(i)).collect();
        counts.sort_unstable();
        let mut bounds: Vec<u16> = Vec::new();
        for k in 1..buckets {
            let b = counts[k * counts.len() / buckets] as u16;
            if usize::from(b) > counts[0] && bounds.last().is_none_or(|&l| b > l) {
                bounds.push(b);
            }
        }
        bounds
    }
}

/// What a position is trained towards, from its sample's side's view.
#[derive(Clone, Copy)]
struct Target {
    /// The search score.
    score: f32,
    /// The game's result (1 won, ½ drawn, 0 lost).
    result: f32,
    /// The classic evaluation the network's output is added to (0 without
    /// `--on-classic`).
    base: f32,
}

/// Reads the data files into a training set and a validation set, split
/// by game.
fn load(game: &dyn AnyGame, args: &Training) -> Result<(Set, Set, usize), String> {
    let id = game.id().name();
    let mut rng = StdRng::seed_from_u64(args.seed);
    let (mut train, mut val) = (Set::default(), Set::default());
    let mut games = 0;
    let limit = args.max_positions.unwrap_or(usize::MAX);
    'files: for path in &args.data {
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut r =
            Reader::new(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))?;
        if r.game() != id {
            return Err(format!(
                "{}: holds {} data, not {id}",
                path.display(),
                r.game(),
            ));
        }
        while let Some(g) = r
            .next_game()
            .map_err(|e| format!("{}: {e}", path.display()))?
        {
            games += 1;
            if train.len() + val.len() >= limit {
                break 'files;
            }
            // The validation set holds positions as played; the training
            // set also their mirror images where the game has a mirror.
            let (set, mirror) = if rng.gen_bool(args.validation) {
                (&mut val, None)
            } else {
                (&mut train, game.mirror().filter(|_| !args.no_mirror))
            };
            for s in g.samples {
                let pos = game
                    .parse(&s.text)
                    .map_err(|e| format!("{}: '{}': {e}", path.display(), s.text))?;
                let target = Target {
                    score: f32::from(s.score),
                    result: g
                        .winner
                        .map_or(0.5, |w| if w == s.side { 1.0 } else { 0.0 }),
                    base: if args.on_classic {
                        pos.evaluate_for(s.side, TermMask::ALL) as f32
                    } else {
                        0.0
                    },
                };
                set.push(game, &pos, (s.text, s.side), target, mirror);
            }
        }
    }
    Ok((train, val, games))
}

/// The expected result of evaluation `v` at `scale` units.
fn sigmoid(v: f32, scale: i32) -> f32 {
    1.0 / (1.0 + (-v / scale as f32).exp())
}

/// The scales at which [`classic_loss`] tries the classic evaluation.
const CLASSIC_SCALES: [i32; 8] = [100, 150, 200, 300, 400, 600, 800, 1200];

/// The loss of the classic evaluation on `set` taken as a network's
/// output (its value over a scale), at each of [`CLASSIC_SCALES`]: what a
/// network has to beat.
fn classic_loss(game: &dyn AnyGame, set: &Set, args: &Training) -> Result<Vec<(i32, f64)>, String> {
    let classic = set
        .texts
        .iter()
        .map(|(t, side)| {
            game.parse(t)
                .map(|p| p.evaluate_for(*side, TermMask::ALL) as f32)
        })
        .collect::<Result<Vec<f32>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(CLASSIC_SCALES
        .iter()
        .map(|&scale| {
            let total: f64 = classic
                .iter()
                .enumerate()
                .map(|(i, &v)| f64::from((sigmoid(v, scale) - set.target(i, args)).powi(2)))
                .sum();
            (scale, total / set.len().max(1) as f64)
        })
        .collect())
}

/// What a training run measured: the (train, validation) loss per epoch
/// and the largest difference between the quantized file and the float
/// network on validation positions, in evaluation units.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The (train, validation) loss per epoch.
    pub losses: Vec<(f64, f64)>,
    /// The largest difference of the quantized file from the float
    /// network, in evaluation units.
    pub quantization: f64,
    /// Games read.
    pub games: usize,
    /// Training positions (mirror images included) and validation
    /// positions.
    pub positions: (usize, usize),
    /// The validation loss of the network it started from (`init`), before
    /// training.
    pub init_loss: Option<f64>,
}

/// The network file `args.init` as the float network to start from, once
/// its game (`G`), hidden size, scale and base are the training's.
fn read_init(game: &dyn AnyGame, args: &Training) -> Result<Option<FloatNetwork>, String> {
    let Some(path) = &args.init else {
        return Ok(None);
    };
    let net = game.read_network(path).map_err(|e| format!("--init {e}"))?;
    let refuse = |why: String| Err(format!("--init {}: {why}", path.display()));
    if let Some(h) = args.hidden.filter(|&h| h < net.hidden) {
        return refuse(format!(
            "the network has {} hidden units, more than {h} (--hidden)",
            net.hidden
        ));
    }
    let buckets = net.bounds.len() + 1;
    if let Some(b) = args.buckets.filter(|&b| buckets > 1 && b != buckets) {
        return refuse(format!(
            "the network has {buckets} output buckets, not {b} (--buckets)"
        ));
    }
    if net.scale != args.scale {
        return refuse(format!(
            "the network's scale is {}, not {} (--scale)",
            net.scale, args.scale
        ));
    }
    if net.on_classic != args.on_classic {
        return refuse(if net.on_classic {
            "the network adds to the classic evaluation: train it with --on-classic".into()
        } else {
            "the network is not one on the classic evaluation (--on-classic)".into()
        });
    }
    Ok(Some(net.dequantize()))
}

fn train(game: &dyn AnyGame, args: &Training, log: &mut dyn FnMut(&str)) -> Result<Report, String> {
    let e = |e: candle_core::Error| e.to_string();
    if args.epochs == 0 {
        return Err("--epochs must be at least 1".into());
    }
    if let Some(b) = args.buckets.filter(|b| !(1..=MAX_BUCKETS).contains(b)) {
        return Err(format!("--buckets {b}: from 1 to {MAX_BUCKETS}"));
    }
    let mut inputs: Vec<(&str, &Path)> =
        args.data.iter().map(|d| ("--data", d.as_path())).collect();
    let mut outputs: Vec<(&str, &Path)> = vec![("--out", args.out.as_path())];
    if let Some(c) = &args.curve {
        outputs.push(("--curve", c));
    }
    if let Some(init) = &args.init {
        inputs.push(("--init", init));
    }
    check_outputs(&inputs, &outputs).map_err(|e| e.to_string())?;
    let init = read_init(game, args)?;
    let started = Instant::now();
    let (mut train, val, games) = load(game, args)?;
    if train.len() == 0 || val.len() == 0 {
        return Err(format!(
            "too little data: {} training and {} validation positions",
            train.len(),
            val.len()
        ));
    }
    log(&format!(
        "data games {games} positions {} train {} validation {} load {:.1} s",
        train.len() + val.len(),
        train.len(),
        val.len(),
        started.elapsed().as_secs_f64()
    ));
    if args.balance_results {
        let [lost, drawn, won] = train.balance_results();
        log(&format!(
            "balanced results: training positions won {won} drawn {drawn} lost {lost}"
        ));
    }
    let classic = classic_loss(game, &val, args)?;
    let at_scale = classic
        .iter()
        .find(|(s, _)| *s == args.scale)
        .map(|(_, l)| *l);
    let (best_scale, best) = classic
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .copied()
        .expect("scales to try");
    match at_scale {
        Some(l) => log(&format!(
            "classic evaluation's validation loss {l:.6} at scale {}; best {best:.6} at scale {best_scale}",
            args.scale
        )),
        None => log(&format!("classic evaluation's validation loss: best {best:.6} at scale {best_scale}")),
    }
    let dev = Device::Cpu;
    let mut rng = StdRng::seed_from_u64(args.seed);
    let inputs = game.inputs();
    // The file's buckets, or the training's split of the data.
    let bounds = match (&init, args.buckets) {
        (Some(net), _) if !net.bounds.is_empty() => net.bounds.clone(),
        (_, Some(b)) => train.bounds(b),
        _ => Vec::new(),
    };
    if bounds.len() + 1 != args.buckets.unwrap_or(bounds.len() + 1) {
        log(&format!(
            "the data's counts allow {} output buckets",
            bounds.len() + 1
        ));
    }
    let model = match &init {
        Some(net) => Model::from_float(
            net,
            args.hidden.unwrap_or(net.hidden),
            bounds,
            &mut rng,
            &dev,
        )
        .map_err(e)?,
        None => Model::new(
            inputs,
            args.hidden.unwrap_or(DEFAULT_HIDDEN),
            bounds,
            &mut rng,
            &dev,
        )
        .map_err(e)?,
    };
    if !model.bounds.is_empty() {
        log(&format!(
            "output buckets {} bounds {:?}",
            model.bounds.len() + 1,
            model.bounds
        ));
    }
    let init_loss = match (&args.init, &init) {
        (Some(path), Some(net)) => {
            let l = set_loss(&model, &val, inputs, args, &dev).map_err(e)?;
            log(&format!(
                "initial weights from {} ({} hidden units): validation {l:.6}",
                path.display(),
                net.hidden
            ));
            Some(l)
        }
        _ => None,
    };
    let vars = vec![
        model.w1.clone(),
        model.b1.clone(),
        model.w2.clone(),
        model.b2.clone(),
    ];
    let mut opt = AdamW::new(
        vars,
        ParamsAdamW {
            lr: args.lr,
            weight_decay: 0.0,
            ..Default::default()
        },
    )
    .map_err(e)?;
    let mut curve = String::from("epoch,train,validation,seconds\n");
    let mut losses = Vec::new();
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 1..=args.epochs {
        let t = Instant::now();
        let lr = args.lr
            * if epoch > args.epochs * 3 / 4 {
                0.25
            } else if epoch > args.epochs / 2 {
                0.5
            } else {
                1.0
            };
        opt.set_learning_rate(lr);
        order.shuffle(&mut rng);
        let mut total = 0.0;
        for chunk in order.chunks(args.batch) {
            let b = batch(&train, chunk, inputs, &model.bounds, args, &dev).map_err(e)?;
            let l = loss(&model, &b).map_err(e)?;
            opt.backward_step(&l).map_err(e)?;
            let clipped = model
                .w1
                .as_tensor()
                .clamp(-WEIGHT_CLIP, WEIGHT_CLIP)
                .map_err(e)?;
            model.w1.set(&clipped).map_err(e)?;
            total += f64::from(l.to_scalar::<f32>().map_err(e)?) * chunk.len() as f64;
        }
        let train_loss = total / train.len() as f64;
        let val_loss = set_loss(&model, &val, inputs, args, &dev).map_err(e)?;
        let secs = t.elapsed().as_secs_f64();
        log(&format!(
            "epoch {epoch} train {train_loss:.6} validation {val_loss:.6} lr {lr} time {secs:.1} s"
        ));
        curve.push_str(&format!(
            "{epoch},{train_loss:.6},{val_loss:.6},{secs:.1}\n"
        ));
        losses.push((train_loss, val_loss));
    }
    if let Some(path) = &args.curve {
        std::fs::write(path, &curve)
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    }
    let float = model
        .float_network(game.id().name(), args.scale, args.on_classic)
        .map_err(e)?;
    let net = float.quantize();
    std::fs::write(&args.out, net.to_bytes())
        .map_err(|err| format!("cannot write {}: {err}", args.out.display()))?;
    let quantization = check_export(game, log, &model, &float, &val, args, &dev)?;
    log(&format!(
        "wrote {} in {:.1} s",
        args.out.display(),
        started.elapsed().as_secs_f64()
    ));
    Ok(Report {
        losses,
        quantization,
        games,
        positions: (train.len(), val.len()),
        init_loss,
    })
}

/// Compares, on validation positions, the trained model, its float
/// export and the quantized file as gamut reads it and evaluates it.
fn check_export(
    game: &dyn AnyGame,
    log: &mut dyn FnMut(&str),
    model: &Model,
    float: &FloatNetwork,
    val: &Set,
    args: &Training,
    dev: &Device,
) -> Result<f64, String> {
    let bytes = std::fs::read(&args.out).map_err(|err| err.to_string())?;
    let net = game.network_from_bytes(&bytes)?;
    let n = val.len().min(2000);
    let idx: Vec<usize> = (0..n).collect();
    let b = batch(val, &idx, game.inputs(), &model.bounds, args, dev).map_err(|e| e.to_string())?;
    let raw: Vec<f32> = model
        .forward(&b.us, &b.them, &b.mask)
        .and_then(|y| y.to_vec1())
        .map_err(|e| e.to_string())?;
    let (mut float_diff, mut quant_diff, mut quant_max) = (0f64, 0f64, 0f64);
    for (i, &model_out) in raw.iter().enumerate() {
        let (us, them) = val.sides(i);
        let f = f64::from(float.evaluate(us, them));
        float_diff = float_diff.max((f - f64::from(model_out) * f64::from(args.scale)).abs());
        let (text, side) = &val.texts[i];
        let pos = game.parse(text).map_err(|e| e.to_string())?;
        let q = f64::from(pos.net_value(&net, *side));
        let d = (q - f.clamp(-10_000.0, 10_000.0)).abs();
        quant_diff += d;
        quant_max = quant_max.max(d);
    }
    log(&format!(
        "export check positions {n} float-vs-model max {float_diff:.3} quantized-vs-float mean {:.2} max {quant_max:.2}",
        quant_diff / n as f64
    ));
    Ok(quant_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::evaluate::Evaluate;
    use gamut_core::game::{Game, NodeKind, Notation, Player};
    use gamut_core::nnue::Features;
    use gamut_engine::game_of;
    use gamut_games::data::{encode_game, write_header, GameRecord, Sample};
    use gamut_games::epaminondas::Epaminondas;
    use gamut_search::nnue::network::Network;
    use gamut_search::nnue::value_from_scratch;

    /// Epaminondas' game object.
    fn epaminondas() -> &'static dyn AnyGame {
        game_of::<Epaminondas>()
    }

    /// An output naming a data file (here through a symbolic link) is
    /// refused before anything is read or written.
    #[test]
    fn an_output_over_a_data_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("gamut-train-guard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.dat");
        let mut bytes = Vec::new();
        write_header(&mut bytes, "epaminondas").unwrap();
        std::fs::write(&data, &bytes).unwrap();
        let link = dir.join("link.net");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&data, &link).unwrap();
        for (flag, out) in [("--out", &link), ("--curve", &data)] {
            let other = dir.join("fresh.net");
            let training = Training {
                data: vec![data.clone()],
                out: if flag == "--out" {
                    out.clone()
                } else {
                    other.clone()
                },
                curve: (flag == "--curve").then(|| out.clone()),
                ..Training::default()
            };
            let err = train(epaminondas(), &training, &mut |_| {}).err().unwrap();
            assert!(
                err.contains(flag) && err.contains("choose another file"),
                "{err}"
            );
            assert_eq!(std::fs::read(&data).unwrap(), bytes);
            assert!(!other.exists());
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A position out of range (here a score beyond the evaluation's
    /// limit) is refused by the trainer's reader, naming its byte.
    #[test]
    fn a_field_out_of_range_is_refused_naming_its_byte() {
        let dir = std::env::temp_dir().join(format!("gamut-train-range-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.dat");
        let mut bytes = Vec::new();
        write_header(&mut bytes, "epaminondas").unwrap();
        let game = |score| GameRecord {
            winner: None,
            samples: vec![Sample {
                text: Epaminondas::start().text(),
                side: Player::FIRST,
                score,
            }],
        };
        bytes.extend(encode_game(&game(10_000)));
        let second = bytes.len();
        bytes.extend(encode_game(&game(i16::MAX)));
        std::fs::write(&data, &bytes).unwrap();
        let out = dir.join("o.net");
        let args = Training {
            data: vec![data.clone()],
            out,
            ..Training::default()
        };
        let err = load(epaminondas(), &args).err().unwrap();
        let field = second + 8 + 3 + 1;
        assert!(err.contains(&format!("byte {field}: score 32767")), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Writes `games` random Epaminondas games of at most `plies` plies to
    /// `path` as datagen writes them, each position scored by the classic
    /// evaluation.
    fn random_games(path: &Path, games: usize, plies: usize) {
        let mut bytes = Vec::new();
        write_header(&mut bytes, "epaminondas").unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut pos = Epaminondas::start();
            let mut samples = Vec::new();
            for _ in 0..plies {
                if pos.node() == NodeKind::Terminal {
                    break;
                }
                samples.push(Sample {
                    text: pos.text(),
                    side: pos.perspective(),
                    score: pos.evaluate(TermMask::ALL) as i16,
                });
                pos.moves(&mut moves);
                pos = pos.play(moves[rng.gen_range(0..moves.len())]);
            }
            let winner = pos.outcome().and_then(|o| o.winner);
            bytes.extend(encode_game(&GameRecord { winner, samples }));
        }
        std::fs::write(path, &bytes).unwrap();
    }

    /// A built-in network's file, by game.
    fn builtin(game: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../src/games/{game}/{game}.net"))
    }

    /// A network trained from a file at a learning rate of 0 is written
    /// back as the same file, byte for byte: the shipped Epaminondas
    /// network, and one the trainer has just exported, whose hidden size
    /// comes from the file. (Dequantizing divides each weight by its
    /// quantization; quantizing multiplies and rounds back to the same
    /// integer, as every weight is far from the float's precision.)
    #[test]
    fn a_network_trained_from_its_file_at_no_learning_rate_is_the_same_file() {
        let dir = std::env::temp_dir().join(format!("gamut-train-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.dat");
        random_games(&data, 12, 30);
        let (first, again) = (dir.join("first.net"), dir.join("again.net"));
        let fresh = Training {
            data: vec![data.clone()],
            out: first.clone(),
            epochs: 1,
            hidden: Some(8),
            validation: 0.3,
            ..Training::default()
        };
        let report = train(epaminondas(), &fresh, &mut |_| {}).unwrap();
        assert_eq!(report.init_loss, None);
        for start in [builtin("epaminondas"), first] {
            let mut lines = Vec::new();
            let warm = Training {
                out: again.clone(),
                epochs: 2,
                lr: 0.0,
                hidden: None,
                init: Some(start.clone()),
                ..fresh.clone()
            };
            let report = train(epaminondas(), &warm, &mut |l| lines.push(l.to_string())).unwrap();
            let bytes = std::fs::read(&start).unwrap();
            assert!(
                std::fs::read(&again).unwrap() == bytes,
                "{} changed",
                start.display()
            );
            // The loss before training is the network's own.
            let init = report.init_loss.unwrap();
            assert_eq!(report.losses[1].1, init, "{lines:?}");
            assert!(lines.iter().any(|l| l.starts_with("initial weights from")));
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Balanced results: each result present weighs the same in all, the
    /// mean weight is 1, and a result the set lacks takes nothing.
    #[test]
    fn balanced_results_weigh_alike() {
        let mut set = Set::default();
        for result in [1.0, 1.0, 1.0, 0.0, 1.0, 1.0] {
            let target = Target {
                score: 0.0,
                result,
                base: 0.0,
            };
            set.push_features(&[1], &[2], (String::new(), Player::FIRST), target);
        }
        assert_eq!(set.balance_results(), [1, 0, 5]);
        let total = |r: f32| -> f32 {
            (0..set.len())
                .filter(|&i| set.results[i] == r)
                .map(|i| set.weights[i])
                .sum()
        };
        assert!((total(1.0) - total(0.0)).abs() < 1e-6, "{:?}", set.weights);
        let mean = set.weights.iter().sum::<f32>() / set.len() as f32;
        assert!((mean - 1.0).abs() < 1e-6, "{mean}");
        assert_eq!(set.weights[3], 3.0);
    }

    /// A network widened to more hidden units and split into output
    /// buckets, trained at a learning rate of 0, evaluates every position
    /// as the file it started from: the new units' outputs start at 0 and
    /// every bucket starts as the one output.
    #[test]
    fn a_network_widened_and_bucketed_evaluates_as_its_file() {
        let dir = std::env::temp_dir().join(format!("gamut-train-widen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.dat");
        random_games(&data, 12, 400);
        let (start, wide) = (dir.join("start.net"), dir.join("wide.net"));
        // A network of one output and 8 units to start from.
        let fresh = Training {
            data: vec![data],
            out: start.clone(),
            epochs: 1,
            hidden: Some(8),
            validation: 0.3,
            ..Training::default()
        };
        train(epaminondas(), &fresh, &mut |_| {}).unwrap();
        let mut lines = Vec::new();
        let training = Training {
            out: wide.clone(),
            lr: 0.0,
            hidden: Some(24),
            buckets: Some(3),
            init: Some(start.clone()),
            ..fresh
        };
        train(epaminondas(), &training, &mut |l| lines.push(l.to_string())).unwrap();
        let read = |p: &Path| epaminondas().read_network(p).unwrap();
        let (before, after) = (read(&start), read(&wide));
        assert_eq!((before.hidden, before.bounds.len()), (8, 0));
        assert_eq!((after.hidden, after.bounds.len()), (24, 2), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("output buckets 3")),
            "{lines:?}"
        );
        let mut rng = StdRng::seed_from_u64(3);
        let mut pos = Epaminondas::start();
        let mut moves = Vec::new();
        let mut buckets = std::collections::BTreeSet::new();
        for _ in 0..600 {
            if pos.node() == NodeKind::Terminal {
                pos = Epaminondas::start();
            }
            let mut list = Vec::new();
            pos.features(Player::FIRST, &mut list);
            buckets.insert(after.bucket(2 * list.len()));
            for side in Player::BOTH {
                assert_eq!(
                    value_from_scratch(&pos, &before, side),
                    value_from_scratch(&pos, &after, side)
                );
            }
            pos.moves(&mut moves);
            pos = pos.play(moves[rng.gen_range(0..moves.len())]);
        }
        assert!(
            buckets.len() > 1,
            "the walk stays in one bucket: {buckets:?}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A network file that is not the training's (another game, more
    /// hidden units, other output buckets, scale or base) is refused in one line before the data is
    /// read, and nothing is written.
    #[test]
    fn a_network_file_unlike_the_training_is_refused() {
        let dir = std::env::temp_dir().join(format!("gamut-train-wrong-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("o.net");
        let base = Training {
            data: vec![dir.join("missing.dat")],
            out: out.clone(),
            init: Some(builtin("epaminondas")),
            ..Training::default()
        };
        for (training, says) in [
            (
                Training {
                    init: Some(builtin("aporia")),
                    ..base.clone()
                },
                "the network is for aporia, not epaminondas",
            ),
            (
                Training {
                    hidden: Some(64),
                    ..base.clone()
                },
                "the network has 128 hidden units, more than 64 (--hidden)",
            ),
            (
                Training {
                    buckets: Some(3),
                    ..base.clone()
                },
                "the network has 4 output buckets, not 3 (--buckets)",
            ),
            (
                Training {
                    scale: 150,
                    ..base.clone()
                },
                "the network's scale is 400, not 150 (--scale)",
            ),
            (
                Training {
                    on_classic: true,
                    ..base.clone()
                },
                "not one on the classic evaluation",
            ),
        ] {
            let err = train(epaminondas(), &training, &mut |_| {}).unwrap_err();
            assert!(err.starts_with("--init ") && err.contains(says), "{err}");
            assert!(!err.contains('\n'), "{err}");
            assert!(!out.exists());
        }
        let aporia = gamut_engine::game("aporia".parse().unwrap());
        let err = train_game(aporia, &base, &mut |_| {}).unwrap_err();
        assert!(
            err.contains("the network is for epaminondas, not aporia"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A tiny run end to end: random games scored by the classic
    /// evaluation, written as datagen writes them, trained for a few
    /// epochs and exported; the loss falls and the file reads back within
    /// the quantization tolerance.
    #[test]
    #[ignore = "long check"]
    fn long_tiny_training_run_end_to_end() {
        let dir = std::env::temp_dir().join(format!("gamut-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("tiny.dat");
        random_games(&data, 60, 300);
        let out = dir.join("tiny.net");
        let args = Training {
            data: vec![data.clone()],
            out: out.clone(),
            epochs: 4,
            hidden: Some(32),
            validation: 0.2,
            ..Training::default()
        };
        let report = train(epaminondas(), &args, &mut |_| {}).unwrap();
        let first = report.losses[0].0;
        let last = report.losses.last().unwrap().0;
        assert!(last < first, "training loss {first} -> {last}");
        assert!(
            report.quantization <= 25.0,
            "quantized {}",
            report.quantization
        );
        let net = Network::from_bytes(
            &std::fs::read(&out).unwrap(),
            "epaminondas",
            Epaminondas::INPUTS,
        )
        .unwrap();
        assert_eq!(net.hidden, 32);
        std::fs::remove_dir_all(&dir).ok();
    }
}
