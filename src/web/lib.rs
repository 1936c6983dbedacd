//! gamut's engine in a browser's WebAssembly: the board's JSON API
//! (`gamut serve`'s routes, docs/serve.md) answered by the module itself,
//! for the static site's Web Worker (`tools/web/worker.js`), which the
//! board's page asks through its transport (`src/serve/assets/transport.js`).
//! The answers are built by the code that builds the server's
//! ([`gamut_board`]); a search runs on the worker's one thread.

use gamut_board::local::Local;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// The transposition table of a search in the browser, in MiB: a page's
/// memory is the module's, grown on demand, and a tab of a few hundred
/// MiB is common; 32 MiB holds the entries of a minute's search at the
/// browser's speed.
pub const TABLE_MIB: usize = 32;

thread_local! {
    /// The API of this worker, with the lines it replayed lately.
    static API: Local = Local::new(TABLE_MIB);
}

/// Answers `route` of the board's API (`/api/position`…) with `query` (a
/// URL's query string) as `gamut serve` does, as JSON; a stream's route
/// (`/api/analysis`, `/api/scores`) calls `on_event` with each event's
/// JSON in order and answers `null` at its end.
///
/// # Errors
/// What the server refuses, in one line, thrown.
#[wasm_bindgen]
pub fn api(route: &str, query: &str, on_event: &js_sys::Function) -> Result<String, JsError> {
    let mut send = |v: Value| {
        on_event
            .call1(&JsValue::NULL, &JsValue::from_str(&v.to_string()))
            .is_ok()
    };
    API.with(|api| api.answer(route, query, &mut send))
        .map(|v| v.to_string())
        .map_err(|e| JsError::new(&e))
}
