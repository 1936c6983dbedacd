//! `tournament --pgn` and `replay --pgn`, read back by a PGN reader of the
//! test's own: a tokeniser of PGN's export format (tag pairs with string
//! escapes, move number indications, symbols, comments, result) that
//! knows nothing of gamut's writer, and the decoding of move symbols as
//! `docs/tournament.md` describes it. Every game is compared with its
//! record: tags, opening, clocks and every step.

use crate::common;
use crate::common::{ok, rejected};
use gamut_players::record::GameRecord;
use gamut_tournament::records;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    common::scratch_dir("pgn").join(name)
}

/// The records file `name` of a two-game four-player Spokes tournament
/// (which has no PGN).
fn four_player_records(name: &str) -> PathBuf {
    let seats = temp(name);
    ok(&[
        "tournament",
        "spokes4",
        "--engine",
        "random",
        "--engine",
        "name=r2,random",
        "--games",
        "2",
        "--records",
        seats.to_str().unwrap(),
    ]);
    seats
}

/// One token of PGN's import grammar.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    String(String),
    Integer(u64),
    Period,
    Symbol(String),
    Comment(String),
    Open,
    Close,
    Result(String),
}

/// Whether `c` may continue a symbol (PGN standard 7: letters, digits and
/// `_+#=:-`).
fn symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_+#=:-".contains(c)
}

/// Splits PGN text into tokens; panics on any character the export
/// format does not allow where it stands.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\n' | '\t' | '\r' => i += 1,
            '[' => {
                out.push(Token::Open);
                i += 1;
            }
            ']' => {
                out.push(Token::Close);
                i += 1;
            }
            '.' => {
                out.push(Token::Period);
                i += 1;
            }
            '"' => {
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        Some('\\') => {
                            let e = chars[i + 1];
                            assert!(e == '\\' || e == '"', "bad escape \\{e}");
                            s.push(e);
                            i += 2;
                        }
                        Some('"') => {
                            i += 1;
                            break;
                        }
                        Some('\n') | None => panic!("unterminated string {s}"),
                        Some(&c) => {
                            s.push(c);
                            i += 1;
                        }
                    }
                }
                out.push(Token::String(s));
            }
            '{' => {
                let end = (i..chars.len())
                    .find(|&j| chars[j] == '}')
                    .expect("a comment ends");
                out.push(Token::Comment(chars[i + 1..end].iter().collect()));
                i = end + 1;
            }
            '*' => {
                out.push(Token::Result("*".into()));
                i += 1;
            }
            c if c.is_ascii_alphanumeric() => {
                let rest: String = chars[i..chars.len().min(i + 8)].iter().collect();
                let result = ["1/2-1/2", "1-0", "0-1"].into_iter().find(|r| {
                    rest.starts_with(r) && chars.get(i + r.len()).is_none_or(|c| c.is_whitespace())
                });
                if let Some(r) = result {
                    out.push(Token::Result(r.into()));
                    i += r.len();
                    continue;
                }
                let end = (i..chars.len())
                    .find(|&j| !symbol_char(chars[j]))
                    .unwrap_or(chars.len());
                let s: String = chars[i..end].iter().collect();
                out.push(match s.parse::<u64>() {
                    Ok(n) => Token::Integer(n),
                    Err(_) => Token::Symbol(s),
                });
                i = end;
            }
            c => panic!("'{c}' is not PGN here: {}", &text[..40.min(text.len())]),
        }
    }
    out
}

/// A game read back: its tag pairs in order, its move symbols, the move
/// number indications, and its result token.
#[derive(Debug, Default)]
struct PgnGame {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    numbers: Vec<(u64, usize)>,
    /// The comments of the movetext, in order.
    comments: Vec<String>,
    result: String,
}

impl PgnGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads every game of a PGN file: tag section, movetext, result.
fn games(text: &str) -> Vec<PgnGame> {
    let mut out = Vec::new();
    let mut t = tokens(text).into_iter().peekable();
    while t.peek().is_some() {
        let mut g = PgnGame::default();
        while t.peek() == Some(&Token::Open) {
            t.next();
            let (Some(Token::Symbol(name)), Some(Token::String(value)), Some(Token::Close)) =
                (t.next(), t.next(), t.next())
            else {
                panic!("a tag pair is [Name \"value\"]");
            };
            g.tags.push((name, value));
        }
        loop {
            match t.next().expect("movetext ends in a result") {
                Token::Integer(n) => {
                    let mut periods = 0;
                    while t.peek() == Some(&Token::Period) {
                        t.next();
                        periods += 1;
                    }
                    assert!(
                        periods == 1 || periods == 3,
                        "move {n} with {periods} periods"
                    );
                    g.numbers.push((n, periods));
                }
                Token::Symbol(s) => g.moves.push(s),
                Token::Comment(c) => g.comments.push(c),
                Token::Result(r) => {
                    g.result = r;
                    break;
                }
                other => panic!("{other:?} in movetext"),
            }
        }
        out.push(g);
    }
    out
}

