//! Ratings: each player's Glicko-2 standing per game and class, what every rated game did to
//! it, leaderboards and win/draw/loss counts. A rated game's end and its rating changes are
//! written in one transaction ([`Store::finish_rated_game`]).

use rating::{Class, Rating};
pub use record::{RatedEnd, RatingChange};

use crate::rows::{Get, narrow, sql_limit};
use crate::{EndReason, Occupant, Outcome, Store, StoreError};

/// One of a player's ratings.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRating {
    pub game: String,
    pub class: Class,
    pub rating: Rating,
}

/// A point of a player's rating history: one rated game.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryPoint {
    pub game: String,
    pub class: String,
    pub game_id: String,
    pub at: i64,
    /// The rating after the game, rounded, and by how much the game changed it.
    pub rating: i32,
    pub change: i32,
    /// The rating after the game was still provisional.
    pub provisional: bool,
    pub opponent_id: Option<String>,
    /// The opponent's name when they are a user (bots are named by the caller).
    pub opponent_name: Option<String>,
}

/// A line of a game's leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderboardEntry {
    pub rank: u32,
    pub user_id: String,
    pub name: String,
    pub rating: i32,
    pub games: u32,
    /// A bot account's line (the bots have a leaderboard of their own).
    pub bot: bool,
}

/// Finished two-player games by result, from one player's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Results {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Ends a game that is open or playing; shared by [`Store::finish_game`] and
/// [`Store::finish_rated_game`] so that both honour "the first ending wins".
pub(crate) const FINISH_SQL: &str = "UPDATE games SET status = $2, result = $3, end_reason = $4, finished_at = $5 \
     WHERE id = $1 AND status IN ('open', 'playing')";

/// What earlier rated games against one opponent (`$2`) in one game and class moved a
/// player's (`$1`) rating since `$5`: how many, and by how much in total.
const PAIR_SQL: &str = "SELECT COUNT(*) AS games, SUM(rc.rating_after - rc.rating_before) AS moved \
     FROM rating_changes rc \
     JOIN rating_changes o ON o.game_id = rc.game_id AND o.seat <> rc.seat \
     WHERE rc.player = $1 AND o.player = $2 AND rc.game = $3 AND rc.class = $4 AND rc.at >= $5";

const RATING_COLUMNS: &str = "rating, deviation, volatility, games";

fn rating_from<R: Get>(row: &R) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: row.float("rating")?,
        deviation: row.float("deviation")?,
        volatility: row.float("volatility")?,
        games: narrow(row.big("games")?, "games")?,
    })
}

fn class_from(text: &str) -> Result<Class, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Invalid(format!("stored rating class {text:?}")))
}

