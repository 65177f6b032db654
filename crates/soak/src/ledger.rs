//! What the clients were told: every acknowledged request and every event, to be checked
//! against the database at the end.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

/// A clocked table whose snapshot was read right after a restart.
#[derive(Debug, Clone)]
pub struct ClockSample {
    /// The server life the snapshot came from (1 for the first restart).
    pub life: usize,
    pub received: Instant,
    /// `remaining_ms` of seats a and b in the snapshot.
    pub reported: [i64; 2],
    /// The seat whose clock runs (0 or 1).
    pub running: usize,
    /// Both clocks as recorded with the last move.
    pub at_last_move: [i64; 2],
    /// When this client heard of that last move live (not through a catch-up).
    pub last_move_heard: Option<Instant>,
}

#[derive(Debug, Clone)]
pub struct TableInfo {
    pub game: String,
    pub clocked: bool,
}

/// A position in a game: table id and ply (1 for the first move).
pub type PlyKey = (String, u32);

/// A move as announced: its notation and both clocks after it, when the table has a clock.
pub type Announced = (String, Option<[i64; 2]>);

#[derive(Default)]
pub struct Ledger {
    /// Every move the server answered `ok` to, with the server life it was acknowledged in
    /// (a list: two acknowledgements for one ply would be a loss in themselves).
    pub acked_moves: Vec<(PlyKey, String, usize)>,
    /// (table, ply) → move and clocks, for every move the server announced (events,
    /// catch-ups and snapshots).
    pub seen_moves: BTreeMap<PlyKey, Announced>,
    /// (table, user, text) of chat lines answered `ok`.
    pub acked_chat: Vec<(String, String, String)>,
    pub seen_chat: HashSet<(String, String, String)>,
    /// Requests whose connection died before the answer: their fate is read at the end.
    pub unanswered_moves: Vec<(String, u32, String)>,
    pub unanswered_chat: Vec<(String, String, String)>,
    pub errors: BTreeMap<String, u64>,
    pub tables: BTreeMap<String, TableInfo>,
    pub games_ended: u64,
    pub rematches: u64,
    pub clock_samples: Vec<ClockSample>,
    /// Anything that contradicts an earlier answer, in words (the first few).
    pub anomalies: Vec<String>,
    pub anomaly_count: u64,
    /// Acknowledged moves per server life.
    pub moves_per_life: HashMap<usize, u64>,
    pub chat_per_life: HashMap<usize, u64>,
}

impl Ledger {
    pub fn table(&mut self, id: &str, info: TableInfo) {
        self.tables.entry(id.to_string()).or_insert(info);
    }

    pub fn ack_move(&mut self, table: &str, ply: u32, mv: &str, life: usize) {
        self.acked_moves
            .push(((table.to_string(), ply), mv.to_string(), life));
        *self.moves_per_life.entry(life).or_default() += 1;
    }

    pub fn seen_move(&mut self, table: &str, ply: u32, mv: &str, clock: Option<[i64; 2]>) {
        let key = (table.to_string(), ply);
        match self.seen_moves.get_mut(&key) {
            None => {
                self.seen_moves.insert(key, (mv.to_string(), clock));
            }
            Some((known, known_clock)) => {
                if known != mv {
                    let known = known.clone();
                    self.anomaly(format!(
                        "table {table} ply {ply}: announced as {known:?}, later as {mv:?}"
                    ));
                } else if let (Some(a), Some(b)) = (*known_clock, clock)
                    && a != b
                {
                    self.anomaly(format!(
                        "table {table} ply {ply}: clocks announced as {a:?}, later as {b:?}"
                    ));
                } else if known_clock.is_none() {
                    *known_clock = clock;
                }
            }
        }
    }

    pub fn ack_chat(&mut self, table: &str, user: &str, text: &str, life: usize) {
        self.acked_chat
            .push((table.to_string(), user.to_string(), text.to_string()));
        *self.chat_per_life.entry(life).or_default() += 1;
    }

    pub fn seen_chat(&mut self, table: &str, user: &str, text: &str) {
        self.seen_chat
            .insert((table.to_string(), user.to_string(), text.to_string()));
    }

    pub fn error(&mut self, code: &str) {
        *self.errors.entry(code.to_string()).or_default() += 1;
    }

    pub fn anomaly(&mut self, what: String) {
        self.anomaly_count += 1;
        if self.anomalies.len() < 20 {
            self.anomalies.push(what);
        }
    }
}
