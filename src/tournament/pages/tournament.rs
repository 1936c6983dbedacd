//! A tournament's page: its tables, its Elo plot (two sides) or seat
//! scores (more), the openings, and every game in the viewer.

use super::viewer::{viewer, Games};
use super::{head, nice_bound};
use crate::records;
use crate::report::{MeanScore, Report, SideScores, Summary};
use crate::stats::Interval;
use gamut_core::game::ParseError;
use gamut_core::svg::escape;
use gamut_engine::AnyGame;
use gamut_players::record::GameRecord;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A tournament of more than two sides as a page: each engine's score
/// with its error bar overall and per seat, the wins by seat, the list of
/// games, and every game in the page's viewer (`#game=N`), kept as
/// compact data. An error when a record does not replay.
fn seat_tournament_page(
    game: &dyn AnyGame,
    report: &SideScores,
    records: &[GameRecord],
) -> Result<String, ParseError> {
    let (name, sides) = (game.info().name, game.info().sides);
    let title = format!("{name} tournament");
    let mut o = head(&title);
    let _ = writeln!(o, "<h1>{}</h1>", escape(&title));
    let _ = writeln!(
        o,
        "<p class=\"meta\">{} games; a side's fair share {:.3}; score = wins (draws ½) per seat held, ± 95% interval</p>",
        report.games, report.fair_share
    );
    o.push_str("<h2>Standings</h2>\n<table id=\"standings\">\n<tr><th class=\"text\">engine</th><th>seats</th><th>score</th>");
    for side in sides {
        let _ = write!(o, "<th>{}</th>", escape(side));
    }
    o.push_str("</tr>\n");
    let cell = |sc: &MeanScore| {
        if sc.games == 0 {
            "-".to_string()
        } else {
            format!("{:.3} ± {:.3} ({})", sc.score, sc.error, sc.games)
        }
    };
    for st in &report.standings {
        let _ = write!(
            o,
            "<tr><td class=\"text\">{}</td><td>{}</td><td>{:.3} ± {:.3}</td>",
            escape(&st.engine),
            st.overall.games,
            st.overall.score,
            st.overall.error
        );
        for sc in &st.seats {
            let _ = write!(o, "<td>{}</td>", cell(sc));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</table>\n<h2>Wins by seat</h2>\n<table id=\"seats\">\n<tr>");
    for side in sides {
        let _ = write!(o, "<th>{}</th>", escape(side));
    }
    o.push_str("</tr>\n<tr>");
    for w in &report.seat_wins {
        let _ = write!(o, "<td>{w}</td>");
    }
    o.push_str("</tr>\n</table>\n<h2>Games</h2>\n<table id=\"games\">\n<tr><th>game</th>");
    for side in sides {
        let _ = write!(o, "<th class=\"text\">{}</th>", escape(side));
    }
    o.push_str("<th class=\"text\">result</th><th class=\"text\">reason</th><th>plies</th></tr>\n");
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.number);
    for r in &sorted {
        let _ = write!(
            o,
            "<tr><td><a href=\"#game={}\">{}</a></td>",
            r.number, r.number
        );
        for e in &r.engines {
            let _ = write!(o, "<td class=\"text\">{}</td>", escape(e));
        }
        let _ = writeln!(
            o,
            "<td class=\"text\">{}</td><td class=\"text\">{}</td><td>{}</td></tr>",
            escape(&r.shown_result(sides)),
            escape(&r.reason),
            r.plies
        );
    }
    o.push_str("</table>\n");
    let mut games = Games::new();
    for r in &sorted {
        let steps = records::replay(r)?;
        games.add(r, &steps);
    }
    o.push_str(&viewer(game, games));
    o.push_str("</body>\n</html>\n");
    Ok(o)
}

/// An Elo interval as the text table writes it.
fn elo_text(i: &Option<Interval>) -> String {
    let n = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 { "+&#x221E;" } else { "-&#x221E;" }.to_string()
        } else {
            format!("{:.0}", if x.abs() < 0.5 { 0.0 } else { x })
        }
    };
    match i {
        Some(i) => format!("{} [{}, {}]", n(i.value), n(i.lower), n(i.upper)),
        None => "-".into(),
    }
}

