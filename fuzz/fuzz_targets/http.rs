//! Raw bytes as one connection to `gamut serve`, in process: the input is
//! what a client sends (then it closes its sending side), answered by
//! `gamut_serve::App::connection`, the very code that answers each
//! connection the server accepts: its own reading and checks of the
//! request head, then hyper and the routes (an axum router called as a
//! tower service) over an in-memory stream. Every input that holds more
//! than empty lines must get exactly one answer, with the security
//! headers; every refusal (4xx, 5xx) must carry one line of JSON,
//! `{"error": …}`, whichever layer refused it. The server takes requests
//! that name `127.0.0.1:8080` (`Host: 127.0.0.1:8080`). An answer that has
//! not come within two seconds (a search of up to ten minutes asked for)
//! is left, and the connection dropped (which stops the search); an
//! answer streamed as server-sent events is read as far as its head.
#![no_main]

use gamut_serve::{App, Options};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fn app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| {
        let opts = Options {
            host: "127.0.0.1".parse().unwrap(),
            port: 8080,
            threads: 1,
            hash_mib: 1,
            records_dir: None,
            eval: gamut_search::Eval::Game,
            nets: Vec::new(),
            table: None,
            allow_hosts: Vec::new(),
            max_connections: 16,
            head_timeout: gamut_serve::HEAD_TIMEOUT,
        };
        App::new(&opts, "127.0.0.1:8080".parse().unwrap())
    })
}

/// The answer's bytes as far as it goes: its head, and its body unless
/// it is a stream of events; `None` if it did not come in time.
async fn answer(client: &mut tokio::io::DuplexStream) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut chunk = [0u8; 8192];
    let read = async {
        loop {
            let n = client.read(&mut chunk).await.unwrap_or(0);
            if n == 0 {
                break;
            }
            out.extend_from_slice(&chunk[..n]);
            if let Some(end) = find(&out, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&out[..end]).to_ascii_lowercase();
                if head.contains("text/event-stream") {
                    break;
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(2), read)
        .await
        .ok()
        .map(|()| out)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fuzz_target!(|data: &[u8]| {
    let sent: &[u8] = {
        let skip = data.iter().take_while(|&&b| b == b'\r' || b == b'\n').count();
        &data[skip..]
    };
    let head_only = sent.starts_with(b"HEAD ");
    let out = runtime().block_on(async {
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let serving = tokio::spawn(async move { app().connection(server).await });
        let _ = client.write_all(data).await;
        let _ = client.shutdown().await;
        let out = answer(&mut client).await;
        drop(client);
        serving.abort();
        let _ = serving.await;
        out
    });
    let Some(out) = out else {
        return;
    };
    if sent.is_empty() {
        assert!(out.is_empty(), "an answer to nothing");
        return;
    }
    let end = find(&out, b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer head: {:?}", String::from_utf8_lossy(&out)));
    let head = String::from_utf8_lossy(&out[..end]).to_ascii_lowercase();
    let status: u16 = head
        .strip_prefix("http/1.1 ")
        .or_else(|| head.strip_prefix("http/1.0 "))
        .and_then(|r| r.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head:?}"));
    for name in [
        "content-security-policy:",
        "x-content-type-options: nosniff",
        "x-frame-options: deny",
        "referrer-policy: no-referrer",
    ] {
        assert!(head.contains(name), "{name} missing: {head}");
    }
    if status >= 400 && !head_only {
        let body = &out[end + 4..];
        let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_else(|e| {
            panic!(
                "{status}: not JSON ({e}): {:?}",
                String::from_utf8_lossy(body)
            )
        });
        let msg = v["error"].as_str().expect("an error message");
        assert!(!msg.is_empty() && !msg.contains('\n'), "{v}");
    }
});
