//! A pair of players at one table, the unit of every load scenario.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use catalog::GameId;
use serde_json::{Value, json};
use testkit::{Conn, Http};

/// A game a load can play: any two-player game of the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game(GameId);

/// The catalogue's two-player games, the choices of `--game`.
static TWO_PLAYER: LazyLock<Vec<Game>> = LazyLock::new(|| {
    GameId::ALL
        .into_iter()
        .filter(|game| !game.is_solo())
        .map(Game)
        .collect()
});

impl Default for Game {
    /// Cephalopod: short games of small positions, the figures' reference since the first.
    fn default() -> Game {
        Game(GameId::Cephalopod)
    }
}

impl clap::ValueEnum for Game {
    fn value_variants<'a>() -> &'a [Game] {
        &TWO_PLAYER
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.id()))
    }
}

impl Game {
    pub fn id(self) -> &'static str {
        self.0.as_str()
    }

    /// A move to play where the server sends no legal list because it is too long to send:
    /// Tumbleweed's opening puts two stones on any two cells. The generator has no engine of
    /// its own to pick one.
    fn unlisted_move(self) -> Option<&'static str> {
        (self.0 == GameId::Tumbleweed).then_some("a1,b1")
    }
}

/// Two guests at a private table of one game (its default variant), playing the first legal
/// move; a finished game goes on as a rematch.
pub struct Pair {
    game: Game,
    conns: [Conn; 2],
    table: String,
    /// The private table's invitation, with which others may watch it.
    pub invite: serde_json::Value,
    /// Which connection plays seat b.
    b_plays: usize,
    /// Whose turn (the connection's index), the legal moves and the ply.
    to_move: usize,
    legal: Vec<String>,
    /// The position has more legal moves than the server sends.
    legal_truncated: bool,
    ply: u64,
    /// Moves refused by the socket's request rate and sent again.
    pub throttled: u64,
}

/// How many pairs are set up at once.
const SETUP_AT_ONCE: usize = 64;

impl Pair {
    /// `count` pairs, set up many at a time: a pair left unread for longer than the server's
    /// 30 s heartbeat timeout would be cut before the measurement starts.
    pub async fn many(http: &Http, count: usize, game: Game) -> anyhow::Result<Vec<Pair>> {
        use futures_util::StreamExt;
        let made: Vec<anyhow::Result<Pair>> = futures_util::stream::iter(0..count)
            .map(|_| Pair::new(http, game))
            .buffer_unordered(SETUP_AT_ONCE)
            .collect()
            .await;
        made.into_iter().collect()
    }

    pub async fn new(http: &Http, game: Game) -> anyhow::Result<Pair> {
        let a = http.guest().await?;
        let b = http.guest().await?;
        let mut conns = [http.connect(&a).await?, http.connect(&b).await?];
        let (status, table) = http
            .call(
                "POST",
                "/api/tables",
                Some(&a),
                Some(&json!({"game": game.id(), "private": true})),
            )
            .await;
        anyhow::ensure!(
            status == 201,
            "cannot create the honest table: {status} {table}"
        );
        let id = table["id"].as_str().unwrap_or_default().to_string();
        let invite = table["invite"].clone();
        conns[0]
            .request(json!({"type": "table.subscribe", "table": id}))
            .await?;
        conns[1]
            .request(json!({"type": "table.subscribe", "table": id, "token": invite}))
            .await?;
        conns[1]
            .request(json!({"type": "sit", "table": id, "token": invite}))
            .await?;
        let started = conns[0]
            .until(|m| m["type"] == "table" && m["table"]["status"] == "playing")
            .await?;
        let mut pair = Pair {
            game,
            conns,
            table: id,
            invite: invite.clone(),
            b_plays: 1,
            to_move: 0,
            legal: Vec::new(),
            legal_truncated: false,
            ply: 0,
            throttled: 0,
        };
        // Seat a (the host's connection) moves first, and only its copy has the legal list.
        pair.take_turn(&started["table"], &started["table"]);
        Ok(pair)
    }

    /// The table being played now.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// The ply the game is at.
    pub fn ply(&self) -> u64 {
        self.ply
    }

    /// The turn after a move or a snapshot, from each connection's copy of it: the legal list
    /// is only in the copy of the player to move.
    fn take_turn(&mut self, first: &Value, second: &Value) {
        self.to_move = if first["to_move"] == "b" {
            self.b_plays
        } else {
            1 - self.b_plays
        };
        let state = [first, second][self.to_move];
        self.legal = state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|m| m.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        self.legal_truncated = state["legal_truncated"] == true;
        self.ply = state["ply"].as_u64().unwrap_or(self.ply);
    }

    /// The turn after the move of connection `mover` at `ply`, from the mover's copy of what
    /// followed and the other connection's.
    fn after_move(&mut self, mover: usize, ply: u64, mine: Value, theirs: Value) {
        let (mine, theirs) = (turn_after(mine, ply), turn_after(theirs, ply));
        if mover == 0 {
            self.take_turn(&mine, &theirs);
        } else {
            self.take_turn(&theirs, &mine);
        }
    }

    /// Whether the game is over (the next move goes to a rematch first).
    pub fn finished(&self) -> bool {
        self.legal.is_empty() && !self.legal_truncated
    }

    /// The move to play now: the first legal one, after a rematch if the game is over.
    async fn next_move(&mut self) -> anyhow::Result<String> {
        if self.finished() {
            self.rematch().await?;
        }
        match (self.legal.first(), self.game.unlisted_move()) {
            (Some(mv), _) => Ok(mv.clone()),
            (None, Some(mv)) if self.legal_truncated => Ok(mv.to_string()),
            _ => anyhow::bail!("{} sent no legal move at ply {}", self.game.id(), self.ply),
        }
    }

