//! Perft suites: the text files in `positions/`, one per game.
//!
//! Each non-blank line that does not start with `#` is a position text
//! followed by its counts: `<position> ;D1 <n> ;D2 <n> ...`. Depths need
//! not start at 1 or be consecutive, but must rise along the line.

use crate::game::ParseError;

/// One line of a perft suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The line number in the file, from 1.
    pub line: usize,
    /// The position text.
    pub position: String,
    /// `(depth, count)` pairs, by rising depth.
    pub counts: Vec<(u32, u64)>,
}

/// Parses a perft suite file's text.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut fields = raw.split(';');
        let position = fields.next().unwrap_or("").trim().to_string();
        if position.is_empty() {
            return Err(ParseError::new(format!("line {line}: no position")));
        }
        let mut counts: Vec<(u32, u64)> = Vec::new();
        for f in fields {
            let f = f.trim();
            let bad = || ParseError::new(format!("line {line}: '{f}' is not 'D<depth> <count>'"));
            let rest = f.strip_prefix('D').ok_or_else(bad)?;
            let (d, n) = rest.split_once(' ').ok_or_else(bad)?;
            let d: u32 = d.parse().map_err(|_| bad())?;
            let n: u64 = n.trim().parse().map_err(|_| bad())?;
            if counts.last().is_some_and(|&(p, _)| p >= d) {
                return Err(ParseError::new(format!(
                    "line {line}: depths must rise along the line"
                )));
            }
            counts.push((d, n));
        }
        if counts.is_empty() {
            return Err(ParseError::new(format!("line {line}: no counts")));
        }
        out.push(SuiteEntry {
            line,
            position,
            counts,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_and_rejects_bad_ones() {
        let s = "# c\n\n8/8 w ;D1 5 ;D3 70\n";
        let e = parse_suite(s).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 3);
        assert_eq!(e[0].position, "8/8 w");
        assert_eq!(e[0].counts, vec![(1, 5), (3, 70)]);
        assert!(parse_suite("x ;D2 5 ;D1 3").is_err());
        assert!(parse_suite("x ;E1 5").is_err());
        assert!(parse_suite("x").is_err());
        assert!(parse_suite("x ;D1 -5").is_err());
    }
}
