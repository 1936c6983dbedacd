//! The statistics of a match between two engines: Elo from the trinomial
//! (win/draw/loss) and pentanomial (game pair) results, their 95% intervals,
//! the likelihood of superiority, normalised Elo, the pentanomial GSPRT and
//! the interval of a mean score margin.
//!
//! The formulas follow cutechess-cli (trinomial Elo, interval and LOS) and
//! fastchess (pentanomial Elo, normalised Elo and the GSPRT); see
//! `docs/tournament.md` for the references.

use serde::{Deserialize, Serialize};
use std::f64::consts::LN_10;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo per unit of normalised score: `800 / ln 10`.
const NELO_SCALE: f64 = 800.0 / LN_10;

/// The error function, to about 1.2e-7 relative accuracy (the Chebyshev
/// fit of Numerical Recipes' `erfcc`).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// The Elo difference that gives an expected score `score` (0..1) under the
/// logistic model: `-400 log10(1/score - 1)`; infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference under the logistic model.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An estimate with its 95% interval. Bounds may be infinite (a score of 0
/// or 1); they serialise as `null` in JSON.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The point estimate.
    pub value: f64,
    /// The lower end of the 95% interval.
    pub lower: f64,
    /// The upper end of the 95% interval.
    pub upper: f64,
}

/// Wins, draws and losses of one engine against another.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// The number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Counts one game scored `score` (1 win, ½ draw, 0 loss).
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The mean score per game (win 1, draw ½, loss 0); ½ with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The Elo difference and its 95% interval from the trinomial model
    /// (as cutechess-cli): the per-game score variance
    /// `σ² = (W(1-s)² + D(½-s)² + L s²) / N` gives the interval
    /// `s ± 1.96 σ/√N` of the score, mapped to Elo. `None` with no games.
    pub fn elo(&self) -> Option<Interval> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let half = Z95 * (var / n).sqrt();
        Some(Interval {
            value: elo_from_score(s),
            lower: elo_from_score(s - half),
            upper: elo_from_score(s + half),
        })
    }

    /// The likelihood of superiority (as cutechess-cli):
    /// `½ (1 + erf((W - L) / √(2 (W + L))))`; ½ when no game was decisive.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }
}

/// Pentanomial counts: game pairs by the pair's total score for one engine,
/// in half points: `[0, ½, 1, 1½, 2]` (LL, LD, DD or WL, WD, WW).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of the pair score scaled to 0..1 (`i/4` for count
    /// `i`), from the counts given as reals.
    fn moments(counts: [f64; 5]) -> Option<(f64, f64, f64)> {
        let n: f64 = counts.iter().sum();
        if n == 0.0 {
            return None;
        }
        let mean = (0..5).map(|i| counts[i] * i as f64 / 4.0).sum::<f64>() / n;
        let var = (0..5)
            .map(|i| counts[i] * (i as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((n, mean, var))
    }

    /// The Elo difference and its 95% interval from the pair scores: the
    /// mean pair score `μ` and its variance `σ²` give `μ ± 1.96 σ/√pairs`,
    /// mapped to Elo. `None` without pairs.
    pub fn elo(&self) -> Option<Interval> {
        let (n, mean, var) = Self::moments(self.0.map(|c| c as f64))?;
        let half = Z95 * (var / n).sqrt();
        Some(Interval {
            value: elo_from_score(mean),
            lower: elo_from_score(mean - half),
            upper: elo_from_score(mean + half),
        })
    }

    /// Normalised Elo (as fastchess for pairs): `(μ - ½) / √(2σ²) · 800/ln 10`
    /// with its interval from `μ ± 1.96 σ/√pairs`. `None` without pairs or
    /// when every pair scored the same (zero variance).
    pub fn nelo(&self) -> Option<Interval> {
        let (n, mean, var) = Self::moments(self.0.map(|c| c as f64))?;
        if var == 0.0 {
            return None;
        }
        let scale = NELO_SCALE / (2.0 * var).sqrt();
        let half = Z95 * (var / n).sqrt();
        Some(Interval {
            value: (mean - 0.5) * scale,
            lower: (mean - half - 0.5) * scale,
            upper: (mean + half - 0.5) * scale,
        })
    }
}

/// How the SPRT's Elo bounds are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalised Elo (fastchess's default).
    Normalized,
    /// Logistic Elo (the Elo of [`elo_from_score`]).
    Logistic,
}

