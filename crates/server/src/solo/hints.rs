//! The solver's hints at a solo game in progress, as `GET /api/tables/{id}/hints` answers
//! them: every legal action, best first by the one order (`ranking.rs`), exact when the level
//! is in the tables, from hint mode otherwise, with the actions that lead back into the turn
//! under way last.
//!
//! Exact hints are table look-ups (microseconds) and are answered at once; hint mode takes up
//! to ~100 ms of a core and runs on the CPU pool at the hints' priority, after the bots' moves
//! and before reviews.

use std::collections::HashSet;

use catalog::AnyGame;
use rabbit_solver::game::Game;
use rabbit_solver::white_rabbit::WhiteRabbit;
use serde::Serialize;
use utoipa::ToSchema;

use super::ranking::{HINT_BUDGET, RANKING, present};
use super::{Solo, SoloGame};
use crate::cpu_pool::Priority;
use crate::error::{ApiError, ErrorCode};
use crate::table::SoloPosition;

/// A hint: an action with its win probability, expected score and expected actions.
#[derive(ToSchema)]
#[schema(as = Hint)]
#[allow(dead_code)] // Only its schema is used: the solver's `Hint` has these fields.
pub(crate) struct HintSchema {
    /// In the engine's notation (`k4~r2`, `reroll`, `end`).
    action: String,
    win: f64,
    score: f64,
    actions: f64,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct HintsView {
    table: String,
    ply: u32,
    /// From the solver's tables; otherwise hint mode's estimates.
    exact: bool,
    /// What the list is sorted by.
    #[schema(value_type = Vec<String>)]
    ranking: [&'static str; 3],
    hints: Vec<HintLine>,
}

/// One line of a table's hints: a hint, and whether its action leads back to a position seen
/// earlier in this turn (such lines come last, in their own ranking).
#[derive(Serialize, ToSchema)]
pub(crate) struct HintLine {
    /// In the engine's notation (`k4~r2`, `reroll`, `end`).
    action: String,
    win: f64,
    score: f64,
    actions: f64,
    repeats: bool,
}

/// The hints at `position`, the game in progress at table `table`.
pub(crate) async fn hints(
    solo: &Solo,
    table: String,
    position: SoloPosition,
) -> Result<HintsView, ApiError> {
    let Some(SoloGame::WhiteRabbit) = SoloGame::of(position.variant.game()) else {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "hints are for White Rabbit tables",
        ));
    };
    let (game, this_turn) = replay(&position)?;
    let ply = position.moves.len() as u32;
    let now = game.clone();
    let exact = solo.tables.as_ref().and_then(|t| t.hints(&game));
    let (exact, mut hints) = match exact {
        Some(hints) => (true, hints),
        None => {
            let hints = solo
                .cpu
                .run(Priority::Hint, move || {
                    rabbit_solver::hints_with(&game, HINT_BUDGET)
                })
                .await
                .map_err(|e| ApiError::internal("the solver failed", e))?;
            (false, hints)
        }
    };
    present(&mut hints, exact);
    let hints = with_repeats_last(hints, &now, &this_turn)
        .into_iter()
        .map(|(hint, repeats)| HintLine {
            action: hint.action,
            win: hint.win,
            score: hint.score,
            actions: hint.actions,
            repeats,
        })
        .collect();
    Ok(HintsView {
        table,
        ply,
        exact,
        ranking: RANKING,
        hints,
    })
}

/// The game at `position`, and every position of the turn under way (which began after the
/// last `end`, or at the deal), so that no hint leads back into one.
fn replay(position: &SoloPosition) -> Result<(WhiteRabbit, HashSet<String>), ApiError> {
    let broken = |why: String| ApiError::internal("a game in progress does not replay", why);
    let mut game = AnyGame::new(position.variant, position.seed);
    let mut positions = vec![game.position()];
    for (ply, mv) in position.moves.iter().enumerate() {
        game.play_text(mv)
            .map_err(|e| broken(format!("{mv} at ply {ply}: {e}")))?;
        positions.push(game.position());
    }
    let AnyGame::WhiteRabbit(game) = game else {
        return Err(broken("not a White Rabbit game".into()));
    };
    let since_end = position.moves.iter().rposition(|mv| mv == "end");
    let this_turn = positions.drain(since_end.map_or(0, |i| i + 1)..).collect();
    Ok((game, this_turn))
}

