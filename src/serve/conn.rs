//! One connection of `gamut serve`, from accept to close. The server reads
//! each request's head itself, within a timeout of the connection opening
//! (the options' `head_timeout`, [`HEAD_TIMEOUT`] by default) and within
//! [`MAX_HEAD`] bytes, and refuses a head it cannot serve with its own
//! JSON answer (`{"error": …}`: 400, 408, 413, 414 or 431), so that
//! hyper is only ever handed a head it parses; hyper then answers that
//! one request through the routes and closes the connection
//! (no keep-alive: a connection is one request, so a connection that
//! sends nothing is caught by the same timeout). At most a cap of
//! connections are open at once ([`Connections`]): above it the oldest
//! connection still sending its head is closed to make room, and where
//! every connection is busy with a request the new one is answered 503.
//! A connection whose client stops reading is closed after
//! [`WRITE_STALL`]. While a request is answered the connection is watched:
//! a client that closes its side of it (or a connection that breaks)
//! raises the request's [`Hangup`], which stops its work.

use axum::http::{Method, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

/// The headers of every answer: the page and its files load from this
/// server only (no inline script or style, no frames, no forms, no
/// `<base>`), nothing is read as another type than the one given, no
/// other site may frame the page or read its files, and no address is
/// passed on to another site.
pub const SECURITY_HEADERS: [(&str, &str); 5] = [
    (
        "content-security-policy",
        "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-resource-policy", "same-origin"),
];

/// How long a connection may take by default, from opening, to send its
/// whole request head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest request head, in bytes (request line and header lines).
pub const MAX_HEAD: usize = 64 * 1024;
/// The longest request target (path and query), in bytes.
pub const MAX_TARGET: usize = 60_000;
/// The most header lines a request may have.
pub const MAX_HEADERS: usize = 64;
/// The longest request body a request may announce (the API reads none).
pub const MAX_BODY: u64 = 64 * 1024;
/// How long an answer may wait for a client that reads nothing before the
/// connection is closed.
pub const WRITE_STALL: Duration = Duration::from_secs(30);
/// How long a refusal waits for its client: to take the request (so that
/// closing does not reset the connection under the answer) and the answer.
const LINGER: Duration = Duration::from_secs(1);
/// Connections over the cap that may wait [`LINGER`] for their 503 at once;
/// more are closed at once.
const MAX_REFUSING: usize = 64;

/// The connections open now, against a cap: how many, and which of them
/// are still sending their request head (oldest first), to be closed when a
/// new connection needs the room.
pub struct Connections {
    cap: usize,
    head_timeout: Duration,
    inner: Mutex<Open>,
    refusing: AtomicUsize,
}

#[derive(Default)]
struct Open {
    count: usize,
    next: u64,
    waiting: BTreeMap<u64, Arc<Notify>>,
}

/// A connection's place under the cap, given back when dropped.
pub struct Ticket {
    conns: Arc<Connections>,
    id: u64,
    evicted: Arc<Notify>,
    busy: bool,
}

impl Connections {
    /// At most `cap` connections at once (at least 1), each given
    /// `head_timeout` from opening to send its request head.
    pub fn new(cap: usize, head_timeout: Duration) -> Arc<Connections> {
        Arc::new(Connections {
            cap: cap.max(1),
            head_timeout,
            inner: Mutex::new(Open::default()),
            refusing: AtomicUsize::new(0),
        })
    }

    /// The connections open now.
    #[cfg(test)]
    fn open(&self) -> usize {
        self.inner.lock().expect("never poisoned").count
    }

    /// A place for a new connection: a free one under the cap, else the
    /// place of the oldest connection still sending its head, which is
    /// told to close; `None` when every open connection is busy with a
    /// request.
    pub(crate) fn admit(self: &Arc<Self>) -> Option<Ticket> {
        let mut open = self.inner.lock().expect("never poisoned");
        if open.count >= self.cap {
            let oldest = *open.waiting.keys().next()?;
            let notify = open.waiting.remove(&oldest).expect("listed");
            notify.notify_one();
        } else {
            open.count += 1;
        }
        let id = open.next;
        open.next += 1;
        let evicted = Arc::new(Notify::new());
        open.waiting.insert(id, Arc::clone(&evicted));
        Some(Ticket {
            conns: Arc::clone(self),
            id,
            evicted,
            busy: false,
        })
    }
}

impl Ticket {
    /// Marks the connection busy with a request: it is no longer closed to
    /// make room. `false` if it was told to close first.
    fn start_request(&mut self) -> bool {
        let mut open = self.conns.inner.lock().expect("never poisoned");
        self.busy = open.waiting.remove(&self.id).is_some();
        self.busy
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self.conns.inner.lock().expect("never poisoned");
        // An evicted connection's place went to the one that evicted it.
        if self.busy || open.waiting.remove(&self.id).is_some() {
            open.count -= 1;
        }
    }
}

/// Answers one connection: its request through `router`, or the server's
/// own refusal (see the module's notes). Returns when the connection is
/// closed.
pub async fn serve<IO>(conns: &Arc<Connections>, router: axum::Router, io: IO)
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    serve_admitted(conns, router, conns.admit(), io).await;
}

