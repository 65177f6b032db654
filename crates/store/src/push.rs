//! Web Push: the server's VAPID key pair, the browsers' subscriptions, each account's switched
//! off kinds, and the outbox of pushes to send. The outbox is written with the notification
//! (by the node that made it) and claimed row by row by one node's sender at a time, so that
//! a push leaves once however many nodes share the database.

use crate::rows::{Get, sql_limit};
use crate::types::decode_note_kind;
use crate::{NoteKind, Store, StoreError};

/// The server's VAPID key pair: raw P-256 keys, base64url without padding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VapidKeys {
    pub private_key: String,
    /// The uncompressed public point (65 bytes), as `PushManager.subscribe` takes it.
    pub public_key: String,
}

/// A browser's push subscription, as `PushSubscription.toJSON()` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    /// The language its pushes are written in.
    pub lang: String,
}

/// A push claimed for sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingPush {
    pub id: i64,
    pub subscription_id: i64,
    pub user_id: String,
    pub subscription: PushSubscription,
    pub kind: NoteKind,
    /// What the push is about: `game`, `challenge`, or a tournament's kind (`arena`,
    /// `round_robin`).
    pub about: String,
    /// The id of the game, the challenge or the tournament it is about.
    pub game_id: String,
    /// The catalogue id of the table's (or the tournament's) game.
    pub game: String,
    pub opponent: Option<String>,
    pub attempts: i64,
}

/// Queues a push of kind $2 about $4 (a game, a challenge or a tournament: `about` $3) to
/// each of user $1's subscriptions, unless the user switched the kind off; once per
/// subscription, thing and kind.
const QUEUE_SQL: &str = "INSERT INTO push_outbox \
     (subscription_id, kind, about, game_id, game, opponent, due_at) \
     SELECT s.id, $2, $3, $4, $5, $6, $7 FROM push_subscriptions s \
     JOIN users u ON u.id = s.user_id \
     WHERE s.user_id = $1 AND (',' || u.push_off || ',') NOT LIKE ('%,' || $2 || ',%') \
     ON CONFLICT (subscription_id, game_id, kind) DO NOTHING";

