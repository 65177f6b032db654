-- Which node runs each live game when several nodes share one database: the owner renews its
-- leases; a lease past its expiry may be taken by any node (a conditional upsert decides who).
-- On one node the table is simply unused.
CREATE TABLE game_leases (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    owner      TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- The owner renews all its leases in one statement.
CREATE INDEX game_leases_owner ON game_leases (owner);
