-- Berserk in arenas (docs/tournaments.md): whether the arena a game belongs to allows it, kept
-- with the game's link so that its table knows without reading the arena's settings.
ALTER TABLE tournament_games ADD COLUMN berserk_allowed BOOLEAN NOT NULL DEFAULT FALSE;
