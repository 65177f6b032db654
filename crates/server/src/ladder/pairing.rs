//! Who plays the ladder's next game, which game and who moves first. Pure: the runner hands
//! it what the database says.
//!
//! - **The pair that has waited longest**: of the pairs free to play (neither of them a bot
//!   account already in a ladder game, the pair not already playing each other), the one whose
//!   last ladder game (or challenge, answered or not) is oldest; a pair that never met comes
//!   before any that has. Ties go to the pair met first in the participants' order (the house
//!   bots, then the bot accounts by when they joined), so the choice is the same on any leader.
//! - **Every game and variant in turn, both sides**: a pair's k-th meeting plays the
//!   (k / 2)-th of the two-player variants (wrapping round), the lower id of the two moving
//!   first when k is even and the other when k is odd. So each variant is played twice in a
//!   row, once from each side, and over time every pair plays every variant.

use std::collections::{HashMap, HashSet};

use catalog::VariantId;

/// The ladder's next game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pick {
    /// The pair in sorted order.
    pub lo: String,
    pub hi: String,
    /// Who sits at the first seat (moves first).
    pub first: String,
    pub variant: VariantId,
}

impl Pick {
    /// The other player of the pair.
    pub fn second(&self) -> &str {
        if self.first == self.lo {
            &self.hi
        } else {
            &self.lo
        }
    }
}

/// What the ladder's history says of one pair: how many meetings, and the last (unix ms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Met {
    pub games: i64,
    pub last_at: i64,
}

/// The state of the ladder a pick is made from.
pub struct Ladder<'a> {
    /// Everyone on the ladder, in order of preference for ties.
    pub participants: &'a [String],
    /// Players that may not start another game now (bot accounts already in a ladder game).
    pub busy: &'a HashSet<String>,
    /// Pairs (sorted) playing each other now.
    pub playing: &'a HashSet<(String, String)>,
    /// Each sorted pair's meetings so far.
    pub met: &'a HashMap<(String, String), Met>,
    /// The variants played in turn.
    pub variants: &'a [VariantId],
}

/// The next game, or `None` when no pair is free (or there are no variants).
pub fn choose(ladder: &Ladder<'_>) -> Option<Pick> {
    if ladder.variants.is_empty() {
        return None;
    }
    let mut best: Option<((String, String), Option<i64>)> = None;
    for (i, x) in ladder.participants.iter().enumerate() {
        for y in &ladder.participants[i + 1..] {
            if x == y || ladder.busy.contains(x) || ladder.busy.contains(y) {
                continue;
            }
            let pair = sorted(x, y);
            if ladder.playing.contains(&pair) {
                continue;
            }
            let last = ladder.met.get(&pair).map(|m| m.last_at);
            let better = match &best {
                None => true,
                // Never met (`None`) sorts before any time.
                Some((_, best_last)) => last < *best_last,
            };
            if better {
                best = Some((pair, last));
            }
        }
    }
    let ((lo, hi), _) = best?;
    let k = ladder
        .met
        .get(&(lo.clone(), hi.clone()))
        .map_or(0, |m| m.games.max(0) as usize);
    let variant = ladder.variants[(k / 2) % ladder.variants.len()];
    let first = if k.is_multiple_of(2) {
        lo.clone()
    } else {
        hi.clone()
    };
    Some(Pick {
        lo,
        hi,
        first,
        variant,
    })
}

/// The pair in sorted order, as the store keeps it.
pub fn sorted(x: &str, y: &str) -> (String, String) {
    if x <= y {
        (x.to_string(), y.to_string())
    } else {
        (y.to_string(), x.to_string())
    }
}

