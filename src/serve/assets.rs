//! The page's files, embedded in the binary: no file is read and no
//! other site is asked for anything when the page loads.

/// The page.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its scripts, by name, in the order the page loads them: its
/// transport, how the scripts ask the engine (HTTP here, a Web Worker on
/// the static site), then the board's scripts, the state they share
/// (`state.js`) first and last the one that wires them (`app.js`).
pub const SCRIPTS: [(&str, &str); 12] = [
    ("transport.js", include_str!("assets/transport.js")),
    ("state.js", include_str!("assets/state.js")),
    ("tree.js", include_str!("assets/tree.js")),
    ("board.js", include_str!("assets/board.js")),
    ("input.js", include_str!("assets/input.js")),
    ("choices.js", include_str!("assets/choices.js")),
    ("engine.js", include_str!("assets/engine.js")),
    ("analysis.js", include_str!("assets/analysis.js")),
    ("moves.js", include_str!("assets/moves.js")),
    ("graph.js", include_str!("assets/graph.js")),
    ("records.js", include_str!("assets/records.js")),
    ("app.js", include_str!("assets/app.js")),
];
/// Its style.
pub const STYLE_CSS: &str = include_str!("assets/style.css");
/// Its icon.
pub const FAVICON_SVG: &str = include_str!("assets/favicon.svg");