    /// A finished game goes on as a rematch (made by the table, so it counts against no
    /// limit of the honest address).
    pub async fn rematch(&mut self) -> anyhow::Result<()> {
        let table = self.table.clone();
        self.conns[0]
            .request(json!({"type": "rematch.offer", "table": table}))
            .await?;
        self.conns[1]
            .request(json!({"type": "rematch.accept", "table": table}))
            .await?;
        let next = self.conns[0].until(|m| m["type"] == "rematch").await?;
        let next = next["next"].as_str().unwrap_or_default().to_string();
        let second = self.conns[1]
            .request(json!({"type": "table.subscribe", "table": next}))
            .await?;
        let first = self.conns[0]
            .request(json!({"type": "table.subscribe", "table": next}))
            .await?;
        // Off the finished table, as a page moving to the rematch would: a table stays in
        // memory while anyone follows it.
        for conn in &mut self.conns {
            conn.request(json!({"type": "table.unsubscribe", "table": table}))
                .await?;
        }
        self.table = next;
        self.invite = first["table"]["invite"].clone();
        // Seats swap in a rematch.
        self.b_plays = usize::from(first["table"]["you"] != "b");
        self.take_turn(&first["table"], &second["table"]);
        Ok(())
    }

    /// Plays one move, counted from `intended` (when an open loop meant to send it, so a late
    /// send counts against the server too): the mover's acknowledgement and the opponent's
    /// receipt of the move event. A finished game goes on as a rematch first.
    pub async fn timed_move(&mut self, intended: Instant) -> anyhow::Result<(Duration, Duration)> {
        let mv = self.next_move().await?;
        let ply = self.ply;
        let request = json!({"type": "move", "table": self.table, "move": mv, "ply": ply});
        let [first, second] = &mut self.conns;
        let (mover, opponent) = if self.to_move == 0 {
            (first, second)
        } else {
            (second, first)
        };
        let id = mover.send(request).await?;
        let is_event = |m: &Value| answers_ply(m, ply);
        let acked = async {
            let mut ack = None;
            let mut event = None;
            while ack.is_none() || event.is_none() {
                let message = mover.next().await?;
                if message["id"] == json!(id) {
                    anyhow::ensure!(message["type"] == "ok", "move refused: {message}");
                    ack = Some(intended.elapsed());
                } else if is_event(&message) {
                    event = Some(message);
                }
            }
            anyhow::Ok((ack.expect("read above"), event.expect("read above")))
        };
        let received = async {
            let event = opponent.until(is_event).await?;
            anyhow::Ok((intended.elapsed(), event))
        };
        let (acked, received) = tokio::join!(acked, received);
        let ((ack, event), (receipt, opponents)) = (acked?, received?);
        self.after_move(self.to_move, ply, event, opponents);
        Ok((ack, receipt))
    }

    /// Plays one move and returns the mover's round trip; a finished game goes on as a rematch.
    pub async fn one_move(&mut self) -> anyhow::Result<Duration> {
        let mv = self.next_move().await?;
        let ply = self.ply;
        let mover = self.to_move;
        let request = json!({"type": "move", "table": self.table, "move": mv, "ply": ply});
        let mut sent = Instant::now();
        let mut id = self.conns[mover].send(request.clone()).await?;
        let mut rtt = None;
        let mut next = None;
        // The reply and the move event may come in either order.
        while rtt.is_none() || next.is_none() {
            let message = self.conns[mover].next().await?;
            if message["id"] == json!(id) && message["code"] == "rate_limited" {
                // Over the socket's request rate (a closed loop of few games): wait, send again.
                self.throttled += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
                sent = Instant::now();
                id = self.conns[mover].send(request.clone()).await?;
            } else if message["id"] == json!(id) {
                anyhow::ensure!(message["type"] == "ok", "move refused: {message}");
                rtt = Some(sent.elapsed());
            } else if answers_ply(&message, ply) {
                next = Some(message);
            }
        }
        // The legal list is in the other side's copy of the event.
        let theirs = self.conns[1 - mover].until(|m| answers_ply(m, ply)).await?;
        self.after_move(mover, ply, next.expect("read above"), theirs);
        Ok(rtt.expect("read above"))
    }
}

/// Whether `message` is what follows the move played at `ply`: its event, or the game's end.
fn answers_ply(message: &Value, ply: u64) -> bool {
    (message["type"] == "move" && message["ply"].as_u64() == Some(ply + 1))
        || message["type"] == "end"
}

/// A move event as the next turn, or for a game that ended, no turn at all.
fn turn_after(event: Value, ply: u64) -> Value {
    if event["type"] == "end" {
        json!({"legal": [], "ply": ply + 1})
    } else {
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn a_load_plays_every_two_player_game_of_the_catalogue_and_no_solo_one() {
        let offered: Vec<&str> = Game::value_variants().iter().map(|g| g.id()).collect();
        let two_player: Vec<&str> = catalog::GAMES
            .iter()
            .filter(|info| info.seats == 2)
            .map(|info| info.id)
            .collect();
        assert_eq!(offered, two_player);
        for id in two_player {
            assert_eq!(Game::from_str(id, false).map(Game::id), Ok(id));
        }
        assert!(Game::from_str(GameId::WhiteRabbit.as_str(), false).is_err());
        assert!(offered.contains(&Game::default().id()));
    }
}
