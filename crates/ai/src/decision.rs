//! How a bot ends a game the way a person would: it resigns a position it sees is lost, offers
//! a draw when neither side has made progress for a long time, and answers a draw offer by the
//! same judgement. Only Perekati-pole's bots judge so far (its games can run on with nothing
//! to play for); the other games' bots always play their move and decline every offer.

use std::time::Instant;

use catalog::AnyGame;
use game::Seat;

use crate::perekati_verdict::{self, Verdict};
use crate::{Budget, Level, choose_move_within};

/// What a bot does on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Plays this move (canonical notation).
    Play(String),
    /// Plays this move and offers a draw with it.
    PlayAndOfferDraw(String),
    /// Takes the draw the opponent offered (instead of moving).
    AcceptDraw,
    /// Gives the game up instead of moving.
    Resign,
}

impl Decision {
    /// The move played, if the bot moves.
    pub fn mv(&self) -> Option<&str> {
        match self {
            Decision::Play(mv) | Decision::PlayAndOfferDraw(mv) => Some(mv),
            Decision::AcceptDraw | Decision::Resign => None,
        }
    }
}

/// Whether the bots of this game judge when to resign and when to take a draw (else a bot plays
/// every game to its end and a draw offer to it is refused).
pub fn judges_endings(game: &AnyGame) -> bool {
    matches!(game, AnyGame::Perekati(_))
}

/// The bot's decision on its turn: [`choose_move_within`]'s move, or a resignation, or the move
/// with a draw offer, or, when `draw_offered` (the opponent's offer is on the table), taking it
/// (thresholds: `docs/bots.md`, "Ending games"). Playing a move declines an offer. `None` when
/// the game is over. The random bot never judges.
pub fn decide(
    game: &AnyGame,
    level: Level,
    budget: Budget,
    seed: u64,
    draw_offered: bool,
) -> Option<Decision> {
    let me = game.to_move()?;
    // The judgement may take a quarter of a time budget (a node budget bounds it by nodes).
    let judging = match budget {
        Budget::Time(time) => (time / 4).min(perekati_verdict::JUDGING_TIME),
        Budget::Nodes(_) => perekati_verdict::JUDGING_TIME * 20,
    };
    let verdict = verdict(game, level, me, Instant::now() + judging);
    if draw_offered && verdict != Verdict::PlayOn {
        return Some(Decision::AcceptDraw);
    }
    if verdict == Verdict::Lost {
        return Some(Decision::Resign);
    }
    let mv = choose_move_within(game, level, budget, seed)?;
    match (verdict, game) {
        (Verdict::Stalled, AnyGame::Perekati(g)) if perekati_verdict::time_to_offer(g) => {
            Some(Decision::PlayAndOfferDraw(mv))
        }
        _ => Some(Decision::Play(mv)),
    }
}

/// Whether the bot at `seat` takes a draw offered now (on either side's turn): it does when it
/// would offer one itself, or when it sees its position lost.
pub fn accepts_draw(game: &AnyGame, level: Level, seat: Seat) -> bool {
    let deadline = Instant::now() + perekati_verdict::JUDGING_TIME;
    game.to_move().is_some() && verdict(game, level, seat, deadline) != Verdict::PlayOn
}

fn verdict(game: &AnyGame, level: Level, seat: Seat, deadline: Instant) -> Verdict {
    match game {
        AnyGame::Perekati(g) if level != Level::Random => {
            perekati_verdict::judge_by(g, seat, deadline)
        }
        _ => Verdict::PlayOn,
    }
}
