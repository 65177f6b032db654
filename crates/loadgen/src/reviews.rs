//! Engine reviews beside live play: the open loop's pairs at a fixed rate, run again and again
//! in one sitting, alternately with no reviewer and with `--reviewers` players keeping the
//! server's review queue busy (`crate::reviewers`), each run on a fresh server. Prints each
//! run's human move acknowledgement p50 / p99 / p99.9, the reviews done beside it, and each
//! round's p99 with ÷ without, then the median ratio: the bound is 1.5 (docs/performance.md,
//! "Reviews beside live play").

use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

use crate::open::{OpenArgs, Side};
use crate::pair::Game;

#[derive(clap::Args, Debug, Clone)]
pub struct ReviewsArgs {
    /// The `stolik` binary to run (build it with `cargo build --release --bin stolik`).
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// The game every pair plays and every reviewed game was (its default variant).
    #[arg(long, value_enum, default_value_t = Game::default())]
    pub game: Game,
    /// Live games at once (two sockets each), one move a second each.
    #[arg(long, default_value_t = 2500)]
    pub games: usize,
    /// Players asking for reviews in the runs with reviews.
    #[arg(long, default_value_t = 2)]
    pub reviewers: usize,
    /// Rounds; each runs once without reviews and once with, in alternating order.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Seconds measured in each run, after two of warm-up.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
}

/// One run's figures.
struct Run {
    ack: [f64; 3],
    sent: usize,
    acknowledged: usize,
    cpu_us: Option<f64>,
    beside: Option<String>,
}

impl Run {
    fn of(side: &Side) -> Run {
        let ms = |q| crate::quantile_ms(&side.ack, q).unwrap_or(f64::NAN);
        Run {
            ack: [ms(0.5), ms(0.99), ms(0.999)],
            sent: side.sent,
            acknowledged: side.ack.len(),
            cpu_us: side.cpu_us_per_move,
            beside: side.beside.clone(),
        }
    }

    fn cell(&self) -> String {
        format!(
            "{:.2} / {:.2} / {:.2}",
            self.ack[0], self.ack[1], self.ack[2]
        )
    }
}

pub fn run(args: &ReviewsArgs) -> anyhow::Result<String> {
    anyhow::ensure!(args.rounds > 0, "--rounds must be at least 1");
    anyhow::ensure!(args.reviewers > 0, "--reviewers must be at least 1");
    actix_rt::System::new().block_on(reviews(args))
}

async fn reviews(args: &ReviewsArgs) -> anyhow::Result<String> {
    let load_before = crate::site::load_average();
    let mut rounds = Vec::with_capacity(args.rounds);
    for round in 0..args.rounds {
        // Without first in even rounds, with first in odd ones.
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        let mut runs = [None, None];
        for with in order {
            eprintln!(
                "stolik-load reviews: round {} of {}, {}",
                round + 1,
                args.rounds,
                if with == 1 { "with reviews" } else { "without" }
            );
            let (side, _) =
                crate::open::stolik_side(&open_args(args, with * args.reviewers)).await?;
            runs[with] = Some(Run::of(&side));
            // The last server's sockets and files go before the next starts.
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        let [Some(without), Some(with)] = runs else {
            unreachable!("both runs of a round are made above");
        };
        rounds.push((without, with));
    }
    Ok(report(args, &rounds, &load_before))
}

fn open_args(args: &ReviewsArgs, reviewers: usize) -> OpenArgs {
    OpenArgs {
        reviewers,
        ..OpenArgs::plain(
            args.stolik.clone(),
            args.web_dir.clone(),
            args.game,
            args.games,
            args.seconds,
        )
    }
}

fn report(args: &ReviewsArgs, rounds: &[(Run, Run)], load_before: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load reviews: {} {} games × 1 move/s each, {} s measured a run, without reviews and with {} reviewers, {} rounds",
        args.games,
        args.game.id(),
        args.seconds,
        args.reviewers,
        rounds.len()
    );
    let _ = writeln!(
        out,
        "| round | without: ack p50 / p99 / p99.9 ms | with reviews | p99 with ÷ without | acknowledged without / with | server CPU µs a move without / with |"
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- |");
    let cpu = |c: Option<f64>| c.map_or("—".to_string(), |c| format!("{c:.0}"));
    for (i, (without, with)) in rounds.iter().enumerate() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.2} | {} of {} / {} of {} | {} / {} |",
            i + 1,
            without.cell(),
            with.cell(),
            with.ack[1] / without.ack[1],
            without.acknowledged,
            without.sent,
            with.acknowledged,
            with.sent,
            cpu(without.cpu_us),
            cpu(with.cpu_us),
        );
    }
    for (i, (_, with)) in rounds.iter().enumerate() {
        if let Some(beside) = &with.beside {
            let _ = writeln!(out, "round {}, beside the games: {beside}", i + 1);
        }
    }
    let ratios = rounds
        .iter()
        .map(|(without, with)| with.ack[1] / without.ack[1])
        .collect();
    let median =
        crate::compare::median(ratios).map_or("not measured".into(), |m| format!("{m:.2}"));
    let now = crate::site::load_average();
    let _ = writeln!(
        out,
        "median p99 with ÷ without: {median} (bound 1.5)\nload average before: {load_before}; at the end: {now}"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(p99: f64, beside: Option<&str>) -> Run {
        Run {
            ack: [1.0, p99, 2.0 * p99],
            sent: 100,
            acknowledged: 100,
            cpu_us: Some(200.0),
            beside: beside.map(str::to_string),
        }
    }

    #[test]
    fn the_report_gives_each_round_its_ratio_and_the_median() {
        let args = ReviewsArgs {
            stolik: "stolik".into(),
            web_dir: "web".into(),
            game: Game::default(),
            games: 10,
            reviewers: 2,
            rounds: 2,
            seconds: 1,
        };
        let rounds = [
            (run(4.0, None), run(5.0, Some("2 players asking"))),
            (run(5.0, None), run(4.0, Some("2 players asking"))),
        ];
        let text = report(&args, &rounds, "0.5 0.4 0.3");
        assert!(
            text.contains("| 1 | 1.00 / 4.00 / 8.00 | 1.00 / 5.00 / 10.00 | 1.25 | 100 of 100 / 100 of 100 | 200 / 200 |"),
            "{text}"
        );
        assert!(
            text.contains("round 2, beside the games: 2 players asking"),
            "{text}"
        );
        assert!(
            text.contains("median p99 with ÷ without: 1.02 (bound 1.5)"),
            "{text}"
        );
        assert!(text.contains("load average before: 0.5 0.4 0.3"), "{text}");
    }
}
