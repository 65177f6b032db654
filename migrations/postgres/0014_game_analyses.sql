-- The engine's review of a finished two-player game, asked for by a player, computed once and
-- kept, so that every view on every node shows the same values and labels (the JSON of
-- /api/records/{id}/analysis's `review`, verbatim).
CREATE TABLE game_analyses (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
