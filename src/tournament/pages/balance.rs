//! A balance run's page: its tables and plots of the first side's score
//! (each side's in a game of more than two), the draw rate, game lengths
//! and the decisive ply, each with its interval or quartiles.

use super::{head, nice_bound};
use crate::balance::{BalanceReport, Quartiles, RungReport, SetupReport};
use crate::stats::Interval;
use gamut_core::svg::escape;
use std::fmt::Write as _;

impl BalanceReport {
    /// The report as one self-contained web page: the tables and the
    /// plots of the first side's score (each side's in a game of more than
    /// two), the draw rate, game lengths and the decisive ply, each with
    /// its interval or quartiles, per setup and rung.
    #[must_use]
    pub fn page(&self) -> String {
        let title = format!("Balance of {}", self.name);
        let mut o = head(&title);
        let _ = writeln!(o, "<h1>{}</h1>", escape(&title));
        let _ = writeln!(
            o,
            "<p class=\"meta\">game id <code>{}</code>; self-play of one engine setting at each rung. {}</p>",
            escape(&self.game),
            escape(&self.legend())
        );
        let label = |s: &SetupReport, r: &RungReport| match &s.setup {
            Some(x) => format!("{x} {}", r.rung),
            None => r.rung.clone(),
        };
        let mut score_rows = Vec::new();
        let mut draw_rows = Vec::new();
        let mut length_rows = Vec::new();
        let mut decisive_rows = Vec::new();
        for s in &self.setups {
            for r in &s.rungs {
                let l = label(s, r);
                let shown = if self.sides.len() == 2 {
                    1
                } else {
                    r.sides.len()
                };
                for side in &r.sides[..shown] {
                    let row = if shown == 1 {
                        l.clone()
                    } else {
                        format!("{l} {}", side.side)
                    };
                    score_rows.push((row, Some(mark(&side.score))));
                }
                draw_rows.push((l.clone(), Some(mark(&r.draw_rate))));
                length_rows.push((l.clone(), r.length.map(box_mark)));
                decisive_rows.push((l, r.decisive.as_ref().map(|d| box_mark(d.ply))));
            }
        }
        let fair = 1.0 / self.sides.len() as f64;
        let score_title = if self.sides.len() == 2 {
            format!("{}'s score", self.sides[0])
        } else {
            "each side's score".to_string()
        };
        let _ = writeln!(
            o,
            "<h2>{}</h2>\n{}",
            escape(&score_title),
            rows_plot("score-plot", &score_rows, 1.0, Some(fair))
        );
        let _ = writeln!(
            o,
            "<h2>draw rate</h2>\n{}",
            rows_plot("draw-plot", &draw_rows, 1.0, None)
        );
        let longest = length_rows
            .iter()
            .filter_map(|(_, m)| m.map(|m| m.2))
            .fold(0.0, f64::max);
        let _ = writeln!(
            o,
            "<h2>game length (decision plies: quartiles, the dot the median)</h2>\n{}",
            rows_plot("length-plot", &length_rows, nice_bound(longest), None)
        );
        let _ = writeln!(
            o,
            "<h2>decisive ply (quartiles over won games)</h2>\n{}",
            rows_plot("decisive-plot", &decisive_rows, nice_bound(longest), None)
        );
        let _ = writeln!(o, "<h2>tables</h2>\n<pre>{}</pre>", escape(&self.table()));
        o.push_str("</body>\n</html>\n");
        o
    }
}

/// A point and its interval for a plot row: (lower, value, upper).
fn mark(i: &Interval) -> (f64, f64, f64) {
    (i.lower, i.value, i.upper)
}

/// Quartiles for a plot row: (q1, median, q3).
fn box_mark(q: Quartiles) -> (f64, f64, f64) {
    (q.q1, q.median, q.q3)
}

/// A plot's row: its label and, if it has games, a bar's ends and a
/// dot's place (low, dot, high).
type Row = (String, Option<(f64, f64, f64)>);

/// One row per label: a bar from the first to the third number and a
/// dot at the second, on an axis from 0 to `end`, with a dashed line at
/// `reference`; a row without numbers reads "no games".
fn rows_plot(id: &str, rows: &[Row], end: f64, reference: Option<f64>) -> String {
    let (w, left, right, row, top) = (720.0, 230.0, 20.0, 22.0, 24.0);
    let h = top + row * rows.len() as f64 + 10.0;
    let x = |v: f64| left + (w - left - right) * v.clamp(0.0, end) / end;
    let mut o = format!(
        "<svg class=\"plot\" id=\"{id}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-size=\"11\">\n"
    );
    for k in 0..=4 {
        let t = end * f64::from(k) / 4.0;
        let _ = writeln!(
            o,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{0:.1}\" y=\"{2}\" text-anchor=\"middle\">{3}</text>",
            x(t),
            h - 10.0,
            top - 8.0,
            if end <= 1.0 {
                format!("{t:.2}")
            } else {
                format!("{t:.0}")
            }
        );
    }
    if let Some(r) = reference {
        let _ = writeln!(
            o,
            "<line class=\"reference\" x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>",
            x(r),
            h - 10.0
        );
    }
    for (i, (label, m)) in rows.iter().enumerate() {
        let y = top + row * (i as f64 + 0.5);
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{y:.1}\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>",
            left - 8.0,
            escape(label)
        );
        let Some((lo, v, hi)) = m else {
            let _ = writeln!(
                o,
                "<text x=\"{:.1}\" y=\"{y:.1}\" dominant-baseline=\"central\" fill=\"#888\">no games</text>",
                left + 6.0
            );
            continue;
        };
        let _ = writeln!(
            o,
            "<line class=\"interval\" x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#2a6fb0\" stroke-width=\"3\"/>\
             <circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"#d0312d\"><title>{} [{}, {}]</title></circle>",
            x(*lo),
            x(*hi),
            x(*v),
            short(*v),
            short(*lo),
            short(*hi)
        );
    }
    o.push_str("</svg>\n");
    o
}

/// A number for a tooltip: three decimals below 1, else whole.
fn short(v: f64) -> String {
    if v.abs() < 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.0}")
    }
}
