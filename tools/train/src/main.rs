//! `gamut-train`: trains a game's learned evaluation on the CPU from the
//! files `gamut datagen` writes, and exports it as a quantized network
//! file. The trainer itself is this crate's library ([`gamut_train`]),
//! which `gamut learn` uses too; the model, loss and export are described
//! in `docs/nnue.md`.

use clap::Parser;
use gamut_train::{train_game, Training};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Train a network for a game from `gamut datagen` files.
#[derive(Parser, Debug)]
#[command(name = "gamut-train")]
struct Args {
    /// The game id (every game of `gamut`, e.g. epaminondas).
    game: String,
    /// Data files written by `gamut datagen`.
    #[arg(long, value_name = "FILE", required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Hidden units per perspective [default: 128, or --init's]. More
    /// than --init's widens that network: the new units start with new
    /// weights into them and none out, so it evaluates as the file did.
    #[arg(long)]
    hidden: Option<usize>,
    /// Output buckets by the count of active features (1 to 16) [default:
    /// 1, or --init's]; their bounds split the training positions evenly.
    /// From a network of one bucket, every bucket starts as its output.
    #[arg(long)]
    buckets: Option<usize>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// AdamW's learning rate at the start (halved at 50% and 75% of the
    /// epochs).
    #[arg(long, default_value_t = 0.001)]
    lr: f64,
    /// Weight of the game's result in the target; the search score's
    /// is one minus this.
    #[arg(long, default_value_t = 0.3)]
    lambda: f32,
    /// Evaluation units per unit of the network's output, also the scale
    /// of the sigmoid that turns a search score into an expected result.
    #[arg(long, default_value_t = 400)]
    scale: i32,
    /// Fraction of the games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Use at most this many positions (the first ones).
    #[arg(long)]
    max_positions: Option<usize>,
    /// Do not add the mirror images of the training positions (games with
    /// a mirror symmetry: aporia, apart, epaminondas, empedocles, spokes, spokes4, spokes2v2).
    #[arg(long)]
    no_mirror: bool,
    /// Seed of the initial weights, the split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Train the network on what the classic evaluation leaves out: its
    /// output is added to the classic evaluation, in training as in the
    /// file it writes (which says so).
    #[arg(long)]
    on_classic: bool,
    /// Weigh the training positions so that won, drawn and lost ones
    /// weigh alike in the loss, however rare a result is in the data (the
    /// validation loss stays unweighted).
    #[arg(long)]
    balance_results: bool,
    /// Start from this network file (written by gamut-train or built in)
    /// instead of new weights: its weights, dequantized. Its game, hidden
    /// size, scale and base must be the training's.
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Write the loss per epoch here as CSV (`epoch,train,validation,seconds`).
    #[arg(long, value_name = "FILE")]
    curve: Option<PathBuf>,
}

impl Args {
    /// The library's run of these options.
    fn training(self) -> Training {
        Training {
            data: self.data,
            out: self.out,
            curve: self.curve,
            hidden: self.hidden,
            buckets: self.buckets,
            init: self.init,
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            lambda: self.lambda,
            scale: self.scale,
            validation: self.validation,
            max_positions: self.max_positions,
            no_mirror: self.no_mirror,
            seed: self.seed,
            on_classic: self.on_classic,
            balance_results: self.balance_results,
        }
    }
}

fn fail(msg: String) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let game = match args.game.parse() {
        Ok(id) => gamut_engine::game(id),
        Err(e) => return fail(e),
    };
    let mut log = |line: &str| {
        println!("{line}");
        std::io::stdout().flush().ok();
    };
    match train_game(game, &args.training(), &mut log) {
        Ok(r) => {
            let (epoch, (_, best)) = r
                .losses
                .iter()
                .enumerate()
                .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
                .expect("at least one epoch");
            println!(
                "best validation loss {best:.6} at epoch {}; quantized within {:.2}",
                epoch + 1,
                r.quantization
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