/// Every variant of every two-player game, in the catalogue's order.
pub fn two_player_variants() -> Vec<VariantId> {
    catalog::GameId::ALL
        .into_iter()
        .filter(|game| !game.is_solo())
        .flat_map(|game| {
            game.info()
                .variants
                .iter()
                .filter_map(move |v| game.variant(Some(v.id)).ok())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    struct Fixture {
        participants: Vec<String>,
        busy: HashSet<String>,
        playing: HashSet<(String, String)>,
        met: HashMap<(String, String), Met>,
        variants: Vec<VariantId>,
    }

    impl Fixture {
        fn new(list: &[&str]) -> Fixture {
            Fixture {
                participants: ids(list),
                busy: HashSet::new(),
                playing: HashSet::new(),
                met: HashMap::new(),
                variants: two_player_variants(),
            }
        }

        fn met(mut self, x: &str, y: &str, games: i64, last_at: i64) -> Fixture {
            self.met.insert(sorted(x, y), Met { games, last_at });
            self
        }

        fn choose(&self) -> Option<Pick> {
            choose(&Ladder {
                participants: &self.participants,
                busy: &self.busy,
                playing: &self.playing,
                met: &self.met,
                variants: &self.variants,
            })
        }
    }

    #[test]
    fn the_variants_are_every_two_player_games_and_no_solo_one() {
        let variants = two_player_variants();
        assert!(variants.len() >= 4, "{variants:?}");
        assert!(variants.iter().all(|v| !v.game().is_solo()));
        let games: HashSet<_> = variants.iter().map(|v| v.game()).collect();
        let two_player = catalog::GameId::ALL.iter().filter(|g| !g.is_solo()).count();
        assert_eq!(games.len(), two_player);
    }

    #[test]
    fn a_pair_that_never_met_goes_before_any_that_has() {
        let f = Fixture::new(&["bot:easy", "bot:hard", "bot:medium"])
            .met("bot:easy", "bot:hard", 3, 100)
            .met("bot:easy", "bot:medium", 1, 50);
        let pick = f.choose().unwrap();
        assert_eq!(
            (pick.lo.as_str(), pick.hi.as_str()),
            ("bot:hard", "bot:medium")
        );
    }

    #[test]
    fn the_pair_met_least_recently_goes_next() {
        let f = Fixture::new(&["bot:easy", "bot:hard", "bot:medium"])
            .met("bot:easy", "bot:hard", 1, 300)
            .met("bot:easy", "bot:medium", 9, 100)
            .met("bot:hard", "bot:medium", 2, 200);
        let pick = f.choose().unwrap();
        assert_eq!(
            (pick.lo.as_str(), pick.hi.as_str()),
            ("bot:easy", "bot:medium")
        );
    }

    #[test]
    fn each_variant_is_played_twice_in_a_row_from_each_side() {
        let variants = two_player_variants();
        let mut seen = Vec::new();
        for k in 0..(2 * variants.len() as i64) {
            let pick = Fixture::new(&["bot:easy", "bot:hard"])
                .met("bot:easy", "bot:hard", k, 1)
                .choose()
                .unwrap();
            seen.push((pick.variant, pick.first.clone()));
        }
        for (i, variant) in variants.iter().enumerate() {
            assert_eq!(seen[2 * i], (*variant, "bot:easy".to_string()));
            assert_eq!(seen[2 * i + 1], (*variant, "bot:hard".to_string()));
        }
    }

    #[test]
    fn busy_players_and_pairs_already_playing_wait() {
        let mut f = Fixture::new(&["bot:easy", "bot:medium", "u1", "u2"]);
        f.busy.insert("u1".to_string());
        f.playing.insert(sorted("bot:easy", "bot:medium"));
        let pick = f.choose().unwrap();
        assert_eq!((pick.lo.as_str(), pick.hi.as_str()), ("bot:easy", "u2"));
        assert_eq!(pick.second(), "u2");
        f.busy.insert("u2".to_string());
        assert_eq!(f.choose(), None);
    }

    #[test]
    fn one_participant_alone_has_no_game() {
        assert_eq!(Fixture::new(&["bot:easy"]).choose(), None);
    }
}
