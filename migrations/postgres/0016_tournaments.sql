-- Tournaments (docs/tournaments.md). A tournament's director (crate `tournament`) is rebuilt
-- by replaying its accepted events in order: `tournament_events` is the truth, and the
-- `(tournament_id, seq)` key lets exactly one writer append each event. `settings` is the
-- director's settings as JSON; `standings` is written once, frozen, when it ends. Games are
-- ordinary games, linked to their pairing by `tournament_games`, where berserk is kept.
CREATE TABLE tournaments (
    id                 TEXT PRIMARY KEY,
    kind               TEXT NOT NULL CHECK (kind IN ('arena', 'round_robin')),
    game               TEXT NOT NULL,
    variant            TEXT NOT NULL,
    clock_initial_ms   BIGINT NOT NULL,
    clock_increment_ms BIGINT NOT NULL,
    rated              BOOLEAN NOT NULL,
    starts_at          BIGINT NOT NULL,
    ends_at            BIGINT NOT NULL,
    status             TEXT NOT NULL DEFAULT 'upcoming'
                       CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    creator_id         TEXT REFERENCES users (id) ON DELETE SET NULL,
    settings           TEXT NOT NULL,
    standings          TEXT,
    created_at         BIGINT NOT NULL
);

CREATE INDEX tournaments_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_creator ON tournaments (creator_id, created_at);

CREATE TABLE tournament_events (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           BIGINT NOT NULL CHECK (seq >= 0),
    at            BIGINT NOT NULL,
    event         TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);

-- Who entered, for a player's list of tournaments; the events say what became of them.
CREATE TABLE tournament_entries (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    joined_at     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE INDEX tournament_entries_user ON tournament_entries (user_id);

CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    pairing       BIGINT NOT NULL CHECK (pairing >= 0),
    game_id       TEXT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    berserk_a     BOOLEAN NOT NULL DEFAULT FALSE,
    berserk_b     BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tournament_id, pairing)
);
