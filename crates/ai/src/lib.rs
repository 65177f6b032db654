//! Stolik's bots: three levels (Easy, Medium, Hard) for every two-player game, plus a random
//! player, on top of two searches written against the `Game` trait — alpha-beta with
//! iterative deepening and a transposition table ([`alphabeta`]) and Monte Carlo tree search
//! ([`mcts`]) — and each game's own knowledge (its module).
//!
//! Everything here is pure and blocking: [`choose_move`] thinks for up to its time budget on
//! the calling thread, so a server must call it from a thread of its own, never on the async
//! executor (Stolik's server runs it on its bounded CPU pool, at the bots' priority).
//!
//! White Rabbit (solo) has no bot: [`choose_move`] returns `None` for it. Its future dice sit
//! in the game state, so any search would see rolls a player cannot, and the puzzle is meant
//! to be solved by the person.

pub mod alphabeta;
pub mod analysis;
pub mod cephalopod;
pub mod cephalopod_mcts;
pub mod decision;
pub mod eval;
pub mod mcts;
pub mod mill;
pub mod perekati;
pub mod perekati_exact;
pub mod perekati_verdict;
mod rng;
pub mod testing;
pub mod tumbleweed;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use catalog::AnyGame;
use game::Game;

pub use decision::{Decision, accepts_draw, decide, judges_endings};
pub use rng::Rng;

use alphabeta::AlphaBeta;
use eval::{Evaluator, WIN_BOUND};
use mcts::{Playout, uct};

/// How strongly a bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// A uniformly random legal move: the baseline the others are measured against.
    Random,
    /// One ply of lookahead with the game's evaluation, plus noise and an occasional random
    /// move: it takes what is offered and misses what the opponent threatens.
    Easy,
    /// A shallow full-width alpha-beta search (two or three plies) with a little noise.
    Medium,
    /// The strongest search within the budget: alpha-beta with iterative deepening and a
    /// transposition table; Cephalopod 5×5 by UCT with RAVE and short playouts scored by an
    /// evaluation; Cephalopod 3×3 perfectly from its solution.
    Hard,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The level name was not one of `random`, `easy`, `medium`, `hard`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bot level {:?} (random, easy, medium, hard)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// The thinking time a level uses by default: Hard 2 s, Medium 0.5 s, Easy 0.1 s (Easy and
/// Random usually answer at once).
pub fn default_budget(level: Level) -> Duration {
    match level {
        Level::Random => Duration::from_millis(10),
        Level::Easy => Duration::from_millis(100),
        Level::Medium => Duration::from_millis(500),
        Level::Hard => Duration::from_secs(2),
    }
}

/// How much a bot may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock time: what the server and the arena's time budgets use.
    Time(Duration),
    /// Search nodes (alpha-beta positions visited, UCT iterations): the same position, level
    /// and seed give the same move however loaded the machine is, which is what reproducible
    /// tests need. Only Perekati-pole, mill and plain UCT count nodes; see
    /// [`Budget::counts_nodes_for`].
    Nodes(u64),
}

impl Budget {
    /// Whether a node budget is kept by the bots of `game` (the others search by the clock
    /// alone: their setup sampling, solver and Monte Carlo searches do not count nodes).
    pub fn counts_nodes_for(game: &AnyGame) -> bool {
        matches!(game, AnyGame::Perekati(_) | AnyGame::Mill(_))
    }

    /// The deadline and node limit of a search that starts now. A node budget still has a
    /// deadline, far off, so that nothing can think forever.
    fn limits(self) -> (Instant, u64) {
        match self {
            Budget::Time(time) => (Instant::now() + time, u64::MAX),
            Budget::Nodes(nodes) => (Instant::now() + Duration::from_secs(600), nodes.max(1)),
        }
    }
}

/// The bot's move in canonical notation, or `None` when the game is over (and always for
/// White Rabbit, which has no bot).
///
/// Blocking: it thinks for up to `budget` on the calling thread, so call it from a blocking
/// thread. `game` may be any position reached by a move history (the state carries the
/// history-dependent rules); it is cloned for the search and never changed. `seed` drives
/// the bot's own random choices (ties, noise), so a (position, level, seed) gives the same
/// move whenever the search is not cut by the clock.
pub fn choose_move(game: &AnyGame, level: Level, budget: Duration, seed: u64) -> Option<String> {
    choose_move_within(game, level, Budget::Time(budget), seed)
}

