//! The tournament's report, built from game records alone (so a merged set
//! of shards gives the same report as one run): per encounter W/D/L, score,
//! Elo with its interval, LOS, pentanomial counts, normalised Elo, points,
//! the SPRT; per engine the standings. A [`Tally`] counts each game once as
//! it finishes; the report is made from the tally.

use crate::records::GameRecord;
use crate::stats::{Interval, Margins, Penta, Sprt, SprtState, Wdl};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
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
    #[must_use]
    pub fn new(records: &[GameRecord], sprt: Option<Sprt>) -> Report {
        let mut tally = Tally::new(sprt);
        for r in records {
            tally.add(r);
        }
        tally.report()
    }

    /// The report as readable text: a table per encounter and, for more
    /// than one encounter, the standings.
    #[must_use]
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

/// The running counts of a tournament: each finished game is added once,
/// in any order, and the report is made from the counts.
#[derive(Clone, Debug)]
pub struct Tally {
    sprt: Option<Sprt>,
    game: Option<(u64, String)>,
    games: u64,
    encounters: Vec<EncounterTally>,
}

/// The running counts of one encounter.
#[derive(Clone, Debug)]
struct EncounterTally {
    engines: [String; 2],
    /// The lowest game number seen: encounters are reported in this order.
    first_game: u64,
    wdl: Wdl,
    /// The first engine's score in pairs with one game counted so far.
    half_pairs: HashMap<u64, f64>,
    penta: Penta,
    points: Option<[u64; 2]>,
    margins: Margins,
    reasons: BTreeMap<String, u64>,
}

impl Tally {
    /// No games yet; `sprt` is applied to every encounter.
    #[must_use]
    pub fn new(sprt: Option<Sprt>) -> Tally {
        Tally {
            sprt,
            game: None,
            games: 0,
            encounters: Vec::new(),
        }
    }

    /// Counts one finished game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        if self.game.as_ref().is_none_or(|(n, _)| r.number < *n) {
            self.game = Some((r.number, r.game.clone()));
        }
        let encounter = r.encounter().map(str::to_string);
        let i = match self.encounters.iter().position(|e| e.engines == encounter) {
            Some(i) => i,
            None => {
                self.encounters.push(EncounterTally {
                    engines: encounter,
                    first_game: r.number,
                    wdl: Wdl::default(),
                    half_pairs: HashMap::new(),
                    penta: Penta::default(),
                    points: None,
                    margins: Margins::default(),
                    reasons: BTreeMap::new(),
                });
                self.encounters.len() - 1
            }
        };
        let e = &mut self.encounters[i];
        e.first_game = e.first_game.min(r.number);
        let s = r.score_of_first_engine();
        e.wdl.add(s);
        *e.reasons.entry(r.reason.clone()).or_insert(0) += 1;
        // A record of two sides names its pair (games 2p+1 and 2p+2).
        let pair = r.pair.unwrap_or(r.number.saturating_sub(1) / 2);
        match e.half_pairs.remove(&pair) {
            Some(other) => e.penta.0[((other + s) * 2.0).round() as usize] += 1,
            None => {
                e.half_pairs.insert(pair, s);
            }
        }
        if let Some(p) = &r.points {
            let side = r.side_of(&e.engines[0]);
            let t = e.points.get_or_insert([0, 0]);
            t[0] += u64::from(p[side]);
            t[1] += u64::from(p[1 - side]);
        }
        if let Some(m) = r.margin_of_first_engine() {
            e.margins.add(m);
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The first engine's wins, draws and losses in each encounter, in the
    /// order of the report.
    #[must_use]
    pub fn wdl(&self) -> Vec<([String; 2], Wdl)> {
        self.ordered()
            .into_iter()
            .map(|e| (e.engines.clone(), e.wdl))
            .collect()
    }

    /// Whether the SPRT has accepted a hypothesis in some encounter.
    #[must_use]
    pub fn sprt_decided(&self) -> bool {
        self.sprt.is_some_and(|test| {
            self.encounters
                .iter()
                .any(|e| test.state(test.llr(&e.penta)) != SprtState::Continue)
        })
    }

    /// The encounters in order of their first game.
    fn ordered(&self) -> Vec<&EncounterTally> {
        let mut v: Vec<&EncounterTally> = self.encounters.iter().collect();
        v.sort_by_key(|e| e.first_game);
        v
    }

    /// The report of the games counted so far.
    #[must_use]
    pub fn report(&self) -> Report {
        let encounters: Vec<EncounterReport> = self
            .ordered()
            .into_iter()
            .map(|e| e.report(self.sprt))
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
            game: self.game.as_ref().map_or(String::new(), |(_, g)| g.clone()),
            games: self.games,
            encounters,
            standings,
        }
    }
}

impl EncounterTally {
    fn report(&self, sprt: Option<Sprt>) -> EncounterReport {
        let (wdl, penta) = (self.wdl, self.penta);
        EncounterReport {
            engines: self.engines.clone(),
            games: wdl.games(),
            wdl,
            score: wdl.score(),
            elo: wdl.elo(),
            los: wdl.los(),
            pairs: penta.pairs(),
            penta,
            penta_elo: penta.elo(),
            nelo: penta.nelo(),
            points: self.points,
            margin: self.margins.interval(),
            reasons: self.reasons.clone(),
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
}
