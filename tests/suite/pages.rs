//! Records keep each engine's score and depth; `replay --move` prints one
//! position; `replay --html` and `tournament --html` write one
//! self-contained page holding every game as compact data, from which
//! every board is rebuilt.

use crate::common;
use crate::common::{ok, rejected, tool_here};
use gamut_core::game::NodeKind;
use gamut_players::record::GameRecord;
use gamut_tournament::records;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = common::scratch_dir("pages");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A two-game tournament of `game` between a depth-2 and a depth-1
/// searcher, `plies` long at most, (and `extra` options) written to a
/// fresh records file.
fn tournament(game: &str, name: &str, plies: &str, extra: &[&str]) -> PathBuf {
    let path = temp(name);
    let mut args = vec![
        "tournament",
        game,
        "--engine",
        "name=d2,depth=2",
        "--engine",
        "name=d1,depth=1",
        "--games",
        "2",
        "--ply-limit",
        plies,
        "--records",
        s(&path),
    ];
    args.extend(extra);
    ok(&args);
    path
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(crate::common::record_fields)
        .collect()
}

fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines
        .iter()
        .map(|v| format!("{}\n", crate::common::sealed_line(v)))
        .collect();
    std::fs::write(path, text).unwrap();
}

fn analyze_score(game: &str, fen: &str, depth: &str) -> i32 {
    let out = ok(&["analyze", game, "--fen", fen, "--depth", depth]);
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("depth {depth} ")))
        .expect("the last depth is printed");
    let words: Vec<&str> = line.split_whitespace().collect();
    words[3].parse().expect("a numeric score")
}

#[test]
fn records_keep_every_searched_decision_score_and_depth() {
    let path = tournament("epaminondas", "scores.jsonl", "40", &[]);
    for (_, rec) in records::read(&path).unwrap() {
        let steps = records::replay(&rec).unwrap();
        // Both engines search, so every step is scored, in order.
        assert_eq!(rec.scores.len(), rec.moves.len(), "game {}", rec.number);
        for (i, sc) in rec.scores.iter().enumerate() {
            assert_eq!(sc.step, i);
            let NodeKind::Decision(side) = steps[i].1.node() else {
                panic!("Epaminondas steps are decisions")
            };
            let depth = if rec.engines[side.index()] == "d2" {
                2
            } else {
                1
            };
            assert_eq!(sc.depth, Some(depth), "game {} step {i}", rec.number);
        }
        // The first score is the searcher's at a fresh table: what
        // `analyze` says of the opening at that depth, for the mover.
        let first = rec.scores[0];
        let depth = first.depth.unwrap().to_string();
        assert_eq!(
            first.score,
            analyze_score("epaminondas", &rec.opening, &depth)
        );
    }
}

#[test]
fn records_without_scores_still_replay_and_bad_scores_are_refused() {
    let path = tournament("empedocles", "empedocles.jsonl", "12", &[]);
    let original = lines(&path);
    // An old record (no scores at all) is valid.
    let mut old = original.clone();
    for v in &mut old {
        v.as_object_mut().unwrap().remove("scores");
    }
    write_lines(&path, &old);
    let text = ok(&["replay", s(&path), "--game", "1"]);
    assert!(text.contains("result "), "{text}");
    let recs = records::read(&path).unwrap();
    assert!(recs.iter().all(|(_, r)| r.scores.is_empty()));

    let first: GameRecord = serde_json::from_value(original[0].clone()).unwrap();
    let steps = records::replay(&first).unwrap();
    let roll = (0..first.moves.len())
        .find(|&i| steps[i].1.node() == NodeKind::Chance)
        .expect("Empedocles rolls the die");
    let refuse = |change: &dyn Fn(&mut Value), says: &str| {
        let mut bad = original.clone();
        change(&mut bad[0]);
        write_lines(&path, &bad);
        let err = rejected(&["replay", s(&path), "--game", "1"]);
        assert!(err.contains("line 1:") && err.contains(says), "{err}");
    };
    refuse(
        &|v| v["scores"][0]["step"] = roll.into(),
        "a score for a step no engine decided",
    );
    refuse(
        &|v| v["scores"][0]["step"] = first.moves.len().into(),
        "out of order",
    );
    refuse(
        &|v| {
            let list = v["scores"].as_array_mut().unwrap();
            list.swap(0, 1);
        },
        "out of order",
    );
    refuse(&|v| v["scores"][0]["score"] = 30_001.into(), "beyond");
}

