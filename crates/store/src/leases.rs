//! Leases: which node runs a live game when several share the database. A lease names its
//! owner and an expiry; the owner renews all of its leases at once, and a lease that has
//! expired (its node died or lost the database) may be taken by any node. Taking is one
//! conditional upsert, so of two nodes racing for one game exactly one gets it. Times are the
//! callers' clocks in unix milliseconds: nodes must agree on the time to well within a lease.
//!
//! A lease says who *should* act; the `(game_id, ply)` key of `moves` still makes a double
//! write impossible if two nodes briefly both believe they own a game.

use crate::rows::{Get, sql_limit};
use crate::{Store, StoreError};

impl Store {
    /// Takes the lease of `game_id` for `node` until `now_ms + ttl_ms`, or renews it if
    /// `node` already holds it. True when `node` holds it now; false when another node's
    /// lease is still running.
    pub async fn take_lease(
        &self,
        game_id: &str,
        node: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<bool, StoreError> {
        let sql = "INSERT INTO game_leases (game_id, owner, expires_at) VALUES ($1, $2, $3) \
                   ON CONFLICT (game_id) DO UPDATE \
                   SET owner = excluded.owner, expires_at = excluded.expires_at \
                   WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= $4 \
                   RETURNING owner";
        on_pool!(self, pool => {
            let row = sqlx::query(sql)
                .bind(game_id)
                .bind(node)
                .bind(now_ms + ttl_ms)
                .bind(now_ms)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }

    /// Extends every lease `node` still holds (unexpired) to `now_ms + ttl_ms`; returns the
    /// games renewed. A game the node runs that is not among them was lost: stop acting for it.
    pub async fn renew_leases(
        &self,
        node: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<Vec<String>, StoreError> {
        let sql = "UPDATE game_leases SET expires_at = $3 \
                   WHERE owner = $1 AND expires_at > $2 RETURNING game_id";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(node)
                .bind(now_ms)
                .bind(now_ms + ttl_ms)
                .fetch_all(pool)
                .await?;
            let mut games: Vec<String> =
                rows.iter().map(|row| row.text("game_id")).collect::<Result<_, _>>()?;
            games.sort();
            Ok(games)
        })
    }

    /// Gives the lease of `game_id` up (the game ended or the node is stopping), if `node`
    /// holds it.
    pub async fn release_lease(&self, game_id: &str, node: &str) -> Result<(), StoreError> {
        on_pool!(self, pool => {
            sqlx::query("DELETE FROM game_leases WHERE game_id = $1 AND owner = $2")
                .bind(game_id)
                .bind(node)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The node whose lease of `game_id` is running at `now_ms`, if any.
    pub async fn lease_owner(
        &self,
        game_id: &str,
        now_ms: i64,
    ) -> Result<Option<String>, StoreError> {
        let sql = "SELECT owner FROM game_leases WHERE game_id = $1 AND expires_at > $2";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(game_id).bind(now_ms).fetch_optional(pool).await?;
            Ok(row.map(|row| row.text("owner")).transpose()?)
        })
    }

    /// Up to `limit` games that have not ended and that no node's lease covers at `now_ms`:
    /// the games a live node should take over. Oldest first.
    pub async fn orphaned_games(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id \
                   WHERE g.status IN ('open', 'playing') \
                   AND (l.game_id IS NULL OR l.expires_at <= $1) \
                   ORDER BY g.created_at, g.id LIMIT $2";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(now_ms)
                .bind(sql_limit(limit))
                .fetch_all(pool)
                .await?;
            rows.iter().map(|row| Ok(row.text("id")?)).collect()
        })
    }
}
