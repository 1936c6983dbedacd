//! Engines that are other programs speaking the engine protocol
//! (`docs/protocol.md`): started once per game, asked for each move with
//! the position's text, and killed when the game ends. A crash, a silence
//! past the time allowed or an illegal move is a [`Forfeit`].

use gamut_core::platform::{self, Instant};
use gamut_search::score::{WIN, WIN_THRESHOLD};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How an external engine is started and asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct External {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// What follows `go` for each move (`movetime 50`, `depth 4`).
    pub go: String,
    /// How long to wait for each `bestmove`: the time per move plus a
    /// margin.
    pub allowance: Duration,
    /// `setoption` names and values sent after the handshake.
    pub options: Vec<(String, String)>,
}

/// How many times the referee's own time to list a position's legal moves
/// a program gets on top of its allowance there: it has to list them too
/// (a Spokes resolution of millions of boards takes seconds) before it can
/// answer.
pub const LISTING_ALLOWANCE: u32 = 2;

impl External {
    /// How long to wait for a `bestmove` at a position whose legal moves
    /// took the referee `listing` to list.
    #[must_use]
    pub fn allowance_after(&self, listing: Duration) -> Duration {
        self.allowance + listing * LISTING_ALLOWANCE
    }
}

/// How long a program may take to start and answer the handshake.
const STARTUP: Duration = Duration::from_secs(20);

/// Why an external engine lost the game: the text after `forfeit: ` in
/// the record's reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit(pub String);

impl Forfeit {
    /// The record's reason: `forfeit: <what happened>`.
    #[must_use]
    pub fn reason(&self) -> String {
        format!("forfeit: {}", self.0)
    }
}

/// The score and depth of the last `info` line a program sent before its
/// `bestmove` at a decision node, in search units (`win 3` is
/// [`WIN`]` - 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported {
    /// The score for the side to move.
    pub score: i32,
    /// The depth completed.
    pub depth: u32,
}

impl Reported {
    /// The score and depth of an `info depth <n> score cp|win|loss <v> ...`
    /// line; `None` for any other line.
    #[must_use]
    pub fn parse(line: &str) -> Option<Reported> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |key: &str| words.iter().position(|&w| w == key);
        if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
            return None;
        }
        let depth = words.get(at("depth")? + 1)?.parse().ok()?;
        let s = at("score")?;
        let n: i32 = words.get(s + 2)?.parse().ok()?;
        let score = match *words.get(s + 1)? {
            "cp" if n.abs() < WIN_THRESHOLD => n,
            "win" if (0..WIN - WIN_THRESHOLD).contains(&n) => WIN - n,
            "loss" if (0..WIN - WIN_THRESHOLD).contains(&n) => n - WIN,
            _ => return None,
        };
        Some(Reported { score, depth })
    }
}

/// A running external engine. Dropping it kills the program.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
}

/// Starts `program` with `args`, its standard input and output piped and
/// its errors discarded; a thread sends each line it prints to the
/// receiver, which closes when the program's output does. A build that
/// starts no programs ([`platform::PROGRAMS`], a browser's) refuses.
pub fn spawn_with_lines(
    program: &str,
    args: &[String],
) -> std::io::Result<(Child, ChildStdin, Receiver<String>)> {
    if !platform::PROGRAMS {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            platform::NO_PROGRAMS,
        ));
    }
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stdin = child.stdin.take().expect("stdin is piped");
    let (send, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    Ok((child, stdin, lines))
}

impl Process {
    /// Starts `spec`'s program, does the handshake, chooses game `game`,
    /// sends the options and `seed`, and waits for `readyok`.
    pub fn start(spec: &External, game: &str, seed: u64) -> Result<Process, Forfeit> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| Forfeit("no program to start".into()))?;
        let (child, stdin, lines) = spawn_with_lines(program, args)
            .map_err(|e| Forfeit(format!("cannot start '{program}': {e}")))?;
        let mut p = Process {
            child,
            stdin,
            lines,
            name: program.clone(),
        };
        p.send("gamut")?;
        p.wait_for(|l| l == "gamutok", STARTUP, "gamutok")?;
        p.send(&format!("game {game}"))?;
        for (name, value) in &spec.options {
            p.send(&format!("setoption name {name} value {value}"))?;
        }
        p.send(&format!("setoption name seed value {seed}"))?;
        p.send("isready")?;
        p.wait_for(|l| l == "readyok", STARTUP, "readyok")?;
        Ok(p)
    }

    /// The engine's answer at the position `text` to `go <go>`, waited for
    /// `allowance`:
    /// `side` (1 or 2) is given at a simultaneous node. Returns the text
    /// after `bestmove ` and the last score and depth the engine reported,
    /// if any.
    pub fn best(
        &mut self,
        go: &str,
        text: &str,
        side: Option<usize>,
        allowance: Duration,
    ) -> Result<(String, Option<Reported>), Forfeit> {
        self.send(&format!("position fen {text}"))?;
        match side {
            Some(s) => self.send(&format!("go side {s} {go}"))?,
            None => self.send(&format!("go {go}"))?,
        }
        let mut reported = None;
        let wanted = |l: &str| {
            if let Some(r) = Reported::parse(l) {
                reported = Some(r);
            }
            l.starts_with("bestmove ")
        };
        let line = self.wait_for(wanted, allowance, "bestmove")?;
        Ok((line["bestmove ".len()..].trim().to_string(), reported))
    }

    /// Writes one line to the program.
    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        if writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.exited());
        }
        Ok(())
    }

    /// Reads lines until one satisfies `wanted`, for at most `limit`.
    fn wait_for(
        &mut self,
        mut wanted: impl FnMut(&str) -> bool,
        limit: Duration,
        what: &str,
    ) -> Result<String, Forfeit> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(line.trim_end()) => return Ok(line.trim_end().to_string()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Forfeit(format!(
                        "no {what} within {} ms",
                        limit.as_millis()
                    )))
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    /// The forfeit of a program that closed its output or input: how it
    /// exited, waiting briefly for it.
    fn exited(&mut self) -> Forfeit {
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Forfeit(format!("'{}' exited ({status})", self.name));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Forfeit(format!("'{}' closed its output", self.name))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_listing_lengthens_the_wait_for_a_bestmove() {
        let spec = External {
            command: vec!["engine".into()],
            go: "movetime 200".into(),
            allowance: Duration::from_millis(1200),
            options: Vec::new(),
        };
        assert_eq!(spec.allowance_after(Duration::ZERO), spec.allowance);
        assert_eq!(
            spec.allowance_after(Duration::from_millis(2500)),
            Duration::from_millis(1200 + 2500 * u64::from(LISTING_ALLOWANCE))
        );
    }

    #[test]
    fn info_lines_give_score_and_depth_in_search_units() {
        let r = |l: &str| Reported::parse(l);
        assert_eq!(
            r("info depth 6 score cp -35 nodes 18 nps 2 hashfull 4 time 86 pv a2-a3"),
            Some(Reported {
                score: -35,
                depth: 6
            })
        );
        assert_eq!(
            r("info depth 3 score win 3 nodes 1 pv x").map(|r| r.score),
            Some(WIN - 3)
        );
        assert_eq!(
            r("info depth 3 score loss 2 nodes 1").map(|r| r.score),
            Some(2 - WIN)
        );
        assert_eq!(
            r("info depth 2 value 0.1250 nodes 5120 strategy 1 wD12 1"),
            None
        );
        assert_eq!(r("info string depth 2 score cp 3"), None);
        assert_eq!(r("info depth 2 score cp 40000"), None);
        assert_eq!(r("bestmove a2-a3"), None);
    }
}
