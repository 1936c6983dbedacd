//! The tournament's report, built from game records alone (so a merged set
//! of shards gives the same report as one run): in a game of two sides,
//! per encounter W/D/L, score, Elo with its interval, LOS, pentanomial
//! counts, normalised Elo, points, the SPRT, and per engine the standings
//! ([`Report`]); in a game of more than two, each engine's score with its
//! error bar, overall and per seat ([`SideScores`]). A [`Tally`] counts
//! each game once as it finishes; the report ([`Summary`]) is made from the
//! tally.

use crate::stats::{Interval, Margins, Penta, Sprt, SprtState, Wdl};
use gamut_players::record::GameRecord;
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
    /// In a game of more than two sides: the engines, the number of sides
    /// and every record (the scores are made from them).
    seats: Option<(Vec<String>, usize, Vec<GameRecord>)>,
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
    /// No games yet of a game of two sides; `sprt` is applied to every
    /// encounter.
    #[must_use]
    pub fn new(sprt: Option<Sprt>) -> Tally {
        Tally {
            sprt,
            game: None,
            games: 0,
            encounters: Vec::new(),
            seats: None,
        }
    }

    /// No games yet of engines `names` in a game of `sides` sides, more
    /// than two.
    #[must_use]
    pub fn of_seats(names: Vec<String>, sides: usize) -> Tally {
        Tally {
            seats: Some((names, sides, Vec::new())),
            ..Tally::new(None)
        }
    }

    /// Counts one finished game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        if self.game.as_ref().is_none_or(|(n, _)| r.number < *n) {
            self.game = Some((r.number, r.game.clone()));
        }
        if let Some((_, _, records)) = &mut self.seats {
            records.push(r.clone());
            return;
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

    /// The report of the games counted so far, of two sides or more.
    #[must_use]
    pub fn summary(&self) -> Summary {
        match &self.seats {
            Some((names, sides, records)) => {
                Summary::Seats(SideScores::new(names, *sides, records))
            }
            None => Summary::Pairs(self.report()),
        }
    }

    /// The report of the games of two sides counted so far.
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

/// A tournament's report: of encounters of two engines in a game of two
/// sides, or of engines seated at the sides of a game of more.
#[derive(Clone, Debug)]
pub enum Summary {
    /// Encounters of two engines.
    Pairs(Report),
    /// Engines seated at the sides of a game of more than two.
    Seats(SideScores),
}

impl Summary {
    /// The report as a table.
    #[must_use]
    pub fn table(&self) -> String {
        match self {
            Summary::Pairs(r) => r.table(),
            Summary::Seats(r) => r.table(),
        }
    }

    /// The report as JSON.
    pub fn json(&self) -> Result<serde_json::Value, serde_json::Error> {
        match self {
            Summary::Pairs(r) => serde_json::to_value(r),
            Summary::Seats(r) => serde_json::to_value(r),
        }
    }
}

/// A score with its 95% interval: wins (½ for a draw) over seats played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeanScore {
    /// Seats played.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The mean score per seat, from 0 to 1.
    pub score: f64,
    /// Half the 95% interval: 1.96 standard errors of the mean.
    pub error: f64,
}

impl MeanScore {
    fn of(results: &[f64]) -> MeanScore {
        let n = results.len() as f64;
        let mean = results.iter().sum::<f64>() / n.max(1.0);
        let var = if n > 1.0 {
            results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        MeanScore {
            games: results.len() as u64,
            wins: results.iter().filter(|&&r| r == 1.0).count() as u64,
            draws: results.iter().filter(|&&r| r == 0.5).count() as u64,
            score: mean,
            error: 1.96 * (var / n.max(1.0)).sqrt(),
        }
    }
}

/// One engine's results in a tournament of more than two sides.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineScores {
    /// The engine.
    pub engine: String,
    /// Over every seat it held.
    pub overall: MeanScore,
    /// Per seat (side), first side first.
    pub seats: Vec<MeanScore>,
}

/// The report of a tournament of more than two sides: each engine's
/// score, overall and per seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideScores {
    /// Games played.
    pub games: u64,
    /// The score a side gets by chance alone: 1 / sides.
    pub fair_share: f64,
    /// Each engine's standing, in the order given.
    pub standings: Vec<EngineScores>,
    /// How many games ended for each reason.
    pub endings: Vec<(String, u64)>,
    /// Wins per seat over all engines.
    pub seat_wins: Vec<u64>,
}

impl SideScores {
    /// The report over `records` of engines `names` in a game of `sides`
    /// sides.
    #[must_use]
    pub fn new(names: &[String], sides: usize, records: &[GameRecord]) -> SideScores {
        let result = |r: &GameRecord, s: usize| match r.winner {
            Some(w) if w as usize == s + 1 => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let standings = names
            .iter()
            .map(|name| {
                let mut all = Vec::new();
                let mut per_seat = vec![Vec::new(); sides];
                for r in records {
                    for (s, seat) in r.engines.iter().enumerate() {
                        if seat == name {
                            all.push(result(r, s));
                            per_seat[s].push(result(r, s));
                        }
                    }
                }
                EngineScores {
                    engine: name.clone(),
                    overall: MeanScore::of(&all),
                    seats: per_seat.iter().map(|v| MeanScore::of(v)).collect(),
                }
            })
            .collect();
        let mut endings: Vec<(String, u64)> = Vec::new();
        for r in records {
            match endings.iter_mut().find(|(k, _)| *k == r.reason) {
                Some(e) => e.1 += 1,
                None => endings.push((r.reason.clone(), 1)),
            }
        }
        SideScores {
            games: records.len() as u64,
            fair_share: 1.0 / sides as f64,
            standings,
            endings,
            seat_wins: (0..sides)
                .map(|s| {
                    records
                        .iter()
                        .filter(|r| r.winner == Some(s as u8 + 1))
                        .count() as u64
                })
                .collect(),
        }
    }

    /// The report as a table: per engine its score ± error overall and per
    /// seat.
    #[must_use]
    pub fn table(&self) -> String {
        let sides = self.seat_wins.len();
        let mut s = format!(
            "games {}; a side's fair share {:.3}; score = wins (draws ½) per seat held, ± 95% interval\n",
            self.games, self.fair_share
        );
        s.push_str(&format!("{:<12} {:>6} {:>18}", "engine", "seats", "score"));
        for k in 0..sides {
            s.push_str(&format!(" {:>18}", format!("seat {}", k + 1)));
        }
        s.push('\n');
        for st in &self.standings {
            let cell = |sc: &MeanScore| {
                if sc.games == 0 {
                    "-".to_string()
                } else {
                    format!("{:.3} ± {:.3} ({})", sc.score, sc.error, sc.games)
                }
            };
            s.push_str(&format!(
                "{:<12} {:>6} {:>18}",
                st.engine,
                st.overall.games,
                format!("{:.3} ± {:.3}", st.overall.score, st.overall.error)
            ));
            for sc in &st.seats {
                s.push_str(&format!(" {:>18}", cell(sc)));
            }
            s.push('\n');
        }
        let wins: Vec<String> = self.seat_wins.iter().map(|w| w.to_string()).collect();
        s.push_str(&format!("wins by seat {}\n", wins.join(" ")));
        let ends: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        s.push_str(&format!("endings    {}\n", ends.join(", ")));
        s
    }
}
