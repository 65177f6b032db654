use clap::Parser;

use super::*;
use rabbit_solver::Act;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    solve: SolveArgs,
}

fn args(words: &[&str]) -> SolveArgs {
    let line = ["solve"].iter().chain(words).copied();
    Cli::try_parse_from(line).expect("valid arguments").solve
}

fn report(words: &[&str]) -> anyhow::Result<String> {
    let mut out = Vec::new();
    run(&args(words), &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

const LIVE: &str = "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 6 - -";

#[test]
fn arguments_have_their_documented_defaults_and_the_position_may_be_split() {
    let a = args(&["white-rabbit", "k1=3,k2=5", "k4=4", "6", "-", "-"]);
    assert_eq!((a.variant.as_str(), a.seed, a.threads), ("classic", 1, 2));
    assert_eq!(a.model, "2,2,3,4");
    assert_eq!(a.data, std::path::PathBuf::from("data/white-rabbit"));
    assert!(!a.exact && !a.levels && !a.reduced && !a.policy);
    assert_eq!(a.position.join(" "), "k1=3,k2=5 k4=4 6 - -");
}

#[test]
fn policy_sweeps_override_the_effort_only_when_given() {
    let m = Model::of(Variant::Classic);
    let default = args(&["white-rabbit"]).effort(&m).policy_sweeps;
    assert_eq!(default, tables::Effort::new(&m, 2).policy_sweeps);
    let given = args(&["white-rabbit", "--policy-sweeps", "7"]);
    assert_eq!(given.effort(&m).policy_sweeps, 7);
}

#[test]
fn a_reduced_model_is_blacks_reds_table_faces() {
    let m = reduced("2,2,3,4", Variant::Classic).unwrap();
    assert_eq!(
        (m.blacks, m.reds, m.table, m.faces, m.wrap),
        (2, 2, 3, 4, true)
    );
    assert!(!reduced(" 1, 1, 2, 3", Variant::NoWrap).unwrap().wrap);
    for bad in [
        "2,2,3",
        "2,2,3,4,5",
        "a,2,3,4",
        "2,2,3,7",
        "2,2,3,2",
        "6,2,3,4",
        "2,2,0,4",
        "1,1,3,4",
    ] {
        assert!(reduced(bad, Variant::Classic).is_err(), "{bad}");
    }
}

#[test]
fn finished_games_are_named_in_words() {
    assert_eq!(over(Outcome::SoloWon { score: 3 }), "won, score 3");
    assert_eq!(over(Outcome::SoloLost), "lost");
}

#[test]
fn the_command_refuses_what_it_cannot_solve() {
    let error = |words: &[&str]| report(words).unwrap_err().to_string();
    assert_eq!(
        error(&["mill"]),
        "only white-rabbit has a solver (got \"mill\")"
    );
    assert_eq!(
        error(&["white-rabbit", "--variant", "wrap"]),
        "unknown variant \"wrap\" (classic, no-wrap)"
    );
    assert_eq!(
        error(&["white-rabbit"]),
        "give a POSITION, --deals N or --compare N"
    );
    assert!(report(&["white-rabbit", "k1=9"]).is_err());
}

#[test]
fn a_finished_position_is_reported_without_tables() {
    let won = "k1=3,k2=3,k3=3,r1=3,r2=3,r3=3 k4=4,k5=6,r4=1,r5=5,w=2 1 - -";
    let out = report(&["--exact", "--data", "/nonexistent", "white-rabbit", won]).unwrap();
    assert_eq!(out, "the game is over: won, score 1\n");
}

#[test]
fn hint_mode_prints_every_action_with_its_values() {
    let out = report(&[
        "white-rabbit",
        "--rollouts",
        "2",
        "--deadline-ms",
        "5",
        LIVE,
    ])
    .unwrap();
    let game = WhiteRabbit::from_position(Variant::Classic, LIVE, 1).unwrap();
    let mut actions: Vec<&str> = Vec::new();
    for line in out.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 4, "{line}");
        let win: f64 = fields[1].parse().unwrap();
        let score: f64 = fields[2].parse().unwrap();
        assert!(
            (0.0..=1.0).contains(&win) && (0.0..=6.0).contains(&score),
            "{line}"
        );
        assert_eq!(fields[1].split('.').nth(1).unwrap().len(), 6, "{line}");
        assert_eq!(fields[3].split('.').nth(1).unwrap().len(), 3, "{line}");
        actions.push(fields[0]);
    }
    actions.sort_unstable();
    assert_eq!(actions, game.legal_texts());
}

#[test]
fn deals_report_the_solver_and_the_greedy_baseline() {
    let out = report(&["white-rabbit", "--deals", "2", "--seed", "5", "--policy"]).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "white-rabbit classic deals 2 seed 5");
    assert!(lines[1].starts_with("policy win-rate "), "{}", lines[1]);
    assert!(lines[2].starts_with("greedy win-rate "), "{}", lines[2]);
    for line in &lines[1..] {
        let win: f64 = line.split(' ').nth(2).unwrap().parse().unwrap();
        assert!([0.0, 0.5, 1.0].contains(&win), "two deals: {line}");
    }
}

#[test]
fn the_tally_compares_the_chosen_action_with_the_best() {
    let best = [0.5, 2.0, 10.0];
    let mut tally = Tally::default();
    // Green 2: the best chosen; green 1: an action as good in win and score but one action
    // longer; then one that loses a tenth of a win and half a point.
    let exact = [(Act::End, best), (Act::Reroll, [0.5, 2.0, 11.0])];
    tally.add(2, Act::End, &exact);
    tally.add(1, Act::Reroll, &exact);
    tally.add(
        1,
        Act::Reroll,
        &[(Act::End, best), (Act::Reroll, [0.4, 1.5, 9.0])],
    );
    assert_eq!(
        (tally.sampled, tally.optimal, tally.optimal_win_score),
        (3, 1, 2)
    );
    let mut out = Vec::new();
    tally.report(&mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "hint vs exact over 3 states: optimal 0.3333 (in win and score 0.6667); \
         mean loss win 0.033333 score 0.166667 actions 0.0000\n  \
         green 1: 2 states: optimal 0.0000 (in win and score 0.5000); \
         mean loss win 0.050000 score 0.250000 actions 0.0000\n  \
         green 2: 1 states: optimal 1.0000 (in win and score 1.0000); \
         mean loss win 0.000000 score 0.000000 actions 0.0000\n"
    );
}

#[test]
#[should_panic(expected = "hint and exact mode see the same actions")]
fn the_tally_refuses_an_action_exact_mode_does_not_know() {
    Tally::default().add(1, Act::Reroll, &[(Act::End, [1.0, 1.0, 1.0])]);
}
