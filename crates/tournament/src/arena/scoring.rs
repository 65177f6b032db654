//! Arena scoring, as a fold over one player's finished games in the order they were played
//! (lichess's `ArenaSheet`):
//!
//! - a win scores 2, a draw 1, a loss 0;
//! - after two wins in a row a player is *on fire*: each further game scores double (a win
//!   4, a draw 2) until a game is not won — the draw still scores double, and ends the fire;
//! - a berserk win adds 1 (not doubled) when the game lasted at least the game's
//!   `berserk_bonus` plies;
//! - a draw shorter than the game's `draw` plies scores nothing, on fire or not.

use serde::{Deserialize, Serialize};

use crate::plies::PlyMinimums;
pub use crate::result::GameResult;

/// A finished game as scoring sees it, from one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    pub result: GameResult,
    pub plies: u32,
    /// This player went berserk (half the clock, no increment).
    pub berserk: bool,
}

/// How one game scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub played: Played,
    pub points: u32,
    /// Played on fire: the game's points were doubled.
    pub doubled: bool,
    /// The berserk point was earned.
    pub berserk_bonus: bool,
    /// A draw too short to score.
    pub early_draw: bool,
}

/// A player's running total: what the next game's score depends on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub points: u32,
    /// Games won in a row up to now (counted up to 2: more changes nothing).
    wins_in_a_row: u8,
}

impl Sheet {
    /// The player's next games score double.
    pub fn on_fire(&self) -> bool {
        self.wins_in_a_row >= 2
    }

    /// Scores the next game and adds it to the total.
    pub fn add(&mut self, played: Played, minimums: PlyMinimums) -> Score {
        let early_draw = played.result == GameResult::Draw && played.plies < minimums.draw;
        let base = match played.result {
            GameResult::Win => 2,
            GameResult::Draw if early_draw => 0,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        };
        let doubled = self.on_fire() && base > 0;
        let berserk_bonus = played.berserk
            && played.result == GameResult::Win
            && played.plies >= minimums.berserk_bonus;
        let points = if doubled { base * 2 } else { base } + u32::from(berserk_bonus);
        self.points += points;
        self.wins_in_a_row = match played.result {
            GameResult::Win => (self.wins_in_a_row + 1).min(2),
            GameResult::Draw | GameResult::Loss => 0,
        };
        Score {
            played,
            points,
            doubled,
            berserk_bonus,
            early_draw,
        }
    }

    /// The sheet after `games`, from an empty one, and each game's score.
    pub fn fold(
        games: impl IntoIterator<Item = Played>,
        minimums: PlyMinimums,
    ) -> (Sheet, Vec<Score>) {
        let mut sheet = Sheet::default();
        let scores = games
            .into_iter()
            .map(|game| sheet.add(game, minimums))
            .collect();
        (sheet, scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MIN: PlyMinimums = PlyMinimums {
        berserk_bonus: 14,
        draw: 20,
    };

    fn game(result: GameResult) -> Played {
        Played {
            result,
            plies: 40,
            berserk: false,
        }
    }
    use GameResult::{Draw, Loss, Win};

    fn points(results: &[Played]) -> Vec<u32> {
        Sheet::fold(results.iter().copied(), MIN)
            .1
            .iter()
            .map(|s| s.points)
            .collect()
    }

    #[test]
    fn a_win_scores_two_a_draw_one_a_loss_nothing() {
        assert_eq!(
            points(&[game(Win), game(Loss), game(Draw), game(Loss)]),
            [2, 0, 1, 0]
        );
    }

    #[test]
    fn two_wins_in_a_row_set_the_player_on_fire_until_a_game_is_not_won() {
        let results = [
            Win, Win, Win, Win, Loss, Win, Win, Draw, Win, Draw, Win, Win, Loss,
        ];
        let games: Vec<Played> = results.iter().map(|&r| game(r)).collect();
        assert_eq!(points(&games), [2, 2, 4, 4, 0, 2, 2, 2, 2, 1, 2, 2, 0]);
        let (sheet, scores) = Sheet::fold(games, MIN);
        assert_eq!(sheet.points, 25);
        assert!(!sheet.on_fire());
        assert!(scores[2].doubled && scores[7].doubled && !scores[9].doubled);
    }

    #[test]
    fn a_berserk_win_adds_a_point_only_after_enough_plies() {
        let berserk = |result, plies| Played {
            result,
            plies,
            berserk: true,
        };
        assert_eq!(points(&[berserk(Win, 14)]), [3]);
        assert_eq!(points(&[berserk(Win, 13)]), [2]);
        // Not doubled on fire: 4 + 1.
        assert_eq!(points(&[game(Win), game(Win), berserk(Win, 30)]), [2, 2, 5]);
        // A berserk draw or loss earns nothing extra.
        assert_eq!(points(&[berserk(Draw, 30), berserk(Loss, 30)]), [1, 0]);
    }

    #[test]
    fn a_draw_before_the_minimum_scores_nothing_even_on_fire_and_ends_the_fire() {
        let short = Played {
            result: Draw,
            plies: 19,
            berserk: false,
        };
        assert_eq!(points(&[short]), [0]);
        let (sheet, scores) = Sheet::fold([game(Win), game(Win), short, game(Win)], MIN);
        assert_eq!(
            scores.iter().map(|s| s.points).collect::<Vec<_>>(),
            [2, 2, 0, 2]
        );
        assert!(scores[2].early_draw && !scores[2].doubled);
        assert_eq!(sheet.points, 6);
        let at_minimum = Played { plies: 20, ..short };
        assert_eq!(points(&[at_minimum]), [1]);
    }

    fn any_played() -> impl Strategy<Value = Played> {
        (
            prop_oneof![Just(Win), Just(Draw), Just(Loss)],
            0u32..60,
            any::<bool>(),
        )
            .prop_map(|(result, plies, berserk)| Played {
                result,
                plies,
                berserk,
            })
    }

    proptest! {
        #[test]
        fn the_total_is_the_sum_of_the_games_and_each_game_scores_within_its_bounds(
            games in prop::collection::vec(any_played(), 0..40)
        ) {
            let (sheet, scores) = Sheet::fold(games.iter().copied(), MIN);
            prop_assert_eq!(sheet.points, scores.iter().map(|s| s.points).sum::<u32>());
            for (i, score) in scores.iter().enumerate() {
                let fire = i >= 2 && games[i - 2].result == Win && games[i - 1].result == Win;
                prop_assert_eq!(score.doubled, fire && score.points > 0);
                let most = match score.played.result { Win => 5, Draw => 2, Loss => 0 };
                prop_assert!(score.points <= most);
                if score.played.result == Loss { prop_assert_eq!(score.points, 0); }
            }
            // Adding games one at a time is the fold.
            let mut step = Sheet::default();
            for game in &games { step.add(*game, MIN); }
            prop_assert_eq!(step, sheet);
        }
    }
}
