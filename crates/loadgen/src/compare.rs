//! The regression guard: two builds of `stolik` measured in one run, alternated round by round
//! (A then B, then B then A, so a machine that slows down over the run weighs on both alike),
//! each round running the closed loop and the open loop with the same games and the same
//! deterministic moves. Prints each round's figures and the ratio B ÷ A pair by pair, then the
//! median ratio of each measure: on a noisy two-core machine only ratios taken minutes apart
//! mean anything.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::closed::ClosedArgs;
use crate::open::OpenArgs;
use crate::pair::Game;

#[derive(clap::Args, Debug, Clone)]
pub struct CompareArgs {
    /// The reference build (A), e.g. `main`'s `stolik` copied aside.
    #[arg(long)]
    pub base: PathBuf,
    /// The build under test (B).
    #[arg(long)]
    pub new: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// The game every pair plays (its default variant).
    #[arg(long, value_enum, default_value_t = Game::default())]
    pub game: Game,
    /// Rounds; each runs both builds once, in alternating order.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Games of the closed loop (as fast as the server answers).
    #[arg(long, default_value_t = 1000)]
    pub closed_games: usize,
    /// Games of the open loop (one move a second each).
    #[arg(long, default_value_t = 2500)]
    pub open_games: usize,
    /// Seconds measured in each loop.
    #[arg(long, default_value_t = 15)]
    pub seconds: u64,
}

/// One build's figures in one round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    pub closed_moves_per_second: f64,
    pub closed_cpu_us: f64,
    pub open_ack_p99_ms: f64,
    pub open_ack_p999_ms: f64,
    pub open_cpu_us: f64,
    /// Open-loop moves sent but not acknowledged.
    pub open_unanswered: usize,
}

/// The measures in the order they are printed, with whether a larger value is better.
const MEASURES: [(&str, bool); 5] = [
    ("closed moves/s", true),
    ("closed CPU µs a move", false),
    ("open ack p99 ms", false),
    ("open ack p99.9 ms", false),
    ("open CPU µs a move", false),
];

impl Figures {
    fn values(&self) -> [f64; 5] {
        [
            self.closed_moves_per_second,
            self.closed_cpu_us,
            self.open_ack_p99_ms,
            self.open_ack_p999_ms,
            self.open_cpu_us,
        ]
    }
}

pub fn run(args: &CompareArgs) -> anyhow::Result<String> {
    anyhow::ensure!(args.rounds > 0, "--rounds must be at least 1");
    for build in [&args.base, &args.new] {
        anyhow::ensure!(build.is_file(), "no such build: {}", build.display());
    }
    actix_rt::System::new().block_on(compare(args))
}

async fn compare(args: &CompareArgs) -> anyhow::Result<String> {
    let mut rounds = Vec::with_capacity(args.rounds);
    for round in 0..args.rounds {
        // A first in even rounds, B first in odd ones.
        let base_first = round % 2 == 0;
        let (first, second) = if base_first {
            (&args.base, &args.new)
        } else {
            (&args.new, &args.base)
        };
        eprintln!(
            "stolik-load compare: round {} of {}",
            round + 1,
            args.rounds
        );
        let one = measure(args, first).await?;
        let two = measure(args, second).await?;
        rounds.push(if base_first { (one, two) } else { (two, one) });
    }
    Ok(report(args, &rounds))
}

/// One build through the closed loop, then the open loop, each on a fresh server.
async fn measure(args: &CompareArgs, build: &Path) -> anyhow::Result<Figures> {
    let closed = crate::closed::stolik_side(&ClosedArgs {
        stolik: build.to_path_buf(),
        web_dir: args.web_dir.clone(),
        games: args.closed_games,
        game: args.game,
        seconds: args.seconds,
    })
    .await?;
    let (open, _) = crate::open::stolik_side(&OpenArgs::plain(
        build.to_path_buf(),
        args.web_dir.clone(),
        args.game,
        args.open_games,
        args.seconds,
    ))
    .await?;
    let ms = |q: f64| crate::quantile_ms(&open.ack, q).unwrap_or(f64::NAN);
    Ok(Figures {
        closed_moves_per_second: closed.per_second,
        closed_cpu_us: closed.cpu_us_per_answer.unwrap_or(f64::NAN),
        open_ack_p99_ms: ms(0.99),
        open_ack_p999_ms: ms(0.999),
        open_cpu_us: open.cpu_us_per_move.unwrap_or(f64::NAN),
        open_unanswered: open.sent.saturating_sub(open.ack.len()),
    })
}

