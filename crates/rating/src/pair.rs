//! Repeated games between the same two players count for less, so that two accounts cannot
//! farm a rating by playing each other again and again.
//!
//! Within [`PAIR_WINDOW`], the `k`-th rated game between the same two players (in the same
//! game and class) moves each player's rating by `1/k` of its Glicko-2 change, and what one
//! player's rating has moved in total in those games is held within ±[`PAIR_BOUND`]; a game
//! that would carry it past the bound moves it only up to the bound. Only the rating is damped:
//! the deviation and the volatility move as Glicko-2 says, so that a newcomer who meets the
//! same few opponents again and again still becomes established after about as many games
//! as anyone else (the bound, not the deviation, is what keeps a farm's rating in check).

use std::time::Duration;

use crate::Rating;

/// How far back games between the same two players are counted.
pub const PAIR_WINDOW: Duration = Duration::from_secs(24 * 60 * 60);

/// The most one player's rating may move, in total, through games against one opponent
/// within [`PAIR_WINDOW`].
pub const PAIR_BOUND: f64 = 150.0;

/// What earlier rated games against the same opponent within [`PAIR_WINDOW`] did to one
/// player's rating.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PairHistory {
    /// How many there were.
    pub games: u32,
    /// The sum of their rating changes (rating after minus rating before).
    pub moved: f64,
}

impl PairHistory {
    /// The rating `after` one more game against this opponent, from `before` and the full
    /// Glicko-2 result `after`: the rating's change damped by the number of earlier games and
    /// held within the bound; the deviation, the volatility and the count of games played are
    /// `after`'s.
    pub fn damp(&self, before: &Rating, after: &Rating) -> Rating {
        let full = after.rating - before.rating;
        let scaled = full / f64::from(self.games + 1);
        let moved = self.moved.clamp(-PAIR_BOUND, PAIR_BOUND);
        let allowed = (moved + scaled).clamp(-PAIR_BOUND, PAIR_BOUND) - moved;
        Rating {
            rating: before.rating + allowed,
            ..*after
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Score, after_game};

    #[test]
    fn the_first_game_of_a_pair_counts_in_full_within_the_bound() {
        let before = Rating {
            rating: 1600.0,
            deviation: 60.0,
            volatility: 0.06,
            games: 40,
        };
        let (after, _) = after_game(&before, &before, Score::Win);
        assert_eq!(PairHistory::default().damp(&before, &after), after);
    }

    #[test]
    fn later_games_count_for_less_but_move_the_deviation_in_full() {
        let before = Rating {
            rating: 1600.0,
            deviation: 60.0,
            volatility: 0.06,
            games: 40,
        };
        let (after, _) = after_game(&before, &before, Score::Win);
        let third = PairHistory {
            games: 2,
            moved: 10.0,
        }
        .damp(&before, &after);
        let full = after.rating - before.rating;
        assert!((third.rating - before.rating - full / 3.0).abs() < 1e-9);
        assert_eq!(third.deviation, after.deviation);
        assert_eq!(third.volatility, after.volatility);
        assert_eq!(third.games, after.games);
    }

    #[test]
    fn a_farm_of_a_hundred_wins_a_day_gains_at_most_the_bound() {
        let (mut farmer, mut feeder) = (Rating::default(), Rating::default());
        let (start_farmer, start_feeder) = (farmer, feeder);
        let (mut farmer_pair, mut feeder_pair) = (PairHistory::default(), PairHistory::default());
        for _ in 0..100 {
            let (won, lost) = after_game(&farmer, &feeder, Score::Win);
            let (won, lost) = (
                farmer_pair.damp(&farmer, &won),
                feeder_pair.damp(&feeder, &lost),
            );
            farmer_pair = PairHistory {
                games: farmer_pair.games + 1,
                moved: farmer_pair.moved + won.rating - farmer.rating,
            };
            feeder_pair = PairHistory {
                games: feeder_pair.games + 1,
                moved: feeder_pair.moved + lost.rating - feeder.rating,
            };
            (farmer, feeder) = (won, lost);
        }
        assert!(
            farmer.rating - start_farmer.rating <= PAIR_BOUND + 1e-9,
            "{farmer:?}"
        );
        assert!(
            start_feeder.rating - feeder.rating <= PAIR_BOUND + 1e-9,
            "{feeder:?}"
        );
        assert!(farmer.rating > start_farmer.rating);
        assert_eq!(farmer.games, 100);
        // The games still count as evidence: the deviation shrinks as in any hundred games.
        assert!(!farmer.provisional(), "{farmer:?}");
    }

    #[test]
    fn a_newcomer_who_meets_the_same_few_opponents_again_becomes_established() {
        // Forty games a day, four against each of ten fresh accounts, won and lost in turn.
        let mut player = Rating::default();
        for opponent in 0..10 {
            let (mut other, mut pair) = (Rating::default(), PairHistory::default());
            for game in 0..4 {
                let score = if (opponent + game) % 2 == 0 {
                    Score::Win
                } else {
                    Score::Loss
                };
                let (after, other_after) = after_game(&player, &other, score);
                let after = pair.damp(&player, &after);
                pair = PairHistory {
                    games: pair.games + 1,
                    moved: pair.moved + after.rating - player.rating,
                };
                (player, other) = (after, other_after);
            }
        }
        assert!(!player.provisional(), "{player:?}");
    }

    #[test]
    fn a_player_at_the_bound_can_still_lose_what_they_gained() {
        let before = Rating::default();
        let (_, lost) = after_game(&Rating::default(), &before, Score::Win);
        let at_bound = PairHistory {
            games: 1,
            moved: PAIR_BOUND,
        };
        let after = at_bound.damp(&before, &lost);
        assert!(after.rating < before.rating);
        let (won, _) = after_game(&before, &Rating::default(), Score::Win);
        assert_eq!(at_bound.damp(&before, &won).rating, before.rating);
    }
}
