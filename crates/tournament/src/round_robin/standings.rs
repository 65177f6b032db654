//! Round robin standings: 1 point a win, ½ a draw, 0 a loss (a forfeit counts as a win for
//! the opponent). Ties are broken by
//!
//! 1. Sonneborn–Berger: the points of every opponent beaten, plus half the points of every
//!    opponent drawn, as the standings are at the end — beating the strong counts more;
//! 2. the number of wins;
//!
//! and players still tied share their place. Points are kept in halves and
//! Sonneborn–Berger in quarters, so that nothing is rounded.

use game::Outcome;
use serde::{Deserialize, Serialize};

use crate::ids::PlayerId;
use crate::result::GameResult;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// From 1; players tied on points, Sonneborn–Berger and wins share it.
    pub rank: u32,
    pub player: PlayerId,
    pub rating: i32,
    /// Twice the points.
    pub half_points: u32,
    /// Four times the Sonneborn–Berger score.
    pub sb_quarters: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub withdrawn: bool,
}

impl Standing {
    pub fn points(&self) -> f64 {
        f64::from(self.half_points) / 2.0
    }

    pub fn sonneborn_berger(&self) -> f64 {
        f64::from(self.sb_quarters) / 4.0
    }

    fn key(&self) -> (u32, u32, u32) {
        (self.half_points, self.sb_quarters, self.wins)
    }
}

/// A game that counts: played to its end, or forfeited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    /// Seat A, seat B.
    pub seats: [PlayerId; 2],
    /// `Win` or `Draw`.
    pub outcome: Outcome,
}

impl Counted {
    /// Half points of the seat at `index`.
    fn halves(&self, index: usize) -> u32 {
        match GameResult::of(self.outcome, index) {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// The standings of `players` (id, rating, withdrawn) after the games `counted`.
pub fn standings(players: Vec<(PlayerId, i32, bool)>, counted: &[Counted]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = players
        .into_iter()
        .map(|(player, rating, withdrawn)| Standing {
            rank: 0,
            player,
            rating,
            half_points: 0,
            sb_quarters: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            withdrawn,
        })
        .collect();
    lines.sort_by(|a, b| a.player.cmp(&b.player));
    let find = |lines: &[Standing], player: &PlayerId| {
        lines.binary_search_by(|line| line.player.cmp(player)).ok()
    };
    let seats = |lines: &[Standing], game: &Counted| {
        [find(lines, &game.seats[0]), find(lines, &game.seats[1])]
    };
    for game in counted {
        for (index, line) in seats(&lines, game).into_iter().enumerate() {
            let Some(line) = line else { continue };
            let line = &mut lines[line];
            line.half_points += game.halves(index);
            match GameResult::of(game.outcome, index) {
                GameResult::Win => line.wins += 1,
                GameResult::Draw => line.draws += 1,
                GameResult::Loss => line.losses += 1,
            }
        }
    }
    // Sonneborn–Berger from the final points: a win earns the opponent's points (2 halves
    // a point: ×2 in quarters), a draw half of them.
    let points: Vec<u32> = lines.iter().map(|line| line.half_points).collect();
    for game in counted {
        let both = seats(&lines, game);
        for (index, line) in both.into_iter().enumerate() {
            let (Some(line), Some(opponent)) = (line, both[1 - index]) else {
                continue;
            };
            lines[line].sb_quarters += game.halves(index) * points[opponent];
        }
    }
    lines.sort_by(|a, b| b.key().cmp(&a.key()).then(a.player.cmp(&b.player)));
    for index in 0..lines.len() {
        lines[index].rank = if index > 0 && lines[index].key() == lines[index - 1].key() {
            lines[index - 1].rank
        } else {
            index as u32 + 1
        };
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Seat;

    fn id(name: &str) -> PlayerId {
        PlayerId::new(name)
    }

    fn game(a: &str, b: &str, outcome: Outcome) -> Counted {
        Counted {
            seats: [id(a), id(b)],
            outcome,
        }
    }

    fn players(names: &[&str]) -> Vec<(PlayerId, i32, bool)> {
        names.iter().map(|n| (id(n), 1500, false)).collect()
    }

    const A: Outcome = Outcome::Win(Seat::A);
    const B: Outcome = Outcome::Win(Seat::B);
    const DRAW: Outcome = Outcome::Draw;

    #[test]
    fn sonneborn_berger_breaks_a_tie_in_favour_of_who_beat_the_stronger() {
        // ann and bob both score 1½: ann beat cat (2 points), bob beat dan (1 point).
        let games = [
            game("ann", "cat", A),
            game("ann", "dan", B),
            game("ann", "bob", DRAW),
            game("bob", "dan", A),
            game("bob", "cat", B),
            game("cat", "dan", A),
        ];
        let table = standings(players(&["ann", "bob", "cat", "dan"]), &games);
        let order: Vec<(&str, f64, f64, u32)> = table
            .iter()
            .map(|l| (l.player.as_str(), l.points(), l.sonneborn_berger(), l.rank))
            .collect();
        assert_eq!(
            order,
            [
                ("cat", 2.0, 2.5, 1),
                ("ann", 1.5, 2.75, 2),
                ("bob", 1.5, 1.75, 3),
                ("dan", 1.0, 1.5, 4)
            ]
        );
    }

    #[test]
    fn players_tied_on_everything_share_their_place() {
        // A cycle: each beat one and lost to one.
        let games = [
            game("ann", "bob", A),
            game("bob", "cat", A),
            game("cat", "ann", A),
        ];
        let table = standings(players(&["ann", "bob", "cat"]), &games);
        assert!(
            table
                .iter()
                .all(|line| line.rank == 1 && line.points() == 1.0)
        );
    }

    #[test]
    fn draws_count_half_and_give_half_the_opponents_points() {
        let games = [
            game("ann", "bob", DRAW),
            game("ann", "cat", A),
            game("bob", "cat", A),
        ];
        let table = standings(players(&["ann", "bob", "cat"]), &games);
        assert_eq!(table[0].player, id("ann"));
        assert_eq!(table[0].points(), 1.5);
        // ann: half of bob's 1.5, cat's 0.
        assert_eq!(table[0].sonneborn_berger(), 0.75);
        assert_eq!(table[1].player, id("bob"));
        assert_eq!((table[0].rank, table[1].rank), (1, 1));
        assert_eq!((table[0].wins, table[0].draws, table[0].losses), (1, 1, 0));
    }

    #[test]
    fn more_wins_break_what_sonneborn_berger_leaves_tied() {
        // Both 1 point with SB ½: ann from a win over cat (½ point), bob from draws with
        // dan and eve (½ point each).
        let games = [
            game("ann", "cat", A),
            game("cat", "fay", DRAW),
            game("bob", "dan", DRAW),
            game("bob", "eve", DRAW),
        ];
        let table = standings(players(&["ann", "bob", "cat", "dan", "eve", "fay"]), &games);
        let line = |name: &str| table.iter().find(|l| l.player == id(name)).unwrap();
        assert_eq!(
            line("ann").sonneborn_berger(),
            line("bob").sonneborn_berger()
        );
        assert_eq!(table[0].player, id("ann"));
        assert_eq!(table[0].rank, 1);
        assert_eq!(table[1].player, id("bob"));
        assert_eq!(table[1].rank, 2);
    }
}
