//! The search's runtime parameters: a parameter set on a spec changes the
//! search and the default set does not, and every way to set one checks
//! its range.

use crate::common::{gamut_command, ok, rejected};
use gamut::games::epaminondas::Epaminondas;
use gamut::search::params::{Tunables, TUNABLES};
use gamut::search::{self, Config, Limits, Table};
use gamut::tournament::engine::{Engine, Kind};

/// The configuration of an engine spec in Epaminondas.
fn spec_config(spec: &str) -> Config {
    match Engine::parse::<Epaminondas>(spec)
        .expect("the spec parses")
        .kind
    {
        Kind::Search { config, .. } => config,
        _ => panic!("{spec}: not a searcher"),
    }
}

/// Nodes of a depth-5 search of Epaminondas' start under `config`.
fn nodes(config: &Config) -> u64 {
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let start = <Epaminondas as gamut::game::Game>::start();
    search::search(&start, &limits, config, &Table::new(16), |_| {}).nodes
}

/// `param.<name>=` on a spec reaches the search: extreme margins search a
/// different tree at a fixed depth, while a spec without it has the
/// default set and searches exactly the tree of the game's default
/// configuration (the node count the constants gave).
#[test]
fn a_param_on_a_spec_changes_the_search_and_the_default_does_not() {
    let default = spec_config("depth=5");
    assert_eq!(default.tunables, Tunables::DEFAULT);
    let plain = Config::for_game::<Epaminondas>(1);
    assert_eq!(nodes(&default), nodes(&plain));
    let pruned = spec_config("depth=5,param.rfp_margin=5,param.futility_margin=5");
    assert_eq!(pruned.tunables.rfp_margin, 5);
    assert_eq!(pruned.tunables.futility_margin, 5);
    assert_ne!(nodes(&pruned), nodes(&plain));
    let reduced = spec_config("depth=5,param.lmr_base=300,param.lmr_full_moves=1");
    assert!(nodes(&reduced) < nodes(&plain));
    for spec in [
        "depth=5,param.rfp_margin=4",
        "depth=5,param.rfp_margin=5001",
        "depth=5,param.rfp_margin=ninety",
        "depth=5,param.nope=1",
        "depth=5,param.rfp_margin",
    ] {
        assert!(Engine::parse::<Epaminondas>(spec).is_err(), "{spec}");
    }
}

/// `gamut params` lists every parameter with its default and range, the
/// protocol offers them as options and refuses a value out of range, and
/// `analyze --param` changes the search.
#[test]
fn params_are_listed_and_set_by_every_door() {
    let listed = ok(&["params"]);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), TUNABLES.len());
    for (line, t) in lines.iter().zip(TUNABLES) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], t.name);
        assert_eq!(
            words[1..7],
            [
                "default",
                &t.default.to_string(),
                "min",
                &t.min.to_string(),
                "max",
                &t.max.to_string()
            ]
        );
    }
    let mut child = gamut_command()
        .arg("engine")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the engine starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"gamut\nsetoption name rfp_margin value 5001\nsetoption name RFP_MARGIN value 120\ngame aporia\ngo depth 2\n")
            .unwrap();
    }
    let out = child.wait_with_output().expect("the engine ends");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("option name rfp_margin type spin default 90 min 5 max 5000"),
        "{text}"
    );
    let errors: Vec<&str> = text.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(errors[0].contains("rfp_margin"), "{text}");
    assert!(text.contains("bestmove "), "{text}");
    let analyzed = |extra: &[&str]| -> String {
        let mut args = vec!["analyze", "epaminondas", "--depth", "5"];
        args.extend(extra);
        let out = ok(&args);
        let line = out.lines().rev().nth(1).unwrap().to_string();
        line.split(" nodes ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    assert_ne!(
        analyzed(&["--param", "rfp_margin=5", "--param", "futility_margin=5"]),
        analyzed(&[])
    );
    rejected(&[
        "analyze",
        "epaminondas",
        "--depth",
        "1",
        "--param",
        "rfp_margin=0",
    ]);
    rejected(&[
        "analyze",
        "epaminondas",
        "--depth",
        "1",
        "--param",
        "nope=3",
    ]);
}
