-- The White Rabbit daily deal: the day (UTC, YYYY-MM-DD) whose deal a game plays, NULL for
-- every other game. A player gets one attempt a day: the unique index makes a second daily
-- game of the same host and day a conflict (NULLs never collide, so other games are free).
ALTER TABLE games ADD COLUMN daily TEXT;
CREATE UNIQUE INDEX games_daily_host ON games (daily, host_id);
