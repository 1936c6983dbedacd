//! Text for people: messages made fit for one line.

/// The longest message printed, in characters; longer ones are cut.
pub const MESSAGE_LIMIT: usize = 400;

/// `msg` made fit for one line (of stderr, or a protocol's error line):
/// control characters (such as the newlines of echoed input) written as
/// escapes (`\n`, `\u{1b}`), and cut to [`MESSAGE_LIMIT`] characters with
/// `...` at the end.
#[must_use]
pub fn one_line(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(MESSAGE_LIMIT + 3));
    for (n, c) in msg.chars().enumerate() {
        if n == MESSAGE_LIMIT {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Bytes read from a person (a line that may not be UTF-8) as one line of
/// text: [`one_line`] of their text, each byte that is not part of UTF-8
/// text written as `\xNN`.
#[must_use]
pub fn one_line_bytes(bytes: &[u8]) -> String {
    let mut text = String::new();
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for b in chunk.invalid() {
            text.push_str(&format!("\\x{b:02x}"));
        }
    }
    one_line(&text)
}

#[cfg(test)]
mod tests {
    use super::{one_line, one_line_bytes, MESSAGE_LIMIT};

    #[test]
    fn messages_are_one_escaped_line_of_bounded_length() {
        assert_eq!(one_line("bad 'a\nb'\t!"), "bad 'a\\nb'\\t!");
        let long = "x".repeat(1000);
        let cut = one_line(&long);
        assert!(cut.ends_with("...") && cut.chars().count() == MESSAGE_LIMIT + 3);
        assert_eq!(one_line("Empedocles’ élan"), "Empedocles’ élan");
        assert_eq!(one_line_bytes(b"b2\xe9\x1b[2J\n"), "b2\\xe9\\u{1b}[2J\\n");
        assert_eq!(one_line_bytes("élan".as_bytes()), "élan");
    }
}
