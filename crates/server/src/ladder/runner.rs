//! The ladder's loop: once a second, on the leader, each ladder game not yet over is compared
//! with the database (a challenge accepted becomes a game being played, one declined,
//! cancelled or expired is skipped, a table that ended makes its game over), and when fewer
//! games than allowed are going on and the pause after the last ending has passed, the next
//! one starts. A pass cut short by a crash is done again by the next, here or on the next
//! leader; the pause is this node's alone, so a new leader may start a game at once.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use tokio::time::Instant;

use super::pairing::{self, Ladder, Met, Pick};
use super::{ACCOUNT_CLOCK, ANSWER_WAIT, HOLD, LadderConfig};
use crate::domain::bots::{BOT_LEVELS, bot_of, parse_bot_level};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::table::{TableSettings, bot_user};
use crate::unix_time::unix_ms;
use crate::ws::protocol::{ClockSpec, UserView};

const EVERY: Duration = Duration::from_secs(1);

pub(super) async fn run(
    hub: Hub,
    config: LadderConfig,
    challenge_ttl: Duration,
    leader: Option<cluster::Leader>,
) {
    let holding = leader.as_ref().map(cluster::Leader::watch);
    let mut closing = hub.closing();
    let mut ticks = tokio::time::interval(EVERY.min(config.pause.max(Duration::from_millis(50))));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut runner = Runner {
        hub,
        config,
        challenge_ttl,
        next_start: Instant::now(),
    };
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = closing.wait_for(|c| *c) => return,
        }
        if holding.as_ref().is_some_and(|h| !*h.borrow()) {
            continue;
        }
        if let Err(error) = runner.pass().await {
            tracing::warn!(message = %error.message, "a pass of the bot ladder failed");
        }
    }
}

struct Runner {
    hub: Hub,
    config: LadderConfig,
    challenge_ttl: Duration,
    /// No game starts before this: the pause after the last one ended.
    next_start: Instant,
}

/// The ladder games that count against the limit now.
#[derive(Default)]
struct Going {
    count: usize,
    /// Bot accounts in one of them: one ladder game at a time each.
    busy: HashSet<String>,
    pairs: HashSet<(String, String)>,
    /// A challenge waits for its answer: no other is sent meanwhile, so that bot accounts
    /// whose programs are away hold one place of the ladder at most, never all of them.
    waiting: bool,
}

impl Going {
    fn add(&mut self, game: &store::LadderGame) {
        self.count += 1;
        for player in [&game.player_lo, &game.player_hi] {
            if bot_of(player).is_none() {
                self.busy.insert(player.clone());
            }
        }
        self.pairs
            .insert((game.player_lo.clone(), game.player_hi.clone()));
    }
}

impl Runner {
    async fn pass(&mut self) -> Result<(), ApiError> {
        let going = self.follow().await?;
        if going.count >= self.config.games || Instant::now() < self.next_start {
            return Ok(());
        }
        self.start_next(&going).await
    }

    /// Brings each ladder game not yet over in line with its challenge and its table, and
    /// returns those still going on.
    async fn follow(&mut self) -> Result<Going, ApiError> {
        let store = self.hub.store().clone();
        let now = unix_ms();
        let mut going = Going::default();
        for (game, table_status) in store.open_ladder_games().await? {
            let age = Duration::from_millis((now - game.created_at).max(0) as u64);
            if game.status == "challenged" {
                let challenge = match &game.challenge_id {
                    Some(id) => store.challenge(id).await?,
                    None => None,
                };
                match challenge {
                    Some(c) if c.status == "accepted" && c.game_id.is_some() => {
                        store
                            .set_ladder_game(&game.id, "playing", c.game_id.as_deref(), None)
                            .await?;
                        going.add(&game);
                    }
                    // Accepted, its table being opened this moment (or never: its opening
                    // failed, and the game is skipped).
                    Some(c) if c.status == "accepted" && age < ANSWER_WAIT => going.add(&game),
                    Some(c) if c.status == "created" && age < ANSWER_WAIT => {
                        going.add(&game);
                        going.waiting = true;
                    }
                    Some(c) if c.status == "created" => {
                        self.cancel(&c).await;
                        self.skip(&game, now).await?;
                    }
                    _ => self.skip(&game, now).await?,
                }
                continue;
            }
            match table_status.as_deref() {
                Some("open" | "playing") => {
                    if age < HOLD {
                        going.add(&game);
                    }
                }
                // Finished, aborted, or a table that is gone.
                _ => {
                    store
                        .set_ladder_game(&game.id, "over", None, Some(now))
                        .await?;
                    self.next_start = Instant::now() + self.config.pause;
                }
            }
        }
        Ok(going)
    }

