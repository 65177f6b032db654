//! Which challenges the bridge accepts: the games and variants its engine plays, the time
//! controls, rated or casual, people or bots, and how many games at once. A challenge it
//! does not take is declined with the reason the Bot API names (docs/bot-api.md), so the
//! challenger knows what to change.

use serde_json::Value;

/// Rated games, casual games, or both.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rated {
    Any,
    Rated,
    Casual,
}

/// People, bots, or both.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponents {
    Any,
    People,
    Bots,
}

/// The kinds of time control a challenge may have.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock (`initial` seconds and an `increment`).
    Live,
    /// Days a move.
    Correspondence,
    /// No clock at all.
    Untimed,
}

/// What the bridge plays: every field a flag of `stolik bot`.
#[derive(clap::Args, Debug, Clone)]
pub struct Policy {
    /// Games accepted (comma-separated ids); all two-player games when omitted.
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Variants accepted, as GAME:VARIANT (comma-separated); every variant of an accepted game
    /// when omitted.
    #[arg(long, value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Time controls accepted.
    #[arg(long, value_delimiter = ',', default_values = ["live", "correspondence", "untimed"])]
    pub time_controls: Vec<TimeControl>,
    /// The shortest live clock accepted: its initial time, in seconds.
    #[arg(long, default_value_t = 0)]
    pub min_initial: u64,
    /// The longest live clock accepted: its initial time, in seconds.
    #[arg(long, default_value_t = 3 * 60 * 60)]
    pub max_initial: u64,
    /// Rated games, casual games, or any.
    #[arg(long, value_enum, default_value_t = Rated::Any)]
    pub rated: Rated,
    /// Whom to play: people, bots, or any.
    #[arg(long, value_enum, default_value_t = Opponents::Any)]
    pub opponents: Opponents,
    /// How many games at once; a challenge beyond them is declined with `later`.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_games: u32,
}

/// Games no engine plays through the bridge: White Rabbit is solo.
const SOLO: &str = "white-rabbit";