/// Marks the actions that lead back to a position already seen this turn (`seen`) and puts
/// them last, keeping the order within each part. Estimates can rank a loop of swaps each
/// better than the next, and exact values can tie around one: a player who follows the first
/// hint must not go round it for ever.
pub fn with_repeats_last(
    hints: Vec<rabbit_solver::Hint>,
    game: &WhiteRabbit,
    seen: &std::collections::HashSet<String>,
) -> Vec<(rabbit_solver::Hint, bool)> {
    let mut marked: Vec<_> = hints
        .into_iter()
        .map(|hint| {
            let mut next = game.clone();
            let repeats = next.play_text(&hint.action).is_ok() && seen.contains(&next.position());
            (hint, repeats)
        })
        .collect();
    // A stable sort: within each part the ranking stays.
    marked.sort_by_key(|&(_, repeats)| repeats);
    marked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solo::ranking::tests::hint;

    #[test]
    fn the_hint_schema_has_the_fields_of_a_hint() {
        let hint = rabbit_solver::Hint {
            action: "end".into(),
            win: 1.0,
            score: 2.0,
            actions: 1.0,
        };
        let sent = serde_json::to_value(&hint).unwrap();
        let schema = serde_json::to_value(<HintSchema as utoipa::PartialSchema>::schema()).unwrap();
        let mut fields: Vec<&String> = sent.as_object().unwrap().keys().collect();
        let mut documented: Vec<&String> =
            schema["properties"].as_object().unwrap().keys().collect();
        fields.sort();
        documented.sort();
        assert_eq!(fields, documented);
    }

    /// The positions of the turn under way: from the deal, then from the position the roll
    /// after an `end` made.
    #[test]
    fn a_hint_knows_the_positions_of_the_turn_under_way() {
        let variant = catalog::GameId::WhiteRabbit
            .variant(Some("classic"))
            .unwrap();
        let seed = 11;
        let mut game = AnyGame::new(variant, seed);
        let start = game.position();
        let mut moves = Vec::new();
        let asked = |moves: &[String]| {
            replay(&SoloPosition {
                variant,
                seed,
                moves: moves.to_vec(),
            })
            .unwrap()
        };
        assert_eq!(asked(&moves).1, HashSet::from([start.clone()]));
        let swap = game.legal_texts().into_iter().find(|a| a.contains('~'));
        let swap = swap.expect("deal 11 starts with a swap to make");
        game.play_text(&swap).unwrap();
        moves.push(swap);
        let (now, this_turn) = asked(&moves);
        assert_eq!(now.position(), game.position());
        assert_eq!(this_turn, HashSet::from([start, game.position()]));
        // A new turn starts again from the position its roll made.
        game.play_text("end").unwrap();
        moves.push("end".into());
        if !game.is_over() {
            assert_eq!(asked(&moves).1, HashSet::from([game.position()]));
        }
    }

    #[test]
    fn a_hint_back_to_a_position_of_this_turn_comes_last() {
        let variant = rabbit_solver::white_rabbit::Variant::Classic;
        let start = WhiteRabbit::new(variant, 11);
        let actions = start.legal_texts();
        let swaps: Vec<&String> = actions.iter().filter(|a| a.contains('~')).collect();
        assert!(!swaps.is_empty(), "deal 11 starts with a swap to make");
        let hints: Vec<_> = actions.iter().map(|a| hint(a, 0.5, 1.0, 3.0)).collect();
        // The first swap leads to a position seen earlier in this turn.
        let mut after = start.clone();
        after.play_text(swaps[0]).unwrap();
        let seen = std::collections::HashSet::from([after.position()]);
        let marked = with_repeats_last(hints, &start, &seen);
        let (last, repeats) = marked.last().unwrap();
        assert_eq!((&last.action, *repeats), (swaps[0], true));
        let others: Vec<&String> = actions.iter().filter(|a| *a != swaps[0]).collect();
        let kept: Vec<&String> = marked[..marked.len() - 1]
            .iter()
            .map(|(h, _)| &h.action)
            .collect();
        assert_eq!(kept, others, "the rest keep their order");
        assert!(
            marked[..marked.len() - 1]
                .iter()
                .all(|(_, repeats)| !repeats)
        );
    }
}
