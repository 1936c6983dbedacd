//! Games of two sides in PGN's export format (`tournament --pgn`,
//! `replay --pgn`): the Seven Tag Roster, then the tags gamut has
//! (`Variant`, `FEN`/`SetUp`, `TimeControl`, `Termination`, `PlyCount`),
//! and the movetext: move numbers, every step of the record as one symbol
//! token ([`symbol`]), the engines' scores as comments, the ending's
//! reason as a comment and the result. See `docs/tournament.md`.

use crate::records;
use gamut_core::game::{NodeKind, ParseError, Player};
use gamut_games::GameId;
use gamut_players::record::{Adjudication, GameRecord, StepScore};
use gamut_players::spec::SpecText;
use gamut_search::score::Score;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The characters a PGN symbol token may hold after its first (which must
/// be a letter or a digit).
fn continues_symbol(c: char) -> bool {
    c.is_ascii_alphanumeric() || "+#=:-".contains(c)
}

/// The escape letter of a character a symbol cannot hold, for the
/// characters gamut's move texts use.
const ESCAPES: &[(char, char)] = &[
    ('@', 'a'),
    (',', 'c'),
    ('.', 'd'),
    ('#', 'h'),
    (';', 'k'),
    ('-', 'm'),
    ('+', 'p'),
    ('/', 's'),
    ('_', 'u'),
    (' ', 'w'),
];

/// A step's canonical move text as one PGN symbol token. A text that is
/// already a symbol (a letter or digit, then letters, digits and `+#=:-`)
/// stays as it is: `c3-a3`, `b2-b4xd6`, `pass`. In any other text each
/// character a symbol cannot hold there (anywhere: `@ , / space _` and
/// others; first: anything but a letter or digit) is written as its
/// escape letter followed by `_`: `@` `a_`, `,` `c_`, `.` `d_`, `#` `h_`,
/// `;` `k_`, `-` `m_`, `+` `p_`, `/` `s_`, `_` `u_`, space `w_`; any
/// other character as `x_`, its code point in lowercase hexadecimal and
/// `x_` again. So `@f7` is `a_f7`, `bD7,wD15` is `bD7c_wD15` and
/// `1/4/8/1X1/16 loop` is `1s_4s_8s_1X1s_16w_loop`. Since an unescaped
/// character is never `_`, every `_` ends an escape whose letter is the
/// character before it, and [`from_symbol`] reads the text back. (The
/// empty text, never a move's, has no symbol.)
pub fn symbol(text: &str) -> String {
    let plain =
        text.starts_with(|c: char| c.is_ascii_alphanumeric()) && text.chars().all(continues_symbol);
    if plain {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.chars().enumerate() {
        let kept = if i == 0 {
            c.is_ascii_alphanumeric()
        } else {
            continues_symbol(c)
        };
        if kept {
            out.push(c);
        } else if let Some(&(_, e)) = ESCAPES.iter().find(|(x, _)| *x == c) {
            out.push(e);
            out.push('_');
        } else {
            out.push_str(&format!("x_{:x}x_", u32::from(c)));
        }
    }
    out
}

/// The move text a symbol token of [`symbol`] stands for, or `None` if it
/// is not one.
pub fn from_symbol(token: &str) -> Option<String> {
    let chars: Vec<char> = token.chars().collect();
    if !chars.first().is_some_and(char::is_ascii_alphanumeric)
        || !chars.iter().all(|&c| continues_symbol(c) || c == '_')
    {
        return None;
    }
    let mut out = String::with_capacity(token.len());
    let mut i = 0;
    while i < chars.len() {
        if chars.get(i + 1) != Some(&'_') {
            out.push(chars[i]);
            i += 1;
        } else if chars[i] == 'x' {
            let end = (i + 2..chars.len().saturating_sub(1))
                .find(|&j| chars[j] == 'x' && chars[j + 1] == '_')?;
            let hex: String = chars[i + 2..end].iter().collect();
            out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            i = end + 2;
        } else {
            let &(c, _) = ESCAPES.iter().find(|(_, e)| *e == chars[i])?;
            out.push(c);
            i += 2;
        }
    }
    Some(out)
}

/// A tag value with `\` and `"` escaped, as PGN writes them; control
/// characters (never in gamut's own texts) become spaces.
fn tag_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A comment's text: PGN comments end at the first `}`, so none is kept.
fn comment(text: &str) -> String {
    format!(
        "{{{}}}",
        text.replace('}', ")")
            .replace(|c: char| c.is_control(), " ")
    )
}

/// The `Termination` tag of a record: `normal` (the rules ended it),
/// `adjudication` (ply limit, resign or draw scores), `time forfeit`,
/// `rules infraction` (an illegal move), `abandoned` (a program that
/// crashed, hung or closed its output) or `unterminated` (saved before
/// its end).
fn termination(rec: &GameRecord) -> &'static str {
    if !rec.adjudicated {
        return "normal";
    }
    match Adjudication::from_reason(&rec.reason) {
        Some(Adjudication::Unfinished) => "unterminated",
        Some(Adjudication::Forfeit) if rec.reason.starts_with("forfeit: time") => "time forfeit",
        Some(Adjudication::Forfeit) if rec.reason.starts_with("forfeit: illegal move") => {
            "rules infraction"
        }
        Some(Adjudication::Forfeit) => "abandoned",
        _ => "adjudication",
    }
}

/// The game clock a spec text gives (`tc=` as written), if any.
fn time_control(spec: &str) -> Option<String> {
    let spec = SpecText::parse(spec).ok()?;
    spec.value("tc").ok().flatten().map(str::to_string)
}

/// A score comment's text, as cutechess writes it: `+35/4 0.123s` (the
/// score for the side that moved, in the unit `analyze` prints, then the
/// depth and the move's time in seconds where known), or `win 5/12`,
/// `loss 4/12` for a proven result in that many plies.
fn score_text(s: &StepScore) -> String {
    let mut text = match Score(s.score).plies_to_end() {
        Some(n) if s.score > 0 => format!("win {n}"),
        Some(n) => format!("loss {}", n.abs()),
        None => format!("{:+}", s.score),
    };
    if let Some(d) = s.depth {
        text.push_str(&format!("/{d}"));
    }
    if let Some(ms) = s.time_ms {
        text.push_str(&format!(" {}.{:03}s", ms / 1000, ms % 1000));
    }
    text
}

/// Joins tokens into lines of at most 79 characters (a longer token has a
/// line of its own), as the export format asks.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = 0;
    for t in tokens {
        if line > 0 && line + 1 + t.len() > 79 {
            out.push('\n');
            line = 0;
        }
        if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(t);
        line += t.len();
    }
    out.push('\n');
    out
}

