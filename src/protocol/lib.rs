//! The engine protocol's commands as text (`docs/protocol.md`): parsing a
//! line into a [`Command`] and printing it back in canonical form. What a
//! command does is up to the program serving the protocol (`gamut engine`).

pub mod server;

use gamut_core::game::Player;
use gamut_engine::{AnyGame, Position};
use gamut_games::GameId;
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
    /// The position this base and `moves` (a `;`-separated list, see
    /// [`move_items`]) describe for `game`, or an error naming the
    /// problem.
    pub fn position(&self, game: &dyn AnyGame, moves: Option<&str>) -> Result<Position, String> {
        let id = game.id();
        let pos = match self {
            Base::Start => game.start(),
            Base::Setup(s) => game
                .start_with(s)
                .map_err(|e| format!("bad setup for {id}: {e}"))?,
            Base::Fen(f) => game
                .parse(f)
                .map_err(|e| format!("bad position for {id}: {e}"))?,
        };
        match moves {
            Some(list) => pos
                .play_moves(&move_items(list).join(";"), "position")
                .map_err(|e| e.0),
            None => Ok(pos),
        }
    }
}

/// The items of a `position ... moves` list: separated by `;` when the
/// list has one (the form that carries move texts with spaces, such as a
/// Spokes outcome ending in ` loop`), else by whitespace, as UCI sends them.
pub fn move_items(list: &str) -> Vec<String> {
    if list.contains(';') {
        list.split(';').map(|m| m.trim().to_string()).collect()
    } else {
        list.split_whitespace().map(str::to_string).collect()
    }
}

/// The most players a `go side N` can name.
pub const MAX_SIDE: u64 = 4;

/// The deepest `go perft N`.
pub const MAX_PERFT: u32 = 64;

/// The arguments of `go`; every limit is at least 1 (the clock's times
/// may be 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth N` (at most 100).
    pub depth: Option<u32>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `side N`: whose placement at a simultaneous node (a seat: player
    /// 1 to 4).
    pub side: Option<Player>,
    /// `wtime MS` / `btime MS`: the first and second side's clocks.
    pub time: [Option<u64>; 2],
    /// `winc MS` / `binc MS`: their increments.
    pub inc: [Option<u64>; 2],
    /// `movestogo N`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`, whatever else is given.
    pub infinite: bool,
    /// `perft N`: count the leaves to depth N instead of searching.
    pub perft: Option<u32>,
}

impl Go {
    /// Whether the search ends by itself: a limit or a clock is given and
    /// not `infinite`.
    pub fn bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.movetime.is_some()
                || self.nodes.is_some()
                || self.perft.is_some()
                || self.time.iter().any(Option::is_some))
    }
}

/// One line of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `gamut`: identify and list the options.
    Hello,
    /// `uci`: the same as `gamut`, ending in `uciok`.
    Uci,
    /// `d`: draw the current position.
    Display,
    /// `ponderhit`: accepted and ignored (gamut does not ponder).
    PonderHit,
    /// `isready`.
    IsReady,
    /// `quit`.
    Quit,
    /// `stop`.
    Stop,
    /// `game <id>`.
    Game(GameId),
    /// `newgame` (or UCI's `ucinewgame`, printed back as `newgame`).
    NewGame,
    /// `setoption name <name> value <value>` (names and values are checked
    /// by the program that knows its options).
    SetOption { name: String, value: String },
    /// `position (startpos | setup <text> | fen <text>) [moves <list>]`.
    Position { base: Base, moves: Option<String> },
    /// `go [side N] [depth N] [movetime MS] [nodes N] [wtime MS] [btime MS]
    /// [winc MS] [binc MS] [movestogo N] [infinite] [perft N]`.
    Go(Go),
}

