//! Games, their seats and their moves.

use std::collections::HashMap;

use crate::rows::{Get, narrow, sql_limit, to_int};
use crate::{
    EndReason, GameRecord, GameStatus, GameSummary, MoveRow, NewGame, Occupant, Outcome, SeatRow,
    Store, StoreError,
};

/// Which games `load_games` reads.
enum Filter<'a> {
    Id(&'a str),
    Unfinished,
}

impl Filter<'_> {
    /// A condition on `games g`; it is reused inside the seat and move queries so that all
    /// three select the same set of games.
    fn condition(&self) -> &'static str {
        match self {
            Filter::Id(_) => "g.id = $1",
            Filter::Unfinished => "g.status IN ('open', 'playing')",
        }
    }

    fn id(&self) -> Option<&str> {
        match self {
            Filter::Id(id) => Some(id),
            Filter::Unfinished => None,
        }
    }
}

const GAME_COLUMNS: &str = "g.id, g.game, g.variant, g.seed, g.private, g.invite_token, \
     g.clock_initial_ms, g.clock_increment_ms, g.move_days, g.status, g.result, g.end_reason, \
     g.rematch_of, g.daily, g.rated, g.rating_min, g.rating_max, g.created_at, g.started_at, g.finished_at, g.host_id, \
     g.vacation_ply, g.vacation_deadline, \
     (SELECT r.id FROM games r WHERE r.rematch_of = g.id ORDER BY r.created_at, r.id LIMIT 1) \
     AS rematch";

const SEAT_COLUMNS: &str = "s.game_id, s.seat, s.user_id, u.display_name, u.username, s.bot, COALESCE(u.bot, FALSE) AS bot_account, \
     rc.rating_before, rc.rating_after, rc.deviation_after";

/// Seats with their user's names and, for rated games that ended, the rating change.
const SEAT_SOURCE: &str = "game_seats s LEFT JOIN users u ON u.id = s.user_id \
     LEFT JOIN rating_changes rc ON rc.game_id = s.game_id AND rc.seat = s.seat";

/// Seeds are full 64-bit values; the columns are signed, so the bits are stored as they are.
fn seed_to_db(seed: u64) -> i64 {
    seed.cast_signed()
}

fn seed_from_db(seed: i64) -> u64 {
    seed.cast_unsigned()
}

fn game_from<R: Get>(row: &R) -> Result<GameRecord, StoreError> {
    Ok(GameRecord {
        id: row.text("id")?,
        game: row.text("game")?,
        variant: row.text("variant")?,
        seed: seed_from_db(row.big("seed")?),
        private: row.flag("private")?,
        invite_token: row.opt_text("invite_token")?,
        clock_initial_ms: row.opt_big("clock_initial_ms")?,
        clock_increment_ms: row.opt_big("clock_increment_ms")?,
        move_days: row.opt_big("move_days")?,
        status: crate::types::decode_status(&row.text("status")?)?,
        result: crate::types::decode_outcome(row.opt_text("result")?)?,
        end_reason: crate::types::decode_end_reason(row.opt_text("end_reason")?)?,
        rematch_of: row.opt_text("rematch_of")?,
        rematch: row.opt_text("rematch")?,
        daily: row.opt_text("daily")?,
        rated: row.flag("rated")?,
        rating_range: row
            .opt_big("rating_min")?
            .zip(row.opt_big("rating_max")?)
            .map(|(lo, hi)| [lo, hi]),
        created_at: row.big("created_at")?,
        started_at: row.opt_big("started_at")?,
        finished_at: row.opt_big("finished_at")?,
        host_id: row.opt_text("host_id")?,
        vacation_deadline: row
            .opt_big("vacation_ply")?
            .zip(row.opt_big("vacation_deadline")?),
        seats: Vec::new(),
        moves: Vec::new(),
    })
}

/// A seat row and the game it belongs to.
fn seat_from<R: Get>(row: &R) -> Result<(String, SeatRow), StoreError> {
    let user_id = row.opt_text("user_id")?;
    let before = row.opt_float("rating_before")?;
    let after = row.opt_float("rating_after")?;
    let seat = SeatRow {
        seat: narrow(row.int("seat")?.into(), "seat")?,
        guest: user_id.is_some() && row.opt_text("username")?.is_none(),
        user_id,
        display_name: row.opt_text("display_name")?,
        bot: row.opt_text("bot")?,
        bot_account: row.flag("bot_account")?,
        rating_after: after.map(|a| a.round() as i32),
        rating_provisional: row
            .opt_float("deviation_after")?
            .map(|d| d > rating::PROVISIONAL_DEVIATION),
        rating_change: before
            .zip(after)
            .map(|(b, a)| a.round() as i32 - b.round() as i32),
    };
    Ok((row.text("game_id")?, seat))
}