/// The move text a symbol stands for (docs/tournament.md): every `_`
/// ends an escape whose letter is the character before it.
fn decode(symbol: &str) -> String {
    let escapes: HashMap<char, char> = [
        ('a', '@'),
        ('c', ','),
        ('d', '.'),
        ('h', '#'),
        ('k', ';'),
        ('m', '-'),
        ('p', '+'),
        ('s', '/'),
        ('u', '_'),
        ('w', ' '),
    ]
    .into_iter()
    .collect();
    let c: Vec<char> = symbol.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if c.get(i + 1) != Some(&'_') {
            out.push(c[i]);
            i += 1;
        } else if c[i] == 'x' {
            let hex: String = c[i + 2..].iter().take_while(|&&h| h != 'x').collect();
            out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            i += 2 + hex.len() + 2;
        } else {
            out.push(escapes[&c[i]]);
            i += 2;
        }
    }
    out
}

/// Checks a PGN file against the records file game for game.
fn check_against_records(pgn: &Path, records_file: &Path, dated: bool) {
    let text = std::fs::read_to_string(pgn).unwrap();
    let read = games(&text);
    let recs: Vec<GameRecord> = records::read(records_file)
        .unwrap()
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert_eq!(read.len(), recs.len(), "{}", pgn.display());
    for (g, rec) in read.iter().zip(&recs) {
        let names: Vec<&str> = g.tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "the Seven Tag Roster comes first"
        );
        assert_eq!(g.tag("Round"), Some(rec.number.to_string().as_str()));
        assert_eq!(g.tag("White"), Some(rec.engines[0].as_str()));
        assert_eq!(g.tag("Black"), Some(rec.engines[1].as_str()));
        assert_eq!(g.tag("Result"), rec.result.as_deref());
        assert_eq!(Some(&g.result), rec.result.as_ref());
        assert_eq!(g.tag("Variant"), Some(rec.game.as_str()));
        assert_eq!(g.tag("PlyCount"), Some(rec.plies.to_string().as_str()));
        let date = g.tag("Date").unwrap();
        assert_eq!(date == "????.??.??", !dated, "{date}");
        assert_eq!(date.len(), 10);
        assert_eq!(g.tag("FEN"), Some(rec.opening.as_str()), "random openings");
        assert_eq!(g.tag("SetUp"), Some("1"));
        let decoded: Vec<String> = g.moves.iter().map(|m| decode(m)).collect();
        assert_eq!(decoded, rec.moves, "game {}", rec.number);
        // Each scored move's comment ends in its time, as the record has it.
        let timed: Vec<String> = g
            .comments
            .iter()
            .filter_map(|c| c.rsplit_once(' ').map(|(_, t)| t))
            .filter(|t| t.ends_with('s') && t[..t.len() - 1].parse::<f64>().is_ok())
            .map(str::to_string)
            .collect();
        let recorded: Vec<String> = rec
            .scores
            .iter()
            .filter_map(|s| s.time_ms)
            .map(|ms| format!("{}.{:03}s", ms / 1000, ms % 1000))
            .collect();
        assert!(
            !recorded.is_empty(),
            "game {}: moves were timed",
            rec.number
        );
        assert_eq!(timed, recorded, "game {}", rec.number);
        assert!(g.numbers.first().is_some_and(|&(n, _)| n == 1));
        assert!(g.numbers.windows(2).all(|w| w[1].0 >= w[0].0));
    }
}

