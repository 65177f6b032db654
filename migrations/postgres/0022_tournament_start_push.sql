-- "A tournament about to start" (docs/tournaments.md): a few minutes before an upcoming
-- tournament starts, its players are pushed once. `start_pushed` is set in the same
-- transaction that queues those pushes, so a restarted or second leader never queues them
-- again.
ALTER TABLE tournaments ADD COLUMN start_pushed BOOLEAN NOT NULL DEFAULT FALSE;

-- A push is about a game or a tournament: `about` says which (`game`, or the tournament's kind,
-- `arena` or `round_robin`) and `game_id` holds that game's or tournament's id, so it no
-- longer refers to the games table.
ALTER TABLE push_outbox DROP CONSTRAINT push_outbox_game_id_fkey;
ALTER TABLE push_outbox ADD COLUMN about TEXT NOT NULL DEFAULT 'game'
    CHECK (about IN ('game', 'arena', 'round_robin'));