#[test]
fn replay_move_prints_the_position_show_prints() {
    let path = tournament("epaminondas", "move.jsonl", "40", &[]);
    let (_, rec) = records::read(&path).unwrap().remove(0);
    let moves = rec.moves[..3].join(";");
    let picture = temp("move3.svg");
    let shown = ok(&[
        "show",
        "epaminondas",
        "--fen",
        &rec.opening,
        "--moves",
        &moves,
    ]);
    let replayed = ok(&[
        "replay",
        s(&path),
        "--game",
        "1",
        "--move",
        "3",
        "--svg",
        s(&picture),
    ]);
    assert_eq!(replayed, shown);
    let expected_svg = temp("show3.svg");
    ok(&[
        "show",
        "epaminondas",
        "--fen",
        &rec.opening,
        "--moves",
        &moves,
        "--svg",
        s(&expected_svg),
    ]);
    assert_eq!(
        std::fs::read_to_string(&picture).unwrap(),
        std::fs::read_to_string(&expected_svg).unwrap(),
        "the picture marks the third step as show marks the last of --moves"
    );
    let opening = ok(&["replay", s(&path), "--game", "1", "--move", "0"]);
    assert!(opening.contains(&format!("position {}", rec.opening)));
    let past = (rec.moves.len() + 1).to_string();
    let err = rejected(&["replay", s(&path), "--game", "1", "--move", &past]);
    assert!(err.contains("steps"), "{err}");
}

/// The page at `path`, with the checks that it is one whole HTML page and
/// names no outside resource.
fn page(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("<!DOCTYPE html>"), "{}", s(path));
    assert!(text.trim_end().ends_with("</html>"), "{}", s(path));
    assert_eq!(
        text.matches("<script").count(),
        text.matches("</script>").count()
    );
    for outside in ["://", "src=", "<link", "url(", "@import"] {
        assert!(!text.contains(outside), "{} names {outside}", s(path));
    }
    text
}

/// The games' data embedded in a page.
fn data(text: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"games-data\">";
    let start = text.find(open).expect("the page embeds its games") + open.len();
    let end = start + text[start..].find("</script>").unwrap();
    let json = &text[start..end];
    assert!(!json.contains('<') && !json.contains('&'), "escaped data");
    serde_json::from_str(json).expect("the data is JSON")
}

/// The numbers written in `s`, each in `w` characters (the page's
/// 64 digits, most significant first).
fn nums(s: &str, w: usize) -> Vec<usize> {
    const DIGITS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    s.as_bytes()
        .chunks(w)
        .map(|c| {
            c.iter()
                .fold(0, |n, &d| n * 64 + DIGITS.find(d as char).unwrap())
        })
        .collect()
}

/// Field `f` of `v` as text.
fn text<'a>(v: &'a Value, f: &str) -> &'a str {
    v[f].as_str().unwrap()
}

