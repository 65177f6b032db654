-- At most one unread notification per player, table and kind: a new one replaces the old
-- (the store upserts on this index), so that repeating an action cannot pile them up.
DELETE FROM notifications
WHERE read_at IS NULL
  AND id NOT IN (
      SELECT MAX(id) FROM notifications WHERE read_at IS NULL GROUP BY user_id, game_id, kind
  );
CREATE UNIQUE INDEX notifications_one_unread
    ON notifications (user_id, game_id, kind) WHERE read_at IS NULL;
-- Opening a game reads its notifications; ending it drops them.
CREATE INDEX notifications_game ON notifications (game_id);