impl Policy {
    /// `Ok` to accept `challenge` (the Bot API's JSON) while `playing` games go on, or the
    /// reason to decline it with.
    pub fn judge(&self, challenge: &Value, playing: usize) -> Result<(), &'static str> {
        let game = challenge["game"].as_str().unwrap_or_default();
        let variant = challenge["variant"].as_str().unwrap_or_default();
        if game == SOLO || !(self.games.is_empty() || self.games.iter().any(|g| g == game)) {
            return Err("game");
        }
        let named = format!("{game}:{variant}");
        let of_game: Vec<&String> = (self.variants.iter())
            .filter(|v| v.split(':').next() == Some(game))
            .collect();
        if !of_game.is_empty() && !of_game.iter().any(|v| **v == named) {
            return Err("variant");
        }
        self.judge_clock(&challenge["clock"])?;
        match (self.rated, challenge["rated"].as_bool().unwrap_or(false)) {
            (Rated::Rated, false) => return Err("rated"),
            (Rated::Casual, true) => return Err("casual"),
            _ => {}
        }
        match (self.opponents, challenge["challenger"]["bot"].as_bool()) {
            (Opponents::People, Some(true)) => return Err("no_bot"),
            (Opponents::Bots, Some(false) | None) => return Err("only_bot"),
            _ => {}
        }
        if playing >= self.max_games as usize {
            return Err("later");
        }
        Ok(())
    }

    fn judge_clock(&self, clock: &Value) -> Result<(), &'static str> {
        let kind = if clock.is_null() {
            TimeControl::Untimed
        } else if clock.get("days").is_some_and(|d| !d.is_null()) {
            TimeControl::Correspondence
        } else {
            TimeControl::Live
        };
        if !self.time_controls.contains(&kind) {
            return Err("time_control");
        }
        if kind == TimeControl::Live {
            let initial = clock["initial"].as_u64().unwrap_or(0);
            if initial < self.min_initial {
                return Err("too_fast");
            }
            if initial > self.max_initial {
                return Err("too_slow");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use serde_json::json;

    use super::*;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        policy: Policy,
    }

    fn policy(flags: &[&str]) -> Policy {
        let mut all = vec!["stolik bot"];
        all.extend_from_slice(flags);
        Flags::try_parse_from(all).expect("valid flags").policy
    }

    fn challenge(game: &str, variant: &str, clock: Value, rated: bool, bot: bool) -> Value {
        json!({"game": game, "variant": variant, "clock": clock, "rated": rated,
               "challenger": {"id": "u1", "name": "alice", "bot": bot}})
    }

    fn live(initial: u64) -> Value {
        json!({"initial": initial, "increment": 2})
    }

    #[test]
    fn without_flags_every_two_player_game_is_accepted_up_to_two_at_once() {
        let p = policy(&[]);
        for game in ["perekati", "tumbleweed", "cephalopod", "mill"] {
            let c = challenge(game, "x", live(300), true, false);
            assert_eq!(p.judge(&c, 0), Ok(()), "{game}");
            assert_eq!(p.judge(&c, 1), Ok(()));
            assert_eq!(p.judge(&c, 2), Err("later"));
        }
        let days = challenge("mill", "troika", json!({"days": 3}), false, true);
        assert_eq!(p.judge(&days, 0), Ok(()));
        let untimed = challenge("mill", "troika", Value::Null, false, false);
        assert_eq!(p.judge(&untimed, 0), Ok(()));
        let solo = challenge("white-rabbit", "classic", Value::Null, false, false);
        assert_eq!(p.judge(&solo, 0), Err("game"));
    }

    #[test]
    fn games_and_variants_are_chosen_by_flags() {
        let p = policy(&["--games", "mill,cephalopod", "--variants", "mill:troika"]);
        let c = |game, variant| challenge(game, variant, live(60), false, false);
        assert_eq!(p.judge(&c("mill", "troika"), 0), Ok(()));
        assert_eq!(p.judge(&c("mill", "mill"), 0), Err("variant"));
        // No variant named for cephalopod: all of its variants.
        assert_eq!(p.judge(&c("cephalopod", "3x3"), 0), Ok(()));
        assert_eq!(p.judge(&c("perekati", "malysh"), 0), Err("game"));
    }

    #[test]
    fn clocks_out_of_range_and_unwanted_time_controls_are_declined() {
        let p = policy(&[
            "--min-initial",
            "60",
            "--max-initial",
            "600",
            "--time-controls",
            "live",
        ]);
        let c = |clock| challenge("mill", "troika", clock, false, false);
        assert_eq!(p.judge(&c(live(59)), 0), Err("too_fast"));
        assert_eq!(p.judge(&c(live(60)), 0), Ok(()));
        assert_eq!(p.judge(&c(live(600)), 0), Ok(()));
        assert_eq!(p.judge(&c(live(601)), 0), Err("too_slow"));
        assert_eq!(p.judge(&c(json!({"days": 1})), 0), Err("time_control"));
        assert_eq!(p.judge(&c(Value::Null), 0), Err("time_control"));
    }

    #[test]
    fn rated_casual_people_and_bots_are_chosen_by_flags() {
        let rated_only = policy(&["--rated", "rated", "--opponents", "people"]);
        let c = |rated, bot| challenge("mill", "troika", live(60), rated, bot);
        assert_eq!(rated_only.judge(&c(true, false), 0), Ok(()));
        assert_eq!(rated_only.judge(&c(false, false), 0), Err("rated"));
        assert_eq!(rated_only.judge(&c(true, true), 0), Err("no_bot"));
        let casual_bots = policy(&["--rated", "casual", "--opponents", "bots"]);
        assert_eq!(casual_bots.judge(&c(false, true), 0), Ok(()));
        assert_eq!(casual_bots.judge(&c(true, true), 0), Err("casual"));
        assert_eq!(casual_bots.judge(&c(false, false), 0), Err("only_bot"));
    }

    #[test]
    fn max_games_counts_the_games_going_on() {
        let p = policy(&["--max-games", "1"]);
        let c = challenge("mill", "troika", live(60), false, false);
        assert_eq!(p.judge(&c, 0), Ok(()));
        assert_eq!(p.judge(&c, 1), Err("later"));
        let mut all = vec!["stolik bot", "--max-games", "0"];
        assert!(Flags::try_parse_from(all.drain(..)).is_err());
    }
}
