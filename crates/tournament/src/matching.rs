//! The most pairs that can be made among some players, and among those the cheapest: a
//! maximum-weight matching on a general graph, solved by `integer-blossom` (the O(n³)
//! primal–dual blossom algorithm, checked there against a brute-force oracle, and here too).
//!
//! Three aims, each strictly before the next, are folded into one weight per pair: as many
//! pairs as possible; then, when someone must be left out, the `spare` player; then the
//! least total cost. With `k` the most pairs a matching can hold, every cost at most
//! `MAX_COST` and both big terms above `k * MAX_COST`, no amount of cost can buy a pair less
//! or the spare's seat.

/// Costs are capped here, which bounds the weights far below `i64`'s limits.
pub const MAX_COST: u32 = 1 << 24;

/// The cheapest of the largest matchings of `players` vertices, as pairs `(i, j)` with
/// `i < j`, in increasing order. `cost(i, j)` (asked for `i < j` only) is `None` for a pair
/// that may not play; `spare` is the vertex to leave unpaired when one must be. The work
/// grows as the cube of `players`: callers keep groups small.
pub fn cheapest_pairs(
    players: usize,
    cost: impl Fn(usize, usize) -> Option<u32>,
    spare: Option<usize>,
) -> Vec<(usize, usize)> {
    if players < 2 {
        return Vec::new();
    }
    let max_cost = i64::from(MAX_COST);
    let big = (players as i64 / 2 + 1) * max_cost;
    let mut weights = vec![0i64; players * players];
    for i in 0..players {
        for j in i + 1..players {
            if let Some(cost) = cost(i, j) {
                let kept = 2 - i64::from(spare == Some(i)) - i64::from(spare == Some(j));
                let cost = i64::from(cost.min(MAX_COST));
                weights[i * players + j] = big + big * kept + (max_cost - cost);
            }
        }
    }
    let mates = integer_blossom::max_weight_matching(&weights, players);
    mates
        .iter()
        .enumerate()
        .filter_map(|(i, mate)| mate.filter(|&j| i < j).map(|j| (i, j)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// (pairs, spare left out, minus the cost): what `cheapest_pairs` maximises, in order.
    fn value(
        pairs: &[(usize, usize)],
        cost: &dyn Fn(usize, usize) -> Option<u32>,
        spare: Option<usize>,
    ) -> (usize, bool, i64) {
        let spare_out = spare.is_some_and(|s| pairs.iter().all(|&(i, j)| i != s && j != s));
        let total: i64 = pairs
            .iter()
            .map(|&(i, j)| i64::from(cost(i, j).expect("an allowed pair").min(MAX_COST)))
            .sum();
        (pairs.len(), spare_out, -total)
    }

    /// The best value over every matching, by enumeration.
    fn brute_force(
        free: &mut Vec<usize>,
        chosen: &mut Vec<(usize, usize)>,
        cost: &dyn Fn(usize, usize) -> Option<u32>,
        spare: Option<usize>,
    ) -> (usize, bool, i64) {
        let mut best = value(chosen, cost, spare);
        let Some(first) = free.pop() else {
            return best;
        };
        // `first` stays unpaired…
        best = best.max(brute_force(free, chosen, cost, spare));
        // …or pairs with one of the others.
        for k in 0..free.len() {
            let other = free[k];
            let (i, j) = (first.min(other), first.max(other));
            if cost(i, j).is_some() {
                free.remove(k);
                chosen.push((i, j));
                best = best.max(brute_force(free, chosen, cost, spare));
                chosen.pop();
                free.insert(k, other);
            }
        }
        free.push(first);
        best
    }

    #[test]
    fn the_cheapest_perfect_matching_is_found() {
        // 0–1 and 2–3 are cheap; 0–2 and 1–3 dear.
        let cost = |i: usize, j: usize| {
            Some(if j == i + 1 && i.is_multiple_of(2) {
                1
            } else {
                50
            })
        };
        assert_eq!(cheapest_pairs(4, cost, None), [(0, 1), (2, 3)]);
    }

    #[test]
    fn more_pairs_beat_cheaper_ones() {
        // A path 0–1–2–3: the cheap middle pair alone would leave two players out.
        let cost = |i: usize, j: usize| match (i, j) {
            (1, 2) => Some(0),
            (0, 1) | (2, 3) => Some(MAX_COST),
            _ => None,
        };
        assert_eq!(cheapest_pairs(4, cost, None), [(0, 1), (2, 3)]);
    }

    #[test]
    fn the_spare_is_left_out_when_someone_must_be() {
        let cost = |i: usize, _: usize| Some(if i == 0 { 0 } else { MAX_COST });
        // Without a spare, 0 (the cheap one) plays; with spare 0, 1 and 2 play.
        assert_eq!(cheapest_pairs(3, cost, None).len(), 1);
        assert!(cheapest_pairs(3, cost, None)[0].0 == 0);
        assert_eq!(cheapest_pairs(3, cost, Some(0)), [(1, 2)]);
        // But not at the price of a pair: 0 is the only one 1 may play.
        let only = |i: usize, j: usize| (i == 0 && j == 1).then_some(5);
        assert_eq!(cheapest_pairs(3, only, Some(0)), [(0, 1)]);
    }

    #[test]
    fn nobody_is_paired_alone_or_against_a_forbidden_opponent() {
        assert!(cheapest_pairs(0, |_, _| Some(1), None).is_empty());
        assert!(cheapest_pairs(1, |_, _| Some(1), None).is_empty());
        assert!(cheapest_pairs(2, |_, _| None, None).is_empty());
    }

    proptest! {
        #[test]
        fn the_result_is_an_optimal_matching_of_allowed_pairs(
            players in 0usize..9,
            table in prop::collection::vec(prop::option::weighted(0.8, 0u32..(MAX_COST + 1000)), 81),
            spare in prop::option::of(0usize..9),
        ) {
            let spare = spare.filter(|&s| s < players);
            let cost = |i: usize, j: usize| table[i * 9 + j];
            let pairs = cheapest_pairs(players, cost, spare);
            let mut seen = vec![false; players];
            for &(i, j) in &pairs {
                prop_assert!(i < j && j < players);
                prop_assert!(cost(i, j).is_some(), "a forbidden pair {}–{}", i, j);
                prop_assert!(!seen[i] && !seen[j], "a player twice");
                seen[i] = true;
                seen[j] = true;
            }
            let mut free: Vec<usize> = (0..players).collect();
            let best = brute_force(&mut free, &mut Vec::new(), &cost, spare);
            prop_assert_eq!(value(&pairs, &cost, spare), best);
        }
    }
}
