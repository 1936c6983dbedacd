//! The training data file written by `gamut datagen` and read by the
//! trainer: a header naming the game, then one block per self-play game
//! with the positions kept from it. The layout is documented in
//! `docs/datagen.md`; every integer is little-endian.
//!
//! ```text
//! header  "GAMUTPOS" (8 bytes) | version u16 = 3 | id length u8 | game id
//! game    body length u32 | CRC-32 of those 4 bytes u32 | body | CRC-32 of the body u32
//! body    positions u16 | winner u8 (the winning side's index from 0, 255 a draw)
//!         then per position: side u8 | score i16 (that side's view,
//!         evaluation units) | text length u16 | position text
//! ```
//!
//! A position's side is the side to move, or in a game of more than two
//! sides any side whose search scored it. Version 2 files are the same
//! but for a draw's winner byte, 2 (they hold games of two sides only);
//! version 1 files (no length and no checksums: a game is its body alone)
//! still read, and `gamut datagen --resume` appends to a version 2 file in
//! its own version. Every field is checked against its range as it is read: the
//! side and result bytes, the score within ±[`EVAL_LIMIT`], and the text,
//! which must be a position of the header's game.
//!
//! A writer appends whole games and flushes after each, so a file cut short
//! by a crash loses at most its last game, which [`Reader::resume_point`]
//! finds: the file ends inside a game whose length field checks. Any other
//! fault (a checksum that does not match, a field out of range) is an error
//! naming its byte offset, wherever it is, so no intact game is ever taken
//! for a torn one.

use crate::GameId;
use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::game::{Notation, Player};
use std::fmt;
use std::io::{self, Read, Write};

/// The first eight bytes of every data file.
pub const MAGIC: &[u8; 8] = b"GAMUTPOS";
/// The format version this code writes (it reads versions 1 to 3).
pub const VERSION: u16 = 3;
/// The longest position text a file may hold, in bytes.
pub const MAX_TEXT: usize = 4096;
/// The largest game body: 65,535 positions of the longest text.
const MAX_BODY: u64 = 3 + 65_535 * (5 + MAX_TEXT as u64);

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