/// A move row and the game it belongs to.
fn move_from<R: Get>(row: &R) -> Result<(String, MoveRow), StoreError> {
    let mv = MoveRow {
        ply: narrow(row.int("ply")?.into(), "ply")?,
        mv: row.text("mv")?,
        played_at: row.big("played_at")?,
        clock_a_ms: row.opt_big("clock_a_ms")?,
        clock_b_ms: row.opt_big("clock_b_ms")?,
    };
    Ok((row.text("game_id")?, mv))
}

fn summary_from<R: Get>(row: &R) -> Result<GameSummary, StoreError> {
    Ok(GameSummary {
        id: row.text("id")?,
        game: row.text("game")?,
        variant: row.text("variant")?,
        private: row.flag("private")?,
        status: crate::types::decode_status(&row.text("status")?)?,
        result: crate::types::decode_outcome(row.opt_text("result")?)?,
        end_reason: crate::types::decode_end_reason(row.opt_text("end_reason")?)?,
        rated: row.flag("rated")?,
        created_at: row.big("created_at")?,
        finished_at: row.opt_big("finished_at")?,
        move_count: narrow(row.big("move_count")?, "move count")?,
        seats: Vec::new(),
    })
}

fn split_occupant(occupant: Option<&Occupant>) -> (Option<&str>, Option<&str>) {
    match occupant {
        Some(Occupant::User(id)) => (Some(id.as_str()), None),
        Some(Occupant::Bot(level)) => (None, Some(level.as_str())),
        None => (None, None),
    }
}

/// Sorts rows tagged with their game id into per-game lists, keeping their order.
fn group<T>(rows: Vec<(String, T)>) -> HashMap<String, Vec<T>> {
    let mut by_game: HashMap<String, Vec<T>> = HashMap::new();
    for (game_id, item) in rows {
        by_game.entry(game_id).or_default().push(item);
    }
    by_game
}

/// Collects row-mapping results, stopping at the first failure.
fn map_rows<R, T>(
    rows: &[R],
    f: impl Fn(&R) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    rows.iter().map(f).collect()
}

