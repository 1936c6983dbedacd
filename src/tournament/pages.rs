//! Game records and tournament reports as web pages: each page is one
//! self-contained HTML file (inline CSS, SVG and script, no outside
//! resource), so it can be opened from disk or mailed.
//!
//! A game's page holds the board of every position (drawn by the game's
//! [`Game::svg`], the last step marked), buttons and the arrow keys to step,
//! the list of steps (click to jump), and a plot of the engines' scores
//! when the record has them. The fragment `#move=K` opens it at step K.
//! Pages are also well-formed XML, so tools (and the tests) can read them
//! with an XML parser.

use crate::game::{state_text, Game, NodeKind, Player};
use crate::search::score::{Score, WIN_THRESHOLD};
use crate::svg::{escape, SvgOptions};
use crate::tournament::records::GameRecord;
use crate::tournament::report::Report;
use crate::tournament::seats::{SeatRecord, SeatReport};
use crate::tournament::stats::Interval;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The style shared by every page.
const STYLE: &str = r#"
body { font-family: sans-serif; margin: 16px; color: #222; background: #fafaf7; }
h1 { font-size: 20px; margin: 0 0 4px 0; }
h2 { font-size: 16px; margin: 18px 0 6px 0; }
p.meta { margin: 2px 0; color: #555; font-size: 13px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; }
th { background: #eee; }
td.text, th.text { text-align: left; }
code { font-size: 12px; }
td.position { max-width: 300px; word-break: break-all; }
td.links { max-width: 300px; }
.game-link { white-space: nowrap; margin-right: 6px; }
.main { display: flex; gap: 18px; align-items: flex-start; flex-wrap: wrap; }
.board-column { flex: 0 0 auto; width: 480px; max-width: 100%; }
.board { margin: 0; }
.board svg { width: 100%; height: auto; display: block; }
.caption { font-size: 14px; margin: 6px 0; min-height: 2.6em; }
.controls { display: flex; gap: 6px; align-items: center; }
.controls button { font-size: 16px; min-width: 42px; padding: 3px 8px; }
#counter { margin-left: 8px; font-size: 14px; }
.side { flex: 1 1 260px; min-width: 240px; max-width: 420px; }
#steps { max-height: 420px; overflow-y: auto; border: 1px solid #ccc; background: #fff;
  margin: 0; padding: 4px 4px 4px 44px; font-size: 13px; }
#steps li { padding: 1px 4px; }
#steps li.current { background: #f2d22e; }
#steps a { color: #124; text-decoration: none; }
#steps .score { color: #777; margin-left: 6px; }
.plot { background: #fff; border: 1px solid #ccc; margin-top: 8px; display: block;
  width: 100%; height: auto; }
#elo-plot { max-width: 760px; }
.plot .point { cursor: pointer; }
"#;

/// The script of a game's page: shows one position at a time and keeps
/// the step list, the plot's cursor and the fragment in step.
const SCRIPT: &str = r#"
(function () {
  var boards = document.querySelectorAll('.board');
  var items = document.querySelectorAll('#steps li');
  var cursor = document.getElementById('cursor');
  var counter = document.getElementById('counter');
  var last = boards.length - 1;
  var current = 0;
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    boards[current].hidden = true;
    if (current > 0) { items[current - 1].className = ''; }
    boards[k].hidden = false;
    if (k > 0) {
      items[k - 1].className = 'current';
      items[k - 1].scrollIntoView({block: 'nearest'});
    }
    if (cursor) {
      var x = cursor.getAttribute('data-x0') * 1 + k * cursor.getAttribute('data-dx');
      cursor.setAttribute('x1', x);
      cursor.setAttribute('x2', x);
    }
    counter.textContent = 'step ' + k + ' of ' + last;
    current = k;
    if (location.hash !== '#move=' + k) {
      try { history.replaceState(null, '', '#move=' + k); } catch (e) {}
    }
  }
  function fromHash() {
    var m = /move=(\d+)/.exec(location.hash);
    show(m ? parseInt(m[1], 10) : 0);
  }
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(current - 1); };
  document.getElementById('next').onclick = function () { show(current + 1); };
  document.getElementById('last').onclick = function () { show(last); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); }
    else if (e.key === 'ArrowRight') { show(current + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(last); }
    else { return; }
    e.preventDefault();
  });
  document.querySelectorAll('[data-move]').forEach(function (el) {
    el.addEventListener('click', function (e) {
      e.preventDefault();
      show(parseInt(el.getAttribute('data-move'), 10));
    });
  });
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
"#;

