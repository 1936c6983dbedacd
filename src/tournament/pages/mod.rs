//! Game records and tournament reports as web pages: each page is one
//! self-contained HTML file (inline CSS, SVG and script, no outside
//! resource), so it can be opened from disk or mailed.
//!
//! A tournament's page holds its tables, its Elo plot and every game, and
//! `replay --html` writes the same viewer for one game; a tournament of
//! more than two sides has the same page, its games without scores. The
//! games are kept as compact data (the move texts, the scores, and the
//! board pictures as edits of lines shared by the whole page); the page's
//! script rebuilds a game's pictures when it is opened. The viewer shows
//! the board (drawn by the game's [`Diagram::svg`], the last step marked),
//! buttons and the arrow keys to step, the list of steps (click to jump)
//! and, when the record has scores, a plot of the first player's chance
//! to win by them over the steps. Every score shown is from the first
//! player's side. The fragment `#game=N&move=K` opens game N at step K
//! and scrolls the viewer into view.
//!
//! The shared style and plot scales are here; the game viewer (the
//! games' data and script) in `viewer`, a tournament's page in
//! `tournament`, a balance run's in `balance`.

mod balance;
mod tournament;
mod viewer;

pub use tournament::tournament_page;
pub use viewer::game_page;

use gamut_core::svg::escape;

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
.board .square.marked { fill: #f2d22e; }
.caption { font-size: 14px; margin: 6px 0; min-height: 2.6em; white-space: pre-line; }
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

/// The start of a page with its title and the shared style.
pub(crate) fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    )
}

/// A board picture made fit to sit inside HTML: without its XML
/// declaration and namespace attribute (HTML puts `<svg>` in the SVG
/// namespace itself), so the page names no outside address at all.
pub(crate) fn inline_svg(svg: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    body.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
}

/// A round bound at least `v` (and at least 100) for a plot's axis: 1, 2
/// or 5 times a power of ten.
pub(crate) fn nice_bound(v: f64) -> f64 {
    let v = v.max(100.0);
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&b| b >= v)
        .unwrap_or(10.0 * p)
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