/// [`choose_move`] with a time or a node budget.
pub fn choose_move_within(
    game: &AnyGame,
    level: Level,
    budget: Budget,
    seed: u64,
) -> Option<String> {
    let (deadline, max_nodes) = budget.limits();
    let limits = Limits {
        deadline,
        max_nodes,
    };
    let mut rng = Rng::new(seed);
    match game {
        AnyGame::Perekati(g) => {
            if level == Level::Hard
                && let Some(exact) = exact_ending(g, limits)
            {
                return Some(g.format_move(exact.best));
            }
            if level == Level::Easy && perekati::finishing(g) {
                let eval = perekati::PerekatiEval::finishing(g.variant());
                let mv = noisy_best(g, &eval, 1, EASY_FINISHING_NOISE, limits, &mut rng)?;
                return Some(g.format_move(mv));
            }
            let eval = if level == Level::Hard {
                perekati::PerekatiEval::hard(g.variant())
            } else if level == Level::Medium && perekati::finishing(g) {
                // Medium knows the ways home around the home cubes too, so that its deeper
                // search keeps it ahead of Easy over the last cubes.
                perekati::PerekatiEval::finishing(g.variant())
            } else {
                perekati::PerekatiEval::new(g.variant())
            };
            pick(g, &eval, level, limits, &mut rng, 3)
        }
        AnyGame::Tumbleweed(g) => {
            let text = match tumbleweed::in_pie_phase(g) {
                Some(::tumbleweed::Phase::Setup) => {
                    let spread = if level == Level::Hard { 1 } else { 4 };
                    g.format_move(tumbleweed::setup(g, &mut rng, deadline, spread))
                }
                Some(_) => g.format_move(tumbleweed::choose(g, deadline)),
                None => return pick(g, &tumbleweed::TumbleweedEval, level, limits, &mut rng, 2),
            };
            Some(text)
        }
        AnyGame::Cephalopod(g) => {
            // When the 3×3 solution is not proved in time (a cold table), the search below
            // plays instead.
            if level == Level::Hard
                && g.variant() == ::cephalopod::Variant::ThreeByThree
                && let Some(mv) = perfect_3x3_move(g, deadline, &mut rng)
            {
                return Some(g.format_move(mv));
            }
            if level == Level::Hard && g.variant() == ::cephalopod::Variant::FiveByFive {
                // Dice captures swing too far for alpha-beta on a static evaluation, so Hard
                // searches with Monte Carlo: RAVE shares what a playout learns about a cell
                // among all moves onto it, and short playouts scored by a fitted evaluation
                // let many playouts fit in a small budget (docs/bots.md measures both).
                return cephalopod_mcts::search(g, &cephalopod_mcts::HARD, deadline, &mut rng)
                    .map(|m| g.format_move(m));
            }
            if level == Level::Hard {
                // The 3×3 board before its solution is ready: UCT with RAVE and random
                // playouts.
                let params = mcts::RaveParams {
                    exploration: 0.1,
                    equivalence: 300.0,
                };
                let playout = Playout::Random { max_plies: 400 };
                return mcts::rave(g, &playout, &params, |m| m.cell(), deadline, &mut rng)
                    .map(|m| g.format_move(m));
            }
            pick(g, &cephalopod::CephalopodEval, level, limits, &mut rng, 2)
        }
        AnyGame::Mill(g) => {
            let eval = mill::MillEval::new(g.variant());
            pick(g, &eval, level, limits, &mut rng, 3)
        }
        AnyGame::WhiteRabbit(_) => None,
    }
}

/// Hard's perfect move in a Perekati-pole ending of the solved family, proved within half of
/// its budget (the other half is the ordinary search's when the proof does not come).
fn exact_ending(game: &::perekati::Perekati, limits: Limits) -> Option<perekati_exact::Exact> {
    if !perekati_exact::in_family(game) {
        return None;
    }
    let now = Instant::now();
    let deadline = now + limits.deadline.saturating_duration_since(now) / 2;
    let nodes = (limits.max_nodes / 2).min(perekati_exact::SOLVE_NODES);
    perekati_exact::solve_by(game, nodes, deadline)
}