/// [`serve`] for a connection given its place (or none) when it was
/// accepted: the accept loop admits connections in the order they come,
/// so that the oldest is the one whose place goes first, whatever order
/// their tasks then run in.
pub async fn serve_admitted<IO>(
    conns: &Arc<Connections>,
    router: axum::Router,
    ticket: Option<Ticket>,
    mut io: IO,
) where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let Some(mut ticket) = ticket else {
        // Every place is busy: a 503, unless too many wait for theirs.
        if conns.refusing.fetch_add(1, Ordering::Relaxed) < MAX_REFUSING {
            let deadline = Instant::now() + LINGER;
            let _ = tokio::time::timeout_at(deadline, read_head(&mut io)).await;
            let msg = "the server is at its connection limit: try again shortly";
            refuse(&mut io, StatusCode::SERVICE_UNAVAILABLE, msg).await;
        }
        conns.refusing.fetch_sub(1, Ordering::Relaxed);
        return;
    };
    let deadline = Instant::now() + conns.head_timeout;
    let evicted = Arc::clone(&ticket.evicted);
    let read = tokio::select! {
        read = tokio::time::timeout_at(deadline, read_head(&mut io)) => read,
        () = evicted.notified() => return,
    };
    let checked = match read {
        Ok(Ok(Some(head))) => check_head(&head).map(|()| head),
        // Closed before it sent anything, or broken.
        Ok(Ok(None)) => return,
        Ok(Err(refusal)) => Err(refusal),
        Err(_) => Err(Refusal(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request head did not arrive within {} s of connecting",
                conns.head_timeout.as_secs()
            ),
        )),
    };
    let head = match checked {
        Ok(head) => head,
        Err(Refusal(status, msg)) => {
            refuse(&mut io, status, &msg).await;
            return;
        }
    };
    if !ticket.start_request() {
        return;
    }
    let hangup = Hangup::default();
    let (io, watch) = watched(head, io, hangup.clone());
    let router = router.layer(axum::Extension(hangup));
    // A client may close its sending side once its request is sent
    // (half_close): the answer is still written, but the work of the
    // request stops (the hangup is raised), since a closed connection
    // looks the same until it is written to.
    let conn = hyper::server::conn::http1::Builder::new()
        .keep_alive(false)
        .half_close(true)
        .serve_connection(
            TokioIo::new(Stalls::new(io)),
            TowerToHyperService::new(router),
        );
    tokio::pin!(conn);
    tokio::select! {
        _ = &mut conn => return,
        () = watch => {}
    }
    let _ = conn.await;
}

/// Raised when a request's client closes its side of the connection, or
/// the connection breaks, while the request is answered: the request's
/// work is then for nobody, and every stop flag handed to
/// [`stops`](Hangup::stops) is raised. Each request finds its
/// connection's hangup among its extensions.
#[derive(Clone, Default)]
pub struct Hangup(Arc<Hung>);

#[derive(Default)]
struct Hung {
    flags: Mutex<(bool, Vec<Arc<AtomicBool>>)>,
    notify: Notify,
}

impl Hangup {
    /// Raises the hangup: every flag given, and those given later.
    fn raise(&self) {
        let mut f = self.0.flags.lock().expect("never poisoned");
        f.0 = true;
        for flag in f.1.drain(..) {
            flag.store(true, Ordering::Relaxed);
        }
        drop(f);
        self.0.notify.notify_waiters();
    }

