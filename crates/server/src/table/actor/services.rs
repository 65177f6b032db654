//! What a table needs from the rest of the server, as narrow handles: the store, the lobby
//! listing, the "your turn" counters and notifications, the live list, the bot pool, the solo
//! games' helpers (told when a solo game ends), and a way to open the rematch's table. The hub
//! and the solo module implement the traits; tests can stub them.

use crate::ws::protocol::TableId;
use record::NoteKind;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::cpu_pool::{CpuPool, Priority};
use crate::error::WsError;
use crate::live::Live;
use crate::ws::protocol::{LobbyEntry, UserView};

use super::handle::TableHandle;
use crate::table::TableSettings;

/// The lobby's list of open public tables.
pub trait LobbyBoard: Send + Sync {
    /// Lists (`Some`) or unlists (`None`) the table `id`.
    fn set_entry(&self, id: &str, entry: Option<LobbyEntry>);
}

/// Who is to move where, and the notifications players get.
pub trait TurnSink: Send + Sync {
    /// Records who is to move at `table` (`None`: nobody, or a bot).
    fn set_turn(&self, table: &TableId, mover: Option<&str>);
    /// Records a notification for `user_id` and sends it to their sockets (skips bots);
    /// `open`: they have the table open now, so no Web Push goes to their devices.
    fn notify(&self, user_id: &str, kind: NoteKind, table: &str, open: bool);
    /// Withdraws `user_id`'s unread notification of `kind` at `table` (no longer true).
    fn withdraw(&self, user_id: &str, kind: NoteKind, table: &str);
    /// `table` has ended: its notifications go, but the one that says it is over.
    fn ended(&self, table: &TableId);
}

/// The table a rematch follows: its id, and its invite link's token, which the rematch keeps
/// (whoever could watch a private game can watch its rematch).
#[derive(Debug, Clone)]
pub struct RematchOf {
    pub id: String,
    pub token: String,
}

/// A table's future, boxed (for the rematch's table, created by the hub).
pub type Opening<'a> = Pin<Box<dyn Future<Output = Result<TableHandle, WsError>> + Send + 'a>>;

/// The tables running on this node.
pub trait TableDirectory: Send + Sync {
    /// Creates, records and starts a table (the rematch of `rematch_of`).
    fn open(
        &self,
        settings: TableSettings,
        host: Option<UserView>,
        seats: Vec<Option<UserView>>,
        rematch_of: Option<RematchOf>,
    ) -> Opening<'_>;
    /// The table `id` has stopped: forget it, its lobby line and its turn.
    fn forget(&self, id: &TableId);
}

/// What a solo game's helpers do when one of its games has ended with a result (White Rabbit
/// writes its review), keyed by the game; implemented by `crate::solo::Solo`.
pub trait SoloEnd: Send + Sync {
    /// The game at table `table`, a game of `game`, finished with a result.
    fn finished(&self, game: catalog::GameId, table: &str);
}

/// Where bots think: the CPU pool, with a cap on each move's budget.
#[derive(Clone)]
pub struct BotPool {
    pub cpu: CpuPool,
    pub time_cap: Option<Duration>,
    /// The one lane of the tables where only house bots sit (the ladder's).
    pub bots_only: BotsOnlyLane,
}

/// The tables where only house bots sit (the bot ladder's) think through one lane: one move
/// at a time, each after a rest, in the order they asked. Nobody waits for those moves, so the
/// ladder as a whole takes one game's share of the bots' thread (a 200 ms think after an
/// 800 ms rest: a fifth of it), however many games it plays at once.
#[derive(Clone)]
pub struct BotsOnlyLane {
    rest: Duration,
    /// Held from the start of a move's rest to the end of its thinking; tokio's mutex is fair,
    /// so the games take turns.
    turn: Arc<tokio::sync::Mutex<()>>,
}

impl BotsOnlyLane {
    /// A lane that rests `rest` before each move.
    pub fn new(rest: Duration) -> BotsOnlyLane {
        BotsOnlyLane {
            rest,
            turn: Arc::new(tokio::sync::Mutex::new(())),
        }
    }

    /// Runs `think` on `cpu` at `priority` when the lane's turn comes and its rest is over,
    /// without waiting for it.
    pub fn think(&self, cpu: CpuPool, priority: Priority, think: impl FnOnce() + Send + 'static) {
        let lane = self.clone();
        tokio::spawn(async move {
            let _turn = lane.turn.lock().await;
            tokio::time::sleep(lane.rest).await;
            // A lost job (a panic) has already answered nothing; the lane goes on.
            let _ = cpu.run(priority, think).await;
        });
    }
}

/// The longest a house bot thinks about a move at a table of house bots only (the bot
/// ladder's games): short and fixed, so that a ladder game costs little and every level plays
/// at the same small budget (Easy's own is shorter still).
pub const BOTS_ONLY_THINK: Duration = Duration::from_millis(200);

impl BotPool {
    /// How long a bot of `level` may think about one move; `bots_only` at a table where no
    /// person sits.
    pub fn budget(&self, level: ai::Level, bots_only: bool) -> Duration {
        let mut budget = ai::default_budget(level);
        if bots_only {
            budget = budget.min(BOTS_ONLY_THINK);
        }
        self.time_cap.map_or(budget, |cap| budget.min(cap))
    }
}

/// Everything a table actor is handed.
#[derive(Clone)]
pub struct Services {
    pub store: store::Store,
    pub lobby: Arc<dyn LobbyBoard>,
    pub turns: Arc<dyn TurnSink>,
    pub tables: Arc<dyn TableDirectory>,
    pub live: Live,
    pub bots: BotPool,
    /// The solo games' helpers, told when a solo game ends.
    pub solo: Arc<dyn SoloEnd>,
    /// A correspondence day (shorter in tests).
    pub day: Duration,
    /// How long a player of a live game may be gone before their opponent may claim it.
    pub abandon_grace: Duration,
}

impl Services {
    /// How long `days` correspondence days last.
    pub fn days(&self, days: u8) -> Duration {
        self.day * u32::from(days)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Instant;

    /// Two ladder moves asked at once on a pool of two threads: the second thinks only after
    /// the first has finished and the lane has rested again.
    #[tokio::test]
    async fn tables_of_bots_only_think_one_move_at_a_time_each_after_the_rest() {
        let cpu = CpuPool::new(2);
        let rest = Duration::from_millis(50);
        let lane = BotsOnlyLane::new(rest);
        let spans = Arc::new(Mutex::new(Vec::new()));
        let (done, mut finished) = tokio::sync::mpsc::unbounded_channel();
        let asked = Instant::now();
        for _ in 0..3 {
            let (spans, done) = (spans.clone(), done.clone());
            lane.think(cpu.clone(), Priority::Ladder, move || {
                let start = Instant::now();
                std::thread::sleep(Duration::from_millis(30));
                spans.lock().unwrap().push((start, Instant::now()));
                done.send(()).unwrap();
            });
        }
        for _ in 0..3 {
            finished.recv().await.unwrap();
        }
        let mut spans = spans.lock().unwrap().clone();
        spans.sort();
        assert!(spans[0].0 >= asked + rest, "the first move rests too");
        for pair in spans.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            assert!(
                after.0 >= before.1 + rest,
                "a move began {:?} after the one before ended, within the rest",
                after.0.saturating_duration_since(before.1)
            );
        }
    }
}
