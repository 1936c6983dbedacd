//! Cross-checks a perft suite against a naive generator: a test helper with
//! its own small reader for `positions/<game>.perft`, sharing nothing with
//! the crate.

/// Recounts with `perft` every count of `positions/<game>.perft` whose depth
/// is at most `max_depth` and whose count is at most `max_count`, and fails
/// listing every disagreement (with the naive `divide`). Fails too if the
/// file is missing or holds nothing to check.
pub fn cross_check(
    game: &str,
    max_depth: u32,
    max_count: u64,
    perft: impl Fn(&str, u32) -> u64,
    divide: impl Fn(&str, u32) -> Vec<(String, u64)>,
) {
    let path = format!("{}/positions/{game}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{path}: {e} (the suite comes with the {game} move generator; this check needs it)")
    });
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut fields = raw.split(';');
        let pos = fields.next().unwrap().trim();
        for f in fields {
            let (d, n) = f.trim()[1..].split_once(' ').unwrap();
            let (depth, expected): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
            if depth > max_depth || expected > max_count {
                continue;
            }
            let got = perft(pos, depth);
            checked += 1;
            if got != expected {
                wrong.push(format!(
                    "line {} depth {depth}: suite {expected}, naive {got}; naive divide: {:?}",
                    i + 1,
                    divide(pos, depth)
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{path}:\n{}", wrong.join("\n"));
    assert!(checked > 0, "{path} has no count to check");
}
