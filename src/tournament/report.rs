//! The tournament's report, built from game records alone (so a merged set
//! of shards gives the same report as one run): per encounter W/D/L, score,
//! Elo with its interval, LOS, pentanomial counts, normalised Elo, points,
//! the SPRT; per engine the standings.

use crate::tournament::records::GameRecord;
use crate::tournament::stats::{margin, Interval, Penta, Sprt, SprtState, Wdl};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The results of one engine against another, counted for the first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EncounterReport {
    /// The two engines; results are the first one's.
    pub engines: [String; 2],
    /// Games played.
    pub games: u64,
    /// Wins, draws, losses.
    pub wdl: Wdl,
    /// Mean score per game.
    pub score: f64,
    /// Elo from the trinomial results, with its 95% interval.
    pub elo: Option<Interval>,
    /// Likelihood of superiority.
    pub los: f64,
    /// Complete pairs.
    pub pairs: u64,
    /// Pentanomial counts by pair score `[0, ½, 1, 1½, 2]`.
    pub penta: Penta,
    /// Elo from the pair results, with its 95% interval.
    pub penta_elo: Option<Interval>,
    /// Normalised Elo from the pair results, with its 95% interval.
    pub nelo: Option<Interval>,
    /// Total match points of each engine, for games that score them.
    pub points: Option<[u64; 2]>,
    /// Mean points margin per game of the first engine, with its 95%
    /// interval, for games that score points.
    pub margin: Option<Interval>,
    /// How games ended: reason → count.
    pub reasons: BTreeMap<String, u64>,
    /// The SPRT on this encounter, if one was asked for.
    pub sprt: Option<SprtReport>,
}

/// Where the SPRT stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    /// The test.
    pub test: Sprt,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower and upper bounds.
    pub bounds: (f64, f64),
    /// What it concludes.
    pub state: SprtState,
}

/// One engine's total over all its encounters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The engine.
    pub engine: String,
    /// Games played.
    pub games: u64,
    /// Points scored (win 1, draw ½).
    pub score: f64,
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The game id.
    pub game: String,
    /// Games counted.
    pub games: u64,
    /// Per encounter, in order of first pair.
    pub encounters: Vec<EncounterReport>,
    /// Per engine, best score first.
    pub standings: Vec<Standing>,
}

impl Report {
    /// The report of `records` (any order), with the SPRT `sprt` applied to
    /// every encounter.
    pub fn new(records: &[GameRecord], sprt: Option<Sprt>) -> Report {
        let mut recs: Vec<&GameRecord> = records.iter().collect();
        recs.sort_by_key(|r| r.number);
        let mut order: Vec<[String; 2]> = Vec::new();
        for r in &recs {
            if !order.contains(&r.encounter) {
                order.push(r.encounter.clone());
            }
        }
        let encounters: Vec<EncounterReport> = order
            .iter()
            .map(|enc| {
                let games: Vec<&GameRecord> = recs
                    .iter()
                    .copied()
                    .filter(|r| &r.encounter == enc)
                    .collect();
                encounter(enc, &games, sprt)
            })
            .collect();
        let mut standings: Vec<Standing> = Vec::new();
        for e in &encounters {
            for (i, name) in e.engines.iter().enumerate() {
                let s = e.wdl.wins as f64 + 0.5 * e.wdl.draws as f64;
                let s = if i == 0 { s } else { e.games as f64 - s };
                match standings.iter_mut().find(|x| &x.engine == name) {
                    Some(x) => {
                        x.games += e.games;
                        x.score += s;
                    }
                    None => standings.push(Standing {
                        engine: name.clone(),
                        games: e.games,
                        score: s,
                    }),
                }
            }
        }
        standings.sort_by(|a, b| {
            let pa = a.score / a.games.max(1) as f64;
            let pb = b.score / b.games.max(1) as f64;
            pb.total_cmp(&pa)
        });
        Report {
            game: recs.first().map_or(String::new(), |r| r.game.clone()),
            games: recs.len() as u64,
            encounters,
            standings,
        }
    }