#[test]
fn tournament_pgn_reads_back_game_for_game_with_every_step() {
    // Decisions (Aporia), dice (Empedocles), joint placements and
    // resolutions (Spokes), and a clock on one side (Epaminondas).
    for (game, first) in [
        ("aporia", "name=d1,depth=1"),
        ("empedocles", "name=d1,depth=1"),
        ("spokes", "name=d1,depth=1"),
        ("epaminondas", "name=clocked,depth=1,tc=30+1"),
    ] {
        let recs = temp(&format!("{game}.jsonl"));
        let pgn = temp(&format!("{game}.pgn"));
        ok(&[
            "tournament",
            game,
            "--engine",
            first,
            "--engine",
            "greedy",
            "--games",
            "4",
            "--random-plies",
            "2",
            "--ply-limit",
            "30",
            "--seed",
            "5",
            "--records",
            recs.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        check_against_records(&pgn, &recs, true);
        let text = std::fs::read_to_string(&pgn).unwrap();
        let read = games(&text);
        assert!(
            read.iter().any(|g| g.moves.len() > 4),
            "{game}: games were played"
        );
        if game == "epaminondas" {
            for g in &read {
                let clocked = if g.tag("White") == Some("clocked") {
                    "WhiteTimeControl"
                } else {
                    "BlackTimeControl"
                };
                assert_eq!(g.tag(clocked), Some("30+1"));
            }
        }
        if game == "empedocles" {
            assert!(text.contains(" a_"), "placements are escaped: {text}");
        }
        // The records file converted afterwards gives the same games.
        let again = temp(&format!("{game}-replay.pgn"));
        ok(&[
            "replay",
            recs.to_str().unwrap(),
            "--pgn",
            again.to_str().unwrap(),
        ]);
        check_against_records(&again, &recs, false);
    }
}

#[test]
fn pgn_may_not_be_the_records_file_nor_a_game_of_four() {
    let recs = temp("same.jsonl");
    let err = rejected(&[
        "tournament",
        "aporia",
        "--engine",
        "depth=1",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--records",
        recs.to_str().unwrap(),
        "--pgn",
        recs.to_str().unwrap(),
    ]);
    assert!(err.contains("--pgn"), "{err}");
    assert!(!recs.exists(), "nothing was written");
    let four = temp("four.pgn");
    let err = rejected(&[
        "tournament",
        "spokes4",
        "--engine",
        "random",
        "--engine",
        "name=r2,random",
        "--games",
        "2",
        "--pgn",
        four.to_str().unwrap(),
    ]);
    assert!(err.contains("two players"), "{err}");
    assert!(!four.exists());
    // replay: the records file itself, and records of four seats.
    let two = temp("two.jsonl");
    ok(&[
        "tournament",
        "aporia",
        "--engine",
        "depth=1",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--ply-limit",
        "10",
        "--records",
        two.to_str().unwrap(),
    ]);
    let before = std::fs::read(&two).unwrap();
    rejected(&[
        "replay",
        two.to_str().unwrap(),
        "--pgn",
        two.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&two).unwrap(), before);
    let seats = four_player_records("seats.jsonl");
    let err = rejected(&[
        "replay",
        seats.to_str().unwrap(),
        "--pgn",
        four.to_str().unwrap(),
    ]);
    assert!(err.contains("two players"), "{err}");
}

#[test]
fn the_test_reader_refuses_what_pgn_does_not_allow() {
    // The reader is strict: a move text as gamut writes it, unescaped,
    // is not a PGN token.
    for bad in ["1. @f7 *", "1. bD7,wD15 *", "1. 1/4/8 *", "[A \"x\\y\"]"] {
        let caught = std::panic::catch_unwind(|| tokens(bad));
        assert!(caught.is_err(), "{bad} was read");
    }
    assert_eq!(decode("a_f7"), "@f7");
    assert_eq!(decode("bD7c_wD15"), "bD7,wD15");
    assert_eq!(decode("1s_16w_loop"), "1/16 loop");
    assert_eq!(decode("x_e9x_"), "é");
}

#[test]
fn merge_writes_the_games_of_every_file_as_replay_does_and_refuses_four_sides() {
    // Two shards of one tournament, merged: every game in number order.
    let mut shards = Vec::new();
    for k in 1..=2 {
        let recs = temp(&format!("merge-shard-{k}.jsonl"));
        ok(&[
            "tournament",
            "aporia",
            "--engine",
            "name=d1,depth=1",
            "--engine",
            "name=d2,depth=2",
            "--games",
            "4",
            "--ply-limit",
            "20",
            "--random-plies",
            "2",
            "--seed",
            "3",
            "--shard",
            &format!("{k}/2"),
            "--records",
            recs.to_str().unwrap(),
        ]);
        shards.push(recs);
    }
    let merged = temp("merged.pgn");
    ok(&[
        "tournament",
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--pgn",
        merged.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&merged).unwrap();
    let read = games(&text);
    let rounds: Vec<&str> = read.iter().map(|g| g.tag("Round").unwrap()).collect();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    // Each shard's games read as `replay --pgn` writes them.
    let mut replayed = String::new();
    for (k, shard) in shards.iter().enumerate() {
        let one = temp(&format!("merge-replay-{k}.pgn"));
        ok(&[
            "replay",
            shard.to_str().unwrap(),
            "--pgn",
            one.to_str().unwrap(),
        ]);
        check_against_records(&one, shard, false);
        replayed.push_str(&std::fs::read_to_string(&one).unwrap());
    }
    let mut from_replay = games(&replayed);
    from_replay.sort_by_key(|g| g.tag("Round").unwrap().parse::<u64>().unwrap());
    assert_eq!(format!("{from_replay:?}"), format!("{read:?}"));
    // The records are inputs: --pgn may not name one.
    let before = std::fs::read(&shards[0]).unwrap();
    let err = rejected(&[
        "tournament",
        "merge",
        shards[0].to_str().unwrap(),
        "--pgn",
        shards[0].to_str().unwrap(),
    ]);
    assert!(err.contains("--pgn"), "{err}");
    assert_eq!(std::fs::read(&shards[0]).unwrap(), before);
    // Games of four sides have no PGN.
    let seats = four_player_records("merge-seats.jsonl");
    let four = temp("merge-four.pgn");
    let err = rejected(&[
        "tournament",
        "merge",
        seats.to_str().unwrap(),
        "--pgn",
        four.to_str().unwrap(),
    ]);
    assert!(err.contains("two players"), "{err}");
    assert!(!four.exists());
}