/// A tournament's page, of two sides or more (see the two below); an
/// error when a record does not replay.
pub fn tournament_page(
    game: &dyn AnyGame,
    summary: &Summary,
    records: &[GameRecord],
) -> Result<String, ParseError> {
    match summary {
        Summary::Pairs(report) => pair_tournament_page(game, report, records),
        Summary::Seats(report) => seat_tournament_page(game, report, records),
    }
}

/// The page of a tournament of two sides: the score table, the Elo of
/// each encounter with its interval as a plot, the standings, the results by opening (when
/// the games start from more than the start position), the list of games,
/// and every game in the page's viewer (`#game=N`), kept as compact data.
/// An error when a record does not replay.
fn pair_tournament_page(
    game: &dyn AnyGame,
    report: &Report,
    records: &[GameRecord],
) -> Result<String, ParseError> {
    let (name, sides) = (game.info().name, game.info().sides);
    let start = game.start().text();
    let by_opening = records.iter().any(|r| r.opening != start);
    let game_link = |n: u64| format!("#game={n}");
    let title = format!("{name} tournament");
    let mut o = head(&title);
    let _ = writeln!(o, "<h1>{}</h1>", escape(&title));
    let _ = writeln!(o, "<p class=\"meta\">{} games</p>", report.games);
    o.push_str("<h2>Encounters</h2>\n<table id=\"encounters\">\n<tr><th class=\"text\">engine</th><th class=\"text\">opponent</th>\
        <th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo [95%]</th><th>LOS</th>\
        <th>pairs</th><th>penta Elo</th><th>nElo</th></tr>\n");
    for e in &report.encounters {
        let _ = writeln!(
            o,
            "<tr><td class=\"text\">{}</td><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{:.1}%</td><td>{}</td><td>{:.1}%</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&e.engines[0]),
            escape(&e.engines[1]),
            e.games,
            e.wdl.wins,
            e.wdl.draws,
            e.wdl.losses,
            100.0 * e.score,
            elo_text(&e.elo),
            100.0 * e.los,
            e.pairs,
            elo_text(&e.penta_elo),
            elo_text(&e.nelo)
        );
    }
    o.push_str("</table>\n");
    o.push_str("<h2>Elo of each engine against its opponent, with 95% intervals</h2>\n");
    o.push_str(&elo_plot(report));
    if report.standings.len() > 2 {
        o.push_str("<h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>#</th><th class=\"text\">engine</th><th>score</th><th>games</th><th>%</th></tr>\n");
        for (i, s) in report.standings.iter().enumerate() {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td class=\"text\">{}</td><td>{:.1}</td><td>{}</td><td>{:.1}%</td></tr>",
                i + 1,
                escape(&s.engine),
                s.score,
                s.games,
                100.0 * s.score / s.games.max(1) as f64
            );
        }
        o.push_str("</table>\n");
    }
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.number);
    if by_opening {
        o.push_str(&opening_table(&sorted, sides, &game_link));
    }
    let _ = writeln!(
        o,
        "<h2>Games</h2>\n<table id=\"games\">\n<tr><th>game</th><th class=\"text\">{}</th><th class=\"text\">{}</th>\
         <th>result</th><th class=\"text\">reason</th><th>plies</th><th>opening</th></tr>",
        escape(sides[0]),
        escape(sides[1])
    );
    for r in &sorted {
        let _ = writeln!(
            o,
            "<tr><td><a href=\"{}\">{}</a></td><td class=\"text\">{}</td><td class=\"text\">{}</td>\
             <td>{}</td><td class=\"text\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&game_link(r.number)),
            r.number,
            escape(&r.engines[0]),
            escape(&r.engines[1]),
            escape(&r.shown_result(sides)),
            escape(&r.reason),
            r.plies,
            r.opening_index.unwrap_or_default()
        );
    }
    o.push_str("</table>\n");
    let mut games = Games::new();
    for r in &sorted {
        let steps = records::replay(r)?;
        games.add(r, &steps);
    }
    o.push_str(&viewer(game, games));
    o.push_str("</body>\n</html>\n");
    Ok(o)
}