    /// Has `flag` raised when the client goes (at once if it has gone).
    pub fn stops(&self, flag: &Arc<AtomicBool>) {
        let mut f = self.0.flags.lock().expect("never poisoned");
        if f.0 {
            flag.store(true, Ordering::Relaxed);
        } else {
            f.1.push(Arc::clone(flag));
        }
    }

    /// Whether the client has gone.
    #[must_use]
    pub fn gone(&self) -> bool {
        self.0.flags.lock().expect("never poisoned").0
    }

    /// Returns once the client has gone.
    pub async fn closed(&self) {
        loop {
            let notified = self.0.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.gone() {
                return;
            }
            notified.await;
        }
    }
}

/// A request the server refuses before the routes see it: the status and
/// the message of its answer.
#[derive(Debug)]
struct Refusal(StatusCode, String);

/// Reads up to the end of a request head (an empty line): everything read
/// (the head, and whatever came after it in the same reads), or `None` if
/// the client closed before sending anything or the connection broke.
/// Empty lines before the request line are dropped, as HTTP allows.
async fn read_head<IO: AsyncRead + Unpin>(io: &mut IO) -> Result<Option<Vec<u8>>, Refusal> {
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = vec![0u8; 16 * 1024];
    let mut line_ended = false;
    loop {
        let n = match io.read(&mut chunk).await {
            Ok(n) => n,
            Err(_) => return Ok(None),
        };
        if n == 0 {
            return if buf.is_empty() {
                Ok(None)
            } else {
                Err(Refusal(
                    StatusCode::BAD_REQUEST,
                    "the request ended part way through its head".into(),
                ))
            };
        }
        let mut new = &chunk[..n];
        if buf.is_empty() {
            let skip = new
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            new = &new[skip..];
        }
        // Each byte is looked at once here: a head sent a byte at a time
        // costs no more than one sent at once.
        let from = buf.len().saturating_sub(2);
        buf.extend_from_slice(new);
        line_ended |= new.contains(&b'\n');
        if ends_head(&buf[from..]) {
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            match httparse::Request::new(&mut headers).parse(&buf) {
                Ok(httparse::Status::Complete(_)) => return Ok(Some(buf)),
                Ok(httparse::Status::Partial) => {}
                Err(e) => return Err(malformed(e)),
            }
        }
        if !line_ended && buf.len() > MAX_TARGET + 32 {
            return Err(target_too_long());
        }
        if buf.len() > MAX_HEAD {
            return Err(head_too_large());
        }
    }
}

/// Whether `bytes` hold an empty line's end: `\n\n` or `\n\r\n`.
fn ends_head(bytes: &[u8]) -> bool {
    bytes.windows(2).any(|w| w == b"\n\n") || bytes.windows(3).any(|w| w == b"\n\r\n")
}

/// The refusal of a head httparse does not read.
fn malformed(e: httparse::Error) -> Refusal {
    match e {
        httparse::Error::TooManyHeaders => Refusal(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("more than {MAX_HEADERS} header lines"),
        ),
        e => Refusal(StatusCode::BAD_REQUEST, format!("a malformed request: {e}")),
    }
}

fn target_too_long() -> Refusal {
    Refusal(
        StatusCode::URI_TOO_LONG,
        format!("the request target is longer than {MAX_TARGET} bytes"),
    )
}

fn head_too_large() -> Refusal {
    Refusal(
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        format!("the request head is longer than {MAX_HEAD} bytes"),
    )
}

