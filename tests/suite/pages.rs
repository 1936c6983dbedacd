//! Records keep each engine's score and depth; `replay --move` prints one
//! position; `replay --html` and `tournament --html` write self-contained
//! pages with one board per position and links to every game.

use crate::common;
use crate::common::{ok, rejected, tool_here};
use gamut::game::{Game, NodeKind};
use gamut::games::empedocles::Empedocles;
use gamut::games::epaminondas::Epaminondas;
use gamut::tournament::records::{self, GameRecord};
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
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|v| format!("{v}\n")).collect();
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
        let steps = records::replay::<Epaminondas>(&rec).unwrap();
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
    let steps = records::replay::<Empedocles>(&first).unwrap();
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

/// The page at `path`, parsed as XML (pages are well-formed), with the
/// check that it names no outside resource.
fn page(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    parse(&text);
    for outside in ["http", "src=", "<link", "url(", "@import"] {
        assert!(!text.contains(outside), "{} names {outside}", s(path));
    }
    text
}

/// The page as an XML document (its `<!DOCTYPE html>` allowed).
fn parse(text: &str) -> roxmltree::Document<'_> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, opts).expect("the page is well-formed")
}

fn elements<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

#[test]
fn a_game_page_has_one_board_per_position_and_its_scores() {
    let path = tournament("epaminondas", "page.jsonl", "40", &[]);
    let (_, rec) = records::read(&path).unwrap().remove(1);
    let html = temp("game.html");
    ok(&["replay", s(&path), "--game", "2", "--html", s(&html)]);
    let text = page(&html);
    let doc = parse(&text);
    let steps = records::replay::<Epaminondas>(&rec).unwrap();
    let boards = elements(&doc, "board");
    assert_eq!(boards.len(), steps.len(), "one board per position");
    for (k, (board, (_, pos))) in boards.iter().zip(&steps).enumerate() {
        assert_eq!(
            board.attribute("id"),
            Some(format!("position-{k}").as_str())
        );
        assert_eq!(
            board.has_attribute("hidden"),
            k > 0,
            "only the opening shows at first"
        );
        let svg = board
            .children()
            .find(|n| n.has_tag_name("svg"))
            .expect("each board is an inline picture");
        // Each board is the game's own picture of that position.
        let stones = svg
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("stone")))
            .count();
        let own = pos.svg(&Default::default(), None);
        assert_eq!(stones, own.matches("class=\"stone ").count());
        let marked = svg
            .descendants()
            .any(|n| n.attribute("class") == Some("last-move"));
        assert_eq!(marked, k > 0, "the last step is marked from step 1 on");
    }
    let items: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("a") && n.attribute("data-move").is_some())
        .collect();
    assert_eq!(items.len(), rec.moves.len(), "one link per step");
    for (k, a) in items.iter().enumerate() {
        assert_eq!(
            a.attribute("href"),
            Some(format!("#move={}", k + 1).as_str())
        );
        assert_eq!(a.text(), Some(rec.moves[k].as_str()));
    }
    let points = elements(&doc, "point");
    assert_eq!(
        points.len(),
        rec.scores.len(),
        "one plotted point per score"
    );
    assert!(text.contains("ArrowLeft") && text.contains("move="));
}

#[test]
fn a_tournament_page_links_every_game_page() {
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
    let doc = parse(&text);
    let links: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("a"))
        .filter_map(|n| n.attribute("href"))
        .collect();
    for n in 1..=4 {
        let name = format!("report-game-{n}.html");
        assert!(links.contains(&name.as_str()), "{name} is linked");
        let game = page(&html.with_file_name(&name));
        assert!(game.contains(&format!("game {n}")));
    }
    let plot = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("elo-plot"))
        .expect("the Elo plot");
    assert_eq!(
        plot.descendants()
            .filter(|n| n.attribute("class") == Some("elo"))
            .count(),
        1
    );
    assert_eq!(
        plot.descendants()
            .filter(|n| n.attribute("class") == Some("interval"))
            .count(),
        1
    );
    assert!(doc
        .descendants()
        .any(|n| n.attribute("id") == Some("openings")));
    // merge writes the same report page from the records.
    let merged = temp("merged.html");
    ok(&["tournament", "merge", s(&records), "--html", s(&merged)]);
    assert_eq!(page(&merged).replace("merged-game", "report-game"), text);
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
        let steps = records::replay::<gamut::games::apart::Apart>(&rec).unwrap();
        let side = rec.side_of("ext");
        let of_program: Vec<_> = rec
            .scores
            .iter()
            .filter(|sc| {
                steps[sc.step].1.node() == NodeKind::Decision(gamut::game::Player::from_index(side))
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