/// Every board picture of game `g` of page data `d`, rebuilt as the
/// page's script does: the opening's lines, then each step's edit (lines
/// taken away, lines added), a picture being its lines in number order.
fn pictures(d: &Value, g: &Value) -> Vec<String> {
    let widths = &d["widths"];
    let lw = widths["line"].as_u64().unwrap() as usize;
    let lines: Vec<&str> = d["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let edits: Vec<(Vec<usize>, Vec<usize>)> = d["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let (r, a) = e.as_str().unwrap().split_once('.').unwrap();
            (nums(r, lw), nums(a, lw))
        })
        .collect();
    let mut on = vec![false; lines.len()];
    let opening = g["ob"].as_u64().unwrap() as usize;
    for i in nums(d["openings"][opening].as_str().unwrap(), lw) {
        on[i] = true;
    }
    let picture = |on: &[bool]| -> String {
        let v: Vec<&str> = (0..lines.len())
            .filter(|&i| on[i])
            .map(|i| match lines[i].rfind("<!--") {
                Some(c) if lines[i].ends_with("-->") => &lines[i][..c],
                _ => lines[i],
            })
            .collect();
        v.join("\n")
    };
    let mut out = vec![picture(&on)];
    for e in nums(text(g, "b"), widths["edit"].as_u64().unwrap() as usize) {
        for &i in &edits[e].0 {
            on[i] = false;
        }
        for &i in &edits[e].1 {
            on[i] = true;
        }
        out.push(picture(&on));
    }
    out
}

/// A board picture as a page shows it: without the XML declaration and
/// the namespace attribute.
fn inline(svg: &str) -> String {
    let body = &svg[svg.find("<svg").unwrap()..];
    body.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
        .trim_end()
        .to_string()
}