/// The start of a page with its title and the shared style.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    )
}

/// A board picture made fit to sit inside HTML: without its XML
/// declaration and namespace attribute (HTML puts `<svg>` in the SVG
/// namespace itself), so the page names no outside address at all.
fn inline_svg(svg: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    body.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
}

/// A score as `analyze` prints it (`35`, `win in 3`).
fn score_text(score: i32) -> String {
    Score(score).to_string()
}

/// The page of one recorded game: `steps` are its positions from the
/// opening as [`crate::tournament::records::replay`] gives them.
pub fn game_page<G: Game>(rec: &GameRecord, steps: &[(Option<String>, G)]) -> String {
    let scores: BTreeMap<usize, (i32, Option<u32>)> = rec
        .scores
        .iter()
        .map(|s| (s.step, (s.score, s.depth)))
        .collect();
    let heading = Heading {
        number: rec.number,
        players: &rec.engines,
        result: &rec.result,
        reason: &rec.reason,
        plies: rec.plies,
        opening: format!("opening {}", rec.opening_index),
        opening_text: &rec.opening,
    };
    any_game_page(&heading, steps, &scores)
}

/// One game of more than two sides as a web page, as [`game_page`] draws
/// a game of two (seat engines give no scores, so it has no plot).
pub fn seat_game_page<G: Game>(rec: &SeatRecord, steps: &[(Option<String>, G)]) -> String {
    let result = match rec.winner {
        Some(w) => format!("{} wins", G::INFO.sides[w as usize - 1]),
        None => "draw".to_string(),
    };
    let heading = Heading {
        number: rec.number,
        players: &rec.seats,
        result: &result,
        reason: &rec.reason,
        plies: rec.plies,
        opening: "opening".to_string(),
        opening_text: &rec.opening,
    };
    any_game_page(&heading, steps, &BTreeMap::new())
}

/// What a game page says above the board.
struct Heading<'r> {
    number: u64,
    players: &'r [String],
    result: &'r str,
    reason: &'r str,
    plies: u32,
    opening: String,
    opening_text: &'r str,
}

