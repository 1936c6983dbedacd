//! The search's runtime parameters and `gamut tune`: SPSA finds a known
//! optimum, a parameter set on a spec changes the search and the default
//! set does not, `gamut tune` writes its ledger and resumes a killed run
//! to the ledger of an unbroken one, and bad options exit 2.

use crate::common::{gamut_command, ok, rejected, scratch_dir};
use gamut_games::epaminondas::Epaminondas;
use gamut_players::engine::{Engine, Kind};
use gamut_search::params::{Tunables, TUNABLES};
use gamut_search::{self as search, Config, Limits, Table};
use gamut_tournament::tune::{Dimension, Gains, Spsa};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::time::{Duration, Instant};

/// SPSA with OpenBench's gains climbs a noisy quadratic of two parameters
/// to within each one's step of its optimum: each iteration's "games" are
/// won by θ + cΔ with the logistic of the objective's difference.
#[test]
fn spsa_tunes_a_noisy_quadratic_to_within_its_step() {
    let optimum = [60.0, 30.0];
    let objective = |t: &[f64]| -> f64 {
        t.iter()
            .zip(optimum)
            .map(|(x, o)| -((x - o) / 20.0f64).powi(2))
            .sum()
    };
    let dims = vec![
        Dimension {
            name: "x".into(),
            start: 20.0,
            min: 0.0,
            max: 100.0,
            step: 4.0,
        },
        Dimension {
            name: "y".into(),
            start: 80.0,
            min: 0.0,
            max: 100.0,
            step: 4.0,
        },
    ];
    for seed in 1..=3 {
        let (iterations, pairs) = (1500, 8);
        let mut spsa = Spsa::new(dims.clone(), Gains::default(), iterations, pairs, seed);
        let mut games = StdRng::seed_from_u64(seed);
        for _ in 0..iterations {
            let p = spsa.perturbation();
            let win = 1.0 / (1.0 + (objective(&p.minus) - objective(&p.plus)).exp());
            let wins = (0..2 * pairs).filter(|_| games.gen::<f64>() < win).count() as i64;
            spsa.step(&p, 2 * wins - 2 * pairs as i64);
        }
        assert_eq!(spsa.done(), iterations);
        for (i, d) in dims.iter().enumerate() {
            let error = (spsa.theta()[i] - optimum[i]).abs();
            assert!(
                error <= d.step,
                "seed {seed}: {} ended at {} (optimum {})",
                d.name,
                spsa.theta()[i],
                optimum[i]
            );
        }
    }
}

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
    let start = <Epaminondas as gamut_core::game::Game>::start();
    search::search(&start, &limits, config, &Table::new(16), |_| {}).nodes
}

/// `param.<name>=` on a spec reaches the search: extreme margins search a
/// different tree at a fixed depth, while a spec without it has the
/// default set and searches exactly the tree of the game's default
/// configuration (the node count the constants gave).
#[test]
fn a_param_on_a_spec_changes_the_search_and_the_default_does_not() {
    let default = spec_config("depth=5");
    let plain = Config::for_game::<Epaminondas>(1);
    // The game's own margins (its search defaults) over the searcher's.
    assert_eq!(default.tunables, plain.tunables);
    assert_ne!(plain.tunables, Tunables::DEFAULT);
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
    // A value out of range, and a name that is no parameter.
    for bad in ["rfp_margin=0", "nope=3"] {
        rejected(&["analyze", "epaminondas", "--depth", "1", "--param", bad]);
    }
}

/// The options of a short run of Epaminondas at depth 2, its ledger at
/// `ledger`: the classic evaluation, so that its games (and the check
/// that θ moves) do not change when the game's built-in network does.
fn run_args(ledger: &Path, iterations: &str) -> Vec<String> {
    [
        "tune",
        "epaminondas",
        "--engine",
        "depth=2,eval=classic",
        "--params",
        "rfp_margin,futility_margin,lmr_base",
        "--iterations",
        iterations,
        "--pairs-per-iteration",
        "2",
        "--r-end",
        "0.05",
        "--seed",
        "7",
        "--ledger",
        ledger.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&args)
}

