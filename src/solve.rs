//! `stolik solve white-rabbit`: rank the actions of a position (hint mode, or exact mode from
//! the cached full-game tables), print the exact per-level table, play seeded deals, or
//! compare hint mode with exact mode.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rabbit_solver::deals::{self, Player};
use rabbit_solver::game::{Game, Outcome, Variant as _};
use rabbit_solver::white_rabbit::{Variant, WhiteRabbit};
use rabbit_solver::{Budget, Exact, Model, exact, hint, tables};

/// The arguments of `stolik solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The game to solve (only `white-rabbit`).
    pub game: String,
    /// The rules variant: `classic` or `no-wrap`.
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Exact mode (whole state space per green level) instead of hint mode.
    #[arg(long)]
    pub exact: bool,
    /// Play this many seeded deals with hint mode and with the greedy baseline.
    #[arg(long)]
    pub deals: Option<u64>,
    /// The seed of the deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hint mode: rollouts per action (default 48).
    #[arg(long)]
    pub rollouts: Option<u32>,
    /// Hint mode: deadline per decision in milliseconds (default 70).
    #[arg(long)]
    pub deadline_ms: Option<u64>,
    /// Compare hint mode with exact mode on this many sampled states of the reduced model
    /// given by `--model`; with `--exact`, on the cached full-game tables (or, with
    /// `--reduced`, the cached tables of `--model`).
    #[arg(long)]
    pub compare: Option<usize>,
    /// A reduced model for `--compare` and `--exact --reduced`: blacks,reds,table,faces.
    #[arg(long, default_value = "2,2,3,4")]
    pub model: String,
    /// With `--exact`: print the exact values at the start of a turn from a freshly rolled
    /// setup table for every green level (solving or loading the tables).
    #[arg(long)]
    pub levels: bool,
    /// With `--exact --levels` or `--exact --compare`: the reduced model of `--model` instead
    /// of the full game.
    #[arg(long)]
    pub reduced: bool,
    /// With `--deals`: play hint mode's policy alone (no rollouts, about a millisecond a decision)
    /// instead of full hint mode, so that many deals can be played.
    #[arg(long)]
    pub policy: bool,
    /// Where the exact tables are cached.
    #[arg(long, default_value = "data/white-rabbit")]
    pub data: std::path::PathBuf,
    /// Threads for solving the exact tables.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Policy-evaluation sweeps after each Bellman sweep when solving the exact tables, at
    /// most (default 20 with the wrap, 60 without: its policy evaluation converges slowly).
    #[arg(long)]
    pub policy_sweeps: Option<u32>,
    /// The position (five fields; quote it or give it as separate words).
    pub position: Vec<String>,
}

impl SolveArgs {
    /// How missing exact tables of `m` are solved.
    fn effort(&self, m: &Model) -> tables::Effort {
        let mut effort = tables::Effort::new(m, self.threads);
        if let Some(n) = self.policy_sweeps {
            effort.policy_sweeps = n;
        }
        effort
    }
}

