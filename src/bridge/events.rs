//! The bridge's main loop: it follows `GET /api/stream/event`, answers each challenge to the
//! bot by the policy, and starts a game loop for each game that starts (a challenge accepted,
//! or one that was going on when the bridge connected). A dropped stream is opened again; the
//! server then tells every game going on and every challenge waiting.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

use super::api::{self, Api};
use super::game::{self, Finished};
use super::policy::Policy;

/// What the bridge runs with.
pub struct Bridge {
    pub api: Api,
    pub policy: Policy,
    pub engine: String,
    /// The most an engine thinks about one move.
    pub movetime_cap: Duration,
}

impl Bridge {
    /// Runs until the token is refused for good; each finished game is sent to `finished`.
    pub async fn run(self, finished: UnboundedSender<Finished>) -> anyhow::Result<()> {
        let me = self.me().await?;
        tracing::info!(bot = %me, "the bridge is listening");
        let bridge = Rc::new(self);
        let playing: Rc<RefCell<HashSet<String>>> = Rc::default();
        let mut pause = Duration::from_millis(250);
        loop {
            let mut lines = match bridge.api.stream("/api/stream/event").await {
                Ok(lines) => lines,
                Err(error) if api::refused_for_good(&error) => return Err(error),
                Err(error) => {
                    tracing::warn!("{error:#}; connecting again");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(30));
                    continue;
                }
            };
            pause = Duration::from_millis(250);
            while let Some(event) = lines.next().await {
                match event["type"].as_str() {
                    Some("challenge") => {
                        let challenge = &event["challenge"];
                        if challenge["dest"]["id"] == me.as_str()
                            && challenge["status"] == "created"
                        {
                            let started = bridge.answer(challenge, &playing).await;
                            if let Some(id) = started {
                                bridge.follow(id, &playing, &finished);
                            }
                        }
                    }
                    Some("gameStart") => {
                        let game = &event["game"];
                        if let Some(id) = game["id"].as_str()
                            && game["game"] != "white-rabbit"
                        {
                            bridge.follow(id.to_string(), &playing, &finished);
                        }
                    }
                    _ => {}
                }
            }
            tokio::time::sleep(pause).await;
        }
    }

    /// The bot's own id (its token needs the `read` scope for it), asked again while the
    /// server cannot be reached.
    async fn me(&self) -> anyhow::Result<String> {
        let mut pause = Duration::from_millis(250);
        let answer = loop {
            match self.api.get("/api/me").await {
                Ok(answer) => break answer,
                Err(error) => tracing::warn!("{error:#}; asking again"),
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(30));
        };
        api::ok("GET /api/me", &answer)?;
        let user = &answer.body["user"];
        if user["bot"] != true {
            anyhow::bail!("{} is not a bot account: upgrade it first", user["name"]);
        }
        Ok(user["id"].as_str().unwrap_or_default().to_string())
    }

    /// Accepts or declines `challenge`: the id of the game an acceptance started.
    async fn answer(
        &self,
        challenge: &Value,
        playing: &RefCell<HashSet<String>>,
    ) -> Option<String> {
        let id = challenge["id"].as_str()?;
        let busy = playing.borrow().len();
        let (path, body) = match self.policy.judge(challenge, busy) {
            Ok(()) => (format!("/api/challenge/{id}/accept"), json!({})),
            Err(reason) => (
                format!("/api/challenge/{id}/decline"),
                json!({"reason": reason}),
            ),
        };
        match self.api.post(&path, &body).await {
            Ok(answer) if (200..300).contains(&answer.status) => {
                tracing::info!(challenge = id, "{}", answer.body["status"]);
                answer.body["game_id"].as_str().map(str::to_string)
            }
            // Cancelled or expired meanwhile, or answered by another bridge.
            Ok(answer) => {
                tracing::info!(challenge = id, "{path}: {}", answer.body);
                None
            }
            Err(error) => {
                tracing::warn!(challenge = id, "{error:#}");
                None
            }
        }
    }

    /// Starts the loop of game `id` unless it runs already.
    fn follow(
        self: &Rc<Self>,
        id: String,
        playing: &Rc<RefCell<HashSet<String>>>,
        finished: &UnboundedSender<Finished>,
    ) {
        if !playing.borrow_mut().insert(id.clone()) {
            return;
        }
        let (bridge, playing, finished) = (self.clone(), playing.clone(), finished.clone());
        actix_web::rt::spawn(async move {
            let cap = bridge.movetime_cap;
            let ended = game::play(&bridge.api, &id, &bridge.engine, cap).await;
            playing.borrow_mut().remove(&id);
            if let Some(ended) = ended {
                let _ = finished.send(ended);
            }
        });
    }
}
