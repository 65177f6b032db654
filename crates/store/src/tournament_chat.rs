//! A tournament's chat room: lines appended, read back as a short tail in reading order.

use crate::rows::{Get, sql_limit};
use crate::{Store, StoreError};

/// A line to store in a tournament's room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTournamentChatLine {
    pub tournament_id: String,
    pub user_id: String,
    /// The name shown, frozen at send time.
    pub author: String,
    pub body: String,
    pub sent_at: i64,
}

/// A stored line of a tournament's room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentChatLine {
    pub id: i64,
    pub tournament_id: String,
    pub user_id: Option<String>,
    pub author: String,
    pub body: String,
    pub sent_at: i64,
}

fn line_from<R: Get>(row: &R) -> Result<TournamentChatLine, StoreError> {
    Ok(TournamentChatLine {
        id: row.big("id")?,
        tournament_id: row.text("tournament_id")?,
        user_id: row.opt_text("user_id")?,
        author: row.text("author")?,
        body: row.text("body")?,
        sent_at: row.big("sent_at")?,
    })
}

impl Store {
    /// Appends a line to a tournament's room and returns it as stored. `NotFound` when the
    /// tournament (or the user) does not exist.
    pub async fn add_tournament_chat(
        &self,
        line: &NewTournamentChatLine,
    ) -> Result<TournamentChatLine, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query(
                "INSERT INTO tournament_chat (tournament_id, user_id, author, body, sent_at) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(&line.tournament_id)
            .bind(&line.user_id)
            .bind(&line.author)
            .bind(&line.body)
            .bind(line.sent_at)
            .fetch_one(pool)
            .await
            .map_err(StoreError::from_write)?;
            Ok(TournamentChatLine {
                id: row.big("id")?,
                tournament_id: line.tournament_id.clone(),
                user_id: Some(line.user_id.clone()),
                author: line.author.clone(),
                body: line.body.clone(),
                sent_at: line.sent_at,
            })
        })
    }

    /// The last `n` lines of a tournament's room, oldest first.
    pub async fn tournament_chat_tail(
        &self,
        tournament_id: &str,
        n: u32,
    ) -> Result<Vec<TournamentChatLine>, StoreError> {
        // The inner query picks the newest lines; the outer one puts them in reading order.
        let sql = "SELECT id, tournament_id, user_id, author, body, sent_at FROM ( \
                       SELECT id, tournament_id, user_id, author, body, sent_at FROM tournament_chat \
                       WHERE tournament_id = $1 ORDER BY id DESC LIMIT $2 \
                   ) AS tail ORDER BY id";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(tournament_id)
                .bind(sql_limit(n))
                .fetch_all(pool)
                .await?;
            rows.iter().map(line_from).collect()
        })
    }
}
