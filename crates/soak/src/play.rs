//! The players: pairs of guests that sit at a table together, play random legal games, chat,
//! and rematch or move to a new table when a game ends; after a restart they reconnect and
//! catch up like a browser tab does.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use crate::ledger::{ClockSample, Ledger, TableInfo};
use testkit::{Conn, Http};

/// A game longer than this is resigned, so that tables turn over and rematches happen.
const MAX_PLIES: u32 = 300;
const RESIGN_CHANCE: f64 = 1.0 / 400.0;
const REMATCH_CHANCE: f64 = 0.6;
const CLOCK_CHANCE: f64 = 0.5;
/// A player waits this long before moving (milliseconds): the per-connection rate limit is
/// 20 requests a second.
const THINK_MS: std::ops::Range<u64> = 15..70;
/// Between two chat lines of one player (milliseconds): the chat limit is 5 lines in 10 s.
const CHAT_EVERY_MS: std::ops::Range<u64> = 2_500..6_000;
/// Any reply takes less than this unless something is wrong.
const REPLY_TIMEOUT: Duration = Duration::from_secs(10);
/// A pair that has done nothing for this long catches up from scratch.
const STALL: Duration = Duration::from_secs(5);

/// A two-player game of the catalogue.
#[derive(Debug, Clone)]
pub struct GameKind {
    pub id: String,
    pub variants: Vec<String>,
}

/// What the controller and every pair share (all on one thread).
pub struct Shared {
    pub ledger: Ledger,
    /// The current server life: 0 until the first kill.
    pub life: usize,
    pub stopping: bool,
    /// Per pair: the last life in which both its players were back at their table.
    pub back: Vec<Option<usize>>,
    pub games: Vec<GameKind>,
}

pub type SharedRef = Rc<RefCell<Shared>>;

/// What one player knows of its current table.
#[derive(Debug, Default, Clone)]
struct View {
    table: String,
    status: String,
    you: Option<usize>,
    ply: u32,
    to_move: Option<usize>,
    legal: Vec<String>,
    truncated: bool,
    position: String,
    turn: String,
    /// Both clocks as announced with the last move.
    last_clock: Option<[i64; 2]>,
    /// When that move was heard live.
    last_move_heard: Option<Instant>,
    rematch_offer: Option<usize>,
    rematch: Option<String>,
}

fn seat_index(value: &Value) -> Option<usize> {
    match value.as_str()? {
        "a" => Some(0),
        "b" => Some(1),
        _ => None,
    }
}