/// Runs the command, writing its report to `out`.
pub fn run(args: &SolveArgs, out: &mut impl Write) -> anyhow::Result<()> {
    if args.game != "white-rabbit" {
        bail!("only white-rabbit has a solver (got {:?})", args.game);
    }
    let variant = Variant::from_id(&args.variant)
        .with_context(|| format!("unknown variant {:?} (classic, no-wrap)", args.variant))?;
    let mut budget = Budget::default();
    if let Some(r) = args.rollouts {
        budget.rollouts = r.max(1);
    }
    if let Some(ms) = args.deadline_ms {
        budget.deadline = Duration::from_millis(ms);
    }
    let mut log = |s: &str| eprintln!("{s}");
    if args.exact && args.levels {
        return print_levels(args, variant, out);
    }
    if let Some(n) = args.deals {
        if args.exact {
            let t = Instant::now();
            let m = Model::of(variant);
            let levels = (1..=6)
                .map(|g| tables::level(&args.data, m, g, args.effort(&m), &mut log))
                .collect::<Result<Vec<_>, _>>()?;
            eprintln!("tables loaded in {:.1} s", t.elapsed().as_secs_f64());
            return run_deals(variant, n, args.seed, Some(&levels), Player::Policy, out);
        }
        let player = if args.policy {
            Player::Policy
        } else {
            Player::Hint(budget)
        };
        return run_deals(variant, n, args.seed, None, player, out);
    }
    if let Some(n) = args.compare
        && args.exact
    {
        return compare_full(args, variant, n, budget, out);
    }
    if let Some(n) = args.compare {
        let model = reduced(&args.model, variant)?;
        return compare(model, n, args.seed, budget, out);
    }
    if args.position.is_empty() {
        bail!("give a POSITION, --deals N or --compare N");
    }
    let position = args.position.join(" ");
    let game = WhiteRabbit::from_position(variant, &position, args.seed)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    // A finished game has nothing to rank, and no green level to load or solve.
    if let Some(outcome) = game.outcome() {
        writeln!(out, "the game is over: {}", over(outcome))?;
        return Ok(());
    }
    let hints = if args.exact {
        let t = Instant::now();
        let m = Model::of(variant);
        let h = tables::hints(&args.data, &game, args.effort(&m), &mut log)?;
        eprintln!(
            "tables and decision in {:.3} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
        h
    } else {
        rabbit_solver::hints_with(&game, budget)
    };
    for h in hints {
        writeln!(
            out,
            "{} {:.6} {:.6} {:.3}",
            h.action, h.win, h.score, h.actions
        )?;
    }
    Ok(())
}

/// How a finished game ended, in words.
fn over(outcome: Outcome) -> String {
    match outcome {
        Outcome::SoloWon { score } => format!("won, score {score}"),
        Outcome::SoloLost => "lost".to_string(),
        other => format!("{other:?}"),
    }
}

/// The exact values at the start of a turn from a freshly rolled setup table, per level.
fn print_levels(args: &SolveArgs, variant: Variant, out: &mut impl Write) -> anyhow::Result<()> {
    let model = if args.reduced {
        reduced(&args.model, variant)?
    } else {
        Model::of(variant)
    };
    let ix = rabbit_solver::full::Index::new(model);
    let mut log = |s: &str| eprintln!("{s}");
    writeln!(
        out,
        "white-rabbit {} exact, turn start from a rolled setup table",
        variant.id()
    )?;
    let mut opening = [0.0; 3];
    for g in 1..=6 {
        let starts = tables::starts(&args.data, model, g, args.effort(&model), &mut log)?;
        let v = tables::from_setup(&ix, &starts);
        writeln!(
            out,
            "green {g} win {:.10} loss {:.3e} score {:.6} actions {:.3}",
            v[0],
            1.0 - v[0],
            v[1],
            v[2]
        )?;
        opening = v;
    }
    writeln!(
        out,
        "opening win {:.10} loss {:.3e} score {:.6} actions {:.3}",
        opening[0],
        1.0 - opening[0],
        opening[1],
        opening[2]
    )?;
    Ok(())
}

fn reduced(spec: &str, variant: Variant) -> anyhow::Result<Model> {
    let n: Vec<u8> = spec
        .split(',')
        .map(|x| x.trim().parse())
        .collect::<Result<_, _>>()
        .context("--model is blacks,reds,table,faces")?;
    let [blacks, reds, table, faces] = n[..] else {
        bail!("--model is blacks,reds,table,faces");
    };
    if !(3..=6).contains(&faces) || blacks > 5 || reds > 5 || table > blacks + reds || table == 0 {
        bail!("--model out of range (faces 3..=6, at most 5 dice a colour)");
    }
    Ok(Model {
        blacks,
        reds,
        table,
        faces,
        wrap: variant == Variant::Classic,
    })
}

fn run_deals(
    variant: Variant,
    n: u64,
    seed: u64,
    exact: Option<&[tables::Level]>,
    player: Player,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    writeln!(out, "white-rabbit {} deals {n} seed {seed}", variant.id())?;
    let solver = match (exact, player) {
        (Some(_), _) => "exact",
        (None, Player::Policy) => "policy",
        _ => "solver",
    };
    for name in [solver, "greedy"] {
        let t = Instant::now();
        let s = match (name, exact) {
            ("greedy", _) => deals::run(variant, n, seed, Player::Greedy),
            (_, Some(levels)) => tables::run_deals(levels, variant, n, seed),
            (_, None) => deals::run(variant, n, seed, player),
        };
        write!(
            out,
            "{name} win-rate {:.4} mean-score {:.4} mean-actions {:.2}",
            s.win_rate(),
            s.mean_score(),
            s.mean_actions()
        )?;
        if !s.decision_times.is_empty() {
            write!(
                out,
                " decision-ms median {:.4} p99 {:.4} decisions {}",
                s.time_quantile(0.5).as_secs_f64() * 1e3,
                s.time_quantile(0.99).as_secs_f64() * 1e3,
                s.decision_times.len()
            )?;
        }
        writeln!(out, " ({:.1} s)", t.elapsed().as_secs_f64())?;
    }
    Ok(())
}

/// Hint mode against cached exact tables (the full game's, or a reduced model's), on uniformly
/// sampled configurations (free states, at least two actions) of every cached green level; for
/// the full game with all six levels cached, also on the positions met when following the
/// hints through seeded deals.
fn compare_full(
    args: &SolveArgs,
    variant: Variant,
    n: usize,
    budget: Budget,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let m = if args.reduced {
        reduced(&args.model, variant)?
    } else {
        Model::of(variant)
    };
    let levels: Vec<tables::Level> = (1..=6)
        .filter_map(|g| tables::cached(&args.data, m, g))
        .collect();
    if levels.is_empty() {
        bail!(
            "no exact tables in {} (run --exact --levels first)",
            args.data.display()
        );
    }
    let greens: Vec<u8> = levels.iter().map(|l| l.solved.green).collect();
    writeln!(out, "{m:?}, cached levels {greens:?}")?;
    let mut rng = hint::Rng::new(args.seed);
    let mut tally = Tally::default();
    let mut buf = Vec::new();
    while tally.sampled < n {
        let lv = &levels[rng.below(levels.len() as u32) as usize].solved;
        let r = (rng.next_u64() % lv.ix.total as u64) as usize;
        let s = rabbit_solver::State::free(lv.ix.config(r));
        s.actions(&m, &mut buf);
        if buf.len() < 2 {
            continue;
        }
        let h = hint::hint_values(&m, &s, lv.green, budget);
        let ev = lv.action_values(&s);
        tally.add(lv.green, h[0].0, &ev);
    }
    writeln!(out, "uniformly sampled free configurations:")?;
    tally.report(out)?;
    if args.reduced || levels.len() < 6 {
        return Ok(());
    }
    // The positions a player meets who follows the hints: every decision with a choice along
    // seeded deals played by hint mode (bans and pending rerolls included).
    let mut tally = Tally::default();
    let mut played = 0;
    while tally.sampled < n {
        let mut game = WhiteRabbit::new(variant, deals::deal_seed(args.seed, played));
        played += 1;
        while !game.is_over() && tally.sampled < n {
            let lv = &levels[game.green() as usize - 1].solved;
            let s = rabbit_solver::model::from_game(&game);
            let h = hint::hint_values(&m, &s, lv.green, budget);
            if h.len() >= 2 {
                let ev = lv.action_values(&s);
                tally.add(lv.green, h[0].0, &ev);
            }
            game.play(deals::engine_move(&game, h[0].0))?;
        }
    }
    writeln!(out, "positions of {played} deals played by hint mode:")?;
    tally.report(out)
}

/// Hint mode against exact mode on sampled states (every green level) of a reduced model.
fn compare(
    model: Model,
    n: usize,
    seed: u64,
    budget: Budget,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let t = Instant::now();
    let e = Exact::solve(model, 6);
    writeln!(
        out,
        "model {model:?}: exact tables in {:.1} s ({} states at green 6)",
        t.elapsed().as_secs_f64(),
        e.states(6)
    )?;
    let mut rng = hint::Rng::new(seed);
    let mut tally = Tally::default();
    let mut buf = Vec::new();
    while tally.sampled < n {
        let g = 1 + rng.below(6) as u8;
        let states = e.level_states(g);
        let s = states[rng.below(states.len() as u32) as usize];
        s.actions(&model, &mut buf);
        if buf.len() < 2 {
            continue;
        }
        let h = hint::hint_values(&model, &s, g, budget);
        let ev = e.action_values(&s, g).expect("sampled from the tables");
        tally.add(g, h[0].0, &ev);
    }
    tally.report(out)
}

/// Hint mode's first choice against exact mode's best, summed over sampled states.
#[derive(Default)]
struct Tally {
    sampled: usize,
    optimal: usize,
    /// Optimal in win probability and score (the expected actions may be more).
    optimal_win_score: usize,
    /// Lost win probability, lost score, extra actions.
    loss: [f64; 3],
    /// The same by green level (index = level; empty until a state of that level is seen).
    by_green: Vec<Tally>,
}

impl Tally {
    /// Counts hint mode's choice `chosen` at a state of level `green` whose actions exact mode
    /// rates `exact` (best first).
    fn add(
        &mut self,
        green: u8,
        chosen: rabbit_solver::Act,
        exact: &[(rabbit_solver::Act, exact::Vals)],
    ) {
        let best = exact[0].1;
        let chosen = exact
            .iter()
            .find(|x| x.0 == chosen)
            .expect("hint and exact mode see the same actions")
            .1;
        let g = green as usize;
        if self.by_green.len() <= g {
            self.by_green.resize_with(g + 1, Tally::default);
        }
        self.by_green[g].count(chosen, best);
        self.count(chosen, best);
    }

    fn count(&mut self, chosen: exact::Vals, best: exact::Vals) {
        self.sampled += 1;
        self.optimal += (exact::rank(&chosen, &best) == std::cmp::Ordering::Equal) as usize;
        self.optimal_win_score +=
            (best[0] - chosen[0] <= exact::EPS && best[1] - chosen[1] <= exact::EPS) as usize;
        self.loss[0] += best[0] - chosen[0];
        self.loss[1] += best[1] - chosen[1];
        self.loss[2] += chosen[2] - best[2];
    }

    fn report(&self, out: &mut impl Write) -> anyhow::Result<()> {
        self.line(out, "hint vs exact over")?;
        for (g, t) in self.by_green.iter().enumerate() {
            if t.sampled > 0 {
                t.line(out, &format!("  green {g}:"))?;
            }
        }
        Ok(())
    }

    fn line(&self, out: &mut impl Write, head: &str) -> anyhow::Result<()> {
        let k = self.sampled.max(1) as f64;
        writeln!(
            out,
            "{head} {} states: optimal {:.4} (in win and score {:.4}); mean loss win {:.6} score {:.6} actions {:.4}",
            self.sampled,
            self.optimal as f64 / k,
            self.optimal_win_score as f64 / k,
            self.loss[0] / k,
            self.loss[1] / k,
            self.loss[2] / k
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
