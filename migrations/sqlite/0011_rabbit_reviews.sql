-- White Rabbit: the review of a finished game, computed once and kept, so that every view on
-- every node shows the same verdicts (the JSON answer of /api/records/{id}/review, verbatim).
CREATE TABLE rabbit_reviews (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A daily deal's attempt is ranked on the day's leaderboard when it is `rated`: an account's
-- attempt on the day itself. A guest's attempt is practice (docs/security.md, "The daily
-- deal"). Attempts made before this rule were all ranked; those of accounts stay so.
UPDATE games SET rated = TRUE
 WHERE daily IS NOT NULL
   AND host_id IN (SELECT id FROM users WHERE username IS NOT NULL);
