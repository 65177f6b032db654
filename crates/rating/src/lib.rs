//! Ratings: Glicko-2 per game and time class, computed by `skillratings`, plus what the
//! platform decides around it — when a rating is provisional, which class a time control
//! belongs to, and how far apart quick match lets two players be after waiting a while.
//!
//! Every game is its own rating period (as lichess does): ratings change at the end of each
//! rated game, for both players, from the ratings they had when it began.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

mod pair;

pub use pair::{PAIR_BOUND, PAIR_WINDOW, PairHistory};

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A rating whose deviation is above this is not trusted yet: shown with `?`, left out of
/// leaderboards (lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// One player's standing in one game and class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in this game and class.
    pub games: u32,
}

impl Default for Rating {
    /// A newcomer: 1500 with the largest deviation Glicko-2 allows.
    fn default() -> Rating {
        let start = Glicko2Rating::new();
        Rating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            games: 0,
        }
    }
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as people read it: a whole number.
    pub fn shown(&self) -> i32 {
        self.rating.round() as i32
    }

    /// The rating after one rating period with these results (the opponent's rating before
    /// the game and this player's score: 1 win, ½ draw, 0 loss). Uses τ = 0.5, the value of
    /// Glickman's worked example.
    pub fn after(&self, results: &[(Rating, Score)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> = results
            .iter()
            .map(|(opponent, score)| (opponent.glicko(), score.outcome()))
            .collect();
        let next = glicko2_rating_period(&self.glicko(), &results, &Glicko2Config::new());
        Rating {
            rating: next.rating,
            deviation: next.deviation,
            volatility: next.volatility,
            games: self.games + results.len() as u32,
        }
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// One side's result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    pub fn opposite(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

/// Both players' ratings after a game between them, where `first` scored `score`.
pub fn after_game(first: &Rating, second: &Rating, score: Score) -> (Rating, Rating) {
    (
        first.after(&[(*second, score)]),
        second.after(&[(*first, score.opposite())]),
    )
}

/// Games at different speeds are different skills: each has its own rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A live clock of under ten minutes' expected length.
    Blitz,
    /// Any other live game, untimed ones included.
    Rapid,
    /// Days per move.
    Correspondence,
}

/// Live games expected to last under this are blitz. A game's expected length is its
/// initial time plus 40 increments (lichess's estimate of a game of 40 moves).
const BLITZ_UNDER: Duration = Duration::from_secs(10 * 60);

impl Class {
    pub const ALL: [Class; 3] = [Class::Blitz, Class::Rapid, Class::Correspondence];

    /// The class of a game with this clock (initial and increment, ms) or days per move.
    pub fn of(clock: Option<(u64, u64)>, days: Option<u8>) -> Class {
        if days.is_some() {
            return Class::Correspondence;
        }
        match clock {
            Some((initial, increment))
                if initial.saturating_add(increment.saturating_mul(40))
                    < BLITZ_UNDER.as_millis() as u64 =>
            {
                Class::Blitz
            }
            _ => Class::Rapid,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Class::Blitz => "blitz",
            Class::Rapid => "rapid",
            Class::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownClass(pub String);

impl fmt::Display for UnknownClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no rating class {:?}: blitz, rapid or correspondence",
            self.0
        )
    }
}

impl std::error::Error for UnknownClass {}

impl FromStr for Class {
    type Err = UnknownClass;

    fn from_str(s: &str) -> Result<Class, UnknownClass> {
        Class::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownClass(s.to_string()))
    }
}

/// How far apart in rating quick match may pair two players: `initial` at once, `step` more
/// for every `every` waited.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub initial: f64,
    pub step: f64,
    pub every: Duration,
}

impl Default for Window {
    /// ±100 at once, 50 more every 5 seconds.
    fn default() -> Window {
        Window {
            initial: 100.0,
            step: 50.0,
            every: Duration::from_secs(5),
        }
    }
}

impl Window {
    /// The widest gap a player who has waited `waited` accepts.
    pub fn width(&self, waited: Duration) -> f64 {
        let steps = if self.every.is_zero() {
            0
        } else {
            waited.as_millis() / self.every.as_millis()
        };
        self.initial + self.step * steps as f64
    }

    /// Whether two waiting players may be paired: each accepts the other's rating.
    pub fn accepts(&self, a: (f64, Duration), b: (f64, Duration)) -> bool {
        let gap = (a.0 - b.0).abs();
        gap <= self.width(a.1) && gap <= self.width(b.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
            games: 0,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // "Example of the Glicko-2 system", Glickman (2013): a 1500/200 player beats a
        // 1400/30 player and loses to 1550/100 and 1700/300 in one rating period.
        let player = rating(1500.0, 200.0);
        let after = player.after(&[
            (rating(1400.0, 30.0), Score::Win),
            (rating(1550.0, 100.0), Score::Loss),
            (rating(1700.0, 300.0), Score::Loss),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
        assert_eq!(after.games, 3);
    }

    #[test]
    fn a_game_moves_both_ratings_in_opposite_directions() {
        let (a, b) = after_game(&Rating::default(), &Rating::default(), Score::Win);
        assert!(a.rating > 1500.0 && b.rating < 1500.0);
        // Two newcomers of equal rating: the change is symmetric.
        assert!(((a.rating - 1500.0) + (b.rating - 1500.0)).abs() < 1e-9);
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
        assert_eq!((a.games, b.games), (1, 1));
        let (c, d) = after_game(&Rating::default(), &Rating::default(), Score::Draw);
        assert!((c.rating - 1500.0).abs() < 1e-9 && (d.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn newcomers_are_provisional_until_their_deviation_falls() {
        assert!(Rating::default().provisional());
        assert!(!rating(1500.0, 80.0).provisional());
        let mut r = Rating::default();
        let opponent = rating(1500.0, 60.0);
        let mut games = 0;
        while r.provisional() {
            r = r.after(&[(opponent, Score::Draw)]);
            games += 1;
            assert!(games < 50, "never settled: {r:?}");
        }
        assert!(games > 3, "settled after {games} games");
    }

    #[test]
    fn classes_follow_the_expected_length() {
        assert_eq!(Class::of(Some((180_000, 2_000)), None), Class::Blitz);
        assert_eq!(Class::of(Some((300_000, 3_000)), None), Class::Blitz);
        assert_eq!(Class::of(Some((600_000, 0)), None), Class::Rapid);
        assert_eq!(Class::of(Some((300_000, 10_000)), None), Class::Rapid);
        assert_eq!(Class::of(Some((599_999, 0)), None), Class::Blitz);
        assert_eq!(Class::of(None, None), Class::Rapid);
        assert_eq!(Class::of(None, Some(3)), Class::Correspondence);
        for class in Class::ALL {
            assert_eq!(class.as_str().parse::<Class>(), Ok(class));
        }
        assert!("bullet".parse::<Class>().is_err());
    }

    #[test]
    fn the_window_widens_with_waiting() {
        let window = Window::default();
        assert_eq!(window.width(Duration::ZERO), 100.0);
        assert_eq!(window.width(Duration::from_millis(4_999)), 100.0);
        assert_eq!(window.width(Duration::from_secs(12)), 200.0);
        let fresh = Duration::ZERO;
        assert!(window.accepts((1500.0, fresh), (1590.0, fresh)));
        assert!(!window.accepts((1500.0, fresh), (1800.0, fresh)));
        // Both must accept: one long wait is not enough.
        assert!(!window.accepts((1500.0, Duration::from_secs(60)), (1800.0, fresh)));
        let long = Duration::from_secs(20);
        assert!(window.accepts((1500.0, long), (1800.0, long)));
    }
}
