-- Bot accounts and challenges (docs/bot-api.md). `bot` marks an account its owner turned into
-- a bot: it plays through the Bot API, is shown as a bot everywhere and stays out of the
-- quick-match pools meant for people; the change is for good.
ALTER TABLE users ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;

-- A challenge: one player asks another for a game. `status` is `created` until the other
-- side accepts (`accepted`, with the table in `game_id`), declines (`declined`, with a
-- reason from a closed list), the challenger cancels (`canceled`), or it passes
-- `expires_at` unanswered (`expired`). Every change is a conditional update from `created`,
-- so of two racing answers (on two nodes) exactly one wins.
CREATE TABLE challenges (
    id                 TEXT PRIMARY KEY,
    challenger_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    dest_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game               TEXT NOT NULL,
    variant            TEXT NOT NULL,
    clock_initial_ms   BIGINT,
    clock_increment_ms BIGINT,
    move_days          BIGINT,
    side               TEXT NOT NULL,
    rated              BOOLEAN NOT NULL,
    status             TEXT NOT NULL,
    decline_reason     TEXT,
    game_id            TEXT,
    created_at         BIGINT NOT NULL,
    expires_at         BIGINT NOT NULL
);

CREATE INDEX challenges_dest ON challenges (dest_id, status);
CREATE INDEX challenges_challenger ON challenges (challenger_id, status);
CREATE INDEX challenges_expiry ON challenges (status, expires_at);