/// Checks a whole request head (and what follows it) as hyper will read
/// it, refusing what hyper would refuse with an answer of its own: the
/// head's size, the method, the target (a path, of bounded length), and
/// the body it announces (none chunked, a bounded length).
fn check_head(bytes: &[u8]) -> Result<(), Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let len = match req.parse(bytes) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Err(head_too_large()),
        Err(e) => return Err(malformed(e)),
    };
    let bad = |msg: String| Err(Refusal(StatusCode::BAD_REQUEST, msg));
    if len > MAX_HEAD {
        return Err(head_too_large());
    }
    let (Some(method), Some(target)) = (req.method, req.path) else {
        return bad("a malformed request line".into());
    };
    if target.len() > MAX_TARGET {
        return Err(target_too_long());
    }
    if Method::from_bytes(method.as_bytes()).is_err() {
        return bad(format!("a malformed method: {method:?}"));
    }
    if !target.starts_with('/') {
        return bad("the request target must be a path (/…)".into());
    }
    if let Err(e) = target.parse::<Uri>() {
        return bad(format!("a malformed request target: {e}"));
    }
    let mut length = None;
    for h in req.headers.iter() {
        if h.name.eq_ignore_ascii_case("transfer-encoding") {
            return bad("the API takes no request bodies (Transfer-Encoding)".into());
        }
        if h.name.eq_ignore_ascii_case("content-length") {
            let n = std::str::from_utf8(h.value)
                .ok()
                .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse::<u64>().ok());
            let Some(n) = n else {
                return bad("a malformed Content-Length".into());
            };
            if length.is_some_and(|l| l != n) {
                return bad("two different Content-Lengths".into());
            }
            if n > MAX_BODY {
                return Err(Refusal(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "the API takes no request bodies (at most {MAX_BODY} bytes are read past)"
                    ),
                ));
            }
            length = Some(n);
        }
    }
    Ok(())
}

/// The server's own answer to a request it refuses: `status` with
/// `{"error": msg}` and the security headers, the connection closing.
fn answer(status: StatusCode, msg: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": msg }).to_string();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\ncache-control: no-cache\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    head.into_bytes()
}

/// Writes a refusal and closes the connection, reading (and dropping)
/// what the client still sends for up to [`LINGER`], so that the close
/// does not reset the connection before the client has read the answer.
async fn refuse<IO>(io: &mut IO, status: StatusCode, msg: &str)
where
    IO: AsyncRead + AsyncWrite + Unpin,
{
    let bytes = answer(status, msg);
    let _ = tokio::time::timeout(LINGER, async {
        io.write_all(&bytes).await?;
        io.shutdown().await?;
        let mut sink = [0u8; 4096];
        let mut drained = 0usize;
        while drained < (1 << 20) {
            match io.read(&mut sink).await? {
                0 => break,
                n => drained += n,
            }
        }
        Ok::<(), io::Error>(())
    })
    .await;
}

/// The most bytes a connection's watch reads ahead of hyper (a request
/// body announced, at most [`MAX_BODY`], and what a client sends past it).
const MAX_AHEAD: usize = 2 * MAX_BODY as usize;

/// A connection after its request head was read, as hyper reads it: the
/// bytes already read first, then what the watch read ahead, then the
/// connection. Its watch ([`watched`]) reads beside hyper, so that a
/// client closing its side while its request is answered is seen at once.
struct Watched<IO>(Arc<Mutex<Reading<IO>>>);

/// A connection's reading side, shared by hyper and the watch (both polled
/// on the connection's task, never at once).
struct Reading<IO> {
    io: IO,
    read: Vec<u8>,
    at: usize,
    ended: bool,
    hangup: Hangup,
}

/// The connection `io`, whose `head` was read, for hyper, and its watch:
/// a future that ends (with the hangup raised) once the client has closed
/// its side of the connection or the connection broke.
fn watched<IO: AsyncRead + Unpin>(
    head: Vec<u8>,
    io: IO,
    hangup: Hangup,
) -> (Watched<IO>, impl Future<Output = ()>) {
    let reading = Arc::new(Mutex::new(Reading {
        io,
        read: head,
        at: 0,
        ended: false,
        hangup,
    }));
    let watch = Arc::clone(&reading);
    let watch = std::future::poll_fn(move |cx| {
        let mut r = watch.lock().expect("never poisoned");
        loop {
            if r.ended {
                return Poll::Ready(());
            }
            // Full: hyper reads on before the watch does (the task is
            // woken for hyper's reads, and the watch polled again).
            if r.read.len() - r.at >= MAX_AHEAD {
                return Poll::Pending;
            }
            ready!(r.poll_more(cx));
        }
    });
    (Watched(reading), watch)
}

