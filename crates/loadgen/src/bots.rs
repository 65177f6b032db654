//! Games against Hard bots, kept busy during a measurement: a guest answers each bot move at
//! once with its first legal move, so the bot is thinking nearly all the time.

use serde_json::{Value, json};

use testkit::{Conn, Http};

/// One guest at a table with a Hard bot.
pub struct BotGame {
    conn: Conn,
    table: String,
}

impl BotGame {
    pub async fn new(http: &Http) -> anyhow::Result<BotGame> {
        let token = http.guest().await?;
        let mut conn = http.connect(&token).await?;
        let (status, table) = http
            .call(
                "POST",
                "/api/tables",
                Some(&token),
                Some(&json!({"game": "cephalopod", "bot": "hard"})),
            )
            .await;
        anyhow::ensure!(status == 201, "cannot create a bot game: {status} {table}");
        let id = table["id"].as_str().unwrap_or_default().to_string();
        conn.request(json!({"type": "table.subscribe", "table": id}))
            .await?;
        Ok(BotGame { conn, table: id })
    }

    /// Plays until `until`: the first legal move whenever it is the guest's turn, a rematch
    /// when a game ends.
    pub async fn keep_busy(mut self, until: std::time::Instant) -> anyhow::Result<()> {
        let mut state = self
            .conn
            .request(json!({"type": "table.subscribe", "table": self.table}))
            .await?["table"]
            .clone();
        while std::time::Instant::now() < until {
            let you = state["you"].clone();
            let ply = state["ply"].as_u64().unwrap_or(0);
            if state["status"] != "playing" {
                let reply = self
                    .conn
                    .request(json!({"type": "rematch.offer", "table": self.table}))
                    .await?;
                anyhow::ensure!(reply["type"] == "ok", "no rematch: {reply}");
                let next = self.conn.until(|m| m["type"] == "rematch").await?;
                // Off the finished table: a socket follows a bounded number of tables.
                self.conn
                    .request(json!({"type": "table.unsubscribe", "table": self.table}))
                    .await?;
                self.table = next["next"].as_str().unwrap_or_default().to_string();
                state = self
                    .conn
                    .request(json!({"type": "table.subscribe", "table": self.table}))
                    .await?["table"]
                    .clone();
                continue;
            }
            if state["to_move"] == you {
                let mv = state["legal"][0].clone();
                self.conn
                    .request(json!({"type": "move", "table": self.table, "move": mv, "ply": ply}))
                    .await?;
            }
            // The next move (ours or the bot's), or the end.
            let event = self
                .conn
                .until(|m| {
                    (m["type"] == "move" && m["ply"].as_u64() > Some(ply)) || m["type"] == "end"
                })
                .await?;
            state = next_state(state, &event);
        }
        Ok(())
    }
}

/// The snapshot's fields that matter here, after an event.
fn next_state(mut state: Value, event: &Value) -> Value {
    if event["type"] == "end" {
        state["status"] = json!("finished");
        return state;
    }
    state["ply"] = event["ply"].clone();
    state["to_move"] = event["to_move"].clone();
    state["legal"] = event["legal"].clone();
    if event["to_move"].is_null() {
        state["status"] = json!("finished");
    }
    state
}
