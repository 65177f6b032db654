-- A tournament's chat room (docs/tournaments.md, "Chat"): one room for players and watchers
-- alike, read back as a short tail.
CREATE TABLE tournament_chat (
    -- AUTOINCREMENT keeps ids strictly growing, so ordering by id is ordering by arrival.
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       TEXT REFERENCES users (id) ON DELETE SET NULL,
    author        TEXT NOT NULL,
    body          TEXT NOT NULL,
    sent_at       BIGINT NOT NULL
);

CREATE INDEX tournament_chat_tail ON tournament_chat (tournament_id, id);
