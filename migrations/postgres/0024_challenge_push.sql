-- A push may be about a challenge (docs/protocol.md, "Web Push"): `about` is `challenge` and
-- `game_id` holds the challenge's id, as it holds a tournament's for a tournament's push.
ALTER TABLE push_outbox DROP CONSTRAINT push_outbox_about_check;
ALTER TABLE push_outbox ADD CONSTRAINT push_outbox_about_check
    CHECK (about IN ('game', 'arena', 'round_robin', 'challenge'));
