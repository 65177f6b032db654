//! The limits' settings: a rate, and every limit's default, changed with `--limits`.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::Quota;

/// `count` events per `per`, in a burst of up to `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub count: u32,
    pub per: Duration,
}

impl Rate {
    const fn per_minute(count: u32) -> Rate {
        Rate {
            count,
            per: Duration::from_secs(60),
        }
    }

    const fn per_hour(count: u32) -> Rate {
        Rate {
            count,
            per: Duration::from_secs(3600),
        }
    }

    const fn per_day(count: u32) -> Rate {
        Rate {
            count,
            per: Duration::from_secs(86_400),
        }
    }

    /// `N/s`, `N/min`, `N/h` or `N/day`, the unit optionally with a multiple (`N/10s`).
    fn parse(text: &str) -> Result<Rate, String> {
        let (count, unit) = text
            .split_once('/')
            .ok_or_else(|| format!("{text:?}: a rate is N/s, N/min, N/h or N/day"))?;
        let count: u32 = count
            .trim()
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{text:?}: the count must be a whole number above 0"))?;
        let unit = unit.trim();
        let digits = unit.len() - unit.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (times, unit) = unit.split_at(digits);
        let times: u64 = if times.is_empty() {
            1
        } else {
            times
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{text:?}: the unit's multiple must be above 0"))?
        };
        let secs = match unit {
            "s" => 1,
            "min" => 60,
            "h" => 3600,
            "day" => 86_400,
            other => return Err(format!("{other:?}: the unit is s, min, h or day")),
        };
        Ok(Rate {
            count,
            per: Duration::from_secs(secs * times),
        })
    }

    pub(super) fn quota(self) -> Quota {
        let count = NonZeroU32::new(self.count).expect("rates are above 0");
        let period = (self.per / self.count).max(Duration::from_nanos(1));
        Quota::with_period(period)
            .expect("a period above 0")
            .allow_burst(count)
    }
}

/// Every limit's setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitsConfig {
    pub enabled: bool,
    /// Login attempts from one address, and for one account from one address (the login
    /// route's key is the account and the address together).
    pub login_per_address: Rate,
    pub login_per_account: Rate,
    /// Failed logins of one account from one address before each further attempt from there
    /// waits (1 s, doubling up to 15 minutes), until a login succeeds.
    pub login_failures_before_delay: u32,
    pub registrations_per_address: Rate,
    /// New guest identities one address may be handed.
    pub guests_per_address: Rate,
    /// Tables created (with a bot or not, and practice deals) by one identity, one address.
    pub tables_per_identity: Rate,
    pub tables_per_address: Rate,
    /// Tables an identity may have open (waiting for an opponent) at once; and unfinished bot
    /// games at once.
    pub open_tables_per_identity: usize,
    pub bot_games_per_identity: usize,
    /// WebSocket connections open at once from one address.
    pub sockets_per_address: u32,
    /// Reports one identity may file, and one address.
    pub reports_per_identity: Rate,
    pub reports_per_address: Rate,
    /// Public tables (listed in the lobby) one address may open; as an open table nobody
    /// joins closes after 30 minutes, this also bounds the address's open tables at once,
    /// whatever number of guests it makes.
    pub public_tables_per_address: Rate,
    /// Chat lines written as a spectator (in a game's spectator room) by one identity, and
    /// from one address, over all tables.
    pub spectator_chat_per_identity: Rate,
    pub spectator_chat_per_address: Rate,
    /// Correspondence games started (tables created with days a move, and joins of a
    /// correspondence quick-match queue) by one identity, and from one address.
    pub correspondence_per_identity: Rate,
    pub correspondence_per_address: Rate,
    /// Engine reviews of finished games asked for by one identity, and from one address (a
    /// review costs the compute pool seconds).
    pub reviews_per_identity: Rate,
    pub reviews_per_address: Rate,
    /// Positions the engine evaluates on demand (the analysis board, its exercises) for one
    /// identity and from one address: each holds the compute pool for up to a few seconds.
    pub evaluations_per_identity: Rate,
    pub evaluations_per_address: Rate,
    /// Questions to the analysis board's streamed engine for one identity and one address:
    /// one a position stepped to with the engine on (a player's newest question stops the
    /// one before, so at most one search a player runs at a time).
    pub thinking_per_identity: Rate,
    pub thinking_per_address: Rate,
    /// Challenges one identity may send.
    pub challenges_per_identity: Rate,
    /// Requests of the Bot API (moves, chat, offers, streams opened) by one API token, or
    /// one session when the site's own session is used.
    pub bot_requests_per_token: Rate,
}

