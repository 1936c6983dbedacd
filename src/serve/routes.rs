//! The server's routes: the page and its files, and the JSON API the page
//! calls, each answer for any game through the game object. A bad request is
//! answered 400 with one message (`{"error": "…"}`); an unknown path 404;
//! a request that does not name this server (see [`super::hosts`]) 403.
//! Every answer carries [`SECURITY_HEADERS`].

use super::assets;
use super::conn::{Hangup, SECURITY_HEADERS};
use super::sessions::{Budget, Grant, Kind, StopOnDrop, Turns};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Query, Request, State};
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::stream::{self, Stream};
use gamut_board::lines::Lines;
use gamut_board::query::Params;
use gamut_board::{page, view};
use gamut_core::game::with_thread_stop;
use gamut_engine::game;
use gamut_games::GameId;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::convert::Infallible;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// What every request shares.
pub struct Server {
    /// The search threads and hash of all pages together.
    pub budget: Budget,
    /// The folder whose records may be opened.
    pub records_dir: Option<PathBuf>,
    /// The lines of play replayed lately, with their last moves listed.
    pub lines: Lines,
    /// The solved tables that loaded, with their games.
    pub oracles: Vec<(GameId, Box<dyn gamut_core::tablebase::Oracle>)>,
    /// The hosts a request may name.
    pub hosts: super::hosts::Hosts,
    /// One records file is read at a time (each up to
    /// [`super::records::MAX_FILE`]), bounding the memory they take.
    pub reading: Arc<tokio::sync::Semaphore>,
    /// The records files read for the list, and whether each is served.
    pub seen: Arc<super::records::Seen>,
}

type Shared = State<Arc<Server>>;