/// The CRC-32 (ISO-HDLC, as zlib and PNG use) of `bytes`.
fn crc(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// The winner byte of a draw in format `version`.
const fn draw_byte(version: u16) -> u8 {
    if version < 3 {
        2
    } else {
        255
    }
}

/// The body of one game in format `version`: what a version 1 file holds
/// as its block.
fn encode_body(game: &GameRecord, version: u16) -> Vec<u8> {
    let mut b = Vec::with_capacity(3 + game.samples.len() * 80);
    let n = u16::try_from(game.samples.len()).expect("at most 65,535 positions per game");
    b.extend_from_slice(&n.to_le_bytes());
    b.push(game.winner.map_or(draw_byte(version), |w| w.index() as u8));
    for s in &game.samples {
        b.push(s.side.index() as u8);
        b.extend_from_slice(&s.score.to_le_bytes());
        assert!(
            s.text.len() <= MAX_TEXT,
            "position text over {MAX_TEXT} bytes"
        );
        b.extend_from_slice(&(s.text.len() as u16).to_le_bytes());
        b.extend_from_slice(s.text.as_bytes());
    }
    b
}

/// The bytes of one game block ([`VERSION`]): its length and that
/// length's checksum, the body, and the body's checksum.
#[must_use]
pub fn encode_game(game: &GameRecord) -> Vec<u8> {
    encode_game_in(game, VERSION)
}

/// The bytes of one game block in format `version` (2 or later), to append
/// to a file of that version.
#[must_use]
pub fn encode_game_in(game: &GameRecord, version: u16) -> Vec<u8> {
    let body = encode_body(game, version);
    let len = (body.len() as u32).to_le_bytes();
    let mut b = Vec::with_capacity(body.len() + 12);
    b.extend_from_slice(&len);
    b.extend_from_slice(&crc(&len).to_le_bytes());
    b.extend_from_slice(&body);
    b.extend_from_slice(&crc(&body).to_le_bytes());
    b
}

/// Whether `text` is a position of the game; `Err` says why not.
type TextCheck = fn(&str) -> Result<(), String>;

/// A reader of a data file: the header first, then game by game.
pub struct Reader<R> {
    input: R,
    offset: u64,
    game: String,
    version: u16,
    /// The game's sides: the largest side byte is one less.
    sides: u8,
    is_position: TextCheck,
}

/// What reading a game block found.
enum Block {
    Game(GameRecord),
    End,
    /// The file ends inside the block that starts at this offset.
    Truncated(u64),
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header: the magic, a version this build reads
    /// and the id of a game gamut plays.
    pub fn new(mut input: R) -> Result<Reader<R>, FormatError> {
        let mut head = [0u8; 11];
        read_fully(&mut input, &mut head, 0)?;
        if &head[..8] != MAGIC {
            return Err(error(0, "not a gamut data file (no GAMUTPOS header)"));
        }
        let version = u16::from_le_bytes([head[8], head[9]]);
        if !(1..=VERSION).contains(&version) {
            return Err(error(
                8,
                format!("format version {version}, this build reads 1 to {VERSION}"),
            ));
        }
        let mut id = vec![0u8; head[10] as usize];
        read_fully(&mut input, &mut id, 11)?;
        let game = String::from_utf8(id).map_err(|_| error(11, "game id is not UTF-8"))?;
        let known: GameId = game
            .parse()
            .map_err(|_| error(11, format!("'{game}' is not a game gamut plays")))?;
        let (is_position, sides): (TextCheck, u8) = with_game!(known, G => (
            |t: &str| G::parse(t).map(|_| ()).map_err(|e| e.to_string()),
            <G as gamut_core::game::Game>::INFO.sides.len() as u8,
        ));
        let offset = 11 + game.len() as u64;
        Ok(Reader {
            input,
            offset,
            game,
            version,
            sides,
            is_position,
        })
    }

    /// The game id of the header.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The file's format version: 1 (no checksums), 2 or 3.
    pub fn version(&self) -> u16 {
        self.version
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

    /// Reads and checks every game, returning how many there are and the
    /// offset just after the last whole one: where `--resume` appends. Only
    /// a last game the file ends inside is dropped (in a version 2 file,
    /// one whose length field checks); every other fault is an error.
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

    /// What a game body is checked against.
    fn format(&self) -> Format {
        Format {
            version: self.version,
            sides: self.sides,
            is_position: self.is_position,
        }
    }

    fn block(&mut self) -> Result<Block, FormatError> {
        let format = self.format();
        if self.version == 1 {
            let start = self.offset;
            let mut src = Source {
                input: &mut self.input,
                offset: &mut self.offset,
            };
            let mut head = [0u8; 3];
            return Ok(match src.fill(&mut head)? {
                0 => Block::End,
                3 => match body(&mut src, head, format)? {
                    Some(g) => Block::Game(g),
                    None => Block::Truncated(start),
                },
                _ => Block::Truncated(start),
            });
        }
        let start = self.offset;
        let mut src = Source {
            input: &mut self.input,
            offset: &mut self.offset,
        };
        let mut head = [0u8; 8];
        match src.fill(&mut head)? {
            0 => return Ok(Block::End),
            8 => {}
            _ => return Ok(Block::Truncated(start)),
        }
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        if crc(&head[..4]).to_le_bytes() != head[4..] {
            return Err(error(
                start,
                "the game's length field is damaged (its checksum does not match)",
            ));
        }
        if u64::from(len) > MAX_BODY {
            return Err(error(start, format!("a game of {len} bytes is too long")));
        }
        let mut bytes = vec![0u8; len as usize];
        if src.fill(&mut bytes)? < bytes.len() {
            return Ok(Block::Truncated(start));
        }
        let mut sum = [0u8; 4];
        if src.fill(&mut sum)? < 4 {
            return Ok(Block::Truncated(start));
        }
        if crc(&bytes).to_le_bytes() != sum {
            return Err(error(
                start,
                "the game is damaged (its checksum does not match)",
            ));
        }
        let mut at = start + 8;
        let mut slice = &bytes[..];
        let mut inner = Source {
            input: &mut slice,
            offset: &mut at,
        };
        let mut head = [0u8; 3];
        if inner.fill(&mut head)? < 3 {
            return Err(error(start + 8, "the game's body is shorter than its head"));
        }
        match body(&mut inner, head, format)? {
            Some(g) if inner.at_end()? => Ok(Block::Game(g)),
            Some(_) => Err(error(at, "the game's body is longer than its positions")),
            None => Err(error(at, "the game's body ends inside a position")),
        }
    }
}

/// Bytes read with their offset in the file.
struct Source<'a, R> {
    input: &'a mut R,
    offset: &'a mut u64,
}

impl<R: Read> Source<'_, R> {
    /// Reads as much of `buf` as the input holds, returning the count.
    fn fill(&mut self, buf: &mut [u8]) -> Result<usize, FormatError> {
        let mut n = 0;
        while n < buf.len() {
            match self.input.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(error(*self.offset + n as u64, e.to_string())),
            }
        }
        *self.offset += n as u64;
        Ok(n)
    }

    /// Whether the input has no byte left (reading one byte if it has, and
    /// so only at the end of a game block).
    fn at_end(&mut self) -> Result<bool, FormatError> {
        let mut one = [0u8; 1];
        Ok(self.fill(&mut one)? == 0)
    }
}