    /// The report as readable text: a table per encounter and, for more
    /// than one encounter, the standings.
    pub fn table(&self) -> String {
        let mut o = String::new();
        let elo = |i: &Option<Interval>| match i {
            Some(i) => format!("{} [{}, {}]", num(i.value), num(i.lower), num(i.upper)),
            None => "-".into(),
        };
        for e in &self.encounters {
            let _ = writeln!(
                o,
                "{} vs {} ({} games)",
                e.engines[0], e.engines[1], e.games
            );
            let w = &e.wdl;
            let _ = writeln!(
                o,
                "  W/D/L      {} / {} / {}   score {:.1}/{} = {:.1}%",
                w.wins,
                w.draws,
                w.losses,
                e.score * e.games as f64,
                e.games,
                100.0 * e.score
            );
            let _ = writeln!(
                o,
                "  Elo        {}   LOS {:.1}%",
                elo(&e.elo),
                100.0 * e.los
            );
            let p = &e.penta.0;
            let _ = writeln!(
                o,
                "  pairs      {}   penta [LL LD DD/WL WD WW] = [{} {} {} {} {}]",
                e.pairs, p[0], p[1], p[2], p[3], p[4]
            );
            let _ = writeln!(o, "  penta Elo  {}", elo(&e.penta_elo));
            let _ = writeln!(o, "  nElo       {}", elo(&e.nelo));
            if let (Some(pt), Some(m)) = (e.points, &e.margin) {
                let _ = writeln!(
                    o,
                    "  points     {} - {}   margin per game {:.2} [{:.2}, {:.2}]",
                    pt[0], pt[1], m.value, m.lower, m.upper
                );
            }
            let reasons: Vec<String> = e.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
            let _ = writeln!(o, "  endings    {}", reasons.join(", "));
            if let Some(s) = &e.sprt {
                let state = match s.state {
                    SprtState::Continue => "continue",
                    SprtState::H0 => "H0 accepted",
                    SprtState::H1 => "H1 accepted",
                };
                let _ = writeln!(
                    o,
                    "  SPRT       elo0 {} elo1 {} ({:?}) LLR {:.2} [{:.2}, {:.2}] {state}",
                    s.test.elo0, s.test.elo1, s.test.model, s.llr, s.bounds.0, s.bounds.1
                );
            }
        }
        if self.encounters.len() > 1 {
            let _ = writeln!(o, "standings");
            let width = self
                .standings
                .iter()
                .map(|s| s.engine.len())
                .max()
                .unwrap_or(0);
            for (i, s) in self.standings.iter().enumerate() {
                let _ = writeln!(
                    o,
                    "  {:>2}. {:<width$}  {:>6.1}/{:<4}  {:5.1}%",
                    i + 1,
                    s.engine,
                    s.score,
                    s.games,
                    100.0 * s.score / s.games.max(1) as f64
                );
            }
        }
        o
    }
}

/// A number for the table, `+inf`/`-inf` where a score of 1 or 0 makes it so.
fn num(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        // Keep -0.0 (an exact ½ score) from printing a sign.
        format!("{:.1}", if x.abs() < 0.05 { 0.0 } else { x })
    }
}

fn encounter(enc: &[String; 2], games: &[&GameRecord], sprt: Option<Sprt>) -> EncounterReport {
    let mut wdl = Wdl::default();
    let mut reasons = BTreeMap::new();
    let mut by_pair: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    let mut points: Option<[u64; 2]> = None;
    let mut margins = Vec::new();
    for r in games {
        let s = r.score_of_first_engine();
        wdl.add(s);
        *reasons.entry(r.reason.clone()).or_insert(0) += 1;
        by_pair.entry(r.pair).or_default().push(s);
        if let Some(p) = r.points {
            let side = r.side_of(&enc[0]);
            let t = points.get_or_insert([0, 0]);
            t[0] += p[side] as u64;
            t[1] += p[1 - side] as u64;
        }
        if let Some(m) = r.margin_of_first_engine() {
            margins.push(m);
        }
    }
    let mut penta = Penta::default();
    for scores in by_pair.values().filter(|v| v.len() == 2) {
        penta.0[((scores[0] + scores[1]) * 2.0).round() as usize] += 1;
    }
    EncounterReport {
        engines: enc.clone(),
        games: wdl.games(),
        wdl,
        score: wdl.score(),
        elo: wdl.elo(),
        los: wdl.los(),
        pairs: penta.pairs(),
        penta,
        penta_elo: penta.elo(),
        nelo: penta.nelo(),
        points,
        margin: margin(&margins),
        reasons,
        sprt: sprt.map(|test| {
            let llr = test.llr(&penta);
            SprtReport {
                test,
                llr,
                bounds: test.bounds(),
                state: test.state(llr),
            }
        }),
    }
}
