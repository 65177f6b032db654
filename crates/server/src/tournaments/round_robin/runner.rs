//! A round robin's pass, once a second on the node holding the `tournaments` role, like an
//! arena's: nothing here remembers what it did, each pass compares the director with the
//! database. A game whose table exists is started and one over in the database is fed in
//! (at the time it ended); a game with no table gets one (a table whose game was called off
//! before it counted gets a new one, relinked: every game of the schedule is played); a
//! withdrawn player's games still being played end at once, resigned in their name; the
//! round robin's status follows its director, its standings written once at the end.

use std::collections::HashMap;

use tournament::round_robin::{GameStatus, Phase, RoundRobin, Withdrawal};
use tournament::{Event, PairingId, PlayerId};

use super::super::Tournaments;
use super::super::runner::ending;
use super::LoadedRoundRobin;
use crate::error::ApiError;
use crate::table::{Action, TableSettings};
use crate::unix_time::unix_ms;
use crate::ws::protocol::TableId;
use crate::ws::protocol::{Message, TimeControl};

type Games = HashMap<u32, store::TournamentGame>;

impl Tournaments {
    /// One pass over round robin `id`.
    pub(in crate::tournaments) async fn direct_round_robin(
        &self,
        id: &str,
    ) -> Result<(), ApiError> {
        let store = &self.0.store;
        let Some(slot) = self.round_robin(id).await? else {
            return Ok(());
        };
        let mut loaded = slot.lock().await;
        loaded.catch_up(store).await?;
        let games: Games = store
            .tournament_games(id)
            .await?
            .into_iter()
            .map(|game| (game.pairing as u32, game))
            .collect();
        for (event, happened) in game_events(&loaded.director, &games) {
            loaded.apply_at(store, happened, &event, None).await?;
        }
        loaded.apply_at(store, None, &Event::Tick, None).await?;
        {
            // Through the guard once, so that the director and the row are borrowed apart.
            let loaded = &mut *loaded;
            let director = &loaded.director;
            let players = || {
                (director.standings().into_iter())
                    .filter(|line| !line.withdrawn)
                    .map(|line| line.player.as_str().to_string())
                    .collect()
            };
            self.announce_start(&mut loaded.row, players).await?;
        }
        for (table, player) in withdrawn_still_playing(&loaded.director, &games) {
            self.resign_for(&table, &player).await;
        }
        let unopened: Vec<_> = loaded
            .director
            .games()
            .filter(|(pairing, game)| {
                game.status == GameStatus::Created && !table_exists(games.get(&pairing.0))
            })
            .map(|(pairing, game)| (pairing, game.seats.clone()))
            .collect();
        for (pairing, seats) in unopened {
            let relink = games.contains_key(&pairing.0);
            self.open_round_robin_game(&mut loaded, pairing, seats, relink)
                .await?;
        }
        self.follow_phase(&mut loaded).await
    }

    /// Writes the round robin's status when its director's phase changed; at the end, its
    /// standings and the time it ended, and it is forgotten here.
    async fn follow_phase(&self, loaded: &mut LoadedRoundRobin) -> Result<(), ApiError> {
        let store = &self.0.store;
        let id = loaded.row.id.clone();
        let status = match loaded.director.phase() {
            Phase::Upcoming => "upcoming",
            Phase::Running => "running",
            Phase::Finished => "finished",
            Phase::Cancelled => "cancelled",
        };
        if status == loaded.row.status {
            return Ok(());
        }
        match loaded.director.phase() {
            Phase::Upcoming | Phase::Running => {
                store.set_tournament_status(&id, status, None).await?;
            }
            Phase::Finished | Phase::Cancelled => {
                let standings = serde_json::to_string(&loaded.director.standings())
                    .map_err(|e| ApiError::internal("standings do not write", e))?;
                store
                    .end_round_robin(&id, status, Some(&standings), unix_ms())
                    .await?;
                self.unload_round_robin(&id);
            }
        }
        loaded.row.status = status.to_string();
        Ok(())
    }

