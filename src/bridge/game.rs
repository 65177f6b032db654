//! One game through the bridge: it follows `GET /api/bot/game/stream/{id}`, keeps its engine
//! at the game's position, and on the bot's turn asks the engine for a move within the clock
//! and posts it. A draw offer is declined (the rule is in docs/bot-api.md, "Bridge"). A
//! stream that drops is opened again: the server starts it with the whole game, so nothing
//! is missed.

use std::time::Duration;

use serde_json::{Value, json};

use super::api::{self, Api};
use super::engine::Engine;
use super::think_time::think_time;

/// A game the bridge played, as it saw it last.
#[derive(Debug, Clone)]
pub struct Finished {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub you: String,
    pub moves: Vec<String>,
    pub status: String,
    pub result: Value,
    pub reason: Value,
}

/// What the bridge knows of the game from its `gameFull`.
struct Seat {
    game: String,
    variant: String,
    you: String,
}

/// One game's loop; what it saw last once the game is over (or `None` when the server will
/// not show the game, or the engine failed and the bot resigned).
pub async fn play(api: &Api, id: &str, engine_command: &str, cap: Duration) -> Option<Finished> {
    let mut engine: Option<Engine> = None;
    let mut player = Player::default();
    let mut pause = Duration::from_millis(250);
    loop {
        let path = format!("/api/bot/game/stream/{id}");
        let mut lines = match api.stream(&path).await {
            Ok(lines) => lines,
            Err(error) if api::refused_for_good(&error) => {
                tracing::warn!(game = id, "{error:#}");
                if let Some(engine) = engine.take() {
                    engine.quit().await;
                }
                return None;
            }
            Err(error) => {
                tracing::warn!(game = id, "{error:#}; connecting again");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(10));
                continue;
            }
        };
        let mut seat = None;
        while let Some(line) = lines.next().await {
            let state = match line["type"].as_str() {
                Some("gameFull") => {
                    seat = Some(Seat {
                        game: text(&line["game"]),
                        variant: text(&line["variant"]),
                        you: text(&line["you"]),
                    });
                    line["state"].clone()
                }
                Some("gameState") => line,
                _ => continue,
            };
            let Some(seat) = &seat else { continue };
            pause = Duration::from_millis(250);
            if state["status"] != "playing" {
                if matches!(state["status"].as_str(), Some("finished" | "aborted")) {
                    if let Some(engine) = engine.take() {
                        engine.quit().await;
                    }
                    return Some(finished_game(id, seat, &state));
                }
                continue;
            }
            let running = match engine.as_mut() {
                Some(running) => Ok(running),
                None => Engine::start(engine_command).map(|started| engine.insert(started)),
            };
            let answered = match running {
                Ok(running) => player.answer(api, id, seat, &state, running, cap).await,
                Err(error) => Err(error),
            };
            match answered {
                Ok(Step::Answered) => {}
                // The server did not take the answer (the network, a busy server): it is
                // given again from the state the stream starts with once connected again.
                Ok(Step::Again) => break,
                Err(error) => {
                    tracing::error!(game = id, "{error:#}: resigning");
                    let _ = api
                        .post(&format!("/api/bot/game/{id}/resign"), &json!({}))
                        .await;
                    if let Some(engine) = engine.take() {
                        engine.quit().await;
                    }
                    break;
                }
            }
        }
        // The stream ended before the game did: connect again.
        tokio::time::sleep(pause).await;
    }
}

/// What became of the answer to a state.
enum Step {
    /// Given, or nothing to give.
    Answered,
    /// Not taken by the server: to give again after connecting again.
    Again,
}

/// `text` as one segment of a URL's path: every byte but the unreserved ones and the
/// notations' own `:` and `,` percent-encoded.
fn path_segment(text: &str) -> String {
    let mut segment = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~:,".contains(&byte) {
            segment.push(char::from(byte));
        } else {
            segment.push_str(&format!("%{byte:02X}"));
        }
    }
    segment
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

fn moves(state: &Value) -> Vec<String> {
    (state["moves"].as_array().into_iter().flatten())
        .filter_map(|m| m.as_str().map(str::to_string))
        .collect()
}

fn finished_game(id: &str, seat: &Seat, state: &Value) -> Finished {
    Finished {
        id: id.to_string(),
        game: seat.game.clone(),
        variant: seat.variant.clone(),
        you: seat.you.clone(),
        moves: moves(state),
        status: text(&state["status"]),
        result: state["result"].clone(),
        reason: state["reason"].clone(),
    }
}

/// What the bot has already answered, so that a state told again (a presence change, a
/// reconnected stream) is not answered twice.
#[derive(Default)]
struct Player {
    /// The ply at which the bot's move was accepted.
    moved_at: Option<u64>,
    /// The ply at which it declined a draw offer.
    declined_at: Option<u64>,
}

impl Player {
    async fn answer(
        &mut self,
        api: &Api,
        id: &str,
        seat: &Seat,
        state: &Value,
        engine: &mut Engine,
        cap: Duration,
    ) -> anyhow::Result<Step> {
        let ply = state["ply"].as_u64().unwrap_or(0);
        let offered_by = state["draw_offer"].as_str();
        if offered_by.is_some_and(|by| by != seat.you) && self.declined_at != Some(ply) {
            let path = format!("/api/bot/game/{id}/draw/no");
            let Some(answer) = taken(api.post(&path, &json!({})).await) else {
                return Ok(Step::Again);
            };
            // A move may have answered the offer first: the state after it says so.
            if (200..300).contains(&answer.status) {
                self.declined_at = Some(ply);
            }
        }
        if state["to_move"].as_str() != Some(seat.you.as_str()) || self.moved_at == Some(ply) {
            return Ok(Step::Answered);
        }
        let position = state["position"].as_str().unwrap_or_default();
        engine
            .sync(&seat.game, &seat.variant, &moves(state), position)
            .await?;
        let movetime = think_time(&state["clock"], &seat.you, cap);
        let mv = engine.go(movetime).await?;
        let path = format!("/api/bot/game/{id}/move/{}", path_segment(&mv));
        let Some(answer) = taken(api.post(&path, &json!({})).await) else {
            return Ok(Step::Again);
        };
        match answer.status {
            200..=299 => self.moved_at = Some(ply),
            // The game moved on meanwhile (a takeback, the clock ran out): the next state
            // says what to do.
            403 | 409 if answer.body["code"] != "illegal_move" => {}
            _ => api::ok(&format!("move {mv}"), &answer)?,
        }
        Ok(Step::Answered)
    }
}

/// The answer of a request the server dealt with; `None` (logged) for a request that did not
/// reach it, or that it could not deal with now (a 5xx, or 429 for too many requests).
fn taken(answer: anyhow::Result<api::Answer>) -> Option<api::Answer> {
    match answer {
        Ok(answer) if answer.status != 429 && answer.status < 500 => Some(answer),
        Ok(answer) => {
            tracing::warn!("{} {}", answer.status, answer.body);
            None
        }
        Err(error) => {
            tracing::warn!("{error:#}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_one_path_segment() {
        assert_eq!(path_segment("a2:a1,b2"), "a2:a1,b2");
        assert_eq!(path_segment("d1-d2x/b 4"), "d1-d2x%2Fb%204");
    }
}