impl Default for LimitsConfig {
    fn default() -> LimitsConfig {
        LimitsConfig {
            enabled: true,
            login_per_address: Rate::per_minute(30),
            login_per_account: Rate::per_minute(10),
            login_failures_before_delay: 5,
            registrations_per_address: Rate::per_hour(20),
            guests_per_address: Rate::per_minute(30),
            tables_per_identity: Rate::per_minute(20),
            tables_per_address: Rate::per_minute(60),
            open_tables_per_identity: 5,
            bot_games_per_identity: 5,
            sockets_per_address: 64,
            reports_per_identity: Rate::per_hour(20),
            reports_per_address: Rate::per_hour(30),
            public_tables_per_address: Rate::per_hour(10),
            spectator_chat_per_identity: Rate::per_minute(10),
            spectator_chat_per_address: Rate::per_minute(20),
            correspondence_per_identity: Rate::per_day(20),
            correspondence_per_address: Rate::per_day(50),
            reviews_per_identity: Rate::per_hour(10),
            reviews_per_address: Rate::per_hour(30),
            evaluations_per_identity: Rate::per_minute(12),
            evaluations_per_address: Rate::per_minute(30),
            thinking_per_identity: Rate::per_minute(60),
            thinking_per_address: Rate::per_minute(120),
            challenges_per_identity: Rate::per_hour(100),
            bot_requests_per_token: Rate::per_minute(600),
        }
    }
}

impl LimitsConfig {
    /// `off`, or comma-separated `name=value` changes to the defaults: rates as `N/min` (also
    /// `/s`, `/h`, `/day`), counts as plain numbers. An unknown name is an error.
    pub fn parse(spec: &str) -> Result<LimitsConfig, String> {
        let mut config = LimitsConfig::default();
        let spec = spec.trim();
        if spec == "off" {
            config.enabled = false;
            return Ok(config);
        }
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("{item:?}: expected name=value"))?;
            let count = || {
                value
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| format!("{name}: {value:?} is not a whole number"))
            };
            match name.trim() {
                "login_per_address" => config.login_per_address = Rate::parse(value)?,
                "login_per_account" => config.login_per_account = Rate::parse(value)?,
                "login_failures_before_delay" => config.login_failures_before_delay = count()?,
                "registrations_per_address" => {
                    config.registrations_per_address = Rate::parse(value)?
                }
                "guests_per_address" => config.guests_per_address = Rate::parse(value)?,
                "tables_per_identity" => config.tables_per_identity = Rate::parse(value)?,
                "tables_per_address" => config.tables_per_address = Rate::parse(value)?,
                "open_tables_per_identity" => config.open_tables_per_identity = count()? as usize,
                "bot_games_per_identity" => config.bot_games_per_identity = count()? as usize,
                "sockets_per_address" => config.sockets_per_address = count()?,
                "reports_per_identity" => config.reports_per_identity = Rate::parse(value)?,
                "reports_per_address" => config.reports_per_address = Rate::parse(value)?,
                "public_tables_per_address" => {
                    config.public_tables_per_address = Rate::parse(value)?
                }
                "spectator_chat_per_identity" => {
                    config.spectator_chat_per_identity = Rate::parse(value)?
                }
                "spectator_chat_per_address" => {
                    config.spectator_chat_per_address = Rate::parse(value)?
                }
                "correspondence_per_identity" => {
                    config.correspondence_per_identity = Rate::parse(value)?
                }
                "correspondence_per_address" => {
                    config.correspondence_per_address = Rate::parse(value)?
                }
                "reviews_per_identity" => config.reviews_per_identity = Rate::parse(value)?,
                "reviews_per_address" => config.reviews_per_address = Rate::parse(value)?,
                "evaluations_per_identity" => config.evaluations_per_identity = Rate::parse(value)?,
                "evaluations_per_address" => config.evaluations_per_address = Rate::parse(value)?,
                "thinking_per_identity" => config.thinking_per_identity = Rate::parse(value)?,
                "thinking_per_address" => config.thinking_per_address = Rate::parse(value)?,
                "challenges_per_identity" => config.challenges_per_identity = Rate::parse(value)?,
                "bot_requests_per_token" => config.bot_requests_per_token = Rate::parse(value)?,
                other => return Err(format!("no limit named {other:?}")),
            }
        }
        Ok(config)
    }
}
