-- Ratings (Glicko-2), one per player, game and time class (blitz, rapid, correspondence).
-- A player is a user id or a bot's reserved id (`bot:easy`), so there is no foreign key.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
-- An open seek may admit only opponents rated within [rating_min, rating_max].
ALTER TABLE games ADD COLUMN rating_min BIGINT;
ALTER TABLE games ADD COLUMN rating_max BIGINT;

CREATE TABLE ratings (
    player     TEXT NOT NULL,
    game       TEXT NOT NULL,
    class      TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player, game, class)
);
-- Leaderboards read the best of one game and class.
CREATE INDEX ratings_board ON ratings (game, class, rating);

-- What each rated game did to each player's rating: the history chart, the +8 / -8 shown at
-- the end, and the recent games of a profile. Written in the transaction that ends the game.
CREATE TABLE rating_changes (
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    player          TEXT NOT NULL,
    game            TEXT NOT NULL,
    class           TEXT NOT NULL,
    rating_before   DOUBLE PRECISION NOT NULL,
    rating_after    DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    at              BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_player ON rating_changes (player, at);

-- Players and spectators talk in separate rooms.
ALTER TABLE chat ADD COLUMN room TEXT NOT NULL DEFAULT 'players';
