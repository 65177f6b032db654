//! The bot ladder (docs/bots.md, "The ladder"): the site's Easy, Medium and Hard and the bot
//! accounts that joined it play each other, at most a few games at once and after a pause
//! between them, so that every bot's rating stays current.
//!
//! - `pairing.rs`: who plays next (the pair that waited longest), which variant, which side;
//! - `runner.rs`: the loop, on the node holding the `ladder` role (or on a node of its own),
//!   that follows the ladder's games in the database and starts the next.
//!
//! A game between house bots is an ordinary rated table with both seats the site's bots and
//! no clock: its bots think at the CPU pool's ladder priority for a short fixed time
//! (`table/actor/bot.rs`). A game with a bot account is a challenge in the name of its
//! opponent (a house bot, or the other account), which the account's program accepts or
//! declines; one not accepted within [`ANSWER_WAIT`] is cancelled and skipped, and only one
//! challenge waits at a time (the other places go on with the house bots). Like the
//! tournaments' runner it remembers nothing the database does not: a new leader goes on from
//! what the `ladder_games` rows say.

use std::time::Duration;

use crate::hub::Hub;

mod pairing;
mod runner;

pub use pairing::two_player_variants;

/// How long the `ladder` role is held without renewal.
const LEADER_TTL: Duration = Duration::from_secs(5);

/// How long a bot account has to accept a ladder challenge before it is cancelled.
pub const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// A ladder game stops counting against the limit this long after it started, so that a
/// program that went away mid-game (or a game that hangs) cannot stop the ladder: the game
/// goes on, and a bot account's clock ends it.
pub const HOLD: Duration = Duration::from_secs(3600);

/// The clock of a game with a bot account: rapid, the class of the house bots' untimed games,
/// so that all of a bot's ladder games move one rating.
pub const ACCOUNT_CLOCK: (u64, u64) = (600, 5);

/// How the ladder runs (`--ladder-games`).
#[derive(Debug, Clone, Copy)]
pub struct LadderConfig {
    /// Ladder games going on at once, at most; 0 turns the ladder off.
    pub games: usize,
    /// The wait after a ladder game ends before the next starts.
    pub pause: Duration,
    /// The rest before each move of a ladder game between house bots. Those games think one
    /// move at a time, whatever their number (`BotsOnlyLane`): nobody waits for those moves,
    /// and the rest keeps the ladder's share of the bots' thread small.
    pub move_rest: Duration,
}

impl Default for LadderConfig {
    fn default() -> Self {
        LadderConfig {
            games: 1,
            pause: Duration::from_secs(10),
            move_rest: Duration::from_millis(800),
        }
    }
}

/// Starts the ladder's runner (nothing when it is off), which opens no table before the
/// unfinished ones are back (`restore`): a table it opened meanwhile would be restored a
/// second time. On a site of several nodes (`bus`) it runs only on the node holding the
/// `ladder` role.
pub fn start(
    hub: Hub,
    config: LadderConfig,
    challenge_ttl: Duration,
    restore: std::sync::Arc<crate::restoring::Restore>,
    bus: Option<&cluster::Bus>,
    runtime: &tokio::runtime::Handle,
) {
    if config.games == 0 {
        return;
    }
    let leader = bus.map(|bus| cluster::Leader::start(bus, "ladder", LEADER_TTL));
    runtime.spawn(async move {
        if restore.finished().await.is_ok() {
            runner::run(hub, config, challenge_ttl, leader).await;
        }
    });
}
