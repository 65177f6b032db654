//! `stolik arena`: two bots play a match and the result is printed with a confidence interval.
//!
//! Sides alternate: player a takes seat A in even-numbered games and seat B in odd ones, so
//! the first-move advantage cancels out. The last line is `A W D L`: player a's wins, draws
//! and losses, for scripts.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use catalog::{AnyGame, Outcome, Seat, VariantId};

/// Play a match between two bots.
#[derive(clap::Args, Debug, Clone)]
pub struct ArenaArgs {
    /// Game id: perekati, tumbleweed, cephalopod or mill.
    #[arg(long)]
    pub game: String,
    /// Variant id; the game's default when omitted.
    #[arg(long)]
    pub variant: Option<String>,
    /// Player a: random, easy, medium, hard, or uct (plain UCT, random playouts).
    #[arg(long)]
    pub a: String,
    /// Player b (same choices).
    #[arg(long)]
    pub b: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Seed of the first game; game i uses seed + i (for the dice and the bots' choices).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Thinking time per move in milliseconds for both players (default: each level's own;
    /// uct: 2000).
    #[arg(long)]
    pub time: Option<u64>,
    /// Thinking time per move of player a, in milliseconds (overrides --time).
    #[arg(long)]
    pub time_a: Option<u64>,
    /// Thinking time per move of player b, in milliseconds (overrides --time).
    #[arg(long)]
    pub time_b: Option<u64>,
    /// Plies after which an unfinished game is scored as a draw.
    #[arg(long, default_value_t = 2000)]
    pub max_plies: u32,
    /// Print one line per game.
    #[arg(long)]
    pub verbose: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bot {
    Level(ai::Level),
    PlainUct,
}

impl Bot {
    fn parse(name: &str) -> anyhow::Result<Bot> {
        if name == "uct" {
            return Ok(Bot::PlainUct);
        }
        Ok(Bot::Level(name.parse()?))
    }

    fn default_budget(self) -> Duration {
        match self {
            Bot::Level(level) => ai::default_budget(level),
            Bot::PlainUct => Duration::from_secs(2),
        }
    }

    fn think(self, game: &AnyGame, budget: Duration, seed: u64) -> Option<String> {
        match self {
            Bot::Level(level) => ai::choose_move(game, level, budget, seed),
            Bot::PlainUct => ai::plain_uct_move(game, budget, seed),
        }
    }

    fn name(self) -> String {
        match self {
            Bot::Level(level) => level.to_string(),
            Bot::PlainUct => "uct".to_string(),
        }
    }
}

/// Thinking times of one player.
#[derive(Debug, Default, Clone, Copy)]
pub struct Timing {
    pub moves: u64,
    pub total: Duration,
    pub worst: Duration,
}

impl Timing {
    fn add(&mut self, spent: Duration) {
        self.moves += 1;
        self.total += spent;
        self.worst = self.worst.max(spent);
    }

    pub fn mean(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.total / self.moves as u32
        }
    }
}

/// A match's result from player a's side.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games stopped at `--max-plies` (counted among the draws).
    pub unfinished: u32,
    pub timing: [Timing; 2],
}

impl Summary {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Player a's score, a draw counting half.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// The 95 % confidence interval of the score (normal approximation over per-game scores).
    pub fn interval(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let mean = self.score();
        let sum_sq = self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2);
        let variance = if n > 1.0 { sum_sq / (n - 1.0) } else { 0.25 };
        let half = 1.96 * (variance / n).sqrt();
        ((mean - half).max(0.0), (mean + half).min(1.0))
    }
}

/// Plays the match and prints the report to `out`.
pub fn run(args: &ArenaArgs, out: &mut impl Write) -> anyhow::Result<Summary> {
    let bots = [Bot::parse(&args.a)?, Bot::parse(&args.b)?];
    let variant = VariantId::parse(&args.game, args.variant.as_deref())?;
    if variant.game().is_solo() {
        bail!("{} is not a two-player game", args.game);
    }
    let budgets = [
        args.time_a.or(args.time).map(Duration::from_millis),
        args.time_b.or(args.time).map(Duration::from_millis),
    ];
    let budgets = [
        budgets[0].unwrap_or_else(|| bots[0].default_budget()),
        budgets[1].unwrap_or_else(|| bots[1].default_budget()),
    ];
    writeln!(
        out,
        "arena {} {}: a = {} ({} ms), b = {} ({} ms), {} games, seed {}",
        args.game,
        variant.as_str(),
        bots[0].name(),
        budgets[0].as_millis(),
        bots[1].name(),
        budgets[1].as_millis(),
        args.games,
        args.seed
    )?;
    let mut summary = Summary::default();
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(u64::from(i));
        // Player a sits in seat A in even games, in seat B in odd ones.
        let seat_of_a = if i % 2 == 0 { Seat::A } else { Seat::B };
        let mut game = AnyGame::new(variant, seed);
        let mut plies = 0u32;
        while let Some(seat) = game.to_move() {
            if plies >= args.max_plies {
                break;
            }
            let player = usize::from(seat != seat_of_a);
            let move_seed = seed
                .wrapping_mul(0x9E37_79B9)
                .wrapping_add(u64::from(plies));
            let began = Instant::now();
            let mv = bots[player]
                .think(&game, budgets[player], move_seed)
                .with_context(|| format!("game {i}: {} found no move", bots[player].name()))?;
            summary.timing[player].add(began.elapsed());
            game.play_text(&mv).with_context(|| {
                format!("game {i}: {} played an illegal move", bots[player].name())
            })?;
            plies += 1;
        }
        let outcome = game.outcome();
        let result = match outcome {
            Some(Outcome::Win(winner)) if winner == seat_of_a => {
                summary.wins += 1;
                "a wins"
            }
            Some(Outcome::Win(_)) => {
                summary.losses += 1;
                "b wins"
            }
            Some(_) => {
                summary.draws += 1;
                "draw"
            }
            None => {
                summary.draws += 1;
                summary.unfinished += 1;
                "unfinished (draw)"
            }
        };
        if args.verbose {
            writeln!(
                out,
                "game {i}: a is {}, {plies} plies, {result}",
                seat_of_a.letter()
            )?;
        }
    }
    let (low, high) = summary.interval();
    writeln!(
        out,
        "a ({}) vs b ({}): {} wins, {} draws, {} losses ({} unfinished); score {:.3}, 95% CI {:.3}-{:.3}",
        bots[0].name(),
        bots[1].name(),
        summary.wins,
        summary.draws,
        summary.losses,
        summary.unfinished,
        summary.score(),
        low,
        high
    )?;
    for (player, label) in ["a", "b"].iter().enumerate() {
        let t = summary.timing[player];
        writeln!(
            out,
            "time per move, {label} ({}): mean {:.1} ms, worst {:.1} ms over {} moves",
            bots[player].name(),
            t.mean().as_secs_f64() * 1000.0,
            t.worst.as_secs_f64() * 1000.0,
            t.moves
        )?;
    }
    writeln!(
        out,
        "A {} {} {}",
        summary.wins, summary.draws, summary.losses
    )?;
    Ok(summary)
}

#[cfg(test)]
mod tests;