fn clocks(value: &Value) -> Option<[i64; 2]> {
    Some([value.get(0)?.as_i64()?, value.get(1)?.as_i64()?])
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

fn ply_of(value: &Value) -> u32 {
    value.as_u64().unwrap_or(0).try_into().unwrap_or(u32::MAX)
}

struct Player {
    label: String,
    token: String,
    user: String,
    conn: Option<Conn>,
    /// Connected but not subscribed since: the next snapshot is the first after a restart.
    fresh: bool,
    subscribed: Option<String>,
    /// The table this connection sat down at (the snapshot saying so may still be on its way).
    sat: Option<String>,
    /// The table this connection offered a rematch at.
    offered: Option<String>,
    view: View,
    /// The ply our acknowledged move brings, and since when: no move until it is seen.
    awaiting: Option<(u32, Instant)>,
    think_until: Option<Instant>,
    next_chat: Instant,
    chat_lines: u64,
    shared: SharedRef,
}

impl Player {
    /// The connection died (the server was killed): what was in flight is unknown.
    fn lost(&mut self) {
        self.conn = None;
        self.fresh = true;
        self.subscribed = None;
        self.sat = None;
        self.offered = None;
        self.awaiting = None;
        self.think_until = None;
    }

    fn resync(&mut self) {
        self.subscribed = None;
        self.awaiting = None;
    }

    /// Sends a request and reads until its reply, taking in every other message meanwhile;
    /// `None` when the connection died first. Rate-limited requests are sent again.
    async fn request(&mut self, body: Value) -> Option<Value> {
        let mut conn = self.conn.take()?;
        let mut retries = 0;
        let reply = 'send: loop {
            let Ok(id) = conn.send(body.clone()).await else {
                break None;
            };
            loop {
                let message = match tokio::time::timeout(REPLY_TIMEOUT, conn.recv()).await {
                    Ok(Some(message)) => message,
                    Ok(None) => break 'send None,
                    Err(_) => {
                        self.shared.borrow_mut().ledger.error("reply_timeout");
                        break 'send None;
                    }
                };
                if message["id"] != json!(id) {
                    self.apply(&message);
                    continue;
                }
                if message["code"] == "rate_limited" && retries < 20 {
                    retries += 1;
                    self.shared.borrow_mut().ledger.error("rate_limited");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue 'send;
                }
                break 'send Some(message);
            }
        };
        match reply {
            Some(_) => self.conn = Some(conn),
            None => self.lost(),
        }
        reply
    }

    /// Takes in one message the server sent.
    fn apply(&mut self, message: &Value) {
        let shared = self.shared.clone();
        let mut shared = shared.borrow_mut();
        let ledger = &mut shared.ledger;
        let table = text(&message["table"]);
        let here = table == self.view.table;
        match text(&message["type"]) {
            "move" => {
                let ply = ply_of(&message["ply"]);
                let clock = clocks(&message["clock"]);
                ledger.seen_move(table, ply, text(&message["move"]), clock);
                if here && ply == self.view.ply + 1 {
                    let view = &mut self.view;
                    view.ply = ply;
                    view.position = text(&message["position"]).to_string();
                    view.to_move = seat_index(&message["to_move"]);
                    view.turn = text(&message["turn"]).to_string();
                    view.legal = legal_of(message);
                    view.truncated = message["legal_truncated"] == true;
                    view.last_clock = clock;
                    view.last_move_heard = Some(Instant::now());
                } else if here && ply > self.view.ply + 1 {
                    // A gap: catch up.
                    self.subscribed = None;
                }
            }
            "end" if here => {
                self.view.status = text(&message["status"]).to_string();
                self.view.to_move = None;
                self.view.legal.clear();
            }
            "offer" if here && message["kind"] == "rematch" => {
                self.view.rematch_offer = seat_index(&message["by"]);
            }
            "rematch" if here => {
                self.view.rematch = message["next"].as_str().map(str::to_string);
            }
            "chat" => {
                let line = &message["line"];
                ledger.seen_chat(table, text(&line["user"]), text(&line["text"]));
            }
            "table" => self.snapshot(&message["table"], ledger),
            "catchup" => {
                let moves = message["moves"].as_array().cloned().unwrap_or_default();
                for event in &moves {
                    let clock = clocks(&event["clock"]);
                    ledger.seen_move(table, ply_of(&event["ply"]), text(&event["move"]), clock);
                }
                self.snapshot(&message["state"], ledger);
                if let Some(last) = moves.last() {
                    self.view.last_clock = clocks(&last["clock"]);
                    self.view.last_move_heard = None;
                }
            }
            "error" => ledger.error(text(&message["code"])),
            _ => {}
        }
    }

    fn snapshot(&mut self, state: &Value, ledger: &mut Ledger) {
        let id = text(&state["id"]);
        for (i, mv) in state["moves"].as_array().into_iter().flatten().enumerate() {
            ledger.seen_move(id, i as u32 + 1, text(mv), None);
        }
        for line in state["chat"].as_array().into_iter().flatten() {
            ledger.seen_chat(id, text(&line["user"]), text(&line["text"]));
        }
        if id != self.view.table {
            self.view = View {
                table: id.to_string(),
                ..View::default()
            };
        }
        let view = &mut self.view;
        view.status = text(&state["status"]).to_string();
        view.you = seat_index(&state["you"]);
        view.ply = ply_of(&state["ply"]);
        view.to_move = seat_index(&state["to_move"]);
        view.legal = legal_of(state);
        view.truncated = state["legal_truncated"] == true;
        view.position = text(&state["position"]).to_string();
        view.turn = text(&state["turn"]).to_string();
        view.rematch_offer = seat_index(&state["rematch_offer"]);
        view.rematch = state["rematch"].as_str().map(str::to_string);
    }

    /// Our move now, at `table`?
    fn may_move(&mut self, table: &str) -> bool {
        if let Some((ply, since)) = self.awaiting {
            if self.view.ply >= ply {
                self.awaiting = None;
            } else if since.elapsed() > Duration::from_secs(3) {
                // The move event never came: catch up.
                self.shared.borrow_mut().ledger.error("event_timeout");
                self.resync();
            }
        }
        self.subscribed.as_deref() == Some(table)
            && self.view.table == table
            && self.view.status == "playing"
            && self.view.you.is_some()
            && self.view.to_move == self.view.you
            && self.awaiting.is_none()
    }
}

