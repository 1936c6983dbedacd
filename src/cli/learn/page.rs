//! The ledger as one web page (`ledger.html`): each generation's Elo
//! against classic and its gate's, with their intervals, the loss curves, the games and positions of each
//! generation's data, and the decisions. Made from the ledger alone, and
//! replaced whole after every step.

use super::files::temp_name;
use super::ledger::{replace_file, Ledger};
use super::NEW_WEIGHTS;
use crate::cli::CliError;
use serde_json::Value;
use std::fmt::Write;

/// The page's plots' size in pixels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
/// Room for the axes' labels.
const LEFT: f64 = 60.0;
const BOTTOM: f64 = 30.0;
const TOP: f64 = 14.0;

/// Writes `ledger.html` beside the ledger.
pub fn write(ledger: &Ledger) -> Result<(), CliError> {
    let path = ledger.dir.join("ledger.html");
    replace_file(&temp_name(&path), &path, page(ledger).as_bytes())
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number of the ledger, or NaN.
fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// The page's text.
fn page(ledger: &Ledger) -> String {
    let s = &ledger.settings;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gamut learn: {game}</title>\n<style>\
body{{font-family:sans-serif;margin:24px;color:#222}}p{{max-width:980px}}\
table{{border-collapse:collapse;margin:12px 0;font-size:90%}}td,th{{border:1px solid #ccc;padding:3px 6px;text-align:right;white-space:nowrap}}\
th{{background:#f2f2f2}}td.l{{text-align:left}}.promoted{{color:#1a7f37;font-weight:bold}}.kept{{color:#888}}\
svg{{background:#fafafa;border:1px solid #ddd;margin:6px 0}}.note{{color:#555;font-size:90%}}\
</style></head><body>\n<h1>gamut learn: {game}</h1>\n",
        game = esc(&ledger.game)
    );
    let _ = writeln!(
        h,
        "<p>Generations complete: <b>{}</b>. Best: <b>{}</b>. Data: {} games a generation at {} nodes a move ({} random plies, {} share{}); training: {} epochs, {} hidden units, λ {}, the data of the last {} generation{}, each candidate from {}; gate: <code>{}</code>, at most {} games, SPRT <code>{}</code>; started from the {}.</p>",
        ledger.generations(),
        esc(&ledger.best().name()),
        s.games,
        s.nodes,
        s.random_plies,
        s.shards,
        if s.shards == 1 { "" } else { "s" },
        s.epochs,
        s.hidden,
        s.lambda,
        s.window,
        if s.window == 1 { "" } else { "s" },
        if s.fresh { NEW_WEIGHTS } else { "the best network" },
        esc(&s.gate),
        s.gate_games,
        esc(&s.sprt),
        if s.start == "classic" { "classic evaluation" } else { "built-in network" },
    );
    h.push_str("<h2>Each candidate against the classic evaluation</h2>\n");
    h.push_str(&elo_plot(ledger, "classic"));
    h.push_str("<p class=\"note\">Elo of each generation's candidate against the hand-written evaluation at the gate's limit, with its 95% interval (pentanomial, over pairs of games with sides swapped); green: promoted.</p>\n");
    h.push_str("<h2>Gates: each candidate against the best before it</h2>\n");
    h.push_str(&elo_plot(ledger, "gate"));
    h.push_str("<p class=\"note\">Elo of the candidate against the best of its time (the first: the starting evaluation), with its 95% interval; green: promoted. Chained over the promoted generations they estimate the strength gained since the start.</p>\n");
    h.push_str("<h2>Loss curves</h2>\n");
    h.push_str(&loss_plot(ledger));
    h.push_str("<p class=\"note\">Mean squared error per epoch, each generation's training after the one before: training (dashed) and validation (solid).</p>\n");
    h.push_str(&table(ledger));
    h.push_str("</body></html>\n");
    h
}

/// The table of generations.
fn table(ledger: &Ledger) -> String {
    let mut h = String::from(
        "<h2>Generations</h2>\n<table><tr><th>generation</th><th>played by</th><th>games</th><th>positions</th>\
<th>trained on</th><th>from</th><th>loss</th><th>validation</th><th>gate games</th><th>W-D-L</th><th>Elo [95%]</th>\
<th>SPRT</th><th>against classic [95%]</th><th>decision</th><th>games' pages</th></tr>\n",
    );
    let last = ledger
        .records
        .last()
        .and_then(|r| r["generation"].as_u64())
        .unwrap_or(0);
    for g in 1..=last {
        let data = ledger.find(g, "data");
        let train = ledger.find(g, "train");
        let gate = ledger.find(g, "gate");
        let classic = ledger.find(g, "classic");
        let promotion = ledger.find(g, "promotion");
        let cell = |v: Option<String>| v.unwrap_or_else(|| "…".into());
        let loss = train.and_then(|t| t["losses"].as_array()?.last().cloned());
        let decision = promotion.and_then(|p| p["decision"].as_str().map(str::to_string));
        let _ = writeln!(
            h,
            "<tr><td>{g}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l {}\">{}</td><td class=\"l\">{}</td></tr>",
            cell(data.and_then(|d| d["played_by"].as_str().map(esc))),
            cell(data.map(|d| d["games"].to_string())),
            cell(data.map(|d| d["positions"].to_string())),
            cell(train.map(|t| format!("{} games", t["games"]))),
            cell(train.map(|t| esc(t["init"].as_str().unwrap_or(NEW_WEIGHTS)))),
            cell(loss.as_ref().map(|l| format!("{:.5}", num(&l[0])))),
            cell(loss.as_ref().map(|l| format!("{:.5}", num(&l[1])))),
            cell(gate.map(|t| t["games"].to_string())),
            cell(gate.map(|t| format!("{}-{}-{}", t["wdl"][0], t["wdl"][1], t["wdl"][2]))),
            cell(gate.map(|t| elo_text(&t["elo"], num(&t["score"])))),
            cell(gate.map(|t| shown_sprt(&t["sprt"]))),
            cell(classic.map(|c| if c["games"] == 0 {
                "not measured".to_string()
            } else {
                format!("{} over {} games", elo_text(&c["elo"], num(&c["score"])), c["games"])
            })),
            decision.clone().unwrap_or_default(),
            cell(decision),
            [("gate", gate), ("classic", classic)]
                .iter()
                .filter(|(_, r)| r.is_some_and(|r| r["games"] != 0))
                .map(|(stem, _)| format!("<a href=\"gen-{g:03}/{stem}.html\">{stem}</a>"))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    h.push_str("</table>\n");
    h
}

/// An Elo entry as `+12.3 [−4.0, +28.1]`; an infinite bound (written as
/// null) on the side of the `score`'s value for the value.
fn elo_text(e: &Value, score: f64) -> String {
    if e.is_null() {
        return "none".into();
    }
    let b = |v: &Value, inf: &str| {
        v.as_f64()
            .map_or(inf.to_string(), |x| format!("{:+.1}", x + 0.0))
    };
    let inf = if score < 0.5 { "−∞" } else { "+∞" };
    format!(
        "{} [{}, {}]",
        b(&e["value"], inf),
        b(&e["lower"], "−∞"),
        b(&e["upper"], "+∞")
    )
}

/// The SPRT's conclusion and LLR.
fn shown_sprt(s: &Value) -> String {
    if s.is_null() {
        return "none".into();
    }
    let state = match s["state"].as_str() {
        Some("h1") => "H1 accepted",
        Some("h0") => "H0 accepted",
        _ => "undecided",
    };
    format!("{state} (LLR {:.2})", num(&s["llr"]))
}

/// A plot's frame: the ranges of x and y its area shows.
struct Frame {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Frame {
    fn x(&self, x: f64) -> f64 {
        LEFT + (x - self.x0) / (self.x1 - self.x0).max(1e-9) * (WIDTH - LEFT - 12.0)
    }

    fn y(&self, y: f64) -> f64 {
        TOP + (self.y1 - y) / (self.y1 - self.y0).max(1e-9) * (HEIGHT - TOP - BOTTOM)
    }

    /// The svg's opening, the y ticks and the x label.
    fn open(&self, xlabel: &str, decimals: usize) -> String {
        let mut h = format!(
            "<svg width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"11\">\n"
        );
        // Ticks at round steps: 1, 2 or 5 times a power of ten.
        let raw = (self.y1 - self.y0) / 4.0;
        let power = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * power)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * power);
        let mut v = (self.y0 / step).ceil() * step + 0.0;
        while v <= self.y1 {
            let y = self.y(v);
            let _ = writeln!(
                h,
                "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#e3e3e3\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{v:.decimals$}</text>",
                WIDTH - 12.0,
                LEFT - 4.0,
                y + 4.0
            );
            v += step;
            if v.abs() < step * 1e-9 {
                v = 0.0;
            }
        }
        let _ = writeln!(
            h,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{xlabel}</text>",
            (LEFT + WIDTH) / 2.0,
            HEIGHT - 6.0
        );
        h
    }
}

/// Each match's Elo with its interval, by generation: the gates' or the
/// measures' against classic (`step`).
fn elo_plot(ledger: &Ledger, step: &str) -> String {
    let mut points = Vec::new();
    for r in ledger.records.iter().filter(|r| r["step"] == step) {
        let g = num(&r["generation"]);
        let e = &r["elo"];
        if e.is_null() {
            continue;
        }
        let promoted = ledger
            .find(g as u64, "promotion")
            .is_some_and(|p| p["decision"] == "promoted");
        // Infinite Elo (a score of 0 or 1) is written as null: drawn at
        // the plot's edge on the score's side.
        let edge = if num(&r["score"]) < 0.5 {
            -800.0
        } else {
            800.0
        };
        let clip = |v: &Value, null: f64| v.as_f64().map_or(null, |x| x.clamp(-800.0, 800.0));
        let value = clip(&e["value"], edge);
        let lower = clip(&e["lower"], -800.0);
        let upper = clip(&e["upper"], 800.0);
        let label = e["value"].as_f64().map_or(
            if edge < 0.0 {
                "−∞".into()
            } else {
                "+∞".into()
            },
            |x| format!("{x:+.0}"),
        );
        points.push((g, value, lower, upper, promoted, label));
    }
    if points.is_empty() {
        return format!("<p>No {step} match yet.</p>\n");
    }
    let lo = points.iter().map(|p| p.2).fold(0.0, f64::min);
    let hi = points.iter().map(|p| p.3).fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.08).max(5.0);
    let last = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let f = Frame {
        x0: 0.5,
        x1: last + 0.5,
        y0: lo - pad,
        y1: hi + pad,
    };
    let mut h = f.open("generation", 0);
    let zero = f.y(0.0);
    let _ = writeln!(
        h,
        "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{zero:.1}\" y2=\"{zero:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
        WIDTH - 12.0
    );
    for &(g, v, lower, upper, promoted, ref label) in &points {
        let x = f.x(g);
        let colour = if promoted { "#1a7f37" } else { "#777" };
        let _ = writeln!(
            h,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/>\
<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\"/>\
<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{colour}\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{g}</text><text x=\"{:.1}\" y=\"{:.1}\">{label}</text>",
            f.y(lower),
            f.y(upper),
            x - 5.0,
            x + 5.0,
            f.y(lower),
            f.y(lower),
            x - 5.0,
            x + 5.0,
            f.y(upper),
            f.y(upper),
            f.y(v),
            HEIGHT - BOTTOM + 12.0,
            x + 7.0,
            f.y(v) + 4.0,
        );
    }
    h.push_str("</svg>\n");
    h
}

/// The training and validation losses, generation after generation.
fn loss_plot(ledger: &Ledger) -> String {
    let curves: Vec<(u64, Vec<(f64, f64)>)> = ledger
        .records
        .iter()
        .filter(|r| r["step"] == "train")
        .map(|r| {
            let losses = r["losses"]
                .as_array()
                .map(|l| l.iter().map(|p| (num(&p[0]), num(&p[1]))).collect())
                .unwrap_or_default();
            (r["generation"].as_u64().unwrap_or(0), losses)
        })
        .collect();
    let all: Vec<f64> = curves
        .iter()
        .flat_map(|(_, l)| l.iter().flat_map(|&(t, v)| [t, v]))
        .filter(|x| x.is_finite())
        .collect();
    if all.is_empty() {
        return "<p>No training yet.</p>\n".into();
    }
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.08).max(1e-4);
    let epochs: usize = curves.iter().map(|(_, l)| l.len()).sum();
    let f = Frame {
        x0: 0.5,
        x1: epochs as f64 + 0.5,
        y0: lo - pad,
        y1: hi + pad,
    };
    let mut h = f.open("epoch (generations one after another)", 4);
    let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
    ];
    let mut start = 0usize;
    for (i, (g, losses)) in curves.iter().enumerate() {
        let colour = colours[i % colours.len()];
        for (k, dash) in [(0, " stroke-dasharray=\"5 3\""), (1, "")] {
            let points: Vec<String> = losses
                .iter()
                .enumerate()
                .map(|(e, p)| {
                    let y = if k == 0 { p.0 } else { p.1 };
                    format!("{:.1},{:.1}", f.x((start + e + 1) as f64), f.y(y))
                })
                .collect();
            let _ = writeln!(
                h,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
                points.join(" ")
            );
        }
        let mid = start as f64 + (losses.len() as f64 + 1.0) / 2.0;
        let _ = writeln!(
            h,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{colour}\">gen {g}</text>",
            f.x(mid),
            HEIGHT - BOTTOM + 12.0
        );
        start += losses.len();
    }
    h.push_str("</svg>\n");
    h
}