/// Game `rec`'s entry in page data `d` holds its steps, its scores from
/// the first player's side and a picture of every position.
fn check_game(d: &Value, rec: &GameRecord) {
    let g = d["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["n"] == rec.number)
        .unwrap_or_else(|| panic!("game {} is in the page", rec.number));
    let steps = records::replay(rec).unwrap();
    let texts = d["moves"].as_array().unwrap();
    let moves: Vec<&str> = nums(text(g, "m"), d["widths"]["move"].as_u64().unwrap() as usize)
        .into_iter()
        .map(|i| texts[i].as_str().unwrap())
        .collect();
    assert_eq!(moves, rec.moves);
    let shown = pictures(d, g);
    assert_eq!(shown.len(), steps.len(), "one picture per position");
    for (k, (_, pos)) in steps.iter().enumerate() {
        assert_eq!(
            shown[k],
            inline(&pos.svg(&Default::default(), None)),
            "step {k}"
        );
    }
    let scores = nums(text(g, "s"), 3);
    assert_eq!(scores.len(), rec.moves.len());
    let scored: Vec<usize> = (0..scores.len())
        .filter(|&i| scores[i] != (1 << 18) - 1)
        .collect();
    assert_eq!(
        scored,
        rec.scores.iter().map(|s| s.step).collect::<Vec<_>>()
    );
    for sc in &rec.scores {
        let first = match steps[sc.step].1.node() {
            NodeKind::Decision(p) if p.index() == 1 => -sc.score,
            _ => sc.score,
        };
        assert_eq!(
            scores[sc.step] as i32 - (1 << 17),
            first,
            "scores from the first player's side"
        );
    }
}

#[test]
fn a_game_page_holds_every_position_and_its_scores_for_the_first_player() {
    let path = tournament("epaminondas", "page.jsonl", "40", &[]);
    let (_, rec) = records::read(&path).unwrap().remove(1);
    let html = temp("game.html");
    ok(&["replay", s(&path), "--game", "2", "--html", s(&html)]);
    let text = page(&html);
    let d = data(&text);
    assert_eq!(d["games"].as_array().unwrap().len(), 1);
    check_game(&d, &rec);
    // Both engines search: scores of both signs' movers, all from White's
    // side (the second mover's negated).
    assert!(rec.scores.len() >= 2);
    for id in [
        "board", "steps", "plot", "caption", "first", "prev", "next", "last",
    ] {
        assert!(text.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert!(text.contains("ArrowLeft") && text.contains("move="));
    // The plot is a chance to win (0 to 100%) over a move axis.
    assert!(text.contains("Math.pow(3, -v / D.scale)") && text.contains("'tick'"));
}

#[test]
fn a_tournament_page_holds_every_game() {
    let records = temp("t.jsonl");
    let html = temp("report.html");
    ok(&[
        "tournament",
        "apart",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "greedy",
        "--games",
        "4",
        "--random-plies",
        "2",
        "--ply-limit",
        "30",
        "--records",
        s(&records),
        "--html",
        s(&html),
    ]);
    let text = page(&html);
    let d = data(&text);
    assert_eq!(d["games"].as_array().unwrap().len(), 4);
    for (_, rec) in records::read(&records).unwrap() {
        check_game(&d, &rec);
        assert!(text.contains(&format!("href=\"#game={}\"", rec.number)));
    }
    // No page per game any more.
    for n in 1..=4 {
        assert!(!html
            .with_file_name(format!("report-game-{n}.html"))
            .exists());
    }
    // ... and the help says so.
    let help = ok(&["tournament", "--help"]);
    assert!(!help.contains("-game-"), "{help}");
    assert!(help.contains("#game=N"), "{help}");
    let plot_start = text.find("id=\"elo-plot\"").expect("the Elo plot");
    let plot = &text[plot_start..plot_start + text[plot_start..].find("</svg>").unwrap()];
    assert_eq!(plot.matches("class=\"elo\"").count(), 1);
    assert_eq!(plot.matches("class=\"interval\"").count(), 1);
    assert!(text.contains("id=\"openings\""));
    // merge writes the same page from the records.
    let merged = temp("merged.html");
    ok(&["tournament", "merge", s(&records), "--html", s(&merged)]);
    assert_eq!(page(&merged), text);
}

#[test]
fn a_spokes_page_holds_its_joint_steps_and_marks_their_nodes() {
    // Shallow engines: a depth-2 search of a Spokes round takes seconds.
    let path = temp("spokes.jsonl");
    ok(&[
        "tournament",
        "spokes",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "name=n300,nodes=300",
        "--games",
        "2",
        "--ply-limit",
        "30",
        "--records",
        s(&path),
    ]);
    let html = temp("spokes.html");
    ok(&["tournament", "merge", s(&path), "--html", s(&html)]);
    let text = page(&html);
    let d = data(&text);
    for (_, rec) in records::read(&path).unwrap() {
        check_game(&d, &rec);
        let g = d["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["n"] == rec.number)
            .unwrap();
        // A placement's nodes are named for the script to mark: `wA,bB1`
        // marks A and B1.
        let (step, joint) = rec
            .moves
            .iter()
            .enumerate()
            .find(|(_, m)| m.contains(','))
            .unwrap();
        let nodes: Vec<String> = joint
            .split(',')
            .map(|a| a.trim_start_matches(['w', 'b']).to_string())
            .collect();
        assert_eq!(
            g["q"][(step + 1).to_string()],
            serde_json::json!(nodes),
            "{joint}"
        );
    }
}

#[test]
fn a_seats_tournament_page_holds_every_game_of_four_sides_without_scores() {
    let path = temp("s4.jsonl");
    let html = temp("s4.html");
    ok(&[
        "tournament",
        "spokes4",
        "--engine",
        "name=m,mcts,iterations=2",
        "--engine",
        "name=r,random",
        "--games",
        "2",
        "--ply-limit",
        "6",
        "--seed",
        "3",
        "--records",
        s(&path),
        "--html",
        s(&html),
        "--quiet",
    ]);
    let text = page(&html);
    assert!(text.contains("id=\"standings\"") && text.contains("id=\"seats\""));
    let d = data(&text);
    let recs = records::read(&path).unwrap();
    assert_eq!(d["games"].as_array().unwrap().len(), recs.len());
    for (_, rec) in &recs {
        assert!(text.contains(&format!("href=\"#game={}\"", rec.number)));
        let g = d["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["n"] == rec.number)
            .unwrap();
        assert_eq!(g["e"], serde_json::json!(rec.engines));
        let steps = records::replay(rec).unwrap();
        let shown = pictures(&d, g);
        assert_eq!(shown.len(), steps.len(), "one picture per position");
        for (k, (_, pos)) in steps.iter().enumerate() {
            assert_eq!(
                shown[k],
                inline(&pos.svg(&Default::default(), None)),
                "step {k}"
            );
        }
        // Seat engines give no scores: every step without one.
        let scores = nums(g["s"].as_str().unwrap(), 3);
        assert_eq!(scores.len(), steps.len() - 1);
        assert!(scores.iter().all(|&v| v == (1 << 18) - 1));
    }
    // No page per game; merge and replay write the same viewer.
    assert!(!html.with_file_name("s4-game-1.html").exists());
    let merged = temp("s4-merged.html");
    ok(&["tournament", "merge", s(&path), "--html", s(&merged)]);
    assert_eq!(page(&merged), text);
    let one = temp("s4-one.html");
    ok(&["replay", s(&path), "--game", "2", "--html", s(&one)]);
    let d1 = data(&page(&one));
    assert_eq!(d1["games"].as_array().unwrap().len(), 1);
    let g = &d1["games"][0];
    assert_eq!(g["n"], 2);
    let steps = records::replay(&recs.iter().find(|(_, r)| r.number == 2).unwrap().1).unwrap();
    assert_eq!(pictures(&d1, g).len(), steps.len());
}

#[test]
fn a_program_engine_s_info_lines_give_its_scores() {
    let path = temp("external.jsonl");
    let program = format!(
        "name=ext,cmd={} engine,depth=2",
        env!("CARGO_BIN_EXE_gamut")
    );
    ok(&[
        "tournament",
        "apart",
        "--engine",
        &program,
        "--engine",
        "name=d2,depth=2",
        "--games",
        "2",
        "--ply-limit",
        "20",
        "--records",
        s(&path),
    ]);
    for (_, rec) in records::read(&path).unwrap() {
        let steps = records::replay(&rec).unwrap();
        let side = rec.side_of("ext");
        let of_program: Vec<_> = rec
            .scores
            .iter()
            .filter(|sc| {
                steps[sc.step].1.node()
                    == NodeKind::Decision(gamut_core::game::Player::from_index(side))
            })
            .collect();
        assert!(!of_program.is_empty(), "game {}", rec.number);
        // The same search in both engines: the same scores and depths.
        assert_eq!(rec.scores.len(), rec.moves.len());
        assert!(of_program.iter().all(|sc| sc.depth.is_some_and(|d| d <= 2)));
        let first = rec.scores[0];
        assert_eq!(first.score, analyze_score("apart", &rec.opening, "2"));
    }
}

/// Whether a chromium is installed for `tools/screenshot-record.sh` (see
/// [`tool_here`]).
fn chromium_here() -> bool {
    let here = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .any(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    tool_here(here, "chromium", "the screenshots")
}

/// `tools/screenshot-record.sh` renders a record's page in headless
/// chromium at the opening and the last step: two pictures, different.
#[test]
#[ignore = "long check"]
fn long_a_record_page_renders_in_headless_chromium() {
    if !chromium_here() {
        return;
    }
    let records = tournament("epaminondas", "shots.jsonl", "40", &[]);
    let out = temp("shots");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/screenshot-record.sh");
    let o = std::process::Command::new("sh")
        .args([script, s(&records), "1", s(&out)])
        .env("GAMUT", env!("CARGO_BIN_EXE_gamut"))
        .output()
        .expect("sh runs the script");
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let shots: Vec<Vec<u8>> = ["start", "end"]
        .iter()
        .map(|k| std::fs::read(out.join(format!("epaminondas-game-1-{k}.png"))).unwrap())
        .collect();
    for shot in &shots {
        assert!(shot.starts_with(b"\x89PNG\r\n\x1a\n"), "{said}");
        // A rendered page, not an empty window: boards and text.
        assert!(shot.len() > 20_000, "{} bytes: {said}", shot.len());
    }
    assert_ne!(shots[0], shots[1], "the opening and the last step differ");
}
