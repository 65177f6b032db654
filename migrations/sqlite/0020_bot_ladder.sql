-- The bot ladder (docs/bots.md, "The ladder"): the site's bots and the bot accounts that opt
-- in play each other, a few games at a time, so that every bot's rating stays current.

-- A bot account on the ladder, since when. Leaving deletes the row.
CREATE TABLE ladder_entrants (
    user_id   TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    joined_at BIGINT NOT NULL
);

-- One game the ladder asked for. The pair is kept in sorted order (`player_lo` < `player_hi`,
-- a user id or a house bot's `bot:LEVEL`) so that "when did these two last play" is one index
-- read; `first` is who sits at the first seat. A game with a bot account starts as a
-- challenge (`challenged`, its id in `challenge_id`) and is `skipped` when it is not
-- accepted; one between house bots is `playing` from the first. `over` once its table ended.
CREATE TABLE ladder_games (
    id           TEXT PRIMARY KEY,
    player_lo    TEXT NOT NULL,
    player_hi    TEXT NOT NULL,
    first        TEXT NOT NULL,
    game         TEXT NOT NULL,
    variant      TEXT NOT NULL,
    challenge_id TEXT,
    game_id      TEXT,
    status       TEXT NOT NULL CHECK (status IN ('challenged', 'playing', 'over', 'skipped')),
    created_at   BIGINT NOT NULL,
    ended_at     BIGINT
);

CREATE INDEX ladder_games_pair ON ladder_games (player_lo, player_hi, created_at);
CREATE INDEX ladder_games_status ON ladder_games (status);
CREATE INDEX ladder_games_ended ON ladder_games (status, ended_at);

-- The house bots as users, so that the ladder can send a bot account a challenge in their
-- name (a challenge's players are users). No username: nobody signs in as them, no
-- leaderboard of accounts lists them, and their seats stay the bots' (`game_seats.bot`).
INSERT INTO users (id, display_name, created_at, bot) VALUES
    ('bot:easy', 'Stolik bot (easy)', 0, TRUE),
    ('bot:medium', 'Stolik bot (medium)', 0, TRUE),
    ('bot:hard', 'Stolik bot (hard)', 0, TRUE)
ON CONFLICT (id) DO NOTHING;
