-- Web Push (docs/protocol.md, "Web Push"). The server's VAPID key pair (P-256, raw, base64url),
-- made at the first start and shared by every node: one row.
CREATE TABLE push_vapid (
    id          BIGINT PRIMARY KEY CHECK (id = 1),
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL
);
-- A browser's push subscription: several devices per account; the push service's endpoint is
-- the subscription's identity (subscribing again from the same browser replaces it).
CREATE TABLE push_subscriptions (
    id         BIGSERIAL PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL UNIQUE,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    -- The language its pushes are written in (en, ru or uk), the page's when it subscribed.
    lang       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
-- The kinds of notification an account does not want pushed, comma separated.
ALTER TABLE users ADD COLUMN push_off TEXT NOT NULL DEFAULT '';
-- Pushes to send: one row per notification and subscription, written with the notification by
-- the node that made it, claimed by one node's sender at a time (`claimed_until`), retried
-- later (`due_at`) after a temporary failure. At most one waits per subscription, game and kind.
CREATE TABLE push_outbox (
    id              BIGSERIAL PRIMARY KEY,
    subscription_id BIGINT NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    game            TEXT NOT NULL,
    opponent        TEXT,
    due_at          BIGINT NOT NULL,
    attempts        BIGINT NOT NULL DEFAULT 0,
    claimed_until   BIGINT
);
CREATE UNIQUE INDEX push_outbox_one ON push_outbox (subscription_id, game_id, kind);
CREATE INDEX push_outbox_due ON push_outbox (due_at);
