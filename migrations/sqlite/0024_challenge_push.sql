-- A push may be about a challenge (docs/protocol.md, "Web Push"): `about` is `challenge` and
-- `game_id` holds the challenge's id, as it holds a tournament's for a tournament's push.
-- SQLite cannot change a CHECK: the table is made again.
CREATE TABLE push_outbox_next (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id BIGINT NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    game_id         TEXT NOT NULL,
    game            TEXT NOT NULL,
    opponent        TEXT,
    due_at          BIGINT NOT NULL,
    attempts        BIGINT NOT NULL DEFAULT 0,
    claimed_until   BIGINT,
    about           TEXT NOT NULL DEFAULT 'game'
                    CHECK (about IN ('game', 'arena', 'round_robin', 'challenge'))
);
INSERT INTO push_outbox_next (id, subscription_id, kind, game_id, game, opponent, due_at,
                              attempts, claimed_until, about)
    SELECT id, subscription_id, kind, game_id, game, opponent, due_at, attempts, claimed_until,
           about
    FROM push_outbox;
DROP TABLE push_outbox;
ALTER TABLE push_outbox_next RENAME TO push_outbox;
CREATE UNIQUE INDEX push_outbox_one ON push_outbox (subscription_id, game_id, kind);
CREATE INDEX push_outbox_due ON push_outbox (due_at);