impl Store {
    /// The VAPID key pair: the one stored, or `made` stored now if there is none yet (the first
    /// node to start makes it; every other node reads that one).
    pub async fn vapid_keys(&self, made: VapidKeys) -> Result<VapidKeys, StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO push_vapid (id, private_key, public_key) VALUES (1, $1, $2) \
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(&made.private_key)
            .bind(&made.public_key)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
            let row = sqlx::query("SELECT private_key, public_key FROM push_vapid WHERE id = 1")
                .fetch_one(pool)
                .await?;
            Ok(VapidKeys {
                private_key: row.text("private_key")?,
                public_key: row.text("public_key")?,
            })
        })
    }

    /// Stores `user_id`'s subscription; the same endpoint subscribed before (by anyone) is
    /// replaced.
    pub async fn add_push_subscription(
        &self,
        user_id: &str,
        sub: &PushSubscription,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, lang, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, \
                 p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang, \
                 created_at = excluded.created_at",
            )
            .bind(user_id)
            .bind(&sub.endpoint)
            .bind(&sub.p256dh)
            .bind(&sub.auth)
            .bind(&sub.lang)
            .bind(now_ms)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
            Ok(())
        })
    }

    /// Deletes `user_id`'s subscription at `endpoint`; whether there was one.
    pub async fn remove_push_subscription(
        &self,
        user_id: &str,
        endpoint: &str,
    ) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let done = sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2")
                .bind(user_id)
                .bind(endpoint)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    /// Deletes a subscription the push service no longer knows (it answered 404 or 410).
    pub async fn drop_push_subscription(&self, id: i64) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let done = sqlx::query("DELETE FROM push_subscriptions WHERE id = $1")
                .bind(id)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    /// How many subscriptions `user_id` has.
    pub async fn push_subscriptions_of(&self, user_id: &str) -> Result<i64, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = $1")
                .bind(user_id)
                .fetch_one(pool)
                .await?;
            Ok(row.big("n")?)
        })
    }

    /// The kinds `user_id` does not want pushed; `NotFound` when there is no such user.
    pub async fn push_off(&self, user_id: &str) -> Result<Vec<NoteKind>, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query("SELECT push_off FROM users WHERE id = $1")
                .bind(user_id)
                .fetch_optional(pool)
                .await?
                .ok_or(StoreError::NotFound)?;
            let off = row.text("push_off")?;
            off.split(',').filter(|k| !k.is_empty()).map(decode_note_kind).collect()
        })
    }

    /// Sets the kinds `user_id` does not want pushed.
    pub async fn set_push_off(&self, user_id: &str, off: &[NoteKind]) -> Result<(), StoreError> {
        let off: Vec<&str> = off.iter().map(|k| k.as_str()).collect();
        let updated = on_pool!(self, pool => {
            sqlx::query("UPDATE users SET push_off = $2 WHERE id = $1")
                .bind(user_id)
                .bind(off.join(","))
                .execute(pool)
                .await?
                .rows_affected()
        });
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Queues a push of `kind` at `game_id` to each of `user_id`'s subscriptions, unless the
    /// account switched that kind off; one already waiting for the same subscription, game
    /// and kind stays as it is. Returns how many were queued.
    pub async fn enqueue_push(
        &self,
        user_id: &str,
        kind: NoteKind,
        game_id: &str,
        game: &str,
        opponent: Option<&str>,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        self.queue_push(user_id, kind, ("game", game_id), game, opponent, now_ms)
            .await
    }

    /// Queues a push of `kind` about challenge `challenge_id` (to a game of `game`, from
    /// `challenger`) to each of `user_id`'s subscriptions, unless the account switched that
    /// kind off. Returns how many were queued.
    pub async fn enqueue_challenge_push(
        &self,
        user_id: &str,
        kind: NoteKind,
        challenge_id: &str,
        game: &str,
        challenger: &str,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        let about = ("challenge", challenge_id);
        self.queue_push(user_id, kind, about, game, Some(challenger), now_ms)
            .await
    }

    /// One push of `kind` about `(what, id)` queued for each of `user_id`'s subscriptions
    /// (the [`QUEUE_SQL`] statement); how many were queued.
    async fn queue_push(
        &self,
        user_id: &str,
        kind: NoteKind,
        (about, id): (&str, &str),
        game: &str,
        other: Option<&str>,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        on_pool!(self, pool => {
            let done = sqlx::query(QUEUE_SQL)
            .bind(user_id)
            .bind(kind.as_str())
            .bind(about)
            .bind(id)
            .bind(game)
            .bind(other)
            .bind(now_ms)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
            Ok(done.rows_affected())
        })
    }

    /// Queues the pushes of `kind` about tournament `id` (of kind `about`, playing `game`) to
    /// each of `users`' subscriptions (but those who switched `kind` off), and marks the
    /// tournament's start as announced, in one transaction: `false`, and nothing queued, when
    /// it was announced before (by this node or another).
    pub async fn queue_tournament_start(
        &self,
        id: &str,
        about: &str,
        game: &str,
        users: &[String],
        kind: NoteKind,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let first = sqlx::query(
                "UPDATE tournaments SET start_pushed = TRUE WHERE id = $1 AND NOT start_pushed",
            )
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from_write)?
            .rows_affected()
                == 1;
            if !first {
                return Ok(false);
            }
            for user in users {
                sqlx::query(QUEUE_SQL)
                .bind(user)
                .bind(kind.as_str())
                .bind(about)
                .bind(id)
                .bind(game)
                .bind(None::<&str>)
                .bind(now_ms)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_write)?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Claims up to `limit` subscriptions' due pushes until `until` (unix ms): every due,
    /// unclaimed push of those subscriptions, so that a burst can go as one digest. A row
    /// claimed by another node is left alone until its claim runs out.
    pub async fn claim_pushes(
        &self,
        now_ms: i64,
        until: i64,
        limit: u32,
    ) -> Result<Vec<PendingPush>, StoreError> {
        on_pool!(self, pool => {
            let rows = sqlx::query(
                "UPDATE push_outbox SET claimed_until = $2 \
                 WHERE due_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1) \
                 AND subscription_id IN (SELECT DISTINCT subscription_id FROM push_outbox \
                   WHERE due_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1) \
                   ORDER BY subscription_id LIMIT $3) \
                 RETURNING id",
            )
            .bind(now_ms)
            .bind(until)
            .bind(sql_limit(limit))
            .fetch_all(pool)
            .await
            .map_err(StoreError::from_write)?;
            let mut claimed = Vec::with_capacity(rows.len());
            for row in rows {
                let id = row.big("id")?;
                let row = sqlx::query(
                    "SELECT o.id, o.subscription_id, s.user_id, s.endpoint, s.p256dh, s.auth, s.lang, \
                     o.kind, o.about, o.game_id, o.game, o.opponent, o.attempts \
                     FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id \
                     WHERE o.id = $1",
                )
                .bind(id)
                .fetch_optional(pool)
                .await?;
                let Some(row) = row else { continue };
                claimed.push(PendingPush {
                    id: row.big("id")?,
                    subscription_id: row.big("subscription_id")?,
                    user_id: row.text("user_id")?,
                    subscription: PushSubscription {
                        endpoint: row.text("endpoint")?,
                        p256dh: row.text("p256dh")?,
                        auth: row.text("auth")?,
                        lang: row.text("lang")?,
                    },
                    kind: decode_note_kind(&row.text("kind")?)?,
                    about: row.text("about")?,
                    game_id: row.text("game_id")?,
                    game: row.text("game")?,
                    opponent: row.opt_text("opponent")?,
                    attempts: row.big("attempts")?,
                });
            }
            claimed.sort_by_key(|p| p.id);
            Ok(claimed)
        })
    }

    /// A claimed push is done with (sent, or given up).
    pub async fn finish_push(&self, id: i64) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("DELETE FROM push_outbox WHERE id = $1")
                .bind(id)
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// A claimed push failed for now: it is tried again at `due_at`.
    pub async fn retry_push(&self, id: i64, due_at: i64) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query(
                "UPDATE push_outbox SET due_at = $2, attempts = attempts + 1, claimed_until = NULL \
                 WHERE id = $1",
            )
            .bind(id)
            .bind(due_at)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Drops `user_id`'s pushes about `game_id` not sent yet: of `kind`, or of every kind
    /// (`None`: they opened the game). What they said is no longer news.
    pub async fn drop_pushes_of(
        &self,
        user_id: &str,
        game_id: &str,
        kind: Option<NoteKind>,
    ) -> Result<u64, StoreError> {
        on_pool!(self, pool => {
            let done = sqlx::query(
                "DELETE FROM push_outbox WHERE game_id = $2 \
                 AND subscription_id IN (SELECT id FROM push_subscriptions WHERE user_id = $1) \
                 AND ($3 IS NULL OR kind = $3)",
            )
            .bind(user_id)
            .bind(game_id)
            .bind(kind.map(NoteKind::as_str))
            .execute(pool)
            .await?;
            Ok(done.rows_affected())
        })
    }

    /// The game `game_id` ended: its pushes not sent yet go, but those of the kinds in `keep`.
    pub async fn drop_game_pushes(
        &self,
        game_id: &str,
        keep: &[NoteKind],
    ) -> Result<u64, StoreError> {
        on_pool!(self, pool => {
            let mut query = sqlx::QueryBuilder::new("DELETE FROM push_outbox WHERE game_id = ");
            query.push_bind(game_id);
            for kind in keep {
                query.push(" AND kind <> ");
                query.push_bind(kind.as_str());
            }
            let done = query.build().execute(pool).await?;
            Ok(done.rows_affected())
        })
    }

    /// How many pushes wait in the outbox (claimed or not).
    pub async fn pushes_waiting(&self) -> Result<i64, StoreError> {
        on_pool!(self, pool => {
            let row = sqlx::query("SELECT COUNT(*) AS n FROM push_outbox")
                .fetch_one(pool)
                .await?;
            Ok(row.big("n")?)
        })
    }
}