/// The solver of Cephalopod 3×3 shared by every game of the process. The first call starts a
/// background thread that solves the whole game (about 35 s and 420 MB, docs/bots.md) and then
/// puts its complete table in place; until then each move is solved within its budget in the
/// shared table, which keeps what it proves, and a move the budget cannot prove falls back to
/// UCT with RAVE and random playouts.
fn perfect_3x3_move(
    game: &::cephalopod::Cephalopod,
    deadline: Instant,
    rng: &mut Rng,
) -> Option<::cephalopod::Move> {
    let shared = shared_3x3_solver();
    // On the empty board every first move wins by one die (docs/bots.md): no need to search.
    if game.dice_count(game::Seat::A) + game.dice_count(game::Seat::B) == 0 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        return (!moves.is_empty()).then(|| moves[rng.below(moves.len())]);
    }
    let mut solver = shared.lock().unwrap_or_else(|p| p.into_inner());
    solver.perfect_move_within(game, rng, deadline)
}

/// What a thread this crate starts for itself runs first (see [`on_background_thread_start`]).
static BACKGROUND_THREAD_START: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Sets what each thread this crate starts for itself (the 3×3 solver's whole-game solution,
/// half a minute of a core) runs first: a server lowers that thread's scheduling priority
/// there, as it does its CPU pool's, so that it never competes with the moves people wait for.
/// Only the first call counts.
pub fn on_background_thread_start(start: fn()) {
    let _ = BACKGROUND_THREAD_START.set(start);
}

/// The process's one solver of Cephalopod 3×3 (see [`perfect_3x3_move`]), its whole-game
/// solution started in the background on the first call.
pub(crate) fn shared_3x3_solver() -> &'static std::sync::Mutex<cephalopod::Solver> {
    static SOLVER: SharedSolver<cephalopod::Margin> = SharedSolver::new();
    SOLVER.get(&SOLVED_3X3)
}

/// Whether the shared 3×3 solver holds the whole game's solution.
pub(crate) static SOLVED_3X3: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// The process's one solver of Cephalopod 3×3 by margin and plies to the end (the analysis's,
/// never the bots'), its whole-game solution started in the background on the first call.
pub(crate) fn shared_3x3_ply_solver() -> &'static std::sync::Mutex<cephalopod::PlySolver> {
    static SOLVER: SharedSolver<cephalopod::MarginPlies> = SharedSolver::new();
    SOLVER.get(&SOLVED_3X3_PLIES)
}

/// Whether the shared 3×3 solver by margin and plies holds the whole game's solution.
pub(crate) static SOLVED_3X3_PLIES: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// A process-wide 3×3 solver whose whole-game solution is made once, on a thread of its own.
struct SharedSolver<S> {
    solver: std::sync::OnceLock<std::sync::Mutex<cephalopod::SolverOf<S>>>,
    warm_up: std::sync::Once,
}

impl<S: cephalopod::Scoring + Send + 'static> SharedSolver<S> {
    const fn new() -> Self {
        SharedSolver {
            solver: std::sync::OnceLock::new(),
            warm_up: std::sync::Once::new(),
        }
    }

    /// The solver, its whole-game solution started on the first call; `solved` is set once
    /// the solution is in place.
    fn get(
        &'static self,
        solved: &'static std::sync::atomic::AtomicBool,
    ) -> &'static std::sync::Mutex<cephalopod::SolverOf<S>> {
        use std::sync::Mutex;
        let shared = self
            .solver
            .get_or_init(|| Mutex::new(cephalopod::SolverOf::new()));
        self.warm_up.call_once(|| {
            let start = ::cephalopod::Cephalopod::new(::cephalopod::Variant::ThreeByThree, 0);
            std::thread::spawn(move || {
                if let Some(start) = BACKGROUND_THREAD_START.get() {
                    start();
                }
                let mut full = cephalopod::SolverOf::<S>::new();
                full.rate_moves(&start);
                *shared.lock().unwrap_or_else(|p| p.into_inner()) = full;
                solved.store(true, std::sync::atomic::Ordering::Release);
            });
        });
        shared
    }
}

