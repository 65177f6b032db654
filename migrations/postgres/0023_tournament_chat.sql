-- A tournament's chat room (docs/tournaments.md, "Chat"): one room for players and watchers
-- alike, read back as a short tail.
CREATE TABLE tournament_chat (
    -- A sequence hands out growing ids; lines committed out of order are still found, since
    -- readers compare the whole tail with what they sent, not only its newest id.
    id            BIGSERIAL PRIMARY KEY,
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       TEXT REFERENCES users (id) ON DELETE SET NULL,
    author        TEXT NOT NULL,
    body          TEXT NOT NULL,
    sent_at       BIGINT NOT NULL
);

CREATE INDEX tournament_chat_tail ON tournament_chat (tournament_id, id);
