//! Tournaments as stored: the tournament itself, the log of its director's accepted events
//! (replayed in order, it rebuilds the director), its entrants, and the link from each of its
//! pairings to the ordinary game that plays it. The store knows nothing of the director: events
//! and settings are JSON text that the server writes and reads.

use crate::rows::Get;
use crate::{Store, StoreError};

/// A tournament's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: String,
    /// `arena` or `round_robin`.
    pub kind: String,
    pub game: String,
    pub variant: String,
    pub clock_initial_ms: i64,
    pub clock_increment_ms: i64,
    pub rated: bool,
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running`, `finished` or `cancelled`.
    pub status: String,
    pub creator_id: Option<String>,
    /// The director's settings, as JSON.
    pub settings: String,
    /// The final standings, as JSON, once frozen.
    pub standings: Option<String>,
    pub created_at: i64,
    /// How many players entered (read, never written).
    pub players: i64,
    /// A correspondence round robin's days for each move.
    pub move_days: Option<i64>,
    /// Its games may take vacation days.
    pub vacation: bool,
    /// Its players were pushed that it is about to start (read, never written here).
    pub start_pushed: bool,
    /// One of the site's scheduled events (read, never written: its key is given apart).
    pub scheduled: bool,
}

/// One accepted event of a tournament's director, as JSON, with its number and time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentEvent {
    pub seq: i64,
    pub at: i64,
    pub event: String,
}

/// A pairing's game and what became of it, as the games table has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentGame {
    pub pairing: i64,
    pub game_id: String,
    /// The game's status (`open`, `playing`, `finished`, `aborted`).
    pub status: String,
    /// The outcome's text form, once finished.
    pub result: Option<String>,
    /// Moves played.
    pub plies: i64,
    pub berserk: [bool; 2],
    /// Unix ms, once over.
    pub finished_at: Option<i64>,
}

pub(crate) const COLUMNS: &str = "id, kind, game, variant, clock_initial_ms, clock_increment_ms, \
    rated, starts_at, ends_at, status, creator_id, settings, standings, created_at, \
    move_days, vacation, start_pushed, schedule_key IS NOT NULL AS scheduled, (SELECT COUNT(*) FROM tournament_entries e WHERE e.tournament_id = tournaments.id) AS players";

pub(crate) fn tournament_from<R: Get>(row: &R) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: row.text("id")?,
        kind: row.text("kind")?,
        game: row.text("game")?,
        variant: row.text("variant")?,
        clock_initial_ms: row.big("clock_initial_ms")?,
        clock_increment_ms: row.big("clock_increment_ms")?,
        rated: row.flag("rated")?,
        starts_at: row.big("starts_at")?,
        ends_at: row.big("ends_at")?,
        status: row.text("status")?,
        creator_id: row.opt_text("creator_id")?,
        settings: row.text("settings")?,
        standings: row.opt_text("standings")?,
        created_at: row.big("created_at")?,
        players: row.big("players")?,
        move_days: row.opt_big("move_days")?,
        vacation: row.flag("vacation")?,
        start_pushed: row.flag("start_pushed")?,
        scheduled: row.flag("scheduled")?,
    })
}

fn game_from<R: Get>(row: &R) -> Result<TournamentGame, StoreError> {
    Ok(TournamentGame {
        pairing: row.big("pairing")?,
        game_id: row.text("game_id")?,
        status: row.text("status")?,
        result: row.opt_text("result")?,
        plies: row.big("plies")?,
        berserk: [row.flag("berserk_a")?, row.flag("berserk_b")?],
        finished_at: row.opt_big("finished_at")?,
    })
}

impl Store {
    /// Stores a new tournament (its status `upcoming`).
    pub async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        self.insert_tournament(t, None).await.map(|_| ())
    }

    /// Stores `t`, with the key of the schedule's occurrence it is when it is one; false (and
    /// nothing stored) when a tournament with that key exists already.
    pub(crate) async fn insert_tournament(
        &self,
        t: &TournamentRow,
        schedule_key: Option<&str>,
    ) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let done = sqlx::query(
                "INSERT INTO tournaments (id, kind, game, variant, clock_initial_ms, \
                 clock_increment_ms, rated, starts_at, ends_at, status, creator_id, settings, \
                 created_at, move_days, vacation, schedule_key) VALUES ($1, $2, $3, $4, $5, $6, \
                 $7, $8, $9, 'upcoming', $10, $11, $12, $13, $14, $15) ON CONFLICT DO NOTHING",
            )
            .bind(&t.id)
            .bind(&t.kind)
            .bind(&t.game)
            .bind(&t.variant)
            .bind(t.clock_initial_ms)
            .bind(t.clock_increment_ms)
            .bind(t.rated)
            .bind(t.starts_at)
            .bind(t.ends_at)
            .bind(t.creator_id.as_deref())
            .bind(&t.settings)
            .bind(t.created_at)
            .bind(t.move_days)
            .bind(t.vacation)
            .bind(schedule_key)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
            Ok(done.rows_affected() == 1)
        })
    }

    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1");
        on_pool!(self, pool => {
            let row = sqlx::query(&sql).bind(id).fetch_optional(pool).await?;
            row.as_ref().map(tournament_from).transpose()
        })
    }

    /// Tournaments with `status`: the upcoming and running soonest first, the others the most
    /// recently ended first; at most `limit`.
    pub async fn tournaments_with_status(
        &self,
        status: &str,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let order = match status {
            "upcoming" | "running" => "starts_at ASC, id ASC",
            _ => "ends_at DESC, id ASC",
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM tournaments WHERE status = $1 ORDER BY {order} LIMIT $2"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql).bind(status).bind(limit).fetch_all(pool).await?;
            rows.iter().map(tournament_from).collect()
        })
    }

    /// How many tournaments `user` created since `since` (unix ms), for the creation limit.
    pub async fn tournaments_created_since(
        &self,
        user: &str,
        since: i64,
    ) -> Result<i64, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "SELECT COUNT(*) AS n FROM tournaments WHERE creator_id = $1 AND created_at >= $2",
            )
            .bind(user)
            .bind(since)
            .fetch_one(pool)
            .await?;
            Ok(row.big("n")?)
        })
    }

    /// A tournament's status changes; `standings` (JSON) are kept when given.
    pub async fn set_tournament_status(
        &self,
        id: &str,
        status: &str,
        standings: Option<&str>,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "UPDATE tournaments SET status = $2, standings = COALESCE($3, standings) \
                 WHERE id = $1",
            )
            .bind(id)
            .bind(status)
            .bind(standings)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// The events of tournament `id` numbered above `after` (-1 for all), in order.
    pub async fn tournament_events_after(
        &self,
        id: &str,
        after: i64,
    ) -> Result<Vec<TournamentEvent>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT seq, at, event FROM tournament_events \
                 WHERE tournament_id = $1 AND seq > $2 ORDER BY seq",
            )
            .bind(id)
            .bind(after)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| {
                    Ok(TournamentEvent {
                        seq: row.big("seq")?,
                        at: row.big("at")?,
                        event: row.text("event")?,
                    })
                })
                .collect()
        })
    }

    /// Appends an event as number `event.seq`, and records `entrant` as having entered in the
    /// same transaction. `Conflict` when another writer took that number first: the caller
    /// catches up and tries again.
    pub async fn append_tournament_event(
        &self,
        id: &str,
        event: &TournamentEvent,
        entrant: Option<&str>,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO tournament_events (tournament_id, seq, at, event) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(event.seq)
            .bind(event.at)
            .bind(&event.event)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from_write)?;
            if let Some(user) = entrant {
                sqlx::query(
                    "INSERT INTO tournament_entries (tournament_id, user_id, joined_at) \
                     VALUES ($1, $2, $3) ON CONFLICT (tournament_id, user_id) DO NOTHING",
                )
                .bind(id)
                .bind(user)
                .bind(event.at)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_write)?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Links pairing `pairing` of tournament `id` to its game.
    pub async fn link_tournament_game(
        &self,
        id: &str,
        pairing: i64,
        game_id: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO tournament_games (tournament_id, pairing, game_id) VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(pairing)
            .bind(game_id)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    /// Every game of tournament `id`, with its status, result and length, by pairing.
    pub async fn tournament_games(&self, id: &str) -> Result<Vec<TournamentGame>, StoreError> {
        self.tournament_games_from(id, 0).await
    }

    /// The games of tournament `id` from pairing `from` on, as [`Store::tournament_games`]:
    /// an arena's pass reads only those after its oldest game still open, not thousands that
    /// are over.
    pub async fn tournament_games_from(
        &self,
        id: &str,
        from: i64,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT t.pairing, t.game_id, t.berserk_a, t.berserk_b, g.status, g.result, \
                 g.finished_at, \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = t.game_id) AS plies \
                 FROM tournament_games t JOIN games g ON g.id = t.game_id \
                 WHERE t.tournament_id = $1 AND t.pairing >= $2 ORDER BY t.pairing",
            )
            .bind(id)
            .bind(from)
            .fetch_all(pool)
            .await?;
            rows.iter().map(game_from).collect()
        })
    }

    /// The arena game at table `game_id`, with its tournament's id; `None` for a table that is
    /// no arena's.
    pub async fn arena_pairing_game(
        &self,
        game_id: &str,
    ) -> Result<Option<(String, TournamentGame)>, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "SELECT t.tournament_id, t.pairing, t.game_id, t.berserk_a, t.berserk_b, g.status, \
                 g.result, g.finished_at, \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = t.game_id) AS plies \
                 FROM tournament_games t JOIN games g ON g.id = t.game_id \
                 JOIN tournaments r ON r.id = t.tournament_id \
                 WHERE t.game_id = $1 AND r.kind = 'arena'",
            )
            .bind(game_id)
            .fetch_optional(pool)
            .await?;
            row.map(|row| Ok((row.text("tournament_id")?, game_from(&row)?)))
                .transpose()
        })
    }

    /// The names of tournament `id`'s entrants, by user id.
    pub async fn tournament_entrants(&self, id: &str) -> Result<Vec<(String, String)>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT u.id, u.display_name FROM tournament_entries e \
                 JOIN users u ON u.id = e.user_id WHERE e.tournament_id = $1",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| Ok((row.text("id")?, row.text("display_name")?)))
                .collect()
        })
    }
}
