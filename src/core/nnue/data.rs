//! The training data file written by `gamut datagen` and read by the
//! trainer: a header naming the game, then one block per self-play game
//! with the positions kept from it. The layout is documented in
//! `docs/datagen.md`; every integer is little-endian.
//!
//! ```text
//! header  "GAMUTPOS" (8 bytes) | version u16 = 1 | id length u8 | game id
//! game    positions u16 | winner u8 (0 first player, 1 second, 2 draw)
//!         then per position: side to move u8 | score i16 (side to move's
//!         view, evaluation units) | text length u16 | position text
//! ```
//!
//! A writer appends whole games and flushes after each, so a file cut short
//! by a crash loses at most its last game, which [`Reader::resume_point`]
//! finds.

use crate::game::Player;
use std::fmt;
use std::io::{self, Read, Write};

/// The first eight bytes of every data file.
pub const MAGIC: &[u8; 8] = b"GAMUTPOS";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;

/// One kept position: its text, side to move and search score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position's canonical text (`Game::text`).
    pub text: String,
    /// The side to move.
    pub side: Player,
    /// The search score from the side to move's view, in evaluation units.
    pub score: i16,
}

/// One self-play game's kept positions and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// The positions kept, in the order played.
    pub samples: Vec<Sample>,
}

impl GameRecord {
    /// The game's result for `side`: 1 for a win, ½ for a draw, 0 for a loss.
    #[must_use]
    pub fn result_for(&self, side: Player) -> f32 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// What is wrong with a data file, and at which byte.
#[derive(Debug)]
pub struct FormatError {
    /// The byte offset where the fault was found.
    pub offset: u64,
    /// What is wrong, in a few words.
    pub why: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "corrupt data at byte {}: {}", self.offset, self.why)
    }
}

impl std::error::Error for FormatError {}

/// Writes the header of a data file for game `id`.
pub fn write_header(out: &mut impl Write, id: &str) -> io::Result<()> {
    let len = u8::try_from(id.len()).map_err(|_| io::Error::other("game id too long"))?;
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&[len])?;
    out.write_all(id.as_bytes())
}

/// The bytes of one game block.
#[must_use]
pub fn encode_game(game: &GameRecord) -> Vec<u8> {
    let mut b = Vec::with_capacity(3 + game.samples.len() * 80);
    let n = u16::try_from(game.samples.len()).expect("at most 65,535 positions per game");
    b.extend_from_slice(&n.to_le_bytes());
    b.push(game.winner.map_or(2, |w| w.index() as u8));
    for s in &game.samples {
        b.push(s.side.index() as u8);
        b.extend_from_slice(&s.score.to_le_bytes());
        let len = u16::try_from(s.text.len()).expect("position text under 64 KiB");
        b.extend_from_slice(&len.to_le_bytes());
        b.extend_from_slice(s.text.as_bytes());
    }
    b
}

/// A reader of a data file: the header first, then game by game.
pub struct Reader<R> {
    input: R,
    offset: u64,
    game: String,
}

/// What reading a game block found.
enum Block {
    Game(GameRecord),
    End,
    /// The file ends inside the block that starts at this offset.
    Truncated(u64),
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header.
    pub fn new(mut input: R) -> Result<Reader<R>, FormatError> {
        let mut head = [0u8; 11];
        read_fully(&mut input, &mut head, 0)?;
        if &head[..8] != MAGIC {
            return Err(error(0, "not a gamut data file (no GAMUTPOS header)"));
        }
        let version = u16::from_le_bytes([head[8], head[9]]);
        if version != VERSION {
            return Err(error(
                8,
                format!("format version {version}, this build reads {VERSION}"),
            ));
        }
        let mut id = vec![0u8; head[10] as usize];
        read_fully(&mut input, &mut id, 11)?;
        let game = String::from_utf8(id).map_err(|_| error(11, "game id is not UTF-8"))?;
        let offset = 11 + game.len() as u64;
        Ok(Reader {
            input,
            offset,
            game,
        })
    }

    /// The game id of the header.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The byte offset of the next block.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next game, `None` at the end; a file ending inside a game is an
    /// error.
    pub fn next_game(&mut self) -> Result<Option<GameRecord>, FormatError> {
        match self.block()? {
            Block::Game(g) => Ok(Some(g)),
            Block::End => Ok(None),
            Block::Truncated(at) => Err(error(at, "the file ends inside a game")),
        }
    }

    /// Reads every game, returning how many there are and the offset just
    /// after the last whole one: where `--resume` appends (a last game cut
    /// short by a crash is dropped).
    pub fn resume_point(&mut self) -> Result<(u64, u64), FormatError> {
        let mut games = 0;
        loop {
            let start = self.offset;
            match self.block()? {
                Block::Game(_) => games += 1,
                Block::End => return Ok((games, start)),
                Block::Truncated(at) => return Ok((games, at)),
            }
        }
    }