/// Why PGN is refused for games of more than two sides.
pub const TWO_PLAYERS: &str = "PGN records games of two players (White and Black)";

/// The error of `--pgn` asked for game `game` of more than two sides.
#[must_use]
pub fn refused(game: &str) -> ParseError {
    ParseError::new(format!("--pgn does not apply to {game}: {TWO_PLAYERS}"))
}

/// The games of `records` in PGN, one after the other and undated, as
/// `replay --pgn` and `tournament merge --pgn` write them.
pub fn undated<'a>(
    records: impl IntoIterator<Item = &'a GameRecord>,
) -> Result<String, ParseError> {
    let mut text = String::new();
    for rec in records {
        text.push_str(&game(rec, "????.??.??")?);
    }
    Ok(text)
}

/// One game of two sides in PGN's export format, from its record (checked
/// by replaying it): the tag pairs, a blank line, the movetext, a blank
/// line. `date` is the `Date` tag (`YYYY.MM.DD`, `????.??.??` if unknown).
///
/// Move numbers, as in chess, start a move with the first player's
/// decision: `N.` (N counting from 1) before each decision of the first
/// player and each simultaneous step (both players at once), except a
/// decision right after a simultaneous step (Spokes' resolution of the
/// round just placed), which belongs to its move; `N...` (N the current
/// move's) before a decision of the second player unless it comes right
/// after the first player's decision or a simultaneous step. A comment in
/// between breaks "right after", as PGN's export format has it. Chance
/// steps (Empedocles' die) belong to the move they are in and get no
/// number.
pub fn game(rec: &GameRecord, date: &str) -> Result<String, ParseError> {
    let id: GameId = rec.game.parse().map_err(ParseError::new)?;
    let object = gamut_engine::game(id);
    if object.players() != 2 {
        return Err(refused(id.name()));
    }
    let steps = records::replay(rec)?;
    let result = rec.shown_result(object.info().sides);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", "gamut tournament".to_string()),
        ("Site", "?".to_string()),
        ("Date", date.to_string()),
        ("Round", rec.number.to_string()),
        ("White", rec.engines[0].clone()),
        ("Black", rec.engines[1].clone()),
        ("Result", result.clone()),
    ];
    let mut more: Vec<(&str, String)> = vec![
        ("PlyCount", rec.plies.to_string()),
        ("Termination", termination(rec).to_string()),
        ("Variant", rec.game.clone()),
    ];
    if rec.opening != object.start().text() {
        more.push(("FEN", rec.opening.clone()));
        more.push(("SetUp", "1".to_string()));
    }
    let clocks = [&rec.specs[0], &rec.specs[1]].map(|s| time_control(s));
    match &clocks {
        [None, None] => {}
        [a, b] if a == b => more.push(("TimeControl", a.clone().unwrap_or_default())),
        [a, b] => {
            let or_none = |c: &Option<String>| c.clone().unwrap_or_else(|| "-".to_string());
            more.push(("WhiteTimeControl", or_none(a)));
            more.push(("BlackTimeControl", or_none(b)));
        }
    }
    more.sort_by_key(|(name, _)| *name);
    tags.extend(more);
    let mut out = String::new();
    for (name, value) in &tags {
        out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    }
    out.push('\n');
    let mut tokens = Vec::with_capacity(steps.len() * 2 + 4);
    let mut number = 0u64;
    // The kind of the token just written, if it was a step (not a comment).
    let mut last: Option<NodeKind> = None;
    let mut scores = rec.scores.iter().peekable();
    for (i, (text, _)) in steps.iter().enumerate().skip(1) {
        let text = text.as_deref().unwrap_or_default();
        let step = i - 1;
        let kind = steps[step].1.node();
        let continues = match kind {
            NodeKind::Decision(p) if p == Player::FIRST => last == Some(NodeKind::Simultaneous),
            NodeKind::Decision(_) => matches!(
                last,
                Some(NodeKind::Simultaneous | NodeKind::Decision(Player::FIRST))
            ),
            NodeKind::Simultaneous => false,
            NodeKind::Chance | NodeKind::Terminal => true,
        };
        if !continues {
            match kind {
                NodeKind::Decision(p) if p != Player::FIRST => {
                    number = number.max(1);
                    tokens.push(format!("{number}..."));
                }
                _ => {
                    number += 1;
                    tokens.push(format!("{number}."));
                }
            }
        }
        tokens.push(symbol(text));
        last = Some(kind);
        if let Some(s) = scores.next_if(|s| s.step == step) {
            tokens.push(comment(&score_text(s)));
            last = None;
        }
    }
    tokens.push(comment(&rec.reason));
    tokens.push(result);
    out.push_str(&wrap(&tokens));
    out.push('\n');
    Ok(out)
}

