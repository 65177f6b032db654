-- Personal API tokens: an account's tokens for its own programs (docs/bot-api.md). Only a
-- SHA-256 hash of each secret is kept; the secret is shown once, when it is made. `version`
-- is the owner's token version when it was made: "log out everywhere" bumps the owner's
-- version and so ends every token made before, as it ends every session.
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    hash         TEXT NOT NULL UNIQUE,
    version      BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT
);

CREATE INDEX api_tokens_user ON api_tokens (user_id);