const SETOPTION_USAGE: &str = "usage: setoption name <name> value <value>";
const POSITION_USAGE: &str =
    "usage: position (startpos | setup <text> | fen <text>) [moves <m1> <m2> ... | moves <m1>;<m2>;...]";

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
            "uci" => bare(Command::Uci),
            "d" => bare(Command::Display),
            "ponderhit" => bare(Command::PonderHit),
            "ucinewgame" => bare(Command::NewGame),
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
            go.infinite = true;
            continue;
        }
        let v = words
            .next()
            .ok_or_else(|| format!("go: '{w}' needs a value"))?;
        let bad = || format!("go: bad {w} '{v}'");
        let any: u64 = v.parse().map_err(|_| bad())?;
        // A clock may read 0 (a flag about to fall); every limit is >= 1.
        let n = Some(any).filter(|&n| n >= 1);
        let clock = || Some(any.min(u64::from(u32::MAX) * 1000));
        match w {
            "wtime" => go.time[0] = clock(),
            "btime" => go.time[1] = clock(),
            "winc" => go.inc[0] = clock(),
            "binc" => go.inc[1] = clock(),
            _ => {
                let n = n.ok_or_else(bad)?;
                match w {
                    "depth" => go.depth = Some(n.min(100) as u32),
                    "movetime" => go.movetime = Some(n),
                    "nodes" => go.nodes = Some(n),
                    "movestogo" => go.movestogo = Some(n.min(u64::from(u32::MAX)) as u32),
                    "perft" if n <= u64::from(MAX_PERFT) => go.perft = Some(n as u32),
                    "side" if n <= MAX_SIDE => go.side = Some(Player::nth(n as usize - 1)),
                    _ => return Err(format!("go: unknown or bad argument '{w} {v}'")),
                }
            }
        }
    }
    Ok(go)
}

impl fmt::Display for Command {
    /// The command in canonical form: it parses back to itself.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hello => f.write_str("gamut"),
            Command::Uci => f.write_str("uci"),
            Command::Display => f.write_str("d"),
            Command::PonderHit => f.write_str("ponderhit"),
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
                for (word, value) in [
                    ("wtime", g.time[0]),
                    ("btime", g.time[1]),
                    ("winc", g.inc[0]),
                    ("binc", g.inc[1]),
                    ("movestogo", g.movestogo.map(u64::from)),
                    ("perft", g.perft.map(u64::from)),
                ] {
                    if let Some(v) = value {
                        write!(f, " {word} {v}")?;
                    }
                }
                if g.infinite {
                    f.write_str(" infinite")?;
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
    fn move_lists_split_at_semicolons_or_else_at_whitespace() {
        assert_eq!(move_items("a2-a3 b12-e9"), ["a2-a3", "b12-e9"]);
        assert_eq!(move_items("a2-a3;b12-e9"), ["a2-a3", "b12-e9"]);
        assert_eq!(
            move_items("wA,wA; 1/1w1w/8/16/16 loop"),
            ["wA,wA", "1/1w1w/8/16/16 loop"]
        );
    }

    #[test]
    fn only_a_go_with_a_limit_or_a_clock_ends_by_itself() {
        let go = |l: &str| match Command::parse(l).unwrap().unwrap() {
            Command::Go(g) => g,
            c => panic!("{c:?}"),
        };
        assert!(!go("go").bounded());
        assert!(!go("go depth 3 infinite").bounded());
        assert!(go("go depth 3").bounded());
        assert!(go("go btime 100").bounded());
        assert!(go("go perft 2").bounded());
    }

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
            "go side 4 wtime 0 btime 10000 winc 100 binc 100 movestogo 20",
            "go perft 3",
            "go infinite",
            "uci",
            "d",
            "ponderhit",
            "position startpos moves a2-a3 b12-e9",
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
            "go side 5",
            "go perft 0",
            "go perft 65",
            "go wtime -1",
            "go movestogo 0",
            "go ponder 1",
            "hello",
        ] {
            assert!(Command::parse(line).is_err(), "{line}");
        }
        assert_eq!(Command::parse("   "), Ok(None));
        assert_eq!(Command::parse("quit now"), Ok(Some(Command::Quit)));
        assert_eq!(Command::parse("ucinewgame"), Ok(Some(Command::NewGame)));
        assert!(Command::parse("position fen moves 1/4/8/16/16 1").is_err());
        assert_eq!(
            Command::parse("position fen\t1/4/8/16/16  1 moves\twA,bA").unwrap(),
            Command::parse("position fen 1/4/8/16/16 1 moves wA,bA").unwrap()
        );
    }
}