    fn block(&mut self) -> Result<Block, FormatError> {
        let start = self.offset;
        let mut head = [0u8; 3];
        match self.fill(&mut head)? {
            0 => return Ok(Block::End),
            3 => {}
            _ => return Ok(Block::Truncated(start)),
        }
        let n = u16::from_le_bytes([head[0], head[1]]);
        let winner = match head[2] {
            0 | 1 => Some(Player::from_index(head[2] as usize)),
            2 => None,
            w => {
                return Err(error(
                    start + 2,
                    format!("result byte {w} is not 0, 1 or 2"),
                ))
            }
        };
        let mut samples = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let at = self.offset;
            let mut fixed = [0u8; 5];
            if self.fill(&mut fixed)? < 5 {
                return Ok(Block::Truncated(start));
            }
            let side = match fixed[0] {
                s @ (0 | 1) => Player::from_index(s as usize),
                s => return Err(error(at, format!("side byte {s} is not 0 or 1"))),
            };
            let score = i16::from_le_bytes([fixed[1], fixed[2]]);
            let len = u16::from_le_bytes([fixed[3], fixed[4]]) as usize;
            let mut text = vec![0u8; len];
            if self.fill(&mut text)? < len {
                return Ok(Block::Truncated(start));
            }
            let text =
                String::from_utf8(text).map_err(|_| error(at + 5, "position text is not UTF-8"))?;
            samples.push(Sample { text, side, score });
        }
        Ok(Block::Game(GameRecord { winner, samples }))
    }

    /// Reads as much of `buf` as the input holds, returning the count.
    fn fill(&mut self, buf: &mut [u8]) -> Result<usize, FormatError> {
        let mut n = 0;
        while n < buf.len() {
            match self.input.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(error(self.offset + n as u64, e.to_string())),
            }
        }
        self.offset += n as u64;
        Ok(n)
    }
}

fn read_fully(input: &mut impl Read, buf: &mut [u8], at: u64) -> Result<(), FormatError> {
    input
        .read_exact(buf)
        .map_err(|_| error(at, "the file ends inside its header"))
}

fn error(offset: u64, why: impl Into<String>) -> FormatError {
    FormatError {
        offset,
        why: why.into(),
    }
}

/// Every game of a data file for game `id`, or what is wrong with it.
pub fn read_all(input: impl Read, id: &str) -> Result<Vec<GameRecord>, FormatError> {
    let mut r = Reader::new(input)?;
    if r.game() != id {
        return Err(error(
            11,
            format!("the file holds {} data, not {id}", r.game()),
        ));
    }
    let mut games = Vec::new();
    while let Some(g) = r.next_game()? {
        games.push(g);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_games() -> Vec<GameRecord> {
        vec![
            GameRecord {
                winner: Some(Player::SECOND),
                samples: vec![
                    Sample {
                        text: "14/14 w".into(),
                        side: Player::FIRST,
                        score: -123,
                    },
                    Sample {
                        text: "B13/14 b".into(),
                        side: Player::SECOND,
                        score: i16::MAX,
                    },
                ],
            },
            GameRecord {
                winner: None,
                samples: vec![],
            },
        ]
    }

    fn file(games: &[GameRecord]) -> Vec<u8> {
        let mut f = Vec::new();
        write_header(&mut f, "epaminondas").unwrap();
        for g in games {
            f.extend(encode_game(g));
        }
        f
    }

    #[test]
    fn games_come_back_as_written() {
        let games = sample_games();
        assert_eq!(read_all(&file(&games)[..], "epaminondas").unwrap(), games);
    }

    #[test]
    fn a_cut_file_resumes_after_its_last_whole_game() {
        let games = sample_games();
        let whole = file(&games[..1]);
        let mut cut = file(&games);
        cut.truncate(cut.len() - 1);
        // The second game has 3 bytes; cutting one leaves it incomplete.
        let (n, at) = Reader::new(&cut[..]).unwrap().resume_point().unwrap();
        assert_eq!((n, at), (1, whole.len() as u64));
        let e = read_all(&cut[..], "epaminondas").unwrap_err();
        assert_eq!(e.offset, whole.len() as u64);
    }

    #[test]
    fn faults_name_their_offset() {
        let mut f = file(&sample_games());
        assert_eq!(read_all(&f[..], "aporia").unwrap_err().offset, 11);
        let header = 11 + "epaminondas".len();
        f[header + 2] = 7;
        let e = read_all(&f[..], "epaminondas").unwrap_err();
        assert_eq!(e.offset, header as u64 + 2);
        assert!(e.to_string().contains("result byte 7"), "{e}");
        f[0] = b'X';
        assert_eq!(read_all(&f[..], "epaminondas").unwrap_err().offset, 0);
    }
}