/// Today's date in UTC as PGN's `Date` tag writes it (`2026.11.25`).
#[must_use]
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil(secs / 86_400);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of day `days` after 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// A PGN file written game by game: each game appended and flushed as it
/// is written, as the records file is.
#[derive(Debug)]
pub struct PgnFile {
    file: File,
    path: PathBuf,
    date: String,
}

impl PgnFile {
    /// Creates the file (replacing any file of that name), its games dated
    /// `date`.
    pub fn create(path: &Path, date: &str) -> Result<PgnFile, ParseError> {
        let file = File::create(path).map_err(|e| cannot_write(path, e))?;
        Ok(PgnFile {
            file,
            path: path.to_path_buf(),
            date: date.to_string(),
        })
    }

    /// Appends game `rec` and flushes it.
    pub fn append(&mut self, rec: &GameRecord) -> Result<(), ParseError> {
        let text = game(rec, &self.date)?;
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| cannot_write(&self.path, e))
    }
}

fn cannot_write(path: &Path, e: std::io::Error) -> ParseError {
    ParseError::new(format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_hold_only_symbol_characters_and_read_back() {
        let texts = [
            "c3-a3",
            "b2-b4xd6",
            "pass",
            "@f7",
            "bD7,wD15",
            "1/4/8/1b2w1b5w1X1/16 loop",
            "-x_",
            "a_b",
            "x",
            "x_",
            "é;#+.",
            ":=",
        ];
        for t in texts {
            let s = symbol(t);
            assert_eq!(from_symbol(&s).as_deref(), Some(t), "{t} -> {s}");
            assert!(s.starts_with(|c: char| c.is_ascii_alphanumeric()), "{s}");
            assert!(s.chars().all(|c| continues_symbol(c) || c == '_'), "{s}");
        }
        assert_eq!(symbol("@f7"), "a_f7");
        assert_eq!(symbol("bD7,wD15"), "bD7c_wD15");
        assert_eq!(symbol("1/16 loop"), "1s_16w_loop");
        assert_eq!(from_symbol("q_"), None);
        assert_eq!(from_symbol("_a"), None);
    }

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(20_417), (2025, 11, 25));
        assert_eq!(civil(11_016), (2000, 2, 29));
    }

    #[test]
    fn tag_values_escape_quotes_and_backslashes() {
        assert_eq!(tag_value(r#"a"b\c"#), r#"a\"b\\c"#);
        assert_eq!(comment("a}b"), "{a)b}");
    }
}