impl Store {
    /// Ends a rated game with its result and, in the same transaction, moves both players'
    /// ratings by Glicko-2 (each game one rating period). Returns what changed, seat order.
    /// `Conflict` when the game has already ended (then no rating moves), `NotFound` when
    /// it does not exist.
    pub async fn finish_rated_game(
        &self,
        game_id: &str,
        result: Outcome,
        reason: EndReason,
        now_ms: i64,
        end: &RatedEnd<'_>,
    ) -> Result<[RatingChange; 2], StoreError> {
        let read = format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 AND game = $2 AND class = $3"
        );
        let class = end.class.as_str();
        let outcome: Result<Option<[RatingChange; 2]>, StoreError> = on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The update comes first: it takes SQLite's write lock before anything is read.
            let updated = sqlx::query(FINISH_SQL)
                .bind(game_id)
                .bind(crate::GameStatus::Finished.as_str())
                .bind(result.to_string())
                .bind(reason.as_str())
                .bind(now_ms)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if updated == 0 {
                Ok(None)
            } else {
                let mut before = [Rating::default(); 2];
                for (slot, player) in before.iter_mut().zip(end.players) {
                    let row = sqlx::query(&read)
                        .bind(player)
                        .bind(end.game)
                        .bind(class)
                        .fetch_optional(&mut *tx)
                        .await?;
                    if let Some(row) = row {
                        *slot = rating_from(&row)?;
                    }
                }
                let (first, second) = rating::after_game(&before[0], &before[1], end.first_scored);
                let mut after = [first, second];
                // Repeated games between the same two players count for less.
                let since = now_ms - rating::PAIR_WINDOW.as_millis() as i64;
                for seat in 0..2 {
                    let row = sqlx::query(PAIR_SQL)
                        .bind(end.players[seat])
                        .bind(end.players[1 - seat])
                        .bind(end.game)
                        .bind(class)
                        .bind(since)
                        .fetch_one(&mut *tx)
                        .await?;
                    let pair = rating::PairHistory {
                        games: narrow(row.big("games")?, "games")?,
                        moved: row.opt_float("moved")?.unwrap_or(0.0),
                    };
                    after[seat] = pair.damp(&before[seat], &after[seat]);
                }
                for seat in 0..2 {
                    let r = after[seat];
                    sqlx::query(
                        "INSERT INTO ratings (player, game, class, rating, deviation, volatility, \
                         games, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                         ON CONFLICT (player, game, class) DO UPDATE SET rating = excluded.rating, \
                         deviation = excluded.deviation, volatility = excluded.volatility, \
                         games = excluded.games, updated_at = excluded.updated_at",
                    )
                    .bind(end.players[seat])
                    .bind(end.game)
                    .bind(class)
                    .bind(r.rating)
                    .bind(r.deviation)
                    .bind(r.volatility)
                    .bind(i64::from(r.games))
                    .bind(now_ms)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO rating_changes (game_id, seat, player, game, class, \
                         rating_before, rating_after, deviation_after, at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    )
                    .bind(game_id)
                    .bind(seat as i32)
                    .bind(end.players[seat])
                    .bind(end.game)
                    .bind(class)
                    .bind(before[seat].rating)
                    .bind(r.rating)
                    .bind(r.deviation)
                    .bind(now_ms)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_write)?;
                }
                tx.commit().await?;
                Ok(Some([0, 1].map(|seat| RatingChange {
                    player: end.players[seat].to_string(),
                    before: before[seat],
                    after: after[seat],
                })))
            }
        });
        match outcome? {
            Some(changes) => Ok(changes),
            None => Err(self
                .expect_updated(game_id, 0)
                .await
                .err()
                .unwrap_or(StoreError::Conflict)),
        }
    }

    /// A player's rating in one game and class; a newcomer's when they have none yet.
    pub async fn rating(
        &self,
        player: &str,
        game: &str,
        class: Class,
    ) -> Result<Rating, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 AND game = $2 AND class = $3"
        );
        on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(player)
                .bind(game)
                .bind(class.as_str())
                .fetch_optional(pool)
                .await?;
            row.map_or(Ok(Rating::default()), |row| rating_from(&row))
        })
    }

    /// Every rating a player has, by game then class.
    pub async fn ratings_of(&self, player: &str) -> Result<Vec<PlayerRating>, StoreError> {
        let sql = format!(
            "SELECT game, class, {RATING_COLUMNS} FROM ratings WHERE player = $1 ORDER BY game, class"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql).bind(player).fetch_all(pool).await?;
            rows.iter()
                .map(|row| {
                    Ok(PlayerRating {
                        game: row.text("game")?,
                        class: class_from(&row.text("class")?)?,
                        rating: rating_from(row)?,
                    })
                })
                .collect()
        })
    }

    /// Every rated game a player has played, oldest first, with the rating after it.
    pub async fn rating_history(&self, player: &str) -> Result<Vec<HistoryPoint>, StoreError> {
        let sql = "SELECT rc.game, rc.class, rc.game_id, rc.at, rc.rating_before, rc.rating_after, \
                   rc.deviation_after, o.player AS opponent_id, u.display_name AS opponent_name \
                   FROM rating_changes rc \
                   LEFT JOIN rating_changes o ON o.game_id = rc.game_id AND o.seat <> rc.seat \
                   LEFT JOIN users u ON u.id = o.player \
                   WHERE rc.player = $1 ORDER BY rc.at, rc.game_id";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(player).fetch_all(pool).await?;
            rows.iter()
                .map(|row| {
                    let before = row.float("rating_before")?.round() as i32;
                    let after = row.float("rating_after")?.round() as i32;
                    Ok(HistoryPoint {
                        game: row.text("game")?,
                        class: row.text("class")?,
                        game_id: row.text("game_id")?,
                        at: row.big("at")?,
                        rating: after,
                        change: after - before,
                        provisional: row.float("deviation_after")?
                            > rating::PROVISIONAL_DEVIATION,
                        opponent_id: row.opt_text("opponent_id")?,
                        opponent_name: row.opt_text("opponent_name")?,
                    })
                })
                .collect()
        })
    }

    /// The best-rated accounts of one game and class, at most `limit`; ratings whose
    /// deviation is above `max_deviation` (provisional) are left out, and so are guests and
    /// our own bots. `bots` picks the board: the bot accounts', or the people's.
    pub async fn leaderboard(
        &self,
        game: &str,
        class: Class,
        max_deviation: f64,
        limit: u32,
        bots: bool,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        let sql = "SELECT r.player, u.display_name, r.rating, r.games FROM ratings r \
                   JOIN users u ON u.id = r.player \
                   WHERE r.game = $1 AND r.class = $2 AND r.deviation <= $3 \
                   AND u.username IS NOT NULL AND u.bot = $5 \
                   ORDER BY r.rating DESC, r.player LIMIT $4";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(game)
                .bind(class.as_str())
                .bind(max_deviation)
                .bind(sql_limit(limit))
                .bind(bots)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .enumerate()
                .map(|(i, row)| {
                    Ok(LeaderboardEntry {
                        rank: u32::try_from(i + 1).unwrap_or(u32::MAX),
                        user_id: row.text("player")?,
                        name: row.text("display_name")?,
                        rating: row.float("rating")?.round() as i32,
                        games: narrow(row.big("games")?, "games")?,
                        bot: bots,
                    })
                })
                .collect()
        })
    }

    /// Wins, draws and losses of a user or bot in finished two-player games.
    pub async fn results_of(&self, occupant: &Occupant) -> Result<Results, StoreError> {
        let (column, key) = match occupant {
            Occupant::User(id) => ("s.user_id", id),
            Occupant::Bot(level) => ("s.bot", level),
        };
        // A seat's letter is `a` for seat 0 and `b` for seat 1; solo results ("won 5",
        // "lost") are neither, nor "draw".
        let sql = format!(
            "SELECT \
             COALESCE(SUM(CASE WHEN (g.result = 'a' AND s.seat = 0) OR (g.result = 'b' AND s.seat = 1) \
                 THEN 1 ELSE 0 END), 0) AS wins, \
             COALESCE(SUM(CASE WHEN g.result = 'draw' THEN 1 ELSE 0 END), 0) AS draws, \
             COALESCE(SUM(CASE WHEN (g.result = 'a' AND s.seat = 1) OR (g.result = 'b' AND s.seat = 0) \
                 THEN 1 ELSE 0 END), 0) AS losses \
             FROM games g JOIN game_seats s ON s.game_id = g.id \
             WHERE {column} = $1 AND g.status = 'finished'"
        );
        on_pool!(self, pool => {
            let row = sqlx::query(&sql).bind(key).fetch_one(pool).await?;
            Ok(Results {
                wins: narrow(row.big("wins")?, "wins")?,
                draws: narrow(row.big("draws")?, "draws")?,
                losses: narrow(row.big("losses")?, "losses")?,
            })
        })
    }
}
