use clap::Parser;

use super::*;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    arena: ArenaArgs,
}

fn args(words: &[&str]) -> ArenaArgs {
    let line = ["arena"].iter().chain(words).copied();
    Cli::try_parse_from(line).expect("valid arguments").arena
}

/// A match between random bots, which answer at once; returns the summary and the report.
fn play(words: &[&str]) -> (Summary, String) {
    let mut out = Vec::new();
    let summary = run(&args(words), &mut out).expect("the match runs");
    (summary, String::from_utf8(out).unwrap())
}

#[test]
fn arguments_have_their_documented_defaults() {
    let a = args(&["--game", "mill", "--a", "hard", "--b", "uct"]);
    assert_eq!((a.games, a.seed, a.max_plies), (100, 1, 2000));
    assert_eq!(
        (a.variant, a.time, a.time_a, a.time_b),
        (None, None, None, None)
    );
    assert!(!a.verbose);
    assert!(Cli::try_parse_from(["arena", "--game", "mill", "--a", "hard"]).is_err());
}

#[test]
fn bots_are_levels_or_plain_uct() {
    assert_eq!(Bot::parse("uct").unwrap(), Bot::PlainUct);
    assert_eq!(Bot::parse("hard").unwrap(), Bot::Level(ai::Level::Hard));
    assert!(Bot::parse("grandmaster").is_err());
    assert_eq!(Bot::PlainUct.name(), "uct");
    assert_eq!(Bot::Level(ai::Level::Easy).name(), "easy");
    assert_eq!(Bot::PlainUct.default_budget(), Duration::from_secs(2));
    let medium = ai::Level::Medium;
    assert_eq!(
        Bot::Level(medium).default_budget(),
        ai::default_budget(medium)
    );
}

#[test]
fn the_score_counts_a_draw_half_and_its_interval_stays_within_zero_and_one() {
    let summary = Summary {
        wins: 6,
        draws: 2,
        losses: 2,
        ..Summary::default()
    };
    assert_eq!(summary.games(), 10);
    assert!((summary.score() - 0.7).abs() < 1e-12);
    // Per-game scores 1, ½, 0 around 0.7: sample variance 1.6 / 9.
    let half = 1.96 * (1.6f64 / 9.0 / 10.0).sqrt();
    let (low, high) = summary.interval();
    assert!((low - (0.7 - half)).abs() < 1e-12, "{low}");
    assert!((high - (0.7 + half)).abs() < 1e-12, "{high}");

    let sweep = Summary {
        wins: 1,
        ..Summary::default()
    };
    assert_eq!(sweep.score(), 1.0);
    let (low, high) = sweep.interval();
    assert_eq!(high, 1.0);
    assert!(low < 1.0, "one game proves little: {low}");
    assert_eq!(Summary::default().score(), 0.0);
}

#[test]
fn timing_keeps_the_mean_and_the_worst() {
    let mut t = Timing::default();
    assert_eq!(t.mean(), Duration::ZERO);
    for ms in [10, 30, 20] {
        t.add(Duration::from_millis(ms));
    }
    assert_eq!(t.moves, 3);
    assert_eq!(t.mean(), Duration::from_millis(20));
    assert_eq!(t.worst, Duration::from_millis(30));
}

/// Four quick 3x3 games between random bots (which answer at once).
const FOUR_GAMES: &str = "--game cephalopod --variant 3x3 --a random --b random --games 4 --seed 7 --time-a 3 --time-b 4";

