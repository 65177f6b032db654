-- Correspondence games: days allowed for each move (NULL for live games). The deadline of the
-- move to play is the time of the last move (or of the start) plus that many days.
ALTER TABLE games ADD COLUMN move_days BIGINT;
