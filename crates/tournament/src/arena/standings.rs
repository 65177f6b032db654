//! Arena standings. Players are ordered by
//!
//! 1. points, more first;
//! 2. performance, higher first: the average rating of the opponents met, plus 500 times
//!    (wins − losses) over games played — a player without games counts their own rating;
//! 3. who reached their points first (the end of their last game that scored, or when they
//!    joined if none has);
//! 4. the player id, so that the order is total and the same on every node.

use serde::{Deserialize, Serialize};

use crate::arena::scoring::{GameResult, Score};
use crate::ids::PlayerId;

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// From 1.
    pub rank: u32,
    pub player: PlayerId,
    pub rating: i32,
    pub points: u32,
    pub performance: i32,
    /// Unix milliseconds: when the player reached `points`.
    pub reached_at: u64,
    /// The next game scores double.
    pub on_fire: bool,
    pub paused: bool,
    pub withdrawn: bool,
    /// Each game's score, in the order played.
    pub scores: Vec<Score>,
}

impl Standing {
    pub fn games(&self) -> usize {
        self.scores.len()
    }

    /// Games with this result.
    pub fn count(&self, result: GameResult) -> usize {
        self.scores
            .iter()
            .filter(|s| s.played.result == result)
            .count()
    }
}

/// The tie-break's performance: `rating` without games, otherwise the opponents' average
/// rating plus 500 × (wins − losses) / games, rounded down.
pub fn performance(rating: i32, games: impl IntoIterator<Item = (i32, GameResult)>) -> i32 {
    let (mut count, mut sum, mut margin) = (0i64, 0i64, 0i64);
    for (opponent, result) in games {
        count += 1;
        sum += i64::from(opponent);
        margin += match result {
            GameResult::Win => 1,
            GameResult::Draw => 0,
            GameResult::Loss => -1,
        };
    }
    if count == 0 {
        return rating;
    }
    (sum + 500 * margin).div_euclid(count) as i32
}

/// Sorts `lines` into standings order and numbers them.
pub fn rank(mut lines: Vec<Standing>) -> Vec<Standing> {
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.performance.cmp(&a.performance))
            .then(a.reached_at.cmp(&b.reached_at))
            .then(a.player.cmp(&b.player))
    });
    for (place, line) in lines.iter_mut().enumerate() {
        line.rank = place as u32 + 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(player: &str, points: u32, performance: i32, reached_at: u64) -> Standing {
        Standing {
            rank: 0,
            player: PlayerId::new(player),
            rating: 1500,
            points,
            performance,
            reached_at,
            on_fire: false,
            paused: false,
            withdrawn: false,
            scores: Vec::new(),
        }
    }

    #[test]
    fn points_then_performance_then_who_got_there_first() {
        let ranked = rank(vec![
            line("a", 4, 1500, 10),
            line("b", 6, 1400, 50),
            line("c", 4, 1600, 90),
            line("d", 4, 1500, 5),
            line("e", 4, 1500, 5),
        ]);
        let order: Vec<&str> = ranked.iter().map(|l| l.player.as_str()).collect();
        assert_eq!(order, ["b", "c", "d", "e", "a"]);
        assert_eq!(
            ranked.iter().map(|l| l.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn performance_is_the_opponents_average_moved_by_the_results() {
        use GameResult::*;
        assert_eq!(performance(1700, []), 1700);
        assert_eq!(performance(1500, [(1600, Win), (1400, Loss)]), 1500);
        assert_eq!(performance(1500, [(1600, Win), (1400, Win)]), 2000);
        assert_eq!(performance(1500, [(1500, Draw), (1501, Loss)]), 1250);
    }
}
