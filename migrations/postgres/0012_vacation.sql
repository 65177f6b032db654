-- Vacation days for correspondence games (docs/rules-decisions.md, "Vacation"): each account
-- has 20 a calendar year (UTC). `vacation_used` counts those taken in `vacation_year` (0: none
-- yet); a new year starts from none used. `vacation_auto`: a passed deadline takes a day.
ALTER TABLE users ADD COLUMN vacation_used BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN vacation_year BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN vacation_auto BOOLEAN NOT NULL DEFAULT TRUE;
-- The deadline of the move at ply `vacation_ply` (the number of moves made), moved later by the
-- vacation days its player took; a later move makes it stale, and the deadline runs from that
-- move again.
ALTER TABLE games ADD COLUMN vacation_ply BIGINT;
ALTER TABLE games ADD COLUMN vacation_deadline BIGINT;