fn legal_of(message: &Value) -> Vec<String> {
    message["legal"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m.as_str().map(str::to_string))
        .collect()
}

/// A random legal move from what the server said, or `None` when it gave no list.
fn choose(view: &View, rng: &mut StdRng) -> Option<String> {
    if let Some(mv) = view.legal.choose(rng) {
        return Some(mv.clone());
    }
    if view.truncated && view.turn == "setup" {
        return tumbleweed_setup(&view.position, rng);
    }
    None
}

/// Tumbleweed's opening setup (two different empty cells, `red,white`) is too long a list
/// to send: it is read off the position, as the web client does (docs/spec/tumbleweed.md).
fn tumbleweed_setup(position: &str, rng: &mut StdRng) -> Option<String> {
    let board = position.split(' ').next()?;
    let columns: Vec<&str> = board.split('/').collect();
    let n = columns.len().div_ceil(2);
    let mut empty = Vec::new();
    for (i, column) in columns.iter().enumerate() {
        // Column i holds the cells whose number j has |i - (j - 1)| <= n - 1.
        let mut j = (i + 2).saturating_sub(n).max(1);
        let mut chars = column.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '.' {
                empty.push(format!("{}{j}", char::from(b'a' + i as u8)));
            } else {
                while chars.next_if(char::is_ascii_digit).is_some() {}
            }
            j += 1;
        }
    }
    let picked: Vec<&String> = empty.sample(rng, 2).collect();
    match picked.as_slice() {
        [red, white] => Some(format!("{red},{white}")),
        _ => None,
    }
}

/// Two guests who play each other, table after table.
pub struct Pair {
    index: usize,
    players: [Player; 2],
    table: Option<String>,
    /// Rematch (true) or a new table (false) after each finished game, decided once.
    after: HashMap<String, bool>,
    http: Http,
    rng: StdRng,
    shared: SharedRef,
    last_progress: Instant,
}