/// A sequential probability ratio test of H0: Elo = elo0 against
/// H1: Elo = elo1 on pentanomial counts.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo of the null hypothesis.
    pub elo0: f64,
    /// The Elo of the alternative.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
    /// How the Elo bounds are read.
    pub model: SprtModel,
}

/// What an SPRT concludes so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtState {
    /// Neither bound crossed: keep playing.
    Continue,
    /// The lower bound crossed: H0 (elo0) accepted.
    H0,
    /// The upper bound crossed: H1 (elo1) accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic]`;
    /// alpha and beta default to 0.05 and the model to normalized.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        let mut model = SprtModel::Normalized;
        for item in text.split(',') {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{item}' is not key=value"))?;
            let num = || {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| format!("--sprt: {k}={v} is not a number"))
            };
            match k {
                "elo0" => elo0 = Some(num()?),
                "elo1" => elo1 = Some(num()?),
                "alpha" => alpha = num()?,
                "beta" => beta = num()?,
                "model" => {
                    model = match v {
                        "normalized" => SprtModel::Normalized,
                        "logistic" => SprtModel::Logistic,
                        _ => {
                            return Err(format!(
                                "--sprt: model '{v}' is not normalized or logistic"
                            ))
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{k}' (elo0, elo1, alpha, beta, model)"
                    ))
                }
            }
        }
        let (elo0, elo1) = match (elo0, elo1) {
            (Some(a), Some(b)) => (a, b),
            _ => return Err("--sprt needs elo0= and elo1=".into()),
        };
        if elo0 >= elo1 {
            return Err("--sprt: elo0 must be below elo1".into());
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err("--sprt: alpha and beta must be positive with alpha + beta < 1".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The bounds on the log-likelihood ratio: `ln(β/(1-α))` below (accept
    /// H0) and `ln((1-β)/α)` above (accept H1).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pentanomial counts: the generalised
    /// SPRT approximation of fastchess,
    /// `LLR = (s1 - s0)(2μ - s0 - s1) / (2σ²/pairs)`, with `μ`, `σ²` the
    /// mean and variance of the pair score (0..1) and `s0`, `s1` the scores
    /// of elo0 and elo1 (normalised: `s = ½ + nElo·√(2σ²)·ln 10/800`;
    /// logistic: `1/(1 + 10^(-Elo/400))`). Empty counts are replaced by
    /// 0.001 (as fastchess) so that one-sided results still move the ratio.
    /// Zero without pairs.
    pub fn llr(&self, penta: &Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let counts = penta.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let Some((n, mean, var)) = Penta::moments(counts) else {
            return 0.0;
        };
        let (s0, s1) = match self.model {
            SprtModel::Normalized => {
                let f = (2.0 * var).sqrt() / NELO_SCALE;
                (0.5 + self.elo0 * f, 0.5 + self.elo1 * f)
            }
            SprtModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
        };
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var / n)
    }

    /// Whether `llr` crossed a bound.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

/// The mean of per-game score margins with the 95% interval of the mean
/// (`mean ± 1.96 s/√n`, `s` the sample standard deviation). `None` for no
/// games; a single game gives a zero-width interval.
pub fn margin(values: &[i64]) -> Option<Interval> {
    let n = values.len() as f64;
    if values.is_empty() {
        return None;
    }
    let mean = values.iter().sum::<i64>() as f64 / n;
    let half = if values.len() > 1 {
        let ss: f64 = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum();
        Z95 * (ss / (n - 1.0)).sqrt() / n.sqrt()
    } else {
        0.0
    };
    Some(Interval {
        value: mean,
        lower: mean - half,
        upper: mean + half,
    })
}
