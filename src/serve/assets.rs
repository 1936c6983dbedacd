//! The page's files, embedded in the binary: no file is read and no
//! other site is asked for anything when the page loads.

/// The page.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("assets/app.js");
/// Its transport: how the script asks the engine (HTTP here, a Web
/// Worker on the static site).
pub const TRANSPORT_JS: &str = include_str!("assets/transport.js");
/// Its style.
pub const STYLE_CSS: &str = include_str!("assets/style.css");
/// Its icon.
pub const FAVICON_SVG: &str = include_str!("assets/favicon.svg");
