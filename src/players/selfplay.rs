//! Self-play for training data (`gamut datagen`, `gamut learn`): games
//! at a fixed node budget per move after a few random plies from the
//! start, played by the one game loop ([`play_game`]) with one engine on
//! every side, and kept as the positions its searches scored with the
//! game's result ([`gamut_games::data`]).

use crate::engine::{Engine, Evaluated, Kind};
use crate::game::{play_game, random_walk, Rules, Setup, Sides};
use crate::record::Adjudicator;
use crate::seed::{seed_for, Stream};
use gamut_core::evaluate::{Evaluate, EVAL_LIMIT};
use gamut_core::game::{NodeRules, Notation, Player};
use gamut_games::data::{GameRecord, Sample};
use gamut_search::sides::DEFAULT_WIDTH;
use gamut_search::{Config, Evaluation, Limits};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The transposition table of each game's searches (and of each
/// position's, for `solve --scored-by search`), in MiB.
pub const HASH_MIB: usize = 16;

/// One self-play game of the game the [`SelfPlay`] was made for.
type PlayOne = fn(&SelfPlay, u64, u32, u64, &Limits) -> GameRecord;

/// How self-play plays the games of one game with one evaluation: in a
/// game of more than two players each side by its own paranoid search
/// ([`TwoSided`](gamut_search::sides::TwoSided), which reads the game's
/// network for its side), otherwise by the game's search, one table for
/// both sides.
pub struct SelfPlay {
    /// How every side chooses; each game sets its limits.
    kind: Kind,
    play: PlayOne,
}

impl SelfPlay {
    /// Self-play of `G` evaluating with `eval`.
    #[must_use]
    pub fn new<G: Evaluate + Notation>(eval: Evaluation) -> SelfPlay {
        let limits = Limits::default();
        let kind = if G::players() > 2 {
            Kind::Paranoid {
                limits,
                width: DEFAULT_WIDTH,
                hash_mib: HASH_MIB,
                eval,
            }
        } else {
            Kind::Search {
                config: Config::new::<G>(1, eval),
                limits,
                hash_mib: HASH_MIB,
                exact: None,
            }
        };
        SelfPlay {
            kind,
            play: game::<G>,
        }
    }

    /// Game number `i` of the data of `seed`, after `random_plies` random
    /// plies, each search within `limits`.
    #[must_use]
    pub fn game(&self, seed: u64, random_plies: u32, i: u64, limits: &Limits) -> GameRecord {
        (self.play)(self, seed, random_plies, i, limits)
    }

    /// The engine that plays every side, searching within `limits`.
    fn engine(&self, limits: &Limits) -> Engine {
        let mut kind = self.kind.clone();
        if let Kind::Search { limits: l, .. } | Kind::Paranoid { limits: l, .. } = &mut kind {
            *l = limits.clone();
        }
        Engine {
            name: "self-play".into(),
            spec: String::new(),
            kind,
            tc: None,
            reads: Vec::new(),
        }
    }
}

/// Game number `i` of the data of `seed`: `random_plies` random decision
/// plies from the start (chance outcomes and round starts drawn on the way
/// use no ply), then [`play_game`] with the self-play engine on every side.
/// Kept are the positions a search scored within [`EVAL_LIMIT`] (not a
/// proven result) after completing a depth, with the side the score is
/// for: every decision whose chosen move is not a capture
/// ([`Evaluate::is_capture`]) and every round start (in a game of more than
/// two players one sample per side, each by its own paranoid search). A
/// game that ends within its random plies keeps nothing.
fn game<G: Evaluate + Notation>(
    play: &SelfPlay,
    seed: u64,
    random_plies: u32,
    i: u64,
    limits: &Limits,
) -> GameRecord {
    let mut walk = StdRng::seed_from_u64(seed_for(seed, Stream::Opening, i));
    let Some(opening) = random_walk(&G::start(), random_plies, &mut walk) else {
        return GameRecord {
            winner: None,
            samples: Vec::new(),
        };
    };
    let setup = Setup {
        number: i,
        pair: None,
        opening_index: Some(i),
        opening,
        seed,
    };
    let rules = Rules {
        // The game's ply limit counts the random plies too.
        ply_limit: G::INFO.ply_limit.saturating_sub(random_plies),
        adjudicate: Adjudicator::default(),
        time_margin: Duration::ZERO,
    };
    let engine = play.engine(limits);
    let mut samples = Vec::new();
    let mut keep = |pos: &G, mv: Option<G::Move>, e: Evaluated| {
        let score = e.score.round();
        if e.depth > 0
            && score.abs() <= f64::from(EVAL_LIMIT)
            && !mv.is_some_and(|m| pos.is_capture(m))
        {
            samples.push(Sample {
                text: pos.text(),
                side: e.side,
                score: score as i16,
            });
        }
    };
    let never = AtomicBool::new(false);
    let record = play_game(
        &setup,
        Sides::Shared(&engine),
        None,
        &rules,
        &never,
        &mut keep,
    )
    .expect("a game that is never stopped ends");
    GameRecord {
        winner: record.winner.map(|w| Player::nth(usize::from(w) - 1)),
        samples,
    }
}
