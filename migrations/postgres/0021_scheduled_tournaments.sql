-- Tournaments the site creates from its schedule (docs/tournaments.md, "Scheduled events").
-- Each occurrence has a key, the schedule entry's id and its start time: the unique index lets
-- exactly one node, once, create it, however often the schedule is read again after a restart.
-- Tournaments that players create have none (NULLs are distinct in a unique index).
ALTER TABLE tournaments ADD COLUMN schedule_key TEXT;
CREATE UNIQUE INDEX tournaments_schedule_key ON tournaments (schedule_key);
