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
#[must_use]
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
#[must_use]
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
#[must_use]
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

impl Interval {
    /// The share `k / n` with its 95% Wilson score interval (sound at 0 and
    /// 1, unlike the normal one).
    #[must_use]
    pub fn wilson(k: u64, n: u64) -> Interval {
        if n == 0 {
            return Interval {
                value: 0.0,
                lower: 0.0,
                upper: 1.0,
            };
        }
        let (k, n) = (k as f64, n as f64);
        let p = k / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Interval {
            value: p,
            lower: (centre - half).max(0.0),
            upper: (centre + half).min(1.0),
        }
    }
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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

/// A running sum of per-game score margins: enough for their mean and the
/// 95% interval of the mean, added to one game at a time. The sums are
/// exact integers, so the order games are added in does not matter.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Margins {
    /// Games counted.
    pub games: u64,
    /// The sum of the margins.
    pub sum: i128,
    /// The sum of their squares.
    pub sum_of_squares: i128,
}

impl Margins {
    /// Counts one game's margin.
    pub fn add(&mut self, margin: i64) {
        self.games += 1;
        self.sum += i128::from(margin);
        self.sum_of_squares += i128::from(margin) * i128::from(margin);
    }

    /// The mean margin with the 95% interval of the mean
    /// (`mean ± 1.96 s/√n`, `s` the sample standard deviation). `None` for
    /// no games; a single game gives a zero-width interval.
    #[must_use]
    pub fn interval(&self) -> Option<Interval> {
        if self.games == 0 {
            return None;
        }
        let n = self.games as f64;
        let mean = self.sum as f64 / n;
        let half = if self.games > 1 {
            // Σ(v - mean)² = (n Σv² - (Σv)²) / n, exact in integers.
            let n_ss = i128::from(self.games) * self.sum_of_squares - self.sum * self.sum;
            let ss = n_ss as f64 / n;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} is not {b} (±{tol})");
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz & Stegun table 7.1: erf(0.5) = 0.5204998778,
        // erf(1.3) = 0.9340079449; erf is odd.
        close(erf(0.5), 0.520_499_877_8, 2e-7);
        close(erf(-1.3), -0.934_007_944_9, 2e-7);
        close(erf(0.0), 0.0, 2e-7);
    }

    #[test]
    fn trinomial_elo_and_interval_worked_example() {
        // W 60, D 20, L 20: N = 100, s = (60 + 10)/100 = 0.7.
        // σ² = (60·0.3² + 20·0.2² + 20·0.7²)/100 = (5.4 + 0.8 + 9.8)/100 = 0.16.
        // half width = 1.959964·√(0.16/100) = 1.959964·0.04 = 0.0783986.
        // Elo(0.7) = -400·log10(1/0.7 - 1) = -400·log10(0.428571) = 147.1907;
        // Elo(0.6216014) = 86.2250, Elo(0.7783986) = 218.2518.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert_eq!(w.games(), 100);
        close(w.score(), 0.7, 1e-12);
        let e = w.elo().unwrap();
        close(e.value, 147.190_714, 1e-4);
        close(e.lower, 86.225_015, 1e-4);
        close(e.upper, 218.251_778, 1e-4);
    }

    #[test]
    fn los_worked_example() {
        // W 12, D 5, L 8: LOS = ½(1 + erf((12 - 8)/√(2·20))) = ½(1 + erf(0.632456))
        // = ½(1 + 0.628907) = 0.814453.
        let w = Wdl {
            wins: 12,
            draws: 5,
            losses: 8,
        };
        close(w.los(), 0.814_453_3, 1e-6);
        // No decisive game: no evidence either way.
        close(
            Wdl {
                wins: 0,
                draws: 4,
                losses: 0,
            }
            .los(),
            0.5,
            0.0,
        );
    }