impl Store {
    /// Creates a game in status `open` together with one seat row per entry of
    /// `game.seats`, all or nothing. `Conflict` if the id is taken; `NotFound` if a user it
    /// names (host, seat) or the game it is a rematch of does not exist.
    pub async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        self.insert_game(game, None).await
    }

    /// Creates a game with its lease held by `node` until `expires_at` (unix ms), in one
    /// transaction: no other node can see it without an owner and take it over as an orphan.
    pub async fn create_leased_game(
        &self,
        game: &NewGame,
        node: &str,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.insert_game(game, Some((node, expires_at))).await
    }

    async fn insert_game(
        &self,
        game: &NewGame,
        lease: Option<(&str, i64)>,
    ) -> Result<(), StoreError> {
        let seats = game
            .seats
            .iter()
            .enumerate()
            .map(|(seat, occupant)| Ok((to_int(seat, "seat")?, occupant.as_ref())))
            .collect::<Result<Vec<_>, StoreError>>()?;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO games (id, game, variant, seed, private, invite_token, \
                 clock_initial_ms, clock_increment_ms, move_days, status, rematch_of, created_at, \
                 host_id, daily, rated, rating_min, rating_max) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, $11, $12, $13, $14, $15, $16)",
            )
            .bind(&game.id)
            .bind(&game.game)
            .bind(&game.variant)
            .bind(seed_to_db(game.seed))
            .bind(game.private)
            .bind(game.invite_token.as_deref())
            .bind(game.clock_initial_ms)
            .bind(game.clock_increment_ms)
            .bind(game.move_days)
            .bind(game.rematch_of.as_deref())
            .bind(game.created_at)
            .bind(game.host_id.as_deref())
            .bind(game.daily.as_deref())
            .bind(game.rated)
            .bind(game.rating_range.map(|r| r[0]))
            .bind(game.rating_range.map(|r| r[1]))
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from_write)?;
            for &(seat, occupant) in &seats {
                let (user_id, bot) = split_occupant(occupant);
                sqlx::query(
                    "INSERT INTO game_seats (game_id, seat, user_id, bot) VALUES ($1, $2, $3, $4)",
                )
                .bind(&game.id)
                .bind(seat)
                .bind(user_id)
                .bind(bot)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_write)?;
            }
            if let Some((node, expires_at)) = lease {
                sqlx::query(
                    "INSERT INTO game_leases (game_id, owner, expires_at) VALUES ($1, $2, $3)",
                )
                .bind(&game.id)
                .bind(node)
                .bind(expires_at)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_write)?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Puts `occupant` into a seat, or empties it with `None`. The seat row is created when
    /// the game did not have it yet. `NotFound` if the game or the user does not exist.
    pub async fn set_seat(
        &self,
        game_id: &str,
        seat: u8,
        occupant: Option<&Occupant>,
    ) -> Result<(), StoreError> {
        let (user_id, bot) = split_occupant(occupant);
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO game_seats (game_id, seat, user_id, bot) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, bot = excluded.bot",
            )
            .bind(game_id)
            .bind(i32::from(seat))
            .bind(user_id)
            .bind(bot)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
        });
        Ok(())
    }

    /// Moves an open game to `playing`. `Conflict` when it is not open any more (another
    /// node may have started or ended it first), `NotFound` when it does not exist.
    pub async fn start_game(&self, game_id: &str, now_ms: i64) -> Result<(), StoreError> {
        let updated = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE games SET status = 'playing', started_at = $2 \
                 WHERE id = $1 AND status = 'open'",
            )
            .bind(game_id)
            .bind(now_ms)
            .execute(pool)
            .await?
            .rows_affected()
        });
        self.expect_updated(game_id, updated).await
    }

    /// Records one move, committed with whatever other moves are waiting (group commit, see
    /// `writer.rs`); it returns once the move is durable. `Conflict` when that ply of the game
    /// is already recorded (the primary key makes exactly one of two racing writers win),
    /// `NotFound` when the game does not exist, `Unavailable` when the database cannot be
    /// reached (the move was not written).
    pub async fn append_move(&self, game_id: &str, mv: &MoveRow) -> Result<(), StoreError> {
        self.moves.append(game_id, mv).await
    }

    /// Takes moves back: deletes every move after the first `keep` plies. Only the table
    /// that owns the game calls it, between its own moves, so no write of that game is in
    /// flight.
    pub async fn take_back_moves(&self, game_id: &str, keep: u32) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
                .bind(game_id)
                .bind(i64::from(keep))
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Ends a game that is open or playing, with `status` `Finished` or `Aborted`.
    /// `Conflict` when it has already ended (the first ending wins), `NotFound` when it does
    /// not exist, `Invalid` for a status that is not an ending.
    pub async fn finish_game(
        &self,
        game_id: &str,
        status: GameStatus,
        result: Option<Outcome>,
        reason: EndReason,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        if !status.is_over() {
            return Err(StoreError::Invalid(format!(
                "finish_game needs finished or aborted, not {status}"
            )));
        }
        let updated = on_pool!(self, pool => {
            sqlx::query(crate::ratings::FINISH_SQL)
            .bind(game_id)
            .bind(status.as_str())
            .bind(result.map(|r| r.to_string()))
            .bind(reason.as_str())
            .bind(now_ms)
            .execute(pool)
            .await?
            .rows_affected()
        });
        self.expect_updated(game_id, updated).await
    }

    /// A game with its seats and all its moves, or `None`.
    pub async fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        Ok(self.load_games(Filter::Id(id)).await?.pop())
    }

    /// Whether a game `id` exists (without loading it).
    pub async fn game_exists(&self, id: &str) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query("SELECT 1 AS one FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }

    /// Every game still open or playing, oldest first, with seats and moves: what a
    /// restarted server needs to resume them.
    pub async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.load_games(Filter::Unfinished).await
    }

    /// How many open games `user_id` hosts, and in how many unfinished games they face a
    /// bot.
    pub async fn active_tables_of(&self, user_id: &str) -> Result<(i64, i64), StoreError> {
        let open = "SELECT COUNT(*) AS n FROM games WHERE host_id = $1 AND status = 'open'";
        let bots = "SELECT COUNT(*) AS n FROM games g JOIN game_seats s ON s.game_id = g.id \
                    WHERE s.user_id = $1 AND g.status IN ('open', 'playing') \
                    AND EXISTS (SELECT 1 FROM game_seats b WHERE b.game_id = g.id AND b.bot IS NOT NULL)";
        on_pool!(self, pool => {
            let open = sqlx::query(open).bind(user_id).fetch_one(pool).await?;
            let bots = sqlx::query(bots).bind(user_id).fetch_one(pool).await?;
            Ok((open.big("n")?, bots.big("n")?))
        })
    }

    /// The games `user_id` sits at that have not ended (open or playing), newest first.
    pub async fn unfinished_game_ids_of(&self, user_id: &str) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT g.id FROM games g \
                   WHERE g.status IN ('open', 'playing') \
                   AND EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.user_id = $1) \
                   ORDER BY g.created_at DESC, g.id DESC";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(user_id).fetch_all(pool).await?;
            rows.iter().map(|row| Ok(row.text("id")?)).collect()
        })
    }

    /// The game `user_id` started for the daily deal of `day`, if any (one per player and day).
    pub async fn daily_game_of(
        &self,
        day: &str,
        user_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let sql = "SELECT id FROM games WHERE daily = $1 AND host_id = $2";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(day).bind(user_id).fetch_optional(pool).await?;
            Ok(row.map(|row| row.text("id")).transpose()?)
        })
    }

    /// The ended (finished or aborted) games in which `user_id` held a seat, the most
    /// recently ended first, at most `limit` of them.
    pub async fn games_of_user(
        &self,
        user_id: &str,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        // EXISTS rather than a join, so a user holding both seats still lists the game once.
        // COALESCE because the backends sort NULLs differently; ended games have finished_at.
        let sql = "SELECT g.id, g.game, g.variant, g.private, g.status, g.result, g.end_reason, \
                   g.rated, g.created_at, g.finished_at, \
                   (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS move_count \
                   FROM games g \
                   WHERE g.status IN ('finished', 'aborted') \
                   AND EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.user_id = $1) \
                   ORDER BY COALESCE(g.finished_at, g.created_at) DESC, g.id DESC \
                   LIMIT $2";
        let mut summaries = on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(user_id).bind(sql_limit(limit)).fetch_all(pool).await?;
            map_rows(&rows, summary_from)?
        });
        if summaries.is_empty() {
            return Ok(summaries);
        }
        let placeholders = (1..=summaries.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let seat_sql = format!(
            "SELECT {SEAT_COLUMNS} FROM {SEAT_SOURCE} \
             WHERE s.game_id IN ({placeholders}) ORDER BY s.game_id, s.seat"
        );
        let seats = on_pool!(self, pool => {
            let mut query = sqlx::query(&seat_sql);
            for summary in &summaries {
                query = query.bind(&summary.id);
            }
            map_rows(&query.fetch_all(pool).await?, seat_from)?
        });
        let mut seats = group(seats);
        for summary in &mut summaries {
            summary.seats = seats.remove(&summary.id).unwrap_or_default();
        }
        Ok(summaries)
    }

    /// Reads games, then their seats and moves in one query each, and stitches them together.
    async fn load_games(&self, filter: Filter<'_>) -> Result<Vec<GameRecord>, StoreError> {
        let condition = filter.condition();
        let game_sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE {condition} ORDER BY g.created_at, g.id"
        );
        let seat_sql = format!(
            "SELECT {SEAT_COLUMNS} FROM {SEAT_SOURCE} \
             WHERE s.game_id IN (SELECT g.id FROM games g WHERE {condition}) \
             ORDER BY s.game_id, s.seat"
        );
        let move_sql = format!(
            "SELECT m.game_id, m.ply, m.mv, m.played_at, m.clock_a_ms, m.clock_b_ms FROM moves m \
             WHERE m.game_id IN (SELECT g.id FROM games g WHERE {condition}) \
             ORDER BY m.game_id, m.ply"
        );
        let (mut games, seats, moves) = on_pool!(self, pool => {
            let mut game_query = sqlx::query(&game_sql);
            let mut seat_query = sqlx::query(&seat_sql);
            let mut move_query = sqlx::query(&move_sql);
            if let Some(id) = filter.id() {
                game_query = game_query.bind(id);
                seat_query = seat_query.bind(id);
                move_query = move_query.bind(id);
            }
            (
                map_rows(&game_query.fetch_all(pool).await?, game_from)?,
                map_rows(&seat_query.fetch_all(pool).await?, seat_from)?,
                map_rows(&move_query.fetch_all(pool).await?, move_from)?,
            )
        });
        let mut seats = group(seats);
        let mut moves = group(moves);
        for game in &mut games {
            game.seats = seats.remove(&game.id).unwrap_or_default();
            game.moves = moves.remove(&game.id).unwrap_or_default();
        }
        Ok(games)
    }

    /// Interprets the row count of a guarded UPDATE: zero rows means either no such game or
    /// a game whose status did not allow the change.
    pub(crate) async fn expect_updated(
        &self,
        game_id: &str,
        updated: u64,
    ) -> Result<(), StoreError> {
        if updated > 0 {
            return Ok(());
        }
        let exists = on_pool!(self, pool => {
            sqlx::query("SELECT 1 FROM games WHERE id = $1")
                .bind(game_id)
                .fetch_optional(pool)
                .await?
                .is_some()
        });
        Err(if exists {
            StoreError::Conflict
        } else {
            StoreError::NotFound
        })
    }
}
