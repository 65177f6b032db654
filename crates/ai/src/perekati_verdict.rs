//! When a Perekati-pole bot stops playing on: the judgement behind [`crate::decision`].
//!
//! - **Lost**: a search of [`VERDICT_NODES`] nodes (Hard's evaluation) proves that the
//!   opponent wins whatever the bot does, or the exact endings ([`crate::perekati_exact`]) say
//!   so. The bot resigns on its turn, and takes a draw if one is offered.
//! - **Stalled**: the exact endings prove a draw (a fortress: neither side can force more), or
//!   no cube of either side has come home for [`STALLED_PLIES`] plies, the bot has no more
//!   cubes home than its opponent (a leader wins when the game ends, so it plays on to end it)
//!   and its search does not see a win. The bot offers a draw with its move once every
//!   [`OFFER_EVERY_PLIES`] plies and accepts one whenever it is offered.

use std::time::{Duration, Instant};

use game::{Game, Outcome, Seat};
use perekati::{Cell, Perekati};

use crate::Rng;
use crate::alphabeta::AlphaBeta;
use crate::eval::WIN_BOUND;
use crate::perekati::{PerekatiEval, RollDistance};
use crate::perekati_exact;

/// Plies without a cube coming home after which a game counts as stalled (40 moves a side:
/// on the largest board a cube needs about ten rolls to come home from its start; counted
/// from the start too, so it must leave room for the first cubes to arrive). The platform
/// adjudicates the game at [`perekati::NO_PROGRESS_PLIES`] (a level one as a draw); a stalled
/// bot offers its draw before that, at this count and again every [`OFFER_EVERY_PLIES`].
pub const STALLED_PLIES: usize = 80;
/// A stalled bot offers a draw again after this many plies (a declined offer is not repeated
/// every move).
pub const OFFER_EVERY_PLIES: usize = 40;
/// The judging search's size: a few milliseconds, enough to see a race lost by a few rolls.
pub const VERDICT_NODES: u64 = 20_000;
/// The judging search is run only when the opponent could finish within this many rolls or
/// leads on home cubes: a loss cannot be proved earlier.
const NEAR_THE_END_ROLLS: u32 = 12;

/// What the bot makes of the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing to decide: play the move.
    PlayOn,
    /// No progress for long and nothing to win: a draw is welcome.
    Stalled,
    /// The opponent wins whatever the bot does.
    Lost,
}

/// The verdict of the side to move.
pub fn judge(game: &Perekati) -> Verdict {
    let Some(me) = game.to_move() else {
        return Verdict::PlayOn;
    };
    judge_for(game, me)
}

/// The verdict of the side that is not to move (answering a draw offer made on the
/// opponent's turn).
pub fn judge_for_waiting_side(game: &Perekati) -> Verdict {
    let Some(mover) = game.to_move() else {
        return Verdict::PlayOn;
    };
    judge_for(game, mover.other())
}

/// Whether a stalled bot offers its draw on this turn: on its first turn after a cube came
/// home, then once in every [`OFFER_EVERY_PLIES`] (so a declined offer is not repeated every
/// move).
pub fn time_to_offer(game: &Perekati) -> bool {
    game.plies_since_home() % OFFER_EVERY_PLIES < 2
}

/// The verdict of `me`, whoever is to move, within [`JUDGING_TIME`].
pub fn judge_for(game: &Perekati, me: Seat) -> Verdict {
    judge_by(game, me, Instant::now() + JUDGING_TIME)
}

/// The longest a verdict takes when its node budget is not spent first: the judgement comes on
/// top of a bot's thinking time, so it must stay small beside the smallest budgets.
pub const JUDGING_TIME: Duration = Duration::from_millis(50);

/// [`judge_for`] that gives up proving at `deadline` (and then plays on or offers a draw by
/// the stall rule alone).
pub fn judge_by(game: &Perekati, me: Seat, deadline: Instant) -> Verdict {
    let exact = perekati_exact::solve_by(game, VERDICT_NODES * 5, deadline);
    if exact.is_some_and(|e| e.outcome == Outcome::Draw) {
        return Verdict::Stalled;
    }
    let value = exact.map_or_else(
        || value_for(game, me, deadline),
        |e| Some(signed(e.score(), game, me)),
    );
    if value.is_some_and(|v| v <= -WIN_BOUND) {
        return Verdict::Lost;
    }
    let stalled = game.plies_since_home() >= STALLED_PLIES
        && game.home_count(me) <= game.home_count(me.other())
        && value.is_none_or(|v| v < WIN_BOUND);
    if stalled {
        Verdict::Stalled
    } else {
        Verdict::PlayOn
    }
}

/// A value for the side to move, turned to `me`'s side.
fn signed(value: i32, game: &Perekati, me: Seat) -> i32 {
    if game.to_move() == Some(me) {
        value
    } else {
        -value
    }
}

/// The position's value for `me` from a short search, when the end is near enough for it to
/// prove anything; `None` otherwise.
fn value_for(game: &Perekati, me: Seat, deadline: Instant) -> Option<i32> {
    let opponent = me.other();
    let near = game.home_count(opponent) > game.home_count(me)
        || rolls_to_finish(game, opponent) <= NEAR_THE_END_ROLLS
        || game.plies_since_home() >= STALLED_PLIES;
    if !near {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if let [only] = moves[..] {
        // The search does not look past a forced move: judge the position after it.
        let mut next = game.clone();
        next.make(only);
        return match next.outcome() {
            Some(outcome) => Some(crate::eval::terminal_score(outcome, me, 1)),
            None => value_for(&next, me, deadline),
        };
    }
    if moves.is_empty() {
        return None;
    }
    let eval = PerekatiEval::hard(game.variant());
    let mut search = AlphaBeta::new(&eval, deadline).with_node_limit(VERDICT_NODES);
    let found = search.best_move(game, 64, &mut Rng::new(0))?;
    Some(signed(found.score, game, me))
}

/// Rolls `seat` still needs to bring every cube home, on an empty board.
fn rolls_to_finish(game: &Perekati, seat: Seat) -> u32 {
    let variant = game.variant();
    let distance = RollDistance::new(variant);
    let mut total = 0;
    for row in 0..variant.rows() {
        for column in 0..variant.columns() {
            let Some(cell) = Cell::new(column, row) else {
                continue;
            };
            if let Some((owner, hat)) = game.cube(cell)
                && owner == seat
                && !game.is_home(cell)
            {
                total += distance.rolls(seat, cell, hat);
            }
        }
    }
    total
}