/// The results by opening: each opening's games (linked) and how the
/// sides fared in them.
fn opening_table(
    records: &[&GameRecord],
    sides: &[&str],
    game_link: &dyn Fn(u64) -> String,
) -> String {
    let mut by: BTreeMap<u64, Vec<&GameRecord>> = BTreeMap::new();
    for r in records {
        by.entry(r.opening_index.unwrap_or_default())
            .or_default()
            .push(r);
    }
    let mut o = format!(
        "<h2>Results by opening</h2>\n<table id=\"openings\">\n<tr><th>opening</th><th class=\"text\">position</th>\
         <th>{} wins</th><th>draws</th><th>{} wins</th><th class=\"text\">games</th></tr>\n",
        escape(sides[0]),
        escape(sides[1])
    );
    for (index, games) in &by {
        let count = |w: Option<u8>| games.iter().filter(|r| r.winner == w).count();
        let links: Vec<String> = games
            .iter()
            .map(|r| {
                format!(
                    "<span class=\"game-link\"><a href=\"{}\">{}</a> {}</span>",
                    escape(&game_link(r.number)),
                    r.number,
                    escape(&r.shown_result(sides))
                )
            })
            .collect();
        let _ = writeln!(
            o,
            "<tr><td>{index}</td><td class=\"text position\"><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td class=\"text links\">{}</td></tr>",
            escape(&games[0].opening),
            count(Some(1)),
            count(None),
            count(Some(2)),
            links.join(" ")
        );
    }
    o.push_str("</table>\n");
    o
}

/// The Elo of each encounter as a point with its 95% interval as a bar;
/// an interval reaching infinity (a score of 0 or 1) runs to the plot's
/// edge with an arrow.
fn elo_plot(report: &Report) -> String {
    let rows: Vec<(String, Option<Interval>)> = report
        .encounters
        .iter()
        .map(|e| (format!("{} vs {}", e.engines[0], e.engines[1]), e.elo))
        .collect();
    let finite = rows
        .iter()
        .filter_map(|(_, i)| i.as_ref())
        .flat_map(|i| [i.value, i.lower, i.upper])
        .filter(|v| v.is_finite())
        .fold(0.0f64, |a, v| a.max(v.abs()));
    let bound = nice_bound(finite);
    let (w, left, right, row, top) = (640.0, 190.0, 20.0, 28.0, 24.0);
    let h = top + row * rows.len() as f64 + 10.0;
    let x = |v: f64| left + (w - left - right) * (v.clamp(-bound, bound) + bound) / (2.0 * bound);
    let mut o = format!(
        "<svg class=\"plot\" id=\"elo-plot\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-size=\"11\">\n"
    );
    for t in [-bound, -bound / 2.0, 0.0, bound / 2.0, bound] {
        let _ = writeln!(
            o,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"{2}\"/>\
             <text x=\"{0:.1}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>",
            x(t),
            h - 10.0,
            if t == 0.0 { "#888" } else { "#ddd" },
            top - 8.0,
            t
        );
    }
    for (i, (label, elo)) in rows.iter().enumerate() {
        let y = top + row * (i as f64 + 0.5);
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{y:.1}\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>",
            left - 8.0,
            escape(label)
        );
        let Some(e) = elo else {
            let _ = writeln!(
                o,
                "<text x=\"{:.1}\" y=\"{y:.1}\" dominant-baseline=\"central\" fill=\"#888\">no games</text>",
                x(0.0) + 6.0
            );
            continue;
        };
        let _ = writeln!(
            o,
            "<line class=\"interval\" x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#2a6fb0\" stroke-width=\"3\"/>",
            x(e.lower),
            x(e.upper)
        );
        for (end, dir) in [(e.lower, -1.0), (e.upper, 1.0)] {
            let ex = x(end);
            if end.is_infinite() || end.abs() > bound {
                let _ = writeln!(
                    o,
                    "<polygon points=\"{:.1},{y:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"#2a6fb0\"/>",
                    ex + 4.0 * dir,
                    ex - 4.0 * dir,
                    y - 5.0,
                    ex - 4.0 * dir,
                    y + 5.0
                );
            } else {
                let _ = writeln!(
                    o,
                    "<line x1=\"{ex:.1}\" y1=\"{:.1}\" x2=\"{ex:.1}\" y2=\"{:.1}\" stroke=\"#2a6fb0\" stroke-width=\"2\"/>",
                    y - 6.0,
                    y + 6.0
                );
            }
        }
        let _ = writeln!(
            o,
            "<circle class=\"elo\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"#d0312d\"><title>{}</title></circle>",
            x(e.value),
            elo_text(elo).replace("&#x221E;", "inf")
        );
    }
    o.push_str("</svg>\n");
    o
}