    /// Opens game `pairing`'s table at the round robin's clock, links it (again, when a
    /// previous table was called off: `relink`) and starts it in the director. Players of a
    /// live round robin are sent to it; correspondence games wait in their lists.
    async fn open_round_robin_game(
        &self,
        loaded: &mut LoadedRoundRobin,
        pairing: PairingId,
        seats: [PlayerId; 2],
        relink: bool,
    ) -> Result<(), ApiError> {
        let store = &self.0.store;
        let row = loaded.row.clone();
        let mut users = Vec::with_capacity(seats.len());
        for player in &seats {
            let user = store
                .user(player.as_str())
                .await?
                .ok_or_else(|| ApiError::not_found("a tournament's player"))?;
            users.push(Some(crate::identity::user_view(user)));
        }
        let days = row.move_days.and_then(|d| u8::try_from(d).ok());
        let opened = async {
            let variant = catalog::VariantId::parse(&row.game, Some(&row.variant))
                .map_err(|e| ApiError::internal("a stored tournament's game", e))?;
            let control = match days {
                Some(_) => None,
                None => Some(
                    TimeControl::new(row.clock_initial_ms as u64, row.clock_increment_ms as u64)
                        .map_err(|e| ApiError::internal("a stored tournament's clock", e))?,
                ),
            };
            let settings = TableSettings::round_robin_pairing(variant, control, days, row.rated);
            self.0.hub.create_table(settings, None, users, None).await
        };
        let table = match opened.await {
            Ok(table) => table,
            Err(error) => {
                // The next pass tries again: every game of the schedule is played.
                tracing::error!(tournament = %row.id, %pairing, %error, "cannot open a round robin's table");
                return Ok(());
            }
        };
        if relink {
            store
                .relink_tournament_game(&row.id, i64::from(pairing.0), &table.id)
                .await?;
        } else {
            store
                .link_tournament_game(&row.id, i64::from(pairing.0), &table.id)
                .await?;
        }
        let game = table.id.to_string();
        let started = Event::GameStarted {
            pairing,
            game: game.clone(),
        };
        loaded.apply_at(store, None, &started, None).await?;
        if days.is_none() {
            for player in seats {
                let message = Message::TournamentGame {
                    tournament: row.id.clone(),
                    table: game.clone(),
                };
                self.0.hub.send_to(player.to_string(), &message);
            }
        }
        Ok(())
    }

    /// Ends the game at `table` as lost by `player`, who withdrew; a game over meanwhile is
    /// left as it is (the next pass sees it settled).
    async fn resign_for(&self, table: &str, player: &PlayerId) {
        let resigned = async {
            let user = self
                .0
                .store
                .user(player.as_str())
                .await?
                .ok_or_else(|| ApiError::not_found("a tournament's player"))?;
            let handle = self.0.hub.table(&TableId::parse(table)?).await?;
            let conn = self.0.hub.next_conn_id();
            let user = crate::identity::user_view(user);
            handle.act(conn, user, Action::Resign).await?;
            Ok::<(), ApiError>(())
        };
        if let Err(error) = resigned.await {
            tracing::warn!(%table, %player, %error, "cannot end a withdrawn player's game");
        }
    }
}

/// Whether a linked game's table may still count: one called off before it counted needs a
/// new table.
fn table_exists(game: Option<&store::TournamentGame>) -> bool {
    game.is_some_and(|game| game.status != "aborted")
}

/// What the database knows of the round robin's games that the director does not yet:
/// tables that started, games that ended (with when they ended).
fn game_events(director: &RoundRobin, games: &Games) -> Vec<(Event, Option<u64>)> {
    let mut events = Vec::new();
    for (pairing, record) in director.games() {
        let Some(game) = games.get(&pairing.0).filter(|g| table_exists(Some(g))) else {
            continue;
        };
        let playing = match record.status {
            GameStatus::Created => {
                let started = Event::GameStarted {
                    pairing,
                    game: game.game_id.clone(),
                };
                events.push((started, None));
                true
            }
            GameStatus::Playing => record.game.as_deref() == Some(game.game_id.as_str()),
            _ => false,
        };
        if playing && let Some(end) = ending(pairing, game) {
            let happened = game.finished_at.map(|at| at.max(0) as u64);
            events.push((end, happened));
        }
    }
    events
}

/// The tables still being played of games a withdrawal settled, with the withdrawn player.
fn withdrawn_still_playing(director: &RoundRobin, games: &Games) -> Vec<(String, PlayerId)> {
    director
        .games()
        .filter_map(|(pairing, record)| {
            let game = games.get(&pairing.0)?;
            if !matches!(game.status.as_str(), "open" | "playing") {
                return None;
            }
            let player = match &record.status {
                GameStatus::Forfeited { loser } => loser.clone(),
                GameStatus::Annulled => record
                    .seats
                    .iter()
                    .find(|p| director.withdrawal(p) == Some(Withdrawal::Annulled))?
                    .clone(),
                _ => return None,
            };
            Some((game.game_id.clone(), player))
        })
        .collect()
}