impl Pair {
    /// Two new guests; `None` if the soak stops before the server hands them out.
    pub async fn new(index: usize, http: Http, seed: u64, shared: SharedRef) -> Option<Pair> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut players = Vec::new();
        for side in ["a", "b"] {
            let (token, user) = loop {
                if shared.borrow().stopping {
                    return None;
                }
                if let Ok((200, body)) = http.get("/api/me", None).await
                    && let (Some(token), Some(user)) =
                        (body["token"].as_str(), body["user"]["id"].as_str())
                {
                    break (token.to_string(), user.to_string());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            players.push(Player {
                label: format!("p{index}{side}"),
                token,
                user,
                conn: None,
                fresh: true,
                subscribed: None,
                sat: None,
                offered: None,
                view: View::default(),
                awaiting: None,
                think_until: None,
                // The first line comes soon, so that even a short soak chats.
                next_chat: Instant::now()
                    + Duration::from_millis(rng.random_range(0..CHAT_EVERY_MS.start)),
                chat_lines: 0,
                shared: shared.clone(),
            });
        }
        let [a, b]: [Player; 2] = players.try_into().ok()?;
        Some(Pair {
            index,
            players: [a, b],
            table: None,
            after: HashMap::new(),
            http,
            rng,
            shared,
            last_progress: Instant::now(),
        })
    }

    fn stopping(&self) -> bool {
        self.shared.borrow().stopping
    }

    pub async fn run(mut self) {
        while !self.stopping() {
            if !self.connect().await {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            if self.table.is_none() && !self.new_table().await {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            if !self.subscribe().await {
                continue;
            }
            {
                let mut shared = self.shared.borrow_mut();
                let life = shared.life;
                shared.back[self.index] = Some(life);
            }
            if self.step().await {
                self.last_progress = Instant::now();
            } else if self.last_progress.elapsed() > STALL {
                self.shared.borrow_mut().ledger.error("stall");
                for player in &mut self.players {
                    player.resync();
                    player.offered = None;
                }
                self.last_progress = Instant::now();
            }
            self.pump().await;
        }
        for player in &mut self.players {
            if let Some(conn) = player.conn.take() {
                conn.close().await;
            }
        }
    }

    async fn connect(&mut self) -> bool {
        for player in &mut self.players {
            if player.conn.is_none() {
                match self.http.connect(&player.token).await {
                    Ok(conn) => {
                        player.conn = Some(conn);
                        player.fresh = true;
                        // Time spent waiting for the server is not a stall.
                        self.last_progress = Instant::now();
                    }
                    Err(_) => return false,
                }
            }
        }
        true
    }

    /// Both players subscribed to the pair's table (catching up on what they missed), and
    /// seated when it is still open.
    async fn subscribe(&mut self) -> bool {
        let Some(table) = self.table.clone() else {
            return false;
        };
        for player in &mut self.players {
            if player.subscribed.as_deref() == Some(table.as_str()) {
                continue;
            }
            // Off the finished game first, as the web client does: a socket follows a
            // bounded number of tables.
            if let Some(left) = player.subscribed.take() {
                let body = json!({"type": "table.unsubscribe", "table": left});
                if player.request(body).await.is_none() {
                    return false;
                }
            }
            let known = (player.view.table == table).then_some(player.view.ply);
            let mut body = json!({"type": "table.subscribe", "table": table});
            if let Some(ply) = known {
                body["since"] = json!(ply);
            }
            let Some(reply) = player.request(body).await else {
                return false;
            };
            let received = Instant::now();
            match text(&reply["type"]) {
                kind @ ("table" | "catchup") => {
                    let after_restart = player.fresh && known.is_some();
                    player.apply(&reply);
                    player.subscribed = Some(table.clone());
                    player.fresh = false;
                    if let Some(known) = known
                        && player.view.ply < known
                    {
                        self.shared.borrow_mut().ledger.anomaly(format!(
                            "table {table}: {} had seen ply {known}, the server is back at ply {}",
                            player.label, player.view.ply
                        ));
                    }
                    if after_restart && kind == "catchup" {
                        clock_sample(player, &reply["state"], received);
                    }
                }
                _ => {
                    let code = text(&reply["code"]).to_string();
                    let mut shared = self.shared.borrow_mut();
                    shared.ledger.error(&format!("subscribe:{code}"));
                    if code == "not_found" {
                        shared
                            .ledger
                            .anomaly(format!("table {table}: not found after it was created"));
                        self.table = None;
                    }
                    return false;
                }
            }
        }
        for player in &mut self.players {
            if player.view.status == "open"
                && player.view.you.is_none()
                && player.sat.as_deref() != Some(table.as_str())
            {
                let Some(reply) = player.request(json!({"type": "sit", "table": table})).await
                else {
                    return false;
                };
                if reply["type"] == "error" {
                    let code = format!("sit:{}", text(&reply["code"]));
                    self.shared.borrow_mut().ledger.error(&code);
                    player.resync();
                    return false;
                }
                player.sat = Some(table.clone());
            }
        }
        true
    }

    /// Does one thing if there is something to do: a move, a chat line, the next game.
    async fn step(&mut self) -> bool {
        let Some(table) = self.table.clone() else {
            return false;
        };
        for i in 0..2 {
            if !self.players[i].may_move(&table) {
                self.players[i].think_until = None;
                continue;
            }
            let now = Instant::now();
            match self.players[i].think_until {
                None => {
                    let think = Duration::from_millis(self.rng.random_range(THINK_MS));
                    self.players[i].think_until = Some(now + think);
                }
                Some(until) if now >= until => {
                    self.players[i].think_until = None;
                    self.play(i, &table).await;
                    return true;
                }
                Some(_) => {}
            }
        }
        for i in 0..2 {
            if self.players[i].next_chat <= Instant::now()
                && self.players[i].subscribed.as_deref() == Some(table.as_str())
            {
                self.chat(i, &table).await;
                return true;
            }
        }
        self.after_game(&table).await
    }

    async fn play(&mut self, i: usize, table: &str) {
        let ply = self.players[i].view.ply;
        let resign = ply >= MAX_PLIES || self.rng.random_bool(RESIGN_CHANCE);
        let mv = if resign {
            None
        } else {
            choose(&self.players[i].view, &mut self.rng)
        };
        let player = &mut self.players[i];
        let Some(mv) = mv else {
            if let Some(reply) = player
                .request(json!({"type": "resign", "table": table}))
                .await
                && reply["type"] == "error"
            {
                let code = format!("resign:{}", text(&reply["code"]));
                self.shared.borrow_mut().ledger.error(&code);
                player.resync();
            }
            return;
        };
        let request = json!({"type": "move", "table": table, "move": mv, "ply": ply});
        let reply = player.request(request).await;
        let mut shared = self.shared.borrow_mut();
        let life = shared.life;
        match reply {
            None => shared
                .ledger
                .unanswered_moves
                .push((table.to_string(), ply + 1, mv)),
            Some(reply) if reply["type"] == "ok" => {
                shared.ledger.ack_move(table, ply + 1, &mv, life);
                player.awaiting = Some((ply + 1, Instant::now()));
            }
            Some(reply) => {
                let code = text(&reply["code"]).to_string();
                shared.ledger.error(&format!("move:{code}"));
                if code == "illegal_move" {
                    shared.ledger.anomaly(format!(
                        "table {table} ply {}: {mv:?} refused as illegal ({}) in {:?}",
                        ply + 1,
                        text(&reply["message"]),
                        player.view.position
                    ));
                }
                player.resync();
            }
        }
    }

    async fn chat(&mut self, i: usize, table: &str) {
        let pause = Duration::from_millis(self.rng.random_range(CHAT_EVERY_MS));
        let player = &mut self.players[i];
        player.next_chat = Instant::now() + pause;
        player.chat_lines += 1;
        let line = format!("{} line {} — привіт ♞", player.label, player.chat_lines);
        let reply = player
            .request(json!({"type": "chat", "table": table, "text": line}))
            .await;
        let mut shared = self.shared.borrow_mut();
        let life = shared.life;
        match reply {
            None => {
                shared
                    .ledger
                    .unanswered_chat
                    .push((table.to_string(), player.user.clone(), line))
            }
            Some(reply) if reply["type"] == "ok" => {
                shared.ledger.ack_chat(table, &player.user, &line, life);
            }
            Some(reply) => {
                let code = format!("chat:{}", text(&reply["code"]));
                shared.ledger.error(&code);
            }
        }
    }

    /// The game is over: a rematch (offered by seat a, accepted by seat b) or a new table.
    async fn after_game(&mut self, table: &str) -> bool {
        let over = |p: &Player| {
            p.view.table == table && matches!(p.view.status.as_str(), "finished" | "aborted")
        };
        if !self.players.iter().all(over) {
            return false;
        }
        if let Some(next) = self.players.iter().find_map(|p| p.view.rematch.clone()) {
            let mut shared = self.shared.borrow_mut();
            shared.ledger.rematches += 1;
            if let Some(info) = shared.ledger.tables.get(table).cloned() {
                shared.ledger.table(&next, info);
            }
            drop(shared);
            self.table = Some(next);
            return true;
        }
        let rematch = match self.after.get(table) {
            Some(&rematch) => rematch,
            None => {
                let rematch = self.rng.random_bool(REMATCH_CHANCE);
                self.after.insert(table.to_string(), rematch);
                self.shared.borrow_mut().ledger.games_ended += 1;
                rematch
            }
        };
        if !rematch {
            return self.new_table().await;
        }
        let Some(leader) = self.players.iter().position(|p| p.view.you == Some(0)) else {
            return false;
        };
        let follower = 1 - leader;
        let (player, kind) = if self.players[follower].view.rematch_offer == Some(0) {
            (follower, "rematch.accept")
        } else if self.players[leader].offered.as_deref() != Some(table) {
            (leader, "rematch.offer")
        } else {
            return false;
        };
        let player = &mut self.players[player];
        let Some(reply) = player.request(json!({"type": kind, "table": table})).await else {
            return true;
        };
        if reply["type"] == "error" {
            let code = format!("{kind}:{}", text(&reply["code"]));
            self.shared.borrow_mut().ledger.error(&code);
            player.resync();
        } else if kind == "rematch.offer" {
            player.offered = Some(table.to_string());
        } else {
            // Taken: the offer is used up, whatever the event says later.
            player.view.rematch_offer = None;
        }
        true
    }

    /// A new table of a random game (the first table of pair i plays game i, so that a few
    /// pairs cover every game), created over HTTP by one of the two.
    async fn new_table(&mut self) -> bool {
        let first = self.table.is_none() && self.after.is_empty();
        let (kind, creator) = {
            let shared = self.shared.borrow();
            let kind = if first {
                shared.games[self.index % shared.games.len()].clone()
            } else {
                shared.games.choose(&mut self.rng).expect("games").clone()
            };
            (kind, self.rng.random_range(0..2usize))
        };
        let variant = kind.variants.choose(&mut self.rng).cloned();
        let mut body = json!({"game": kind.id, "seat": self.rng.random_range(0..2u8)});
        if let Some(variant) = &variant {
            body["variant"] = json!(variant);
        }
        let clocked = self.rng.random_bool(CLOCK_CHANCE);
        if clocked {
            let initial = *[30, 60, 180, 300].choose(&mut self.rng).expect("choices");
            let increment = self.rng.random_range(0..3u64);
            body["clock"] = json!({"initial": initial, "increment": increment});
        }
        let token = self.players[creator].token.clone();
        match self.http.post("/api/tables", &token, &body).await {
            Ok((201, snapshot)) => {
                let Some(id) = snapshot["id"].as_str() else {
                    return false;
                };
                self.shared.borrow_mut().ledger.table(
                    id,
                    TableInfo {
                        game: kind.id.clone(),
                        clocked,
                    },
                );
                self.players[creator].sat = Some(id.to_string());
                self.table = Some(id.to_string());
                true
            }
            Ok((_, reply)) => {
                let code = format!("create:{}", text(&reply["code"]));
                self.shared.borrow_mut().ledger.error(&code);
                false
            }
            // The server is down; the table may or may not exist: it is simply not used.
            Err(_) => false,
        }
    }

    /// Waits for the next message on either socket (or a short while), and takes it in.
    async fn pump(&mut self) {
        let now = Instant::now();
        let mut wake = now + Duration::from_millis(20);
        for player in &self.players {
            if let Some(until) = player.think_until {
                wake = wake.min(until);
            }
        }
        let [a, b] = &mut self.players;
        let got = tokio::select! {
            message = recv(&mut a.conn) => Some((0, message)),
            message = recv(&mut b.conn) => Some((1, message)),
            _ = tokio::time::sleep_until(wake.into()) => None,
        };
        if let Some((i, message)) = got {
            match message {
                Some(message) => self.players[i].apply(&message),
                None => self.players[i].lost(),
            }
        }
    }
}

async fn recv(conn: &mut Option<Conn>) -> Option<Value> {
    match conn {
        Some(conn) => conn.recv().await,
        None => std::future::pending().await,
    }
}

/// Notes the clocks of a snapshot read right after a restart, for the drift figures.
fn clock_sample(player: &Player, state: &Value, received: Instant) {
    let clock = &state["clock"];
    if state["status"] != "playing" || clock.is_null() || player.view.ply < 2 {
        return;
    }
    let mut shared = player.shared.borrow_mut();
    let life = shared.life;
    let Some(running) = seat_index(&clock["running"]) else {
        shared.ledger.anomaly(format!(
            "table {}: the clock does not run after the restart at ply {}",
            player.view.table, player.view.ply
        ));
        return;
    };
    let (Some(reported), Some(at_last_move)) =
        (clocks(&clock["remaining_ms"]), player.view.last_clock)
    else {
        return;
    };
    shared.ledger.clock_samples.push(ClockSample {
        life,
        received,
        reported,
        running,
        at_last_move,
        last_move_heard: player.view.last_move_heard,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tumbleweed_setup_picks_two_different_empty_cells() {
        let start = "....../......./......../........./........../.....n2...../........../........./......../......./...... setup 0";
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..200 {
            let mv = tumbleweed_setup(start, &mut rng).unwrap();
            let (red, white) = mv.split_once(',').unwrap();
            assert_ne!(red, white);
            // f6 is the centre of hex6, holding the neutral stack.
            assert!(red != "f6" && white != "f6", "{mv}");
            for cell in [red, white] {
                let i = (cell.as_bytes()[0] - b'a') as i32;
                let j: i32 = cell[1..].parse().unwrap();
                assert!((i - (j - 1)).abs() <= 5 && (1..=11).contains(&j), "{cell}");
            }
        }
    }
}