/// Plain UCT with uniformly random playouts and no game knowledge: the yardstick Hard is
/// measured against. `None` when the game is over or for White Rabbit.
pub fn plain_uct_move(game: &AnyGame, budget: Duration, seed: u64) -> Option<String> {
    plain_uct_move_within(game, Budget::Time(budget), seed)
}

/// [`plain_uct_move`] with a time or a node budget (a node is one iteration).
pub fn plain_uct_move_within(game: &AnyGame, budget: Budget, seed: u64) -> Option<String> {
    let (deadline, max_iterations) = budget.limits();
    let mut rng = Rng::new(seed);
    let limits = Limits {
        deadline,
        max_nodes: max_iterations,
    };
    fn run<G: Game>(g: &G, limits: Limits, rng: &mut Rng) -> Option<String> {
        let playout = Playout::Random { max_plies: 400 };
        uct(g, &playout, 1.0, limits.deadline, limits.max_nodes, rng).map(|m| g.format_move(m))
    }
    match game {
        AnyGame::WhiteRabbit(_) => None,
        _ if game.is_over() => None,
        AnyGame::Perekati(g) => run(g, limits, &mut rng),
        AnyGame::Tumbleweed(g) => run(g, limits, &mut rng),
        AnyGame::Cephalopod(g) => run(g, limits, &mut rng),
        AnyGame::Mill(g) => run(g, limits, &mut rng),
    }
}

/// When a search must stop: the clock, or the number of nodes it has visited.
#[derive(Debug, Clone, Copy)]
struct Limits {
    deadline: Instant,
    max_nodes: u64,
}

/// The move of `level` in a game without special phases.
fn pick<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    level: Level,
    limits: Limits,
    rng: &mut Rng,
    medium_depth: i32,
) -> Option<String> {
    game.to_move()?;
    let mv = match level {
        Level::Random => random_move(game, rng)?,
        Level::Easy => easy_move(game, eval, limits, rng)?,
        Level::Medium => noisy_best(game, eval, medium_depth, 25, limits, rng)?,
        Level::Hard => {
            let mut search =
                AlphaBeta::new(eval, limits.deadline).with_node_limit(limits.max_nodes);
            search.best_move(game, 64, rng)?.best
        }
    };
    Some(game.format_move(mv))
}

fn random_move<G: Game>(game: &G, rng: &mut Rng) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

/// Easy: one ply, a lot of noise, and one move in eight played at random — a beginner who sees
/// what a move does but not what the answer to it is.
fn easy_move<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    limits: Limits,
    rng: &mut Rng,
) -> Option<G::Move> {
    if rng.below(8) == 0 {
        return random_move(game, rng);
    }
    noisy_best(game, eval, 1, 60, limits, rng)
}

/// Easy's noise over its last Perekati-pole cubes ([`perekati::finishing`]): a roll and a
/// half, so that it mostly rolls them nearer home but, unlike Medium, often not by the
/// shortest way.
const EASY_FINISHING_NOISE: i32 = 30;

/// Every move scored at `depth` plies with a full window, plus uniform noise of ±`noise`
/// (wins and losses found by the search are not blurred).
fn noisy_best<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: i32,
    noise: i32,
    limits: Limits,
    rng: &mut Rng,
) -> Option<G::Move> {
    let mut search = AlphaBeta::new(eval, limits.deadline).with_node_limit(limits.max_nodes);
    let mut scored = search.score_moves(game, depth);
    if scored.is_empty() {
        // Out of time before the first move finished: any legal move beats none.
        return random_move(game, rng);
    }
    rng.shuffle(&mut scored);
    scored
        .into_iter()
        .map(|(mv, s)| {
            let blur = if s.abs() >= WIN_BOUND {
                0
            } else {
                rng.below(2 * noise as usize + 1) as i32 - noise
            };
            (mv, s + blur)
        })
        .max_by_key(|&(_, s)| s)
        .map(|(mv, _)| mv)
}