/// The median of the ratios (NaN ratios, from a measure a side could not take, left out).
pub fn median(mut ratios: Vec<f64>) -> Option<f64> {
    ratios.retain(|r| r.is_finite());
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(ratios[n / 2]),
        _ => Some((ratios[n / 2 - 1] + ratios[n / 2]) / 2.0),
    }
}

fn report(args: &CompareArgs, rounds: &[(Figures, Figures)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load compare: A = {}, B = {}; {} games; closed loop {} games, open loop {} games at 1 move/s; {} s each; {} rounds",
        args.base.display(),
        args.new.display(),
        args.game.id(),
        args.closed_games,
        args.open_games,
        args.seconds,
        rounds.len()
    );
    let _ = writeln!(out, "| round | measure | A | B | B ÷ A |");
    let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
    for (i, (a, b)) in rounds.iter().enumerate() {
        for ((name, _), (x, y)) in MEASURES.iter().zip(a.values().into_iter().zip(b.values())) {
            let _ = writeln!(
                out,
                "| {} | {name} | {x:.2} | {y:.2} | {:.3} |",
                i + 1,
                y / x
            );
        }
        if a.open_unanswered + b.open_unanswered > 0 {
            let _ = writeln!(
                out,
                "| {} | open moves unanswered | {} | {} | — |",
                i + 1,
                a.open_unanswered,
                b.open_unanswered
            );
        }
    }
    let _ = writeln!(out, "\nmedian B ÷ A (B is better when the ratio is):");
    for (k, (name, higher_is_better)) in MEASURES.iter().enumerate() {
        let ratios = rounds
            .iter()
            .map(|(a, b)| b.values()[k] / a.values()[k])
            .collect();
        let better = if *higher_is_better { "> 1" } else { "< 1" };
        match median(ratios) {
            Some(m) => {
                let _ = writeln!(out, "  {name}: {m:.3} (better {better})");
            }
            None => {
                let _ = writeln!(out, "  {name}: not measured");
            }
        }
    }
    let _ = writeln!(
        out,
        "load average at the end: {}",
        crate::site::load_average()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_ratio_ignores_what_was_not_measured() {
        assert_eq!(median(vec![1.2, 0.8, 1.0]), Some(1.0));
        assert_eq!(median(vec![1.0, 2.0]), Some(1.5));
        assert_eq!(median(vec![f64::NAN, 0.9]), Some(0.9));
        assert_eq!(median(vec![f64::NAN]), None);
        assert_eq!(median(vec![]), None);
    }

    #[test]
    fn the_report_gives_each_round_its_ratio_and_a_median() {
        let a = Figures {
            closed_moves_per_second: 10_000.0,
            closed_cpu_us: 60.0,
            open_ack_p99_ms: 6.0,
            open_ack_p999_ms: 12.0,
            open_cpu_us: 80.0,
            open_unanswered: 0,
        };
        let b = Figures {
            closed_moves_per_second: 12_000.0,
            closed_cpu_us: 50.0,
            open_unanswered: 3,
            ..a
        };
        let args = CompareArgs {
            base: "a".into(),
            new: "b".into(),
            web_dir: "web".into(),
            game: Game::default(),
            rounds: 2,
            closed_games: 10,
            open_games: 10,
            seconds: 1,
        };
        let text = report(&args, &[(a, b), (a, a)]);
        assert!(
            text.contains("| 1 | closed moves/s | 10000.00 | 12000.00 | 1.200 |"),
            "{text}"
        );
        assert!(
            text.contains("| 1 | open moves unanswered | 0 | 3 | — |"),
            "{text}"
        );
        assert!(
            text.contains("closed moves/s: 1.100 (better > 1)"),
            "{text}"
        );
        assert!(
            text.contains("closed CPU µs a move: 0.917 (better < 1)"),
            "{text}"
        );
    }
}