/// `gamut tune` writes one ledger line per iteration, with θ, Δ, both
/// settings, the results and the gradient estimate, and prints the tuned
/// values as spec items.
#[test]
fn tune_writes_a_ledger_line_per_iteration() {
    let dir = scratch_dir("tune-ledger");
    let ledger = dir.join("ledger.jsonl");
    let out = run(&run_args(&ledger, "2"));
    assert!(
        out.lines()
            .next()
            .unwrap()
            .starts_with("iteration 1 of 2: plus +"),
        "{out}"
    );
    let tuned = out.lines().last().unwrap();
    assert!(tuned.starts_with("tuned param.rfp_margin="), "{out}");
    let text = std::fs::read_to_string(&ledger).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["iteration"], i as u64 + 1);
        for field in ["theta", "delta", "plus", "minus", "gradient", "next"] {
            let names: Vec<&String> = line[field].as_object().unwrap().keys().collect();
            assert_eq!(
                names,
                ["futility_margin", "lmr_base", "rfp_margin"],
                "{field}"
            );
        }
        let r = &line["results"];
        let games = r["wins"].as_u64().unwrap()
            + r["draws"].as_u64().unwrap()
            + r["losses"].as_u64().unwrap();
        assert_eq!(games, 4);
    }
    assert_eq!(lines[1]["theta"], lines[0]["next"]);
    // Run again over the same file: refused without --resume or
    // --overwrite; --resume of a finished run plays nothing.
    let again = run_args(&ledger, "2");
    let args: Vec<&str> = again.iter().map(String::as_str).collect();
    rejected(&args);
    let mut resumed = again.clone();
    resumed.push("--resume".into());
    assert_eq!(run(&resumed), tuned.to_string() + "\n");
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), text);
}

/// A run killed mid-way and resumed (its cut-off last line dropped) ends
/// with the ledger of an unbroken run with the same seed: depth-limited
/// games are the same games, and each iteration's directions come from
/// the seed and its number alone.
#[test]
fn a_killed_run_resumes_to_the_ledger_of_an_unbroken_one() {
    let dir = scratch_dir("tune-resume");
    let whole = dir.join("whole.jsonl");
    run(&run_args(&whole, "4"));
    let expected = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(expected.lines().count(), 4);
    let moved = expected.lines().any(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["theta"] != v["next"]
    });
    assert!(
        moved,
        "θ never moved: the check would prove little\n{expected}"
    );

    let broken = dir.join("broken.jsonl");
    let mut child = gamut_command()
        .args(run_args(&broken, "4"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("tune starts");
    let begun = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&broken).map_or(0, |t| t.lines().count());
        if lines >= 2 {
            break;
        }
        assert!(
            begun.elapsed() < Duration::from_secs(120),
            "no iteration in two minutes"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "tune ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = std::fs::read_to_string(&broken).unwrap();
    assert!(kept.lines().count() < 4, "the run finished before the kill");
    // A kill while a line was being written leaves it cut off.
    std::fs::write(&broken, format!("{kept}{{\"game\":\"epamin")).unwrap();
    let mut resume = run_args(&broken, "4");
    resume.push("--resume".into());
    let o = gamut_command().args(&resume).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("dropped a cut-off last line"));
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), expected);

    // The ledger of another run is not continued.
    let mut other = run_args(&broken, "4");
    let seed = other.iter().position(|a| a == "7").unwrap();
    other[seed] = "8".into();
    other.push("--resume".into());
    let args: Vec<&str> = other.iter().map(String::as_str).collect();
    rejected(&args);
}

#[test]
fn bad_tune_options_exit_2() {
    let dir = scratch_dir("tune-bad");
    let ledger = dir.join("l.jsonl");
    let ledger = ledger.to_str().unwrap();
    let base = [
        "tune",
        "epaminondas",
        "--iterations",
        "1",
        "--pairs-per-iteration",
        "1",
    ];
    let cases: &[&[&str]] = &[
        &["--engine", "depth=1", "--params", "nope"],
        &["--engine", "depth=1", "--params", "rfp_margin,rfp_margin"],
        &["--engine", "depth=1,param.rfp_margin=1"],
        &["--engine", "depth=1,param.nope=1"],
        &["--engine", "name=x,depth=1"],
        &["--engine", "depth=1,bogus=1"],
        &["--engine", "depth=1", "--resume"],
        &["--engine", "depth=1", "--r-end", "-1"],
        &["--engine", "depth=1", "--iterations", "0"],
        &[
            "--engine",
            "depth=1",
            "--ledger",
            "/nonexistent-folder/l.jsonl",
        ],
        &[
            "--engine",
            "depth=1",
            "--openings",
            ledger,
            "--ledger",
            ledger,
        ],
    ];
    for extra in cases {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        rejected(&args);
    }
    rejected(&[
        "tune",
        "spokes4",
        "--engine",
        "depth=1",
        "--iterations",
        "1",
    ]);
    assert!(!Path::new(ledger).exists());
}
