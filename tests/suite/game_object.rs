//! The game object (`gamut_engine`): every game's search defaults, its
//! listings and its sides' analyses, reached by id alone.

use gamut_core::game::Player;
use gamut_engine::game;
use gamut_engine::sides::{SidesPlan, SidesText};
use gamut_games::GameId;
use gamut_search::sides_analysis::Schedule;
use gamut_search::{Eval, Limits, Table, Verdict};

#[test]
fn every_game_s_search_defaults_are_settings_of_the_searcher() {
    for &id in GameId::ALL {
        // A setting the searcher does not know panics here.
        let selective = game(id).default_config(1).selective;
        let every_feature = matches!(id, GameId::Epaminondas | GameId::Apart);
        assert_eq!(selective.lmr, every_feature, "{id:?}");
        assert_eq!(selective.nmp, every_feature, "{id:?}");
        assert_eq!(selective.partial, id == GameId::Spokes, "{id:?}");
    }
}

/// A listing finds each of its moves by its text, plays it as the
/// position plays its text, and shows it with the short text it
/// gives alone.
#[test]
fn a_listing_finds_plays_and_shows_its_moves() {
    for &id in GameId::ALL {
        let start = game(id).start();
        let list = start.listing();
        let all: Vec<usize> = (0..list.len()).collect();
        let shown = list.shown(&all, false);
        for i in all {
            let text = list.text(i);
            assert_eq!(list.find(&text), Some(i), "{id}: {text}");
            let played = start.play_text(&text).unwrap();
            assert_eq!(list.play(i).text(), played.text(), "{id}: {text}");
            assert_eq!(shown[i].text, text);
            assert_eq!(list.short_of(&text).unwrap(), shown[i].short, "{id}");
        }
    }
}

/// Each side's analysis at a round of four players' placements names
/// one action of each of the side's players, and none of the others'.
#[test]
fn a_sides_analysis_writes_each_sides_own_actions() {
    for id in [GameId::Spokes4, GameId::Spokes2v2] {
        let g = game(id);
        let start = g.start();
        let mut analysis = start.sides_analysis(SidesPlan {
            sides: start.sides_to_analyse(),
            width: 4,
            schedule: Schedule::InTurn,
            limits: Limits {
                depth: Some(1),
                ..Limits::default()
            },
            fresh_table: false,
            shorts: None,
        });
        let config = g.search_config(1, g.evaluation(Eval::Classic, None).unwrap());
        let mut searched = 0;
        analysis.run(&config, &Table::new(1), None, &mut |r| {
            if let SidesText::Searched { .. } = r {
                searched += 1;
            }
            true
        });
        let verdicts = analysis.verdicts();
        assert_eq!(searched, verdicts.len());
        assert_eq!(verdicts.len(), g.info().sides.len(), "{id}");
        for (side, v) in verdicts {
            let Verdict::Simultaneous(m) = v else {
                panic!("{id}: a round of placements");
            };
            for (t, _) in &m.strategies[0] {
                for p in 0..g.players() {
                    let ours = g.side_of(Player::nth(p)) == side;
                    assert_eq!(t.actions[p].is_some(), ours, "{id}: {}", t.text());
                }
            }
        }
    }
}

/// A random walk gives every player an action at a round start: a game of
/// four players places four stones a round (its rules refuse fewer).
#[test]
fn a_random_walk_gives_every_player_an_action() {
    use rand::SeedableRng;
    for &id in GameId::ALL {
        for seed in 0..4 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let walked = game(id).start().random_walk(6, &mut rng);
            assert!(walked.is_some(), "{id:?}: seed {seed}");
        }
    }
}