impl<IO: AsyncRead + Unpin> Reading<IO> {
    /// One read of the connection into `read`; at its end (or an error)
    /// marks it ended and raises the hangup.
    fn poll_more(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let mut chunk = [0u8; 4096];
        let mut buf = ReadBuf::new(&mut chunk);
        match Pin::new(&mut self.io).poll_read(cx, &mut buf) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(())) if !buf.filled().is_empty() => {
                if self.at == self.read.len() {
                    self.read.clear();
                    self.at = 0;
                }
                self.read.extend_from_slice(buf.filled());
            }
            Poll::Ready(_) => {
                self.ended = true;
                self.hangup.raise();
            }
        }
        Poll::Ready(())
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for Watched<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let mut r = self.0.lock().expect("never poisoned");
        loop {
            if r.at < r.read.len() {
                let n = buf.remaining().min(r.read.len() - r.at);
                let at = r.at;
                buf.put_slice(&r.read[at..at + n]);
                r.at += n;
                if r.at == r.read.len() {
                    r.read = Vec::new();
                    r.at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if r.ended {
                return Poll::Ready(Ok(()));
            }
            ready!(r.poll_more(cx));
        }
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for Watched<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let mut r = self.0.lock().expect("never poisoned");
        Pin::new(&mut r.io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut r = self.0.lock().expect("never poisoned");
        Pin::new(&mut r.io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut r = self.0.lock().expect("never poisoned");
        Pin::new(&mut r.io).poll_shutdown(cx)
    }
}

/// A connection whose writes fail once one has waited [`WRITE_STALL`] for
/// a client that reads nothing.
struct Stalls<IO> {
    io: IO,
    stall: Option<Pin<Box<Sleep>>>,
}

impl<IO> Stalls<IO> {
    fn new(io: IO) -> Stalls<IO> {
        Stalls { io, stall: None }
    }

    /// Passes on a write's result: ready clears the stall's clock; pending
    /// starts it, or fails the write once it has run out.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stall = None;
            return poll;
        }
        let stall = self
            .stall
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_STALL)));
        match stall.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for Stalls<IO> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for Stalls<IO> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_shutdown(cx);
        self.watch(cx, poll)
    }
}

/// The connections the process's open-file limit leaves room for: its
/// soft limit less 128 (for the listener, files and tables); where the
/// limit is unknown, no bound.
#[must_use]
pub fn room_for_connections() -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct it is given and nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0
            && lim.rlim_cur != libc::RLIM_INFINITY
        {
            return usize::try_from(lim.rlim_cur)
                .unwrap_or(usize::MAX)
                .saturating_sub(128)
                .max(1);
        }
    }
    usize::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_checked_as_hyper_reads_them() {
        assert!(check_head(b"GET /api/games HTTP/1.1\r\nHost: a\r\n\r\n").is_ok());
        assert!(check_head(b"GET / HTTP/1.0\n\n").is_ok());
        for (head, status) in [
            (&b"GET /\0 HTTP/1.1\r\n\r\n"[..], 400),
            (b"GET http://a/ HTTP/1.1\r\n\r\n", 400),
            (b"GET * HTTP/1.1\r\n\r\n", 400),
            (b"GET / HTTP/2.0\r\n\r\n", 400),
            (b"G\x01T / HTTP/1.1\r\n\r\n", 400),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                400,
            ),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                400,
            ),
            (b"POST / HTTP/1.1\r\nContent-Length: +1\r\n\r\n", 400),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
                413,
            ),
        ] {
            let got = check_head(head).map_err(|r| r.0.as_u16());
            assert_eq!(got, Err(status), "{}", String::from_utf8_lossy(head));
        }
        let many: String = (0..MAX_HEADERS + 1)
            .map(|i| format!("x{i}: 1\r\n"))
            .collect();
        let head = format!("GET / HTTP/1.1\r\n{many}\r\n");
        assert_eq!(check_head(head.as_bytes()).unwrap_err().0, 431);
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_TARGET));
        assert_eq!(check_head(long.as_bytes()).unwrap_err().0, 414);
    }

    #[test]
    fn a_place_goes_to_a_new_connection_from_the_oldest_still_sending() {
        let conns = Connections::new(2, HEAD_TIMEOUT);
        let mut a = conns.admit().unwrap();
        let b = conns.admit().unwrap();
        assert!(a.start_request());
        // Full: the oldest still sending (b) makes room for c.
        let c = conns.admit().unwrap();
        assert_eq!(conns.open(), 2);
        let mut b = b;
        assert!(!b.start_request(), "b was told to close");
        drop(b);
        assert_eq!(conns.open(), 2);
        let mut c = c;
        assert!(c.start_request());
        // Every place busy: no room.
        assert!(conns.admit().is_none());
        drop(a);
        drop(c);
        assert_eq!(conns.open(), 0);
    }
}
