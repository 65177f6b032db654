//! Arena pairing: who among the waiting players plays whom now, and who waits on. A pure
//! function of the waiting players and the time.
//!
//! **When.** Waiting gathers a choice of opponents, so it is worth as much as the number of
//! players who may join the pool soon — those in games. The wait is `wait_ms` when
//! [`BUSY`] or more are playing and shrinks in proportion below that, to nothing when nobody
//! is playing. The pool is paired once two of its players have waited that long, or at once
//! when it holds [`PAIR_AT_ONCE`] players. In a small arena (at most `duel_up_to` present)
//! two waiting players are paired the moment they are two — a duel — unless they have just
//! played each other and someone else is playing: then they wait for a fresh opponent.
//!
//! **Whom.** A maximum matching (as many games as the pool allows), and among those the
//! cheapest, where a pair costs (lichess's `AntmaPairing`) the distance in the standings,
//! weighted up near the top so that leaders meet leaders, plus the rating difference, plus a
//! penalty for a recent opponent that fades with each game since. A player's last opponent
//! is never paired with them again at once; the one exception is an arena whose only two
//! present players are these two, where the alternative is not playing at all. When the
//! pool is odd, the newest arrival is the one left out (of those who came together, the
//! lowest in the standings), if that costs no game.
//!
//! **Large pools.** The matching's work grows as the cube of its size, so the pool, in
//! standings order, is matched in consecutive groups of [`GROUP`]; whoever a group leaves
//! unpaired joins the next group. A pool of up to `GROUP` players is matched exactly.
//!
//! **House bots.** When the arena allows them, a player still unpaired after waiting
//! `bot_after_ms` plays the house bot nearest their rating (not the one they just played,
//! when there is another).

use serde::{Deserialize, Serialize};

use crate::ids::PlayerId;
use crate::matching;

/// At this many players in games, the wait reaches its full length.
pub const BUSY: usize = 16;
/// A pool this large is paired without waiting: it holds choice enough.
pub const PAIR_AT_ONCE: usize = 64;
/// Players matched together at most; larger pools are matched group by group.
pub const GROUP: usize = 100;
/// The penalty for the opponent before last; each game since halves it.
const RECENT_PENALTY: u32 = 4_000_000;

/// How an arena pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingSettings {
    /// The longest wait for a choice of opponents, in milliseconds.
    pub wait_ms: u64,
    /// With at most this many players present (waiting or playing), two waiting players
    /// are paired at once.
    pub duel_up_to: usize,
    /// A player who has waited this long with nobody to play gets a house bot; `None`
    /// when the arena has no house bots.
    pub bot_after_ms: Option<u64>,
}

impl PairingSettings {
    /// Settings for a clock (lichess's waits: 15 to 30 seconds by the expected length of a
    /// game, 40 moves each), with duels up to 12 players and no bots.
    pub fn for_clock(initial_ms: u64, increment_ms: u64) -> PairingSettings {
        let game_seconds = (initial_ms + 40 * increment_ms) / 1000;
        PairingSettings {
            wait_ms: (game_seconds / 20 + 6).clamp(15, 30) * 1000,
            duel_up_to: 12,
            bot_after_ms: None,
        }
    }

    /// How long the pool waits now, with `playing` players in games.
    pub fn wait_now(&self, playing: usize) -> u64 {
        self.wait_ms * playing.min(BUSY) as u64 / BUSY as u64
    }
}

/// A house bot the organiser allows, and its rating in the arena's game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseBot {
    pub id: PlayerId,
    pub rating: i32,
}

/// A player waiting to be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub player: PlayerId,
    pub rating: i32,
    /// Place in the standings, 1 for the leader.
    pub rank: u32,
    /// When they started waiting (unix milliseconds).
    pub since: u64,
    /// Their last opponents, the most recent first.
    pub recent: Vec<PlayerId>,
}

/// The pool and what is around it.
#[derive(Debug, Clone, Copy)]
pub struct Pool<'a> {
    pub waiting: &'a [Waiting],
    /// Players in games now (not waiting, not paused).
    pub playing: usize,
    pub now: u64,
}

/// Who plays whom now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Pairs of waiting players (in no particular seats).
    pub pairs: Vec<[PlayerId; 2]>,
    /// A waiting player and the house bot they play.
    pub bots: Vec<(PlayerId, PlayerId)>,
    /// Those who wait on.
    pub waiting: Vec<PlayerId>,
}