/// A game's page: the heading, every position, the steps and the scores.
fn any_game_page<G: Game>(
    h: &Heading,
    steps: &[(Option<String>, G)],
    scores: &BTreeMap<usize, (i32, Option<u32>)>,
) -> String {
    let sides = G::INFO.sides;
    let title = format!("{} game {}", G::INFO.name, h.number);
    let mut o = head(&title);
    let _ = writeln!(o, "<h1>{}</h1>", escape(&title));
    let seated: Vec<String> = h
        .players
        .iter()
        .zip(sides)
        .map(|(e, s)| format!("{} ({})", escape(e), escape(s)))
        .collect();
    let _ = writeln!(
        o,
        "<p class=\"meta\">{}: <b>{}</b> ({}), {} plies</p>",
        seated.join(" vs "),
        escape(h.result),
        escape(h.reason),
        h.plies
    );
    let _ = writeln!(
        o,
        "<p class=\"meta\">{}: <code>{}</code></p>",
        h.opening,
        escape(h.opening_text)
    );
    o.push_str("<div class=\"main\">\n<div class=\"board-column\">\n<div id=\"boards\">\n");
    let opts = SvgOptions::default();
    for (k, (step, pos)) in steps.iter().enumerate() {
        let before = k.checked_sub(1).map(|b| &steps[b].1);
        let what = match step {
            None => "opening".to_string(),
            Some(text) => {
                let mover = match steps[k - 1].1.node() {
                    NodeKind::Decision(p) => format!(" ({})", sides[p.index()]),
                    NodeKind::Chance => " (roll)".to_string(),
                    _ => String::new(),
                };
                let verdict = match scores.get(&(k - 1)) {
                    Some(&(s, d)) => format!(
                        ", score {}{}",
                        score_text(s),
                        d.map_or(String::new(), |d| format!(" at depth {d}"))
                    ),
                    None => String::new(),
                };
                format!("step {k}: <b>{}</b>{mover}{verdict}", escape(text))
            }
        };
        let _ = writeln!(
            o,
            "<figure class=\"board\" id=\"position-{k}\"{}>\n{}<figcaption class=\"caption\">{what}<br/>{}</figcaption>\n</figure>",
            if k == 0 { "" } else { " hidden=\"hidden\"" },
            inline_svg(&pos.svg(&opts, before)),
            escape(&state_text(pos))
        );
    }
    o.push_str("</div>\n<div class=\"controls\">\n\
        <button id=\"first\" title=\"opening (Home)\">|&#x25C0;</button>\n\
        <button id=\"prev\" title=\"back (left arrow)\">&#x25C0;</button>\n\
        <button id=\"next\" title=\"forward (right arrow)\">&#x25B6;</button>\n\
        <button id=\"last\" title=\"last step (End)\">&#x25B6;|</button>\n\
        <span id=\"counter\"></span>\n</div>\n</div>\n<div class=\"side\">\n<h2>Steps</h2>\n<ol id=\"steps\">\n");
    for (k, (step, _)) in steps.iter().enumerate().skip(1) {
        let score = scores.get(&(k - 1)).map_or(String::new(), |&(s, _)| {
            format!("<span class=\"score\">{}</span>", score_text(s))
        });
        let _ = writeln!(
            o,
            "<li><a href=\"#move={k}\" data-move=\"{k}\">{}</a>{score}</li>",
            escape(step.as_deref().unwrap_or(""))
        );
    }
    o.push_str("</ol>\n");
    if !scores.is_empty() {
        let _ = writeln!(
            o,
            "<h2>Scores for {} (each engine's, after its step)</h2>",
            escape(sides[0])
        );
        o.push_str(&score_plot(steps, scores));
    }
    let _ = write!(
        o,
        "</div>\n</div>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    o
}

/// The plot of the scores over the game, each from the first player's
/// side, at the position its step led to; proven results are drawn at the
/// plot's edge. Each point jumps to its step; a line marks the step shown.
fn score_plot<G: Game>(
    steps: &[(Option<String>, G)],
    scores: &BTreeMap<usize, (i32, Option<u32>)>,
) -> String {
    let (w, h, left, pad) = (400.0, 180.0, 44.0, 10.0);
    let last = (steps.len() - 1).max(1) as f64;
    let first_view = |step: usize, s: i32| match steps[step].1.node() {
        NodeKind::Decision(p) if p != Player::FIRST => -s,
        _ => s,
    };
    let values: Vec<(usize, i32)> = scores
        .iter()
        .map(|(&step, &(s, _))| (step + 1, first_view(step, s)))
        .collect();
    let largest = values
        .iter()
        .map(|&(_, v)| v.abs())
        .filter(|&v| v <= WIN_THRESHOLD)
        .max()
        .unwrap_or(0);
    let bound = nice_bound(largest as f64);
    let edge = bound * 1.1;
    let dx = (w - left - pad) / last;
    let x = |k: usize| left + k as f64 * dx;
    let y = |v: f64| pad + (h - 2.0 * pad) * (edge - v.clamp(-edge, edge)) / (2.0 * edge);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg class=\"plot\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-size=\"10\">"
    );
    for v in [bound, 0.0, -bound] {
        let _ = writeln!(
            o,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"{2}\"/>\
             <text x=\"{3}\" y=\"{0:.1}\" text-anchor=\"end\" dominant-baseline=\"central\">{4}</text>",
            y(v),
            w - pad,
            if v == 0.0 { "#888" } else { "#ddd" },
            left - 4.0,
            v
        );
    }
    let line: Vec<String> = values
        .iter()
        .map(|&(k, v)| format!("{:.1},{:.1}", x(k), y(v as f64)))
        .collect();
    let _ = writeln!(
        o,
        "<polyline fill=\"none\" stroke=\"#2a6fb0\" stroke-width=\"1.5\" points=\"{}\"/>",
        line.join(" ")
    );
    for &(k, v) in &values {
        let _ = writeln!(
            o,
            "<circle class=\"point\" data-move=\"{k}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"#2a6fb0\"><title>step {k}: {}</title></circle>",
            x(k),
            y(v as f64),
            score_text(v)
        );
    }
    let _ = writeln!(
        o,
        "<line id=\"cursor\" data-x0=\"{left}\" data-dx=\"{dx:.4}\" x1=\"{left}\" y1=\"{pad}\" x2=\"{left}\" y2=\"{}\" stroke=\"#d0312d\"/>\n</svg>",
        h - pad
    );
    o
}

