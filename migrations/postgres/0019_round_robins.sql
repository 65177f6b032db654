-- Round robins (docs/tournaments.md). A correspondence round robin's days per move (live
-- ones keep their clock in clock_initial_ms and clock_increment_ms), and whether its games
-- may take vacation days: a table reads this switch, through tournament_games, when one of
-- its deadlines passes.
ALTER TABLE tournaments ADD COLUMN move_days BIGINT;
ALTER TABLE tournaments ADD COLUMN vacation BOOLEAN NOT NULL DEFAULT TRUE;