    #[test]
    fn pentanomial_elo_and_normalised_elo_worked_example() {
        // Pairs [LL LD DD WD WW] = [2 5 10 8 5], 30 pairs, pair scores 0, ¼, ½, ¾, 1.
        // μ = (0·2 + 0.25·5 + 0.5·10 + 0.75·8 + 1·5)/30 = 17.25/30 = 0.575.
        // σ² = (2·0.575² + 5·0.325² + 10·0.075² + 8·0.175² + 5·0.425²)/30
        //    = (0.66125 + 0.528125 + 0.05625 + 0.245 + 0.903125)/30 = 2.39375/30 = 0.0797917.
        // half width = 1.959964·√(0.0797917/30) = 0.1010802.
        // Elo(0.575) = 52.5116; Elo(0.4739198) = -18.1389; Elo(0.6760802) = 127.8243.
        // nElo = (0.575 - 0.5)/√(2·0.0797917)·800/ln 10 = 0.075/0.399479·347.4396 = 65.2292,
        // interval (±0.1010802)/0.399479·347.4396 → [-22.6826, 153.1409].
        let p = Penta([2, 5, 10, 8, 5]);
        assert_eq!(p.pairs(), 30);
        let e = p.elo().unwrap();
        close(e.value, 52.511_566, 1e-4);
        close(e.lower, -18.138_864, 1e-4);
        close(e.upper, 127.824_314, 1e-4);
        let n = p.nelo().unwrap();
        close(n.value, 65.229_161, 1e-4);
        close(n.lower, -22.682_556, 1e-4);
        close(n.upper, 153.140_879, 1e-4);
        // Every pair the same: no variance, no normalised Elo.
        assert_eq!(Penta([0, 0, 7, 0, 0]).nelo(), None);
    }

    #[test]
    fn sprt_worked_examples() {
        // Bounds for α = β = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let mut t = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = t.bounds();
        close(lo, -2.944_439, 1e-6);
        close(hi, 2.944_439, 1e-6);
        // Counts [2 5 10 8 5]: μ = 0.575, σ² = 0.0797917, 30 pairs (above).
        // Normalised: s0 = 0.5, s1 = 0.5 + 5·√(2σ²)·ln 10/800 = 0.5 + 5·0.399479/347.4396
        // = 0.5057489; LLR = (s1 - s0)(2μ - s0 - s1)/(2σ²/30)
        // = 0.0057489·(1.15 - 1.0057489)/0.00531944 = 0.155899.
        close(t.llr(&Penta([2, 5, 10, 8, 5])), 0.155_899, 1e-5);
        // Logistic: s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.5071955;
        // LLR = 0.0071955·(1.15 - 1.0071955)/0.00531944 = 0.193158.
        t.model = SprtModel::Logistic;
        close(t.llr(&Penta([2, 5, 10, 8, 5])), 0.193_158, 1e-5);
        assert_eq!(t.state(0.19), SprtState::Continue);
        assert_eq!(t.state(3.0), SprtState::H1);
        assert_eq!(t.state(-3.0), SprtState::H0);
        // Seven pairs won twice, empty counts regularised to 0.001:
        // n = 7.004, μ = (0.00025 + 0.0005 + 0.00075 + 7)/7.004 = 0.9996431,
        // σ² = 0.0001071, normalised s1 - s0 = 5·√(2σ²)/347.4396 = 0.00021063,
        // LLR = 0.00021063·(2μ - 1.00021063)/(2σ²/7.004) = 4.352590: H1.
        t.model = SprtModel::Normalized;
        let llr = t.llr(&Penta([0, 0, 0, 0, 7]));
        close(llr, 4.352_590, 1e-4);
        assert_eq!(t.state(llr), SprtState::H1);
    }

    #[test]
    fn sprt_specs_are_checked() {
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.7,beta=0.5").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,model=bayes").is_err());
        assert!(Sprt::parse("elo0=0,elo1=x").is_err());
        let t = Sprt::parse("elo0=-1,elo1=4,model=logistic").unwrap();
        assert_eq!(
            (t.elo0, t.elo1, t.alpha, t.model),
            (-1.0, 4.0, 0.05, SprtModel::Logistic)
        );
    }

    #[test]
    fn margin_worked_example() {
        // Margins 3, -1, 2, 0: mean 1; sample variance ((2² + 2² + 1² + 1²)/3) = 10/3,
        // s = 1.825742; half width = 1.959964·1.825742/√4 = 1.789194.
        let mut sums = Margins::default();
        for v in [3, -1, 2, 0] {
            sums.add(v);
        }
        let m = sums.interval().unwrap();
        close(m.value, 1.0, 1e-12);
        close(m.lower, 1.0 - 1.789_194, 1e-5);
        close(m.upper, 1.0 + 1.789_194, 1e-5);
        assert_eq!(Margins::default().interval(), None);
        let mut one = Margins::default();
        one.add(-4);
        assert_eq!(
            one.interval(),
            Some(Interval {
                value: -4.0,
                lower: -4.0,
                upper: -4.0
            })
        );
    }
}
