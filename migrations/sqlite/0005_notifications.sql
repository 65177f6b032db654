-- What a player should hear of while away: their move in a correspondence game, a game's
-- end, a draw offer, someone sitting down at their table, a deadline coming.
CREATE TABLE notifications (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    read_at    BIGINT
);
CREATE INDEX notifications_user ON notifications (user_id, id);