    /// A challenge not answered in time is taken back by the ladder, in its challenger's name.
    async fn cancel(&self, c: &store::Challenge) {
        let Ok(challenger) = self.user(&c.challenger_id).await else {
            return;
        };
        if let Err(error) = crate::challenges::cancel(&self.hub, &challenger, &c.id).await {
            // Answered meanwhile, or expired: the next pass sees which.
            tracing::debug!(message = %error.message, "a ladder challenge was not cancelled");
        }
    }

    async fn skip(&mut self, game: &store::LadderGame, now: i64) -> Result<(), ApiError> {
        self.hub
            .store()
            .set_ladder_game(&game.id, "skipped", None, Some(now))
            .await?;
        self.next_start = Instant::now() + self.config.pause;
        Ok(())
    }

    /// A ladder player as a table or a challenge sees them.
    async fn user(&self, id: &str) -> Result<UserView, ApiError> {
        if let Some(level) = bot_of(id) {
            return Ok(bot_user(level));
        }
        self.hub
            .store()
            .user(id)
            .await?
            .map(crate::identity::user_view)
            .ok_or_else(|| ApiError::not_found("ladder player"))
    }

    async fn start_next(&mut self, going: &Going) -> Result<(), ApiError> {
        let store = self.hub.store().clone();
        let mut participants = Vec::new();
        for level in BOT_LEVELS {
            participants.push(bot_user(parse_bot_level(level)?).id);
        }
        let mut busy = going.busy.clone();
        for entrant in store.ladder_entrants().await? {
            if going.waiting {
                busy.insert(entrant.user_id.clone());
            }
            participants.push(entrant.user_id);
        }
        let met: HashMap<(String, String), Met> = store
            .ladder_pairs()
            .await?
            .into_iter()
            .map(|p| {
                let met = Met {
                    games: p.games,
                    last_at: p.last_at,
                };
                ((p.player_lo, p.player_hi), met)
            })
            .collect();
        let variants = pairing::two_player_variants();
        let Some(pick) = pairing::choose(&Ladder {
            participants: &participants,
            busy: &busy,
            playing: &going.pairs,
            met: &met,
            variants: &variants,
        }) else {
            return Ok(());
        };
        let houses = [bot_of(&pick.first), bot_of(pick.second())];
        let mut row = store::LadderGame {
            id: store::new_id(),
            player_lo: pick.lo.clone(),
            player_hi: pick.hi.clone(),
            first: pick.first.clone(),
            game: pick.variant.game().as_str().to_string(),
            variant: pick.variant.as_str().to_string(),
            challenge_id: None,
            game_id: None,
            status: "playing".to_string(),
            created_at: unix_ms(),
            ended_at: None,
        };
        match houses {
            [Some(first), Some(second)] => {
                let settings = TableSettings::ladder_game(pick.variant);
                let seats = vec![Some(bot_user(first)), Some(bot_user(second))];
                let table = self.hub.create_table(settings, None, seats, None).await?;
                row.game_id = Some(table.id.to_string());
            }
            _ => match self.challenge(&pick).await {
                Ok(id) => {
                    row.status = "challenged".to_string();
                    row.challenge_id = Some(id);
                }
                Err(error) => {
                    // Kept as skipped, so that the pair waits its turn again.
                    tracing::warn!(message = %error.message, "a ladder challenge could not be sent");
                    row.status = "skipped".to_string();
                    row.ended_at = Some(row.created_at);
                    self.next_start = Instant::now() + self.config.pause;
                }
            },
        }
        store.add_ladder_game(&row).await?;
        tracing::info!(
            first = %pick.first, second = %pick.second(), game = %row.game,
            variant = %row.variant, status = %row.status, "a ladder game"
        );
        Ok(())
    }

    /// Challenges the pair's bot account in the name of its opponent (a house bot when there
    /// is one); the challenge's id.
    async fn challenge(&self, pick: &Pick) -> Result<String, ApiError> {
        let (challenger, dest) = if bot_of(&pick.first).is_some() {
            (pick.first.as_str(), pick.second())
        } else {
            (pick.second(), pick.first.as_str())
        };
        let challenger_user = self.user(challenger).await?;
        let side = if challenger == pick.first { "a" } else { "b" };
        let (initial, increment) = ACCOUNT_CLOCK;
        let ask = crate::challenges::Ask {
            game: pick.variant.game().as_str(),
            variant: Some(pick.variant.as_str()),
            clock: Some(ClockSpec {
                initial: Some(initial),
                increment: Some(increment),
                days: None,
            }),
            side: Some(side),
            rated: true,
        };
        let shown =
            crate::challenges::create(&self.hub, &challenger_user, dest, ask, self.challenge_ttl)
                .await?;
        shown["id"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| ApiError::internal("a challenge without an id", "ladder"))
    }
}