#[test]
fn a_match_alternates_seats_and_ends_with_the_tally_line() {
    let mut words: Vec<&str> = FOUR_GAMES.split(' ').collect();
    words.push("--verbose");
    let (summary, report) = play(&words);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(
        lines[0],
        "arena cephalopod 3x3: a = random (3 ms), b = random (4 ms), 4 games, seed 7"
    );
    for (i, seat) in ["a", "b", "a", "b"].iter().enumerate() {
        let prefix = format!("game {i}: a is {seat}, ");
        assert!(lines[1 + i].starts_with(&prefix), "{}", lines[1 + i]);
    }
    assert_eq!(summary.games(), 4);
    assert_eq!(summary.unfinished, 0, "3x3 games end within 9 plies");
    // Every ply of every game was timed, for one player or the other.
    let plies: u64 = lines[1..5]
        .iter()
        .map(|l| {
            l.split(", ")
                .nth(1)
                .unwrap()
                .strip_suffix(" plies")
                .unwrap()
        })
        .map(|n| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(summary.timing[0].moves + summary.timing[1].moves, plies);
    assert_eq!(
        lines.last().unwrap(),
        &format!("A {} {} {}", summary.wins, summary.draws, summary.losses)
    );
    assert!(lines[5].starts_with(&format!(
        "a (random) vs b (random): {} wins, {} draws, {} losses (0 unfinished); score ",
        summary.wins, summary.draws, summary.losses
    )));
    // The same seeds give the same match.
    words.pop();
    let (again, _) = play(&words);
    assert_eq!((again.wins, again.draws), (summary.wins, summary.draws));
}

#[test]
fn games_stopped_at_the_ply_limit_count_as_unfinished_draws() {
    let (summary, report) = play(&[
        "--game",
        "mill",
        "--a",
        "random",
        "--b",
        "easy",
        "--games",
        "3",
        "--time",
        "2",
        "--max-plies",
        "2",
    ]);
    assert_eq!((summary.draws, summary.unfinished), (3, 3));
    assert_eq!(summary.timing[0].moves + summary.timing[1].moves, 6);
    assert!(report.starts_with("arena mill troika: a = random (2 ms), b = easy (2 ms)"));
    assert!(report.ends_with("A 0 3 0\n"), "{report}");
}

#[test]
fn a_match_needs_two_seats_and_known_bots() {
    let mut out = Vec::new();
    let solo = args(&["--game", "white-rabbit", "--a", "random", "--b", "random"]);
    let error = run(&solo, &mut out).unwrap_err().to_string();
    assert_eq!(error, "white-rabbit is not a two-player game");
    let unknown = args(&["--game", "mill", "--a", "random", "--b", "nobody"]);
    assert!(run(&unknown, &mut out).is_err());
    assert!(out.is_empty(), "nothing is printed before the match starts");
}

#[test]
fn lengths_give_the_median_the_95th_percentile_and_the_longest() {
    let mut lengths = Lengths::default();
    assert_eq!((lengths.median(), lengths.longest()), (0, 0));
    for plies in (1..=20).rev() {
        lengths.add(plies * 10, plies == 20);
    }
    assert_eq!(lengths.median(), 100);
    assert_eq!(lengths.percentile(95), 190);
    assert_eq!(lengths.longest(), 200);
    assert_eq!(lengths.unfinished(), 1);
    assert_eq!((lengths.at_least(190), lengths.at_least(201)), (2, 0));
    assert_eq!(
        lengths.to_string(),
        "game length in plies: median 100, p95 190, longest 200, 0 of 20 at 400 or more; 1 unfinished"
    );
}

/// A bot of a match and its node budget, as the arena's arguments spell them.
type MatchBot = (&'static str, &'static str);

/// Two games a board of Perekati-pole between `a` and `b` on node budgets, none of which may
/// reach the 400-ply limit.
fn perekati_match(variant: &str, (a, nodes_a): MatchBot, (b, nodes_b): MatchBot) -> Vec<String> {
    let words = [
        "--game",
        "perekati",
        "--variant",
        variant,
        "--a",
        a,
        "--b",
        b,
        "--nodes-a",
        nodes_a,
        "--nodes-b",
        nodes_b,
        "--games",
        "2",
        "--max-plies",
        "400",
        "--verbose",
    ];
    let (summary, report) = play(&words);
    assert_eq!(summary.unfinished, 0, "{report}");
    assert_eq!(summary.lengths.unfinished(), 0, "{report}");
    assert!(report.contains("; 0 unfinished\n"), "{report}");
    // The timing lines differ from run to run; everything else is the same game.
    report
        .lines()
        .filter(|l| !l.starts_with("time per move"))
        .map(str::to_string)
        .collect()
}

/// The pairings of docs/bots.md's Perekati-pole figures that fit a debug test run: each level
/// against the one below (plain UCT's random playouts are too slow unoptimised).
const PEREKATI_PAIRINGS: [(MatchBot, MatchBot); 3] = [
    (("hard", "4000"), ("medium", "2000")),
    (("medium", "2000"), ("easy", "1000")),
    (("easy", "1000"), ("random", "1")),
];

#[test]
fn node_budgets_replay_the_same_finished_games_on_every_perekati_board() {
    for variant in ["malysh", "long", "large", "printed"] {
        for (a, b) in PEREKATI_PAIRINGS {
            let first = perekati_match(variant, a, b);
            let title = format!("a = {} ({} nodes), b = {} ({} nodes)", a.0, a.1, b.0, b.1);
            assert!(first[0].contains(&title), "{}", first[0]);
            assert_eq!(
                first,
                perekati_match(variant, a, b),
                "{variant} {a:?} {b:?}"
            );
        }
    }
}

#[test]
fn node_budgets_are_refused_where_the_bots_do_not_count_nodes() {
    let mut out = Vec::new();
    let words = [
        "--game",
        "tumbleweed",
        "--a",
        "hard",
        "--b",
        "uct",
        "--nodes",
        "100",
    ];
    let error = run(&args(&words), &mut out).unwrap_err().to_string();
    assert!(error.contains("node budgets"), "{error}");
    assert!(out.is_empty());
}
