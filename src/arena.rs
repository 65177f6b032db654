//! `stolik arena`: two bots play a match and the result is printed with a confidence interval.
//!
//! Sides alternate: player a takes seat A in even-numbered games and seat B in odd ones, so
//! the first-move advantage cancels out. The bots end games as they do against people
//! (`ai::decide`): a bot resigns a lost position, and a draw offered by one is agreed when
//! the other accepts it (plain UCT never offers, accepts nor resigns). Perekati-pole games are
//! adjudicated as the table adjudicates them (`Perekati::no_progress_ending`). The report gives the
//! distribution of game lengths; the last line is `A W D L`: player a's wins, draws and
//! losses, for scripts.

use std::io::Write;
use std::time::{Duration, Instant};

use ai::{Budget, Decision};
use anyhow::{Context, bail};
use catalog::{AnyGame, Outcome, Seat, VariantId};

mod lengths;

pub use lengths::Lengths;

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
    /// A node budget per move for both players instead of time (alpha-beta nodes, UCT
    /// iterations): games that replay the same on any machine. Perekati-pole and mill only.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Node budget of player a (overrides --nodes and any time).
    #[arg(long)]
    pub nodes_a: Option<u64>,
    /// Node budget of player b (overrides --nodes and any time).
    #[arg(long)]
    pub nodes_b: Option<u64>,
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

    /// Plain UCT knows no offers: it plays on.
    fn decide(
        self,
        game: &AnyGame,
        budget: Budget,
        seed: u64,
        draw_offered: bool,
    ) -> Option<Decision> {
        match self {
            Bot::Level(level) => ai::decide(game, level, budget, seed, draw_offered),
            Bot::PlainUct => ai::plain_uct_move_within(game, budget, seed).map(Decision::Play),
        }
    }

    fn budget_label(self, budget: Budget) -> String {
        match budget {
            Budget::Time(time) => format!("{} ms", time.as_millis()),
            Budget::Nodes(nodes) => format!("{nodes} nodes"),
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
#[derive(Debug, Default, Clone)]
pub struct Summary {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games stopped at `--max-plies` (counted among the draws).
    pub unfinished: u32,
    /// Games a bot resigned, draws agreed on an offer, and Perekati-pole games adjudicated
    /// for want of progress (counted among the results).
    pub resigned: u32,
    pub agreed_draws: u32,
    pub no_progress: u32,
    pub timing: [Timing; 2],
    pub lengths: Lengths,
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
    let budgets = budgets(args, bots, &AnyGame::new(variant, args.seed))?;
    writeln!(
        out,
        "arena {} {}: a = {} ({}), b = {} ({}), {} games, seed {}",
        args.game,
        variant.as_str(),
        bots[0].name(),
        bots[0].budget_label(budgets[0]),
        bots[1].name(),
        bots[1].budget_label(budgets[1]),
        args.games,
        args.seed
    )?;
    let mut summary = Summary::default();
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(u64::from(i));
        // Player a sits in seat A in even games, in seat B in odd ones.
        let seat_of_a = if i % 2 == 0 { Seat::A } else { Seat::B };
        let game = play_game(args, i, seed, seat_of_a, bots, budgets, &mut summary)?;
        let (result, how) = tally(&mut summary, &game, seat_of_a);
        summary.lengths.add(game.plies, game.outcome.is_none());
        if args.verbose {
            writeln!(
                out,
                "game {i}: a is {}, {} plies, {result}{how}",
                seat_of_a.letter(),
                game.plies
            )?;
        }
    }
    report(out, &summary, bots)?;
    Ok(summary)
}

/// Each player's budget: nodes when asked for (where the game's bots count them), else time.
fn budgets(args: &ArenaArgs, bots: [Bot; 2], game: &AnyGame) -> anyhow::Result<[Budget; 2]> {
    let nodes = [args.nodes_a.or(args.nodes), args.nodes_b.or(args.nodes)];
    if nodes.iter().any(Option::is_some) && !Budget::counts_nodes_for(game) {
        bail!(
            "node budgets are kept by the bots of perekati and mill only; use --time for {}",
            args.game
        );
    }
    let times = [args.time_a.or(args.time), args.time_b.or(args.time)];
    let budget = |player: usize| match (nodes[player], times[player]) {
        (Some(n), _) => Budget::Nodes(n),
        (None, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
        (None, None) => Budget::Time(bots[player].default_budget()),
    };
    Ok([budget(0), budget(1)])
}

/// How one game went.
struct Played {
    plies: u32,
    /// `None` when the game was stopped at the ply limit.
    outcome: Option<Outcome>,
    /// How a bot ended it, if one did.
    ended_by: Option<EndedBy>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EndedBy {
    Resignation,
    AgreedDraw,
    /// Perekati-pole: the platform's adjudication of a game without progress.
    NoProgress,
}

fn play_game(
    args: &ArenaArgs,
    i: u32,
    seed: u64,
    seat_of_a: Seat,
    bots: [Bot; 2],
    budgets: [Budget; 2],
    summary: &mut Summary,
) -> anyhow::Result<Played> {
    let variant = VariantId::parse(&args.game, args.variant.as_deref())?;
    let mut game = AnyGame::new(variant, seed);
    let mut plies = 0u32;
    // A draw offered with the last move, for the player now to move to answer.
    let mut draw_offered = false;
    while let Some(seat) = game.to_move() {
        if plies >= args.max_plies {
            break;
        }
        let player = usize::from(seat != seat_of_a);
        let move_seed = seed
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(u64::from(plies));
        let began = Instant::now();
        let decision = bots[player]
            .decide(&game, budgets[player], move_seed, draw_offered)
            .with_context(|| format!("game {i}: {} found no move", bots[player].name()))?;
        summary.timing[player].add(began.elapsed());
        let (outcome, ended_by) = match &decision {
            Decision::Resign => (Outcome::Win(seat.other()), EndedBy::Resignation),
            Decision::AcceptDraw if draw_offered => (Outcome::Draw, EndedBy::AgreedDraw),
            Decision::AcceptDraw => bail!("game {i}: a draw was accepted that nobody offered"),
            Decision::Play(mv) | Decision::PlayAndOfferDraw(mv) => {
                game.play_text(mv).with_context(|| {
                    format!("game {i}: {} played an illegal move", bots[player].name())
                })?;
                plies += 1;
                draw_offered = matches!(decision, Decision::PlayAndOfferDraw(_));
                if let Some((outcome, _)) = game.adjudication() {
                    return Ok(Played {
                        plies,
                        outcome: Some(outcome),
                        ended_by: Some(EndedBy::NoProgress),
                    });
                }
                continue;
            }
        };
        return Ok(Played {
            plies,
            outcome: Some(outcome),
            ended_by: Some(ended_by),
        });
    }
    Ok(Played {
        plies,
        outcome: game.outcome(),
        ended_by: None,
    })
}

/// Counts the game in `summary`; the words for the verbose line.
fn tally(summary: &mut Summary, game: &Played, seat_of_a: Seat) -> (&'static str, &'static str) {
    let result = match game.outcome {
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
    let how = match game.ended_by {
        Some(EndedBy::Resignation) => {
            summary.resigned += 1;
            " (resigned)"
        }
        Some(EndedBy::AgreedDraw) => {
            summary.agreed_draws += 1;
            " (agreed)"
        }
        Some(EndedBy::NoProgress) => {
            summary.no_progress += 1;
            " (no progress)"
        }
        None => "",
    };
    (result, how)
}

fn report(out: &mut impl Write, summary: &Summary, bots: [Bot; 2]) -> anyhow::Result<()> {
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
    writeln!(
        out,
        "ended by a bot: {} resigned, {} draws agreed; adjudicated for no progress: {}",
        summary.resigned, summary.agreed_draws, summary.no_progress
    )?;
    writeln!(out, "{}", summary.lengths)?;
    for (player, label) in ["a", "b"].iter().enumerate() {
        let t = &summary.timing[player];
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
    Ok(())
}

#[cfg(test)]
mod tests;
