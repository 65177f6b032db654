-- Stolik schema, SQLite flavour. The PostgreSQL twin lives in ../postgres and must keep the
-- same tables, columns and meanings: the store runs identical SQL text on both.
-- All times are unix milliseconds; 64-bit seeds are stored bit-cast to a signed BIGINT.
-- Applied migrations are checksummed, so change the schema with a new file, never by editing.

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    display_name  TEXT NOT NULL,
    -- NULL for a guest; registering fills it in on the same row so the guest keeps its games.
    username      TEXT,
    -- Lower-cased copy of username: uniqueness has to ignore case, and SQLite's lower() only
    -- folds ASCII, so the application computes it.
    username_key  TEXT UNIQUE,
    password_hash TEXT,
    created_at    BIGINT NOT NULL,
    CHECK ((username IS NULL) = (username_key IS NULL))
);

CREATE TABLE games (
    id                 TEXT PRIMARY KEY,
    game               TEXT NOT NULL,
    variant            TEXT NOT NULL,
    seed               BIGINT NOT NULL,
    private            BOOLEAN NOT NULL DEFAULT FALSE,
    invite_token       TEXT,
    clock_initial_ms   BIGINT,
    clock_increment_ms BIGINT,
    status             TEXT NOT NULL DEFAULT 'open'
                       CHECK (status IN ('open', 'playing', 'finished', 'aborted')),
    result             TEXT,
    end_reason         TEXT,
    rematch_of         TEXT REFERENCES games (id) ON DELETE SET NULL,
    created_at         BIGINT NOT NULL,
    started_at         BIGINT,
    finished_at        BIGINT,
    host_id            TEXT REFERENCES users (id) ON DELETE SET NULL
);

-- Resuming after a restart scans the unfinished games.
CREATE INDEX games_status ON games (status);

CREATE TABLE game_seats (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    bot     TEXT,
    PRIMARY KEY (game_id, seat),
    CHECK (user_id IS NULL OR bot IS NULL)
);

-- A player's game history starts from their seats.
CREATE INDEX game_seats_user ON game_seats (user_id);

CREATE TABLE moves (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL CHECK (ply >= 1),
    mv         TEXT NOT NULL,
    played_at  BIGINT NOT NULL,
    clock_a_ms BIGINT,
    clock_b_ms BIGINT,
    -- When two server nodes race to record the same ply, this key lets exactly one win.
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE chat (
    -- AUTOINCREMENT keeps ids strictly growing even after deletes, so ordering by id is
    -- ordering by arrival.
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    author  TEXT NOT NULL,
    body    TEXT NOT NULL,
    sent_at BIGINT NOT NULL
);

CREATE INDEX chat_game ON chat (game_id, id);

CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE daily_results (
    day         TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    score       INTEGER NOT NULL,
    actions     INTEGER NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (day, user_id)
);

CREATE INDEX daily_results_rank ON daily_results (day, score DESC, actions, finished_at);