/// A round bound at least `v` (and at least 100) for a plot's axis: 1, 2
/// or 5 times a power of ten.
fn nice_bound(v: f64) -> f64 {
    let v = v.max(100.0);
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&b| b >= v)
        .unwrap_or(10.0 * p)
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

/// The tournament's page: the score table, the Elo of each encounter with
/// its interval as a plot, the standings, the results by opening (when
/// `by_opening`), and every game linked to its page at `game_link(number)`.
pub fn tournament_page(
    name: &str,
    sides: &[&str],
    report: &Report,
    records: &[GameRecord],
    by_opening: bool,
    game_link: &dyn Fn(u64) -> String,
) -> String {
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
        o.push_str(&opening_table(&sorted, sides, game_link));
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
            escape(&r.result),
            escape(&r.reason),
            r.plies,
            r.opening_index
        );
    }
    o.push_str("</table>\n</body>\n</html>\n");
    o
}

/// A tournament of more than two sides as a web page: each engine's score
/// with its error bar overall and per seat, the wins by seat, and every
/// game linked to its page at `game_link(number)`.
pub fn seat_tournament_page(
    name: &str,
    sides: &[&str],
    report: &SeatReport,
    records: &[SeatRecord],
    game_link: &dyn Fn(u64) -> String,
) -> String {
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
    let cell = |sc: &crate::tournament::seats::Score| {
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
    let mut sorted: Vec<&SeatRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.number);
    for r in sorted {
        let _ = write!(
            o,
            "<tr><td><a href=\"{}\">{}</a></td>",
            escape(&game_link(r.number)),
            r.number
        );
        for e in &r.seats {
            let _ = write!(o, "<td class=\"text\">{}</td>", escape(e));
        }
        let result = match r.winner {
            Some(w) => format!("{} wins", sides.get(w as usize - 1).copied().unwrap_or("?")),
            None => "draw".to_string(),
        };
        let _ = writeln!(
            o,
            "<td class=\"text\">{}</td><td class=\"text\">{}</td><td>{}</td></tr>",
            escape(&result),
            escape(&r.reason),
            r.plies
        );
    }
    o.push_str("</table>\n</body>\n</html>\n");
    o
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
        by.entry(r.opening_index).or_default().push(r);
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
                    escape(&r.result)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_bounds_are_round_and_cover_the_values() {
        assert_eq!(nice_bound(0.0), 100.0);
        assert_eq!(nice_bound(130.0), 200.0);
        assert_eq!(nice_bound(480.0), 500.0);
        assert_eq!(nice_bound(501.0), 1000.0);
        assert_eq!(nice_bound(2500.0), 5000.0);
    }

    #[test]
    fn inline_pictures_name_no_address() {
        let svg =
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\"></svg>";
        assert_eq!(inline_svg(svg), "<svg width=\"1\"></svg>");
    }
}
