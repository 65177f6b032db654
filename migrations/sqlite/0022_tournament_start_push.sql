-- "A tournament about to start" (docs/tournaments.md): a few minutes before an upcoming
-- tournament starts, its players are pushed once. `start_pushed` is set in the same
-- transaction that queues those pushes, so a restarted or second leader never queues them
-- again.
ALTER TABLE tournaments ADD COLUMN start_pushed BOOLEAN NOT NULL DEFAULT FALSE;

-- A push is about a game or a tournament: `about` says which (`game`, or the tournament's kind,
-- `arena` or `round_robin`) and `game_id` holds that game's or tournament's id, so it no
-- longer refers to the games table. SQLite cannot drop a reference: the table is made again.
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
                    CHECK (about IN ('game', 'arena', 'round_robin'))
);
INSERT INTO push_outbox_next (id, subscription_id, kind, game_id, game, opponent, due_at,
                              attempts, claimed_until)
    SELECT id, subscription_id, kind, game_id, game, opponent, due_at, attempts, claimed_until
    FROM push_outbox;
DROP TABLE push_outbox;
ALTER TABLE push_outbox_next RENAME TO push_outbox;
CREATE UNIQUE INDEX push_outbox_one ON push_outbox (subscription_id, game_id, kind);
CREATE INDEX push_outbox_due ON push_outbox (due_at);