/// What a game body is checked against: the file's version, the game's
/// sides and positions.
#[derive(Copy, Clone)]
struct Format {
    version: u16,
    sides: u8,
    is_position: TextCheck,
}

/// Reads the rest of one game body after its 3-byte `head` (positions,
/// result), checking every field against its range; `None` when the input
/// ends inside it.
fn body<R: Read>(
    src: &mut Source<'_, R>,
    head: [u8; 3],
    format: Format,
) -> Result<Option<GameRecord>, FormatError> {
    let start = *src.offset - 3;
    let n = u16::from_le_bytes([head[0], head[1]]);
    let draw = draw_byte(format.version);
    let winner = match head[2] {
        w if w < format.sides => Some(Player::nth(w.into())),
        w if w == draw => None,
        w => {
            return Err(error(
                start + 2,
                format!(
                    "result byte {w} is not a side (0 to {}) or a draw ({draw})",
                    format.sides - 1
                ),
            ))
        }
    };
    let mut samples = Vec::with_capacity(usize::from(n).min(1024));
    for _ in 0..n {
        let at = *src.offset;
        let mut fixed = [0u8; 5];
        if src.fill(&mut fixed)? < 5 {
            return Ok(None);
        }
        let side = match fixed[0] {
            s if s < format.sides => Player::nth(s.into()),
            s => {
                return Err(error(
                    at,
                    format!("side byte {s} is not a side (0 to {})", format.sides - 1),
                ))
            }
        };
        let score = i16::from_le_bytes([fixed[1], fixed[2]]);
        if i32::from(score).abs() > EVAL_LIMIT {
            return Err(error(
                at + 1,
                format!("score {score} is beyond the evaluation's ±{EVAL_LIMIT}"),
            ));
        }
        let len = usize::from(u16::from_le_bytes([fixed[3], fixed[4]]));
        if len > MAX_TEXT {
            return Err(error(
                at + 3,
                format!("a position text of {len} bytes is longer than {MAX_TEXT}"),
            ));
        }
        let mut text = vec![0u8; len];
        if src.fill(&mut text)? < len {
            return Ok(None);
        }
        let text =
            String::from_utf8(text).map_err(|_| error(at + 5, "position text is not UTF-8"))?;
        if let Err(why) = (format.is_position)(&text) {
            return Err(error(at + 5, format!("'{text}' is not a position: {why}")));
        }
        samples.push(Sample { text, side, score });
    }
    Ok(Some(GameRecord { winner, samples }))
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
    use crate::epaminondas::Epaminondas;
    use gamut_core::game::{Game, Notation};

    fn sample_games() -> Vec<GameRecord> {
        let start = Epaminondas::start();
        let mut moves = Vec::new();
        start.moves(&mut moves);
        let next = start.play(moves[0]);
        vec![
            GameRecord {
                winner: Some(Player::SECOND),
                samples: vec![
                    Sample {
                        text: start.text(),
                        side: Player::FIRST,
                        score: -123,
                    },
                    Sample {
                        text: next.text(),
                        side: Player::SECOND,
                        score: EVAL_LIMIT as i16,
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

    /// A version 1 file: the header says 1 and each game is its body.
    fn file_v1(bodies: &[Vec<u8>]) -> Vec<u8> {
        let mut f = Vec::new();
        write_header(&mut f, "epaminondas").unwrap();
        f[8] = 1;
        for b in bodies {
            f.extend(b);
        }
        f
    }

    /// A version 2 block around `body`, with checksums that match.
    fn block(body: &[u8]) -> Vec<u8> {
        let len = (body.len() as u32).to_le_bytes();
        let mut b = len.to_vec();
        b.extend(crc(&len).to_le_bytes());
        b.extend(body);
        b.extend(crc(body).to_le_bytes());
        b
    }

    const HEADER: usize = 11 + "epaminondas".len();

    #[test]
    fn games_come_back_as_written_in_both_versions() {
        let games = sample_games();
        assert_eq!(read_all(&file(&games)[..], "epaminondas").unwrap(), games);
        let v1 = file_v1(&games.iter().map(|g| encode_body(g, 1)).collect::<Vec<_>>());
        let mut r = Reader::new(&v1[..]).unwrap();
        assert_eq!(r.version(), 1);
        assert_eq!(r.resume_point().unwrap(), (2, v1.len() as u64));
        assert_eq!(read_all(&v1[..], "epaminondas").unwrap(), games);
    }

    /// A version 2 file (a draw's winner byte is 2) reads as written, and
    /// games appended to it in its version read back too.
    #[test]
    fn version_two_files_read_and_take_games_in_their_own_version() {
        let games = sample_games();
        let mut v2 = Vec::new();
        write_header(&mut v2, "epaminondas").unwrap();
        v2[8] = 2;
        for g in &games {
            v2.extend(encode_game_in(g, 2));
        }
        assert_eq!(Reader::new(&v2[..]).unwrap().version(), 2);
        assert_eq!(read_all(&v2[..], "epaminondas").unwrap(), games);
        assert_ne!(encode_game_in(&games[1], 2), encode_game(&games[1]));
    }

    /// A game of four sides keeps every seat's samples and the winner.
    #[test]
    fn four_sided_games_keep_seats_three_and_four() {
        let pos = crate::spokes::Spokes4::start();
        let g = GameRecord {
            winner: Some(Player::nth(3)),
            samples: (0..4)
                .map(|k| Sample {
                    text: pos.text(),
                    side: Player::nth(k),
                    score: k as i16,
                })
                .collect(),
        };
        let mut f = Vec::new();
        write_header(&mut f, "spokes4").unwrap();
        f.extend(encode_game(&g));
        assert_eq!(read_all(&f[..], "spokes4").unwrap(), [g]);
        let e = read_all(&f[..], "spokes2v2").unwrap_err();
        assert!(e.why.contains("spokes4"), "{e}");
        let mut two = Vec::new();
        write_header(&mut two, "spokes2v2").unwrap();
        two.extend(encode_game(&GameRecord {
            winner: Some(Player::nth(2)),
            samples: vec![],
        }));
        let e = read_all(&two[..], "spokes2v2").unwrap_err();
        assert!(
            e.why.contains("result byte 2 is not a side (0 to 1)"),
            "{e}"
        );
    }

    #[test]
    fn a_file_cut_anywhere_in_its_last_game_resumes_after_the_one_before() {
        let games = sample_games();
        let whole = file(&games[..1]);
        let full = file(&games);
        for cut in whole.len() + 1..full.len() {
            let (n, at) = Reader::new(&full[..cut]).unwrap().resume_point().unwrap();
            assert_eq!((n, at), (1, whole.len() as u64), "cut at {cut}");
            let e = read_all(&full[..cut], "epaminondas").unwrap_err();
            assert_eq!(e.offset, whole.len() as u64);
        }
    }

    #[test]
    fn faults_name_their_offset() {
        let mut f = file(&sample_games());
        assert_eq!(read_all(&f[..], "aporia").unwrap_err().offset, 11);
        f[HEADER + 8 + 2] = 7;
        let e = read_all(&f[..], "epaminondas").unwrap_err();
        assert_eq!(e.offset, HEADER as u64);
        assert!(e.to_string().contains("checksum"), "{e}");
        f[0] = b'X';
        assert_eq!(read_all(&f[..], "epaminondas").unwrap_err().offset, 0);
    }

    /// Each field out of its range, in a body of either version (with
    /// matching checksums in version 2), is refused at its own offset.
    #[test]
    fn every_field_is_checked_against_its_range() {
        let good = encode_body(&sample_games()[0], 1);
        let text_len = good[6];
        // (byte to change, new value(s), offset of the fault in the body)
        let cases: [(usize, &[u8], usize, &str); 5] = [
            (2, &[3], 2, "result byte 3"),
            (3, &[2], 3, "side byte 2"),
            (4, &[0xff, 0x7f], 4, "score 32767"),
            (6, &[0xff, 0xff], 6, "65535 bytes"),
            (8, b"zz", 8, "is not a position"),
        ];
        for (at, bytes, fault, says) in cases {
            let mut body = good.clone();
            if says.contains("not a position") {
                body.splice(8..8 + text_len as usize, bytes.iter().copied());
                body[6] = bytes.len() as u8;
            } else {
                body[at..at + bytes.len()].copy_from_slice(bytes);
            }
            let v1 = file_v1(&[body.clone()]);
            let e = read_all(&v1[..], "epaminondas").unwrap_err();
            assert_eq!(e.offset, (HEADER + fault) as u64, "v1 {says}: {e}");
            assert!(e.why.contains(says), "v1 {says}: {e}");
            let mut v2 = file(&[]);
            v2.extend(block(&body));
            let e = read_all(&v2[..], "epaminondas").unwrap_err();
            assert_eq!(e.offset, (HEADER + 8 + fault) as u64, "v2 {says}: {e}");
            assert!(Reader::new(&v2[..]).unwrap().resume_point().is_err());
        }
    }

    /// A damaged length in a middle game is refused, never taken for a
    /// torn last game.
    #[test]
    fn a_damaged_length_is_not_a_torn_game() {
        let games = sample_games();
        let mut f = file(&games);
        f[HEADER] ^= 0x40;
        let e = Reader::new(&f[..]).unwrap().resume_point().unwrap_err();
        assert_eq!(e.offset, HEADER as u64);
        assert!(e.why.contains("length"), "{e}");
    }
}
