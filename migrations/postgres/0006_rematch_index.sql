-- A game's record names its rematch, found by `rematch_of`: without an index that lookup
-- reads every game, once per game read, and start-up grew with the square of the tables.
CREATE INDEX games_rematch_of ON games (rematch_of);
