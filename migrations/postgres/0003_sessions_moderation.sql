-- Sessions that can be revoked, confusable usernames, and moderation.

-- Every identity token carries the version it was issued under; bumping it (a password change,
-- "log out everywhere", a guest becoming an account) refuses every older token at once.
ALTER TABLE users ADD COLUMN token_version BIGINT NOT NULL DEFAULT 0;
-- Set by an operator (`stolik moderate flag`): a flagged account can no longer chat or open
-- public tables.
ALTER TABLE users ADD COLUMN flagged_at BIGINT;
-- The Unicode confusable skeleton (UTS #39) of the username, so that "admin", "аdmin" with a
-- Cyrillic а and "ＡＤＭＩＮ" cannot all be registered. Filled by the application.
ALTER TABLE users ADD COLUMN username_skeleton TEXT;
CREATE UNIQUE INDEX users_username_skeleton ON users (username_skeleton);

-- A player's own mute list: chat lines of a muted player are not shown to the muter.
CREATE TABLE mutes (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    muted_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, muted_id)
);

-- Reports of a player or of one chat line, kept for the operators.
CREATE TABLE reports (
    id          BIGSERIAL PRIMARY KEY,
    reporter_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reported_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    chat_id     BIGINT REFERENCES chat (id) ON DELETE SET NULL,
    reason      TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE INDEX reports_reported ON reports (reported_id, created_at);