/// Pairs the pool now, or not yet.
pub fn pair(pool: Pool<'_>, settings: &PairingSettings, bots: &[HouseBot]) -> Plan {
    let waiting = pool.waiting;
    let rematch_allowed = waiting.len() == 2 && pool.playing == 0;
    let forbidden = |a: &Waiting, b: &Waiting| {
        !rematch_allowed
            && (a.recent.first() == Some(&b.player) || b.recent.first() == Some(&a.player))
    };
    let mut unpaired: Vec<&Waiting> = waiting.iter().collect();
    let mut plan = Plan::default();
    if ready(pool, settings, &forbidden) {
        unpaired.sort_by(|a, b| (a.rank, &a.player).cmp(&(b.rank, &b.player)));
        let newest = waiting
            .iter()
            .max_by(|a, b| (a.since, a.rank, &a.player).cmp(&(b.since, b.rank, &b.player)))
            .map(|w| &w.player);
        let max_rank = waiting.iter().map(|w| w.rank).max().unwrap_or(1).max(1);
        let mut carried: Vec<&Waiting> = Vec::new();
        let mut rest = unpaired.into_iter();
        loop {
            let take = GROUP.saturating_sub(carried.len()).max(2);
            let mut group = std::mem::take(&mut carried);
            group.extend(rest.by_ref().take(take));
            let last_group = rest.len() == 0;
            let spare = group.iter().position(|w| Some(&w.player) == newest);
            let cost = |i: usize, j: usize| {
                let (a, b) = (group[i], group[j]);
                (!forbidden(a, b)).then(|| pair_cost(a, b, max_rank))
            };
            let pairs = matching::cheapest_pairs(group.len(), cost, spare);
            let mut paired = vec![false; group.len()];
            for (i, j) in pairs {
                paired[i] = true;
                paired[j] = true;
                plan.pairs
                    .push([group[i].player.clone(), group[j].player.clone()]);
            }
            carried = group
                .into_iter()
                .zip(paired)
                .filter_map(|(w, paired)| (!paired).then_some(w))
                .collect();
            if last_group {
                break;
            }
        }
        unpaired = carried;
    }
    unpaired.sort_by(|a, b| (a.since, &a.player).cmp(&(b.since, &b.player)));
    for player in unpaired {
        match house_bot_for(player, pool.now, settings, bots) {
            Some(bot) => plan.bots.push((player.player.clone(), bot.id.clone())),
            None => plan.waiting.push(player.player.clone()),
        }
    }
    plan
}

/// Whether to pair the pool now.
fn ready(
    pool: Pool<'_>,
    settings: &PairingSettings,
    forbidden: &dyn Fn(&Waiting, &Waiting) -> bool,
) -> bool {
    let waiting = pool.waiting;
    if waiting.len() < 2 {
        return false;
    }
    let present = waiting.len() + pool.playing;
    let duel = waiting.len() == 2
        && present <= settings.duel_up_to
        && !forbidden(&waiting[0], &waiting[1]);
    let wait = settings.wait_now(pool.playing);
    let waited = waiting
        .iter()
        .filter(|w| pool.now.saturating_sub(w.since) >= wait)
        .count();
    duel || waited >= 2 || waiting.len() >= PAIR_AT_ONCE
}

/// What pairing `a` with `b` costs, in a pool whose lowest rank is `max_rank`: lower is a
/// better game.
pub fn pair_cost(a: &Waiting, b: &Waiting, max_rank: u32) -> u32 {
    // Lichess's rank factor: a step in the standings weighs 2000 at the top, 300 at the
    // bottom, so that leaders meet leaders.
    let top = a.rank.min(b.rank).min(max_rank);
    let factor = 300 + 1700 * u64::from(max_rank - top) / u64::from(max_rank);
    let ranks = u64::from(a.rank.abs_diff(b.rank)) * factor;
    let ratings = u64::from(a.rating.abs_diff(b.rating));
    let recent = recent_penalty(a, &b.player) + recent_penalty(b, &a.player);
    (ranks + ratings + recent).min(u64::from(matching::MAX_COST)) as u32
}

/// The penalty for meeting `opponent` again, by how recently `player` met them.
fn recent_penalty(player: &Waiting, opponent: &PlayerId) -> u64 {
    match player.recent.iter().position(|o| o == opponent) {
        Some(games_since) if games_since > 0 => {
            u64::from(RECENT_PENALTY >> (games_since - 1).min(31))
        }
        _ => 0,
    }
}

/// The house bot for a player who has waited long enough, if the arena has bots.
fn house_bot_for<'b>(
    player: &Waiting,
    now: u64,
    settings: &PairingSettings,
    bots: &'b [HouseBot],
) -> Option<&'b HouseBot> {
    let after = settings.bot_after_ms?;
    if now.saturating_sub(player.since) < after {
        return None;
    }
    let last = player.recent.first();
    let nearest = |bots: &mut dyn Iterator<Item = &'b HouseBot>| {
        bots.min_by_key(|bot| bot.rating.abs_diff(player.rating))
    };
    nearest(&mut bots.iter().filter(|bot| Some(&bot.id) != last))
        .or_else(|| nearest(&mut bots.iter()))
}

#[cfg(test)]
#[path = "pairing_tests.rs"]
mod tests;
