//! The engine protocol's commands as text (`docs/protocol.md`): parsing a
//! line into a [`Command`] and printing it back in canonical form. What a
//! command does is up to the program serving the protocol (`gamut engine`).

use crate::game::{Game, Player};
use crate::games::GameId;
use crate::moves::play_moves;
use std::fmt;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    /// The game's start position.
    Start,
    /// A start position with options (`setup <text>`).
    Setup(String),
    /// A position text (`fen <text>`).
    Fen(String),
}

impl Base {
    /// The position this base and `moves` (a `;`-separated list) describe
    /// for game `G`, or an error naming the problem.
    pub fn position<G: Game>(&self, moves: Option<&str>) -> Result<G, String> {
        let pos = match self {
            Base::Start => G::start(),
            Base::Setup(s) => {
                G::start_with(s).map_err(|e| format!("bad setup for {}: {e}", G::ID))?
            }
            Base::Fen(f) => G::parse(f).map_err(|e| format!("bad position for {}: {e}", G::ID))?,
        };
        match moves {
            Some(list) => play_moves(pos, list, "position").map_err(|e| e.0),
            None => Ok(pos),
        }
    }
}

/// The arguments of `go`; every limit is at least 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth N` (at most 100).
    pub depth: Option<u32>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `side 1|2`: whose placement at a simultaneous node.
    pub side: Option<Player>,
}

/// One line of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `gamut`: identify and list the options.
    Hello,
    /// `isready`.
    IsReady,
    /// `quit`.
    Quit,
    /// `stop`.
    Stop,
    /// `game <id>`.
    Game(GameId),
    /// `newgame`.
    NewGame,
    /// `setoption name <name> value <value>` (names and values are checked
    /// by the program that knows its options).
    SetOption { name: String, value: String },
    /// `position (startpos | setup <text> | fen <text>) [moves <list>]`.
    Position { base: Base, moves: Option<String> },
    /// `go [side 1|2] [depth N] [movetime MS] [nodes N] [infinite]`.
    Go(Go),
}

const SETOPTION_USAGE: &str = "usage: setoption name <name> value <value>";
const POSITION_USAGE: &str =
    "usage: position (startpos | setup <text> | fen <text>) [moves <m1>;<m2>...]";

impl Command {
    /// The command on `line`; `Ok(None)` for a blank line, an error naming
    /// the problem otherwise.
    pub fn parse(line: &str) -> Result<Option<Command>, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        // Words after a command that takes none are ignored, as UCI does.
        let bare = |c: Command| Ok(Some(c));
        match word {
            "" => Ok(None),
            "gamut" => bare(Command::Hello),
            "isready" => bare(Command::IsReady),
            "quit" => bare(Command::Quit),
            "stop" => bare(Command::Stop),
            "newgame" => bare(Command::NewGame),
            "game" => Ok(Some(Command::Game(rest.parse()?))),
            "setoption" => {
                let rest = rest.strip_prefix("name ").ok_or(SETOPTION_USAGE)?;
                let (name, value) = rest.split_once(" value ").ok_or(SETOPTION_USAGE)?;
                let (name, value) = (name.trim(), value.trim());
                if name.is_empty() || name.contains(char::is_whitespace) {
                    return Err(SETOPTION_USAGE.into());
                }
                Ok(Some(Command::SetOption {
                    name: name.into(),
                    value: value.into(),
                }))
            }
            "position" => parse_position(rest).map(Some),
            "go" => parse_go(rest).map(|g| Some(Command::Go(g))),
            _ => Err(format!("unknown command '{word}'")),
        }
    }
}

/// The arguments of `position`, read word by word: the word `moves`
/// starts the move list, and runs of whitespace count as one space.
fn parse_position(rest: &str) -> Result<Command, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (head, moves) = match words.iter().position(|&w| w == "moves") {
        Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
        None => (&words[..], None),
    };
    let base = match head {
        ["startpos"] => Base::Start,
        ["setup", text @ ..] if !text.is_empty() => Base::Setup(text.join(" ")),
        ["fen", text @ ..] if !text.is_empty() => Base::Fen(text.join(" ")),
        _ => return Err(POSITION_USAGE.into()),
    };
    let moves = moves.filter(|m| !m.is_empty());
    Ok(Command::Position { base, moves })
}

/// The arguments of `go`.
fn parse_go(rest: &str) -> Result<Go, String> {
    let mut go = Go::default();
    let mut words = rest.split_whitespace();
    while let Some(w) = words.next() {
        if w == "infinite" {
            continue;
        }
        let v = words
            .next()
            .ok_or_else(|| format!("go: '{w}' needs a value"))?;
        let bad = || format!("go: bad {w} '{v}'");
        let n: u64 = v.parse().ok().filter(|&n| n >= 1).ok_or_else(bad)?;
        match w {
            "depth" => go.depth = Some(n.min(100) as u32),
            "movetime" => go.movetime = Some(n),
            "nodes" => go.nodes = Some(n),
            "side" if n <= 2 => go.side = Some(Player::from_index(n as usize - 1)),
            _ => return Err(format!("go: unknown or bad argument '{w} {v}'")),
        }
    }
    Ok(go)
}

impl fmt::Display for Command {
    /// The command in canonical form: it parses back to itself.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hello => f.write_str("gamut"),
            Command::IsReady => f.write_str("isready"),
            Command::Quit => f.write_str("quit"),
            Command::Stop => f.write_str("stop"),
            Command::NewGame => f.write_str("newgame"),
            Command::Game(id) => write!(f, "game {id}"),
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            Command::Position { base, moves } => {
                f.write_str("position ")?;
                match base {
                    Base::Start => f.write_str("startpos")?,
                    Base::Setup(t) => write!(f, "setup {t}")?,
                    Base::Fen(t) => write!(f, "fen {t}")?,
                }
                match moves {
                    Some(m) => write!(f, " moves {m}"),
                    None => Ok(()),
                }
            }
            Command::Go(g) => {
                f.write_str("go")?;
                if let Some(s) = g.side {
                    write!(f, " side {}", s.index() + 1)?;
                }
                if let Some(d) = g.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(t) = g.movetime {
                    write!(f, " movetime {t}")?;
                }
                if let Some(n) = g.nodes {
                    write!(f, " nodes {n}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_print_back_to_themselves() {
        for line in [
            "gamut",
            "isready",
            "game apart",
            "setoption name hash value 16",
            "position startpos",
            "position setup air fire",
            "position fen 1/4/8/16/16 1 moves wA,bB1",
            "go side 2 depth 3 movetime 100 nodes 5",
            "go",
        ] {
            let c = Command::parse(line).unwrap().unwrap();
            assert_eq!(c.to_string(), line);
            assert_eq!(Command::parse(&c.to_string()).unwrap(), Some(c));
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        for line in [
            "game chess",
            "setoption hash 16",
            "position",
            "position fen",
            "go depth",
            "go depth 0",
            "go side 3",
            "go ponder 1",
            "hello",
        ] {
            assert!(Command::parse(line).is_err(), "{line}");
        }
        assert_eq!(Command::parse("   "), Ok(None));
        assert_eq!(Command::parse("quit now"), Ok(Some(Command::Quit)));
        assert!(Command::parse("position fen moves 1/4/8/16/16 1").is_err());
        assert_eq!(
            Command::parse("position fen\t1/4/8/16/16  1 moves\twA,bA").unwrap(),
            Command::parse("position fen 1/4/8/16/16 1 moves wA,bA").unwrap()
        );
    }
}
