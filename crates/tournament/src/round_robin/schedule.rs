//! The round robin's schedule by the circle method (Berger's tables): with `n` players (one
//! more, a bye, when `n` is odd) one player stays put and the others turn around a circle,
//! one place a round, so that each meets each once in `n − 1` rounds. Seats alternate so
//! that nobody has seat A more than once more than seat B in a cycle. When both sides are
//! played, a second cycle repeats the first with the seats swapped.

/// The rounds: in each, pairs of player indices `[seat A, seat B]` (a player with the bye
/// that round is in no pair).
pub fn rounds(players: usize, both_sides: bool) -> Vec<Vec<[usize; 2]>> {
    if players < 2 {
        return Vec::new();
    }
    let circle = players + players % 2; // with the bye, when odd
    let fixed = circle - 1;
    let mut cycle = Vec::new();
    for round in 0..fixed {
        let mut pairs = Vec::new();
        let first = if round % 2 == 0 {
            [round, fixed]
        } else {
            [fixed, round]
        };
        pairs.push(first);
        for step in 1..circle / 2 {
            let ahead = (round + step) % fixed;
            let behind = (round + fixed - step) % fixed;
            pairs.push(if step % 2 == 1 {
                [ahead, behind]
            } else {
                [behind, ahead]
            });
        }
        // The pair with the bye (the index past the last player) is no game.
        pairs.retain(|pair| pair.iter().all(|&p| p < players));
        cycle.push(pairs);
    }
    if both_sides {
        let swapped: Vec<Vec<[usize; 2]>> = cycle
            .iter()
            .map(|round| round.iter().map(|&[a, b]| [b, a]).collect())
            .collect();
        cycle.extend(swapped);
    }
    cycle
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_players_meet_in_three_rounds() {
        let rounds = rounds(4, false);
        assert_eq!(rounds.len(), 3);
        assert!(rounds.iter().all(|round| round.len() == 2));
    }

    #[test]
    fn nobody_plays_alone_or_twice_in_a_round() {
        assert!(rounds(0, true).is_empty());
        assert!(rounds(1, true).is_empty());
        assert_eq!(rounds(2, true), [vec![[0, 1]], vec![[1, 0]]]);
    }

    #[test]
    fn each_meets_each_once_a_cycle_with_seats_balanced() {
        for players in 2..=16 {
            for both_sides in [false, true] {
                let rounds = rounds(players, both_sides);
                let cycles = if both_sides { 2 } else { 1 };
                let per_cycle = players - 1 + players % 2;
                assert_eq!(rounds.len(), per_cycle * cycles, "{players}");
                let mut met = vec![vec![0; players]; players];
                let mut seat_a = vec![0i32; players];
                for round in &rounds {
                    let mut busy = vec![false; players];
                    for &[a, b] in round {
                        assert!(
                            a != b && !busy[a] && !busy[b],
                            "{players}: twice in a round"
                        );
                        busy[a] = true;
                        busy[b] = true;
                        met[a][b] += 1;
                        seat_a[a] += 1;
                        seat_a[b] -= 1;
                    }
                    // Everyone plays every round, but the one with the bye.
                    assert_eq!(busy.iter().filter(|&&b| !b).count(), players % 2);
                }
                for (a, balance) in seat_a.iter().enumerate() {
                    for b in (0..players).filter(|&b| b != a) {
                        let times = met[a][b] + met[b][a];
                        assert_eq!(times, cycles, "{players}: {a} and {b}");
                        if both_sides {
                            assert_eq!(met[a][b], 1, "{players}: {a} in seat A against {b}");
                        }
                    }
                    assert!(balance.abs() <= 1, "{players}: seats of {a}");
                }
            }
        }
    }
}