/// The routes over the shared state.
pub fn router(state: Arc<Server>) -> Router {
    let mut router = Router::new();
    for (name, script) in assets::SCRIPTS {
        router = router.route(
            &format!("/{name}"),
            get(move || async move { page(script, "text/javascript; charset=utf-8") }),
        );
    }
    router
        .route(
            "/",
            get(|| async { page(assets::INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(assets::STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .route(
            "/favicon.svg",
            get(|| async { page(assets::FAVICON_SVG, "image/svg+xml") }),
        )
        .route("/api/games", get(games))
        .route("/api/position", get(position))
        .route("/api/outcomes", get(outcomes))
        .route("/api/analysis", get(analysis))
        .route("/api/scores", get(scores))
        .route("/api/engine", get(engine))
        .route("/api/status", get(status))
        .route("/api/records", get(records))
        .route("/api/record", get(record))
        .route("/api/export", get(export))
        .route("/api/table", get(table))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page".into()) })
        .method_not_allowed_fallback(|| async {
            error(StatusCode::METHOD_NOT_ALLOWED, "only GET is served".into())
        })
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            guard,
        ))
        .with_state(state)
}

/// Refuses a request that does not name this server (403, or 400 without
/// one `Host`), and adds the [`SECURITY_HEADERS`] to every answer.
async fn guard(State(s): Shared, req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let mut answer = match s.hosts.check(req.headers(), api) {
        Ok(()) => next.run(req).await,
        Err((status, msg)) => error(status, msg),
    };
    let headers = answer.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    answer
}

/// A file of the page, never cached stale.
fn page(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// An error answer: the status and one message.
fn error(status: StatusCode, msg: String) -> Response {
    (status, Json(json!({ "error": msg }))).into_response()
}

/// A request the server cannot answer as asked: 400 with its message.
pub struct BadRequest(String);

impl IntoResponse for BadRequest {
    fn into_response(self) -> Response {
        error(StatusCode::BAD_REQUEST, self.0)
    }
}

impl BadRequest {
    /// The answer to a request whose client went while its work ran (it
    /// is read only by a client that closed just its sending side).
    fn gone() -> BadRequest {
        BadRequest("the client closed the connection: its request's work was stopped".into())
    }
}

impl From<QueryRejection> for BadRequest {
    fn from(e: QueryRejection) -> BadRequest {
        BadRequest(e.body_text())
    }
}

impl From<String> for BadRequest {
    fn from(e: String) -> BadRequest {
        BadRequest(e)
    }
}

/// The query of a route, checked on every route ([`Params::checked`]).
fn read(q: Result<Query<Params>, QueryRejection>) -> Result<Params, BadRequest> {
    let Query(p) = q?;
    Ok(p.checked()?)
}

/// `/api/games`: every game's id, name, setup options and its name on
/// the page's menu ([`page::games_json`]).
async fn games() -> Json<Value> {
    Json(page::games_json())
}

/// How many stop checks of a request's listing (one every 1,024 boards of
/// a Spokes resolution) pass before it waits for a search thread: about
/// 16,000 boards (milliseconds, about a MB) are listed at once.
const FREE_CHECKS: u32 = 16;

/// The stop check of a request's listing ([`listed`]): whether its client
/// has gone, and past [`FREE_CHECKS`] a search thread of the budget, held
/// to the listing's end.
struct Work {
    server: Arc<Server>,
    runtime: tokio::runtime::Handle,
    hangup: Hangup,
    stop: Arc<AtomicBool>,
    checks: Cell<u32>,
    grant: RefCell<Option<Grant>>,
    stopped: Cell<bool>,
}

impl Work {
    /// Asked now and then by a long listing: `true` (and the listing
    /// stopped for good) once the client has gone; the first check past
    /// [`FREE_CHECKS`] waits for a search thread.
    fn check(&self) -> bool {
        let checks = self.checks.get() + 1;
        self.checks.set(checks);
        if checks == FREE_CHECKS && !self.stop.load(Relaxed) {
            let grant = self.runtime.block_on(async {
                tokio::select! {
                    g = self.server.budget.grant(Kind::Listing, 1, &self.stop) => Some(g),
                    () = self.hangup.closed() => None,
                }
            });
            *self.grant.borrow_mut() = grant;
        }
        let stop = self.stop.load(Relaxed);
        if stop {
            self.stopped.set(true);
        }
        stop
    }
}

/// Runs `work` (replaying a request's line, listing its position's moves)
/// on the blocking pool, as work of the server: a long listing (a Spokes
/// resolution past its first boards, see [`FREE_CHECKS`]) waits for a
/// search thread of the budget and holds it to its end, and every listing
/// stops when the client goes (its hangup); a listing stopped part way is
/// answered [`BadRequest::gone`].
async fn listed<T: Send + 'static>(
    s: &Arc<Server>,
    hangup: &Hangup,
    work: impl FnOnce() -> Result<T, BadRequest> + Send + 'static,
) -> Result<T, BadRequest> {
    let stop = Arc::new(AtomicBool::new(false));
    hangup.stops(&stop);
    let (server, hangup) = (Arc::clone(s), hangup.clone());
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let w = Rc::new(Work {
            server,
            runtime,
            hangup,
            stop,
            checks: Cell::new(0),
            grant: RefCell::new(None),
            stopped: Cell::new(false),
        });
        let check = Rc::clone(&w);
        let out = with_thread_stop(Rc::new(move || check.check()), work);
        // A listing long enough to be asked its stop check (a resolution
        // of over 1,024 boards) may have freed much.
        if w.checks.get() > 0 {
            give_back_memory();
        }
        if w.stopped.get() {
            Err(BadRequest::gone())
        } else {
            out
        }
    })
    .await
    .map_err(|e| BadRequest(format!("the request failed: {e}")))?
}

/// Gives the memory a long listing freed back to the system: the C
/// allocator keeps what a thread frees for that thread's next
/// allocations, so a resolution's hundreds of MB, freed on one of the
/// many blocking threads, would stay resident beside the next one's.
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only hands free memory of the allocator back to
    // the system; it touches no memory in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// `/api/position`: the line's last position, drawn, with its moves.
async fn position(
    State(s): Shared,
    Extension(hangup): Extension<Hangup>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Json<Value>, BadRequest> {
    let p = read(q)?;
    p.game()?;
    let server = Arc::clone(&s);
    listed(&s, &hangup, move || {
        let line = p.line(&server.lines)?;
        let mut v = page::position_json(&line);
        // The short text of a move played here (a line loaded names its
        // moves canonically).
        if let Some(text) = &p.short_of {
            v["short_of"] = json!(page::short_of(&line, text).map_err(BadRequest)?);
        }
        Ok(Json(v))
    })
    .await
}

/// `/api/outcomes`: the outcomes of the line's last position that leave
/// on the board what `fix` asks, a page from `from` (see
/// [`page::outcomes_json`]).
async fn outcomes(
    State(s): Shared,
    Extension(hangup): Extension<Hangup>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Json<Value>, BadRequest> {
    let p = read(q)?;
    p.game()?;
    let server = Arc::clone(&s);
    listed(&s, &hangup, move || {
        let line = p.line(&server.lines)?;
        page::outcomes_json(&line, p.fix.as_deref().unwrap_or(""), p.from.unwrap_or(0))
            .map(Json)
            .map_err(BadRequest)
    })
    .await
}

/// `/api/export`: the line as a game record (one JSON line) that
/// `gamut replay` reads, with a file name for it.
async fn export(
    State(s): Shared,
    Extension(hangup): Extension<Hangup>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Json<Value>, BadRequest> {
    let p = read(q)?;
    let id = p.game()?;
    let texts = p.move_texts();
    let server = Arc::clone(&s);
    listed(&s, &hangup, move || {
        let line = p.line(&server.lines)?;
        let record = page::record_line(&line, &texts).map_err(BadRequest)?;
        Ok(Json(json!({
            "record": record,
            "file": format!("{id}-game.jsonl"),
        })))
    })
    .await
}

/// `/api/table`: the solved table's verdict on the line's last position
/// (`value` for the side to move, `best` moves keeping it), `value` null
/// where the game has no table that loaded; `solver` whether the game
/// has a solver (`gamut solve`) at all. A bad line is refused either
/// way.
async fn table(
    State(s): Shared,
    Extension(hangup): Extension<Hangup>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Json<Value>, BadRequest> {
    let p = read(q)?;
    let id = p.game()?;
    let server = Arc::clone(&s);
    listed(&s, &hangup, move || {
        let s = server;
        let text = p.line(&s.lines)?.last().text();
        let solver = gamut_games::tablebase(id).is_some();
        let Some((_, oracle)) = s.oracles.iter().find(|(g, _)| *g == id) else {
            return Ok(Json(json!({ "value": null, "solver": solver })));
        };
        let probe = oracle.probe(&text).map_err(BadRequest)?;
        Ok(Json(
            json!({ "value": probe.value.to_string(), "best": probe.best, "solver": solver }),
        ))
    })
    .await
}

/// `/api/status`: how many searches run now.
async fn status(State(s): Shared) -> Json<Value> {
    Json(json!({ "searches": s.budget.running() }))
}

/// Runs `job` on a thread of its own once the budget grants it threads
/// (at most `threads`) for a search of `kind`, streaming what it sends as
/// server-sent events; the stream closing (the page going away) raises
/// the job's stop flags. The first event (`queued`: the searches holding
/// threads, `waiting`: the requests waiting, `of`: the server's threads)
/// comes at once, so a page waiting for a thread knows what it waits for.
fn stream_job<F>(
    server: Arc<Server>,
    hangup: &Hangup,
    kind: Kind,
    threads: usize,
    job: F,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>>
where
    F: FnOnce(&mut Turns, &mut dyn FnMut(Value) -> bool) + Send + 'static,
{
    let (tx, rx) = mpsc::unbounded_channel::<Value>();
    let halt = Arc::new(AtomicBool::new(false));
    let gone = Arc::new(AtomicBool::new(false));
    hangup.stops(&halt);
    hangup.stops(&gone);
    let guard = StopOnDrop(vec![Arc::clone(&halt), Arc::clone(&gone)]);
    let _ = tx.send(json!({
        "queued": server.budget.running(),
        "waiting": server.budget.waiting(),
        "of": server.budget.threads(),
    }));
    tokio::spawn(async move {
        let Some(mut turns) = server.budget.turns(kind, threads, halt, gone).await else {
            return;
        };
        if tx.is_closed() {
            return;
        }
        let grant = turns.grant();
        let _ = tx.send(json!({
            "threads": grant.threads,
            "hash": grant.hash_mib,
            "eval": grant.eval.name(),
        }));
        std::thread::spawn(move || {
            let mut send = |v: Value| tx.send(v).is_ok();
            // Listings in the search stop with the page, as it does.
            let gone = Arc::clone(&turns.gone);
            with_thread_stop(Rc::new(move || gone.load(Relaxed)), || {
                job(&mut turns, &mut send);
            });
            drop(turns);
        });
    });
    let events = stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let v = rx.recv().await?;
        Some((Ok(Event::default().data(v.to_string())), (rx, guard)))
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_millis(500)))
}

/// `/api/analysis`: the engine's analysis of the line's last position,
/// streamed (until `depth` or `time` if given, else until the page
/// closes).
async fn analysis(
    State(s): Shared,
    Extension(hangup): Extension<Hangup>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Response, BadRequest> {
    let p = Arc::new(read(q)?);
    let limits = p.analysis_limits();
    let multipv = p.multipv();
    let id = p.game()?;
    let (q, server) = (Arc::clone(&p), Arc::clone(&s));
    let line = listed(&s, &hangup, move || Ok(q.line(&server.lines)?)).await?;
    let threads = search_threads(id);
    Ok(
        stream_job(s, &hangup, Kind::Analysis, threads, move |turns, send| {
            view::analyse(&line, &limits, multipv, turns, send)
        })
        .into_response(),
    )
}

/// The threads a search of game `id` may ask for: all it is granted in a
/// game of two players, one in a game of more.
fn search_threads(id: GameId) -> usize {
    if game(id).players() == 2 {
        usize::MAX
    } else {
        1
    }
}

/// `/api/scores`: the score of every position of the line (each searched
/// `time` ms, 200 by default, or to `depth`), streamed position by
/// position, for the evaluation graph.
async fn scores(
    State(s): Shared,
    Extension(hangup): Extension<Hangup>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Response, BadRequest> {
    let p = Arc::new(read(q)?);
    let limits = p.score_limits();
    let id = p.game()?;
    let (q, server) = (Arc::clone(&p), Arc::clone(&s));
    let line = listed(&s, &hangup, move || Ok(q.line(&server.lines)?)).await?;
    let threads = search_threads(id);
    Ok(
        stream_job(s, &hangup, Kind::Scores, threads, move |turns, send| {
            view::line_scores(&line, &limits, turns, send)
        })
        .into_response(),
    )
}

/// `/api/engine`: the engine's move at the line's last position (`player`'s
/// action at a simultaneous node), searched `time` ms (1000 by default) or
/// to `depth`. A chance outcome is drawn by its probability without
/// waiting for a search thread; a search is the most urgent of the
/// server's (see [`Kind`]).
async fn engine(
    State(s): Shared,
    Extension(hangup): Extension<Hangup>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Json<Value>, BadRequest> {
    let p = Arc::new(read(q)?);
    let limits = p.engine_limits();
    let player = p.player.unwrap_or(0);
    p.game()?;
    let q = Arc::clone(&p);
    let server = Arc::clone(&s);
    let drawn = listed(&s, &hangup, move || {
        let line = q.line(&server.lines)?;
        view::drawn_outcome(&line).map_err(BadRequest)
    })
    .await?;
    if let Some(m) = drawn {
        return Ok(Json(json!({ "move": m, "short": m })));
    }
    // The search stops when the client goes, waiting or searching.
    let stop = Arc::new(AtomicBool::new(false));
    hangup.stops(&stop);
    let grant = tokio::select! {
        g = s.budget.grant(Kind::Engine, usize::MAX, &stop) => g,
        () = hangup.closed() => return Err(BadRequest::gone()),
    };
    let guard = StopOnDrop(vec![Arc::clone(&stop)]);
    let found = tokio::task::spawn_blocking(move || {
        let flag = Arc::clone(&stop);
        with_thread_stop(Rc::new(move || flag.load(Relaxed)), || {
            let line = p.line(&s.lines)?;
            let m = view::engine_move(&line, &limits, &grant, player, &stop).map_err(BadRequest)?;
            // Named as the page names it (a Spokes outcome by its short
            // form).
            let short = page::short_of(&line, &m).map_err(BadRequest)?;
            Ok::<_, BadRequest>((m, short))
        })
    })
    .await
    .map_err(|e| BadRequest(format!("the engine failed: {e}")))?;
    drop(guard);
    let (m, short) = found?;
    Ok(Json(json!({ "move": m, "short": short })))
}

/// `/api/records`: the records files of `--records-dir` that
/// `/api/record` opens (see [`super::records::list`]); none without
/// the folder.
async fn records(State(s): Shared) -> Result<Json<Value>, BadRequest> {
    let Some(dir) = s.records_dir.clone() else {
        return Ok(Json(json!([])));
    };
    let turn = Arc::clone(&s.reading)
        .acquire_owned()
        .await
        .expect("the semaphore is never closed");
    let seen = Arc::clone(&s.seen);
    let names = tokio::task::spawn_blocking(move || {
        let names = super::records::list(&dir, &seen);
        drop(turn);
        names
    })
    .await
    .map_err(|e| BadRequest(format!("the records folder could not be listed: {e}")))?
    .map_err(BadRequest)?;
    Ok(Json(json!(names)))
}

/// `/api/record`: the games of records file `file` of `--records-dir`,
/// each as its game id, start position and moves, once every record of
/// the file replays (see [`super::records::open`]). A name that is not a
/// plain file name inside the folder is refused, and so is a file over
/// [`super::records::MAX_FILE`] bytes.
async fn record(
    State(s): Shared,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Response, BadRequest> {
    let p = read(q)?;
    let dir = s
        .records_dir
        .clone()
        .ok_or_else(|| BadRequest("the server was started without --records-dir".into()))?;
    let name = p
        .file
        .ok_or_else(|| BadRequest("which file? (file=<name>)".into()))?;
    // Held by the reading thread: a request given up leaves its file read
    // before the next starts.
    let turn = Arc::clone(&s.reading)
        .acquire_owned()
        .await
        .expect("the semaphore is never closed");
    let games = tokio::task::spawn_blocking(move || {
        let games = super::records::open(&dir, &name);
        drop(turn);
        games
    })
    .await
    .map_err(|e| BadRequest(format!("the records file could not be read: {e}")))?
    .map_err(BadRequest)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], games).into_response())
}
