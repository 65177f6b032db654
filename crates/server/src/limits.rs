//! Limits on what one address or one identity may do, so that one client cannot flood the
//! server, guess passwords or fill the database: rates from `governor` (GCRA, keyed), a count
//! of open sockets per address, a growing lock-out after failed logins, and a bound on the
//! argon2 work in flight.
//!
//! Every limit has a default and can be changed with `--limits` (see [`LimitsConfig::parse`]
//! and `docs/protocol.md`); `--limits off` switches them all off (load tests on loopback).
//! With `--redis` the rates and the login lock-out are counted in Redis, the same for every
//! node (`shared.rs`); open sockets are counted by each node for its own.

mod config;
mod shared;

pub use config::{LimitsConfig, Rate};

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, RateLimiter};

use crate::error::{ApiError, ErrorCode};

/// What is being limited, for [`Limits::check`].
#[derive(Debug, Clone, Copy)]
pub enum Action {
    Login,
    Register,
    NewGuest,
    CreateTable,
    /// A table listed in the lobby (counted besides `CreateTable`).
    PublicTable,
    Report,
    /// A chat line in a public room: a game's spectators' room, or a tournament's.
    SpectatorChat,
    /// A correspondence game started: a table with days a move, or a correspondence queue.
    Correspondence,
    /// An engine review of a finished game asked for.
    Review,
    /// A position evaluated by the engine on demand.
    Evaluate,
    /// The engine thinking on the analysis board, streamed (one player's newest stream stops
    /// the one before, so this bounds questions, not work).
    Think,
    /// A challenge sent (counted per identity).
    Challenge,
    /// A request of the Bot API (counted per token: give the token's id as the identity).
    BotRequest,
}

impl Action {
    /// The limit's name in Redis keys.
    fn name(self) -> &'static str {
        match self {
            Action::Login => "login",
            Action::Register => "register",
            Action::NewGuest => "guest",
            Action::CreateTable => "table",
            Action::PublicTable => "public-table",
            Action::Report => "report",
            Action::SpectatorChat => "spectator-chat",
            Action::Correspondence => "correspondence",
            Action::Review => "review",
            Action::Evaluate => "evaluate",
            Action::Think => "think",
            Action::Challenge => "challenge",
            Action::BotRequest => "bot",
        }
    }
}

struct Keyed<K: Hash + Eq + Clone> {
    limiter: DefaultKeyedRateLimiter<K>,
}

impl<K: Hash + Eq + Clone> Keyed<K> {
    fn new(rate: Rate) -> Keyed<K> {
        Keyed {
            limiter: RateLimiter::keyed(rate.quota()),
        }
    }

    fn check(&self, key: &K) -> Result<(), Duration> {
        self.limiter
            .check_key(key)
            // The limiter's own clock: making a new one calibrates it (cpuid), which cost a
            // refused request more than the rest of its handling.
            .map_err(|not_until| not_until.wait_time_from(self.limiter.clock().now()))
    }
}

/// The live limits of one server.
pub struct Limits {
    config: LimitsConfig,
    /// Counts in Redis, shared with the other nodes; the local ones stand in while Redis does
    /// not answer.
    shared: Option<shared::SharedLimits>,
    /// After Redis failed to answer, it is not asked again until then: a request must not
    /// wait out Redis's timeouts one after another.
    shared_down_until: Mutex<Option<Instant>>,
    login_address: Keyed<IpAddr>,
    login_account: Keyed<String>,
    register_address: Keyed<IpAddr>,
    guest_address: Keyed<IpAddr>,
    table_identity: Keyed<String>,
    table_address: Keyed<IpAddr>,
    report_identity: Keyed<String>,
    report_address: Keyed<IpAddr>,
    public_table_address: Keyed<IpAddr>,
    spectator_chat_identity: Keyed<String>,
    spectator_chat_address: Keyed<IpAddr>,
    correspondence_identity: Keyed<String>,
    correspondence_address: Keyed<IpAddr>,
    review_identity: Keyed<String>,
    review_address: Keyed<IpAddr>,
    evaluate_identity: Keyed<String>,
    evaluate_address: Keyed<IpAddr>,
    think_identity: Keyed<String>,
    think_address: Keyed<IpAddr>,
    challenge_identity: Keyed<String>,
    bot_request_token: Keyed<String>,
    failures: Mutex<HashMap<String, Failures>>,
    sockets: Arc<Mutex<HashMap<IpAddr, u32>>>,
    last_pruned: Mutex<Instant>,
}

struct Failures {
    count: u32,
    last: Instant,
}

/// How long limits stay on this node's own counts after Redis failed to answer.
const SHARED_RETRY: Duration = Duration::from_secs(5);

/// The longest a run of failed logins makes the next attempt wait.
const MAX_LOGIN_DELAY: Duration = Duration::from_secs(15 * 60);

/// How long the next login must wait after `failures` in a row: nothing for the first
/// `before_delay`, then 1 s, doubling up to [`MAX_LOGIN_DELAY`].
fn login_delay(failures: u32, before_delay: u32) -> Duration {
    if failures < before_delay {
        return Duration::ZERO;
    }
    let over = failures - before_delay;
    Duration::from_secs(1u64 << over.min(10)).min(MAX_LOGIN_DELAY)
}

impl Limits {
    /// Limits counted by this node alone, or, given the cluster's bus, in Redis.
    pub fn new(config: LimitsConfig, bus: Option<cluster::Bus>) -> Limits {
        Limits {
            shared: bus.map(shared::SharedLimits::new),
            shared_down_until: Mutex::new(None),
            login_address: Keyed::new(config.login_per_address),
            login_account: Keyed::new(config.login_per_account),
            register_address: Keyed::new(config.registrations_per_address),
            guest_address: Keyed::new(config.guests_per_address),
            table_identity: Keyed::new(config.tables_per_identity),
            table_address: Keyed::new(config.tables_per_address),
            report_identity: Keyed::new(config.reports_per_identity),
            report_address: Keyed::new(config.reports_per_address),
            public_table_address: Keyed::new(config.public_tables_per_address),
            spectator_chat_identity: Keyed::new(config.spectator_chat_per_identity),
            spectator_chat_address: Keyed::new(config.spectator_chat_per_address),
            correspondence_identity: Keyed::new(config.correspondence_per_identity),
            correspondence_address: Keyed::new(config.correspondence_per_address),
            review_identity: Keyed::new(config.reviews_per_identity),
            review_address: Keyed::new(config.reviews_per_address),
            evaluate_identity: Keyed::new(config.evaluations_per_identity),
            evaluate_address: Keyed::new(config.evaluations_per_address),
            think_identity: Keyed::new(config.thinking_per_identity),
            think_address: Keyed::new(config.thinking_per_address),
            challenge_identity: Keyed::new(config.challenges_per_identity),
            bot_request_token: Keyed::new(config.bot_requests_per_token),
            failures: Mutex::new(HashMap::new()),
            sockets: Arc::new(Mutex::new(HashMap::new())),
            last_pruned: Mutex::new(Instant::now()),
            config,
        }
    }

    pub fn config(&self) -> &LimitsConfig {
        &self.config
    }

    /// One more `action` from `address` (and `identity`, where it counts per identity):
    /// `rate_limited` with the wait when it is one too many.
    pub async fn check(
        &self,
        action: Action,
        address: IpAddr,
        identity: Option<&str>,
    ) -> Result<(), ApiError> {
        if !self.config.enabled {
            return Ok(());
        }
        self.prune();
        let c = &self.config;
        let (by_address, by_identity) = match action {
            Action::Login => (
                Some((&self.login_address, c.login_per_address)),
                Some((&self.login_account, c.login_per_account)),
            ),
            Action::Register => (
                Some((&self.register_address, c.registrations_per_address)),
                None,
            ),
            Action::NewGuest => (Some((&self.guest_address, c.guests_per_address)), None),
            Action::CreateTable => (
                Some((&self.table_address, c.tables_per_address)),
                Some((&self.table_identity, c.tables_per_identity)),
            ),
            Action::PublicTable => (
                Some((&self.public_table_address, c.public_tables_per_address)),
                None,
            ),
            Action::Report => (
                Some((&self.report_address, c.reports_per_address)),
                Some((&self.report_identity, c.reports_per_identity)),
            ),
            Action::SpectatorChat => (
                Some((&self.spectator_chat_address, c.spectator_chat_per_address)),
                Some((&self.spectator_chat_identity, c.spectator_chat_per_identity)),
            ),
            Action::Correspondence => (
                Some((&self.correspondence_address, c.correspondence_per_address)),
                Some((&self.correspondence_identity, c.correspondence_per_identity)),
            ),
            Action::Review => (
                Some((&self.review_address, c.reviews_per_address)),
                Some((&self.review_identity, c.reviews_per_identity)),
            ),
            Action::Evaluate => (
                Some((&self.evaluate_address, c.evaluations_per_address)),
                Some((&self.evaluate_identity, c.evaluations_per_identity)),
            ),
            Action::Think => (
                Some((&self.think_address, c.thinking_per_address)),
                Some((&self.think_identity, c.thinking_per_identity)),
            ),
            Action::Challenge => (
                None,
                Some((&self.challenge_identity, c.challenges_per_identity)),
            ),
            Action::BotRequest => (
                None,
                Some((&self.bot_request_token, c.bot_requests_per_token)),
            ),
        };
        let name = action.name();
        if let Some((local, rate)) = by_address {
            self.one(local, &address, &format!("{name}:ip:{address}"), rate)
                .await?;
        }
        if let (Some((local, rate)), Some(identity)) = (by_identity, identity) {
            let identity = identity.to_string();
            self.one(local, &identity, &format!("{name}:id:{identity}"), rate)
                .await?;
        }
        Ok(())
    }

    /// One limit: in Redis when it is shared and answers, else in this node's own counts.
    /// The node counts every request either way (it sees only some of a client's requests,
    /// so its count never refuses what the shared one allows), so that its counts are
    /// current when Redis goes away.
    async fn one<K: Hash + Eq + Clone>(
        &self,
        local: &Keyed<K>,
        key: &K,
        shared_key: &str,
        rate: Rate,
    ) -> Result<(), ApiError> {
        let here = local.check(key);
        let outcome = match self.shared() {
            Some(shared) => match shared.check(shared_key, rate).await {
                Ok(None) => Ok(()),
                Ok(Some(wait)) => Err(wait),
                Err(e) => {
                    self.shared_failed(&e);
                    here
                }
            },
            None => here,
        };
        outcome.map_err(|wait| rate_limited("too many requests", wait))
    }

    /// Refuses a login attempt for `account` while its run of failures makes it wait.
    pub async fn login_allowed(&self, account: &str) -> Result<(), ApiError> {
        if !self.config.enabled {
            return Ok(());
        }
        if let Some(shared) = self.shared() {
            match shared.login_wait(account).await {
                Ok(wait) if wait.is_zero() => return Ok(()),
                Ok(wait) => {
                    return Err(rate_limited(
                        "too many failed logins for this account",
                        wait,
                    ));
                }
                Err(e) => self.shared_failed(&e),
            }
        }
        let failures = self.failures.lock().expect("failures lock");
        let Some(f) = failures.get(account) else {
            return Ok(());
        };
        let wait = self.login_delay(f.count);
        let waited = f.last.elapsed();
        if waited < wait {
            return Err(rate_limited(
                "too many failed logins for this account",
                wait - waited,
            ));
        }
        Ok(())
    }

    fn login_delay(&self, failures: u32) -> Duration {
        login_delay(failures, self.config.login_failures_before_delay)
    }

    /// Counts a failed login, on this node and (when shared) in Redis, so that the lock-out
    /// holds through a Redis outage too.
    pub async fn login_failed(&self, account: &str) {
        {
            let mut failures = self.failures.lock().expect("failures lock");
            let entry = failures.entry(account.to_string()).or_insert(Failures {
                count: 0,
                last: Instant::now(),
            });
            entry.count += 1;
            entry.last = Instant::now();
        }
        if let Some(shared) = self.shared() {
            let before = self.config.login_failures_before_delay;
            if let Err(e) = shared
                .login_failed(account, |n| login_delay(n, before))
                .await
            {
                self.shared_failed(&e);
            }
        }
    }

    pub async fn login_succeeded(&self, account: &str) {
        self.failures.lock().expect("failures lock").remove(account);
        if let Some(shared) = self.shared()
            && let Err(e) = shared.login_succeeded(account).await
        {
            self.shared_failed(&e);
        }
    }

    /// The shared counts, unless Redis failed a moment ago.
    fn shared(&self) -> Option<&shared::SharedLimits> {
        let shared = self.shared.as_ref()?;
        let mut down = self.shared_down_until.lock().expect("limits lock");
        match *down {
            Some(until) if Instant::now() < until => None,
            Some(_) => {
                *down = None;
                Some(shared)
            }
            None => Some(shared),
        }
    }

    fn shared_failed(&self, error: &cluster::ClusterError) {
        let mut down = self.shared_down_until.lock().expect("limits lock");
        if down.is_none() {
            tracing::warn!(%error, "redis does not answer: limits are counted on this node for now");
        }
        *down = Some(Instant::now() + SHARED_RETRY);
    }

    /// Counts one more open socket from `address` — on this node, and with `--redis` on the
    /// whole site; the ticket gives it back when dropped.
    pub async fn open_socket(&self, address: IpAddr) -> Result<SocketTicket, ApiError> {
        let too_many = || {
            rate_limited(
                "too many connections from your address",
                Duration::from_secs(10),
            )
        };
        let mut ticket = {
            let mut sockets = self.sockets.lock().expect("sockets lock");
            let open = sockets.entry(address).or_insert(0);
            if self.config.enabled && *open >= self.config.sockets_per_address {
                return Err(too_many());
            }
            *open += 1;
            SocketTicket {
                sockets: self.sockets.clone(),
                address,
                shared: None,
            }
        };
        if !self.config.enabled {
            return Ok(ticket);
        }
        if let Some(shared) = self.shared() {
            let key = address.to_string();
            match shared
                .open_socket(&key, self.config.sockets_per_address)
                .await
            {
                Ok(true) => ticket.shared = Some((shared.clone(), key)),
                // The ticket drops here, giving this node's count back.
                Ok(false) => return Err(too_many()),
                Err(e) => self.shared_failed(&e),
            }
        }
        Ok(ticket)
    }

    /// Forgets keys whose limits are back to full, now and then, so that memory stays bounded
    /// by the clients of the last minutes.
    fn prune(&self) {
        let mut last = self.last_pruned.lock().expect("prune lock");
        if last.elapsed() < Duration::from_secs(60) {
            return;
        }
        *last = Instant::now();
        self.login_address.limiter.retain_recent();
        self.login_account.limiter.retain_recent();
        self.register_address.limiter.retain_recent();
        self.guest_address.limiter.retain_recent();
        self.table_identity.limiter.retain_recent();
        self.table_address.limiter.retain_recent();
        self.report_identity.limiter.retain_recent();
        self.report_address.limiter.retain_recent();
        self.public_table_address.limiter.retain_recent();
        self.spectator_chat_identity.limiter.retain_recent();
        self.spectator_chat_address.limiter.retain_recent();
        self.correspondence_identity.limiter.retain_recent();
        self.correspondence_address.limiter.retain_recent();
        self.review_identity.limiter.retain_recent();
        self.review_address.limiter.retain_recent();
        self.evaluate_identity.limiter.retain_recent();
        self.evaluate_address.limiter.retain_recent();
        self.think_identity.limiter.retain_recent();
        self.think_address.limiter.retain_recent();
        self.challenge_identity.limiter.retain_recent();
        self.bot_request_token.limiter.retain_recent();
        self.failures
            .lock()
            .expect("failures lock")
            .retain(|_, f| f.last.elapsed() < MAX_LOGIN_DELAY * 2);
    }
}

/// One open socket of an address, counted until dropped.
pub struct SocketTicket {
    sockets: Arc<Mutex<HashMap<IpAddr, u32>>>,
    address: IpAddr,
    /// Counted in Redis too, under this address.
    shared: Option<(shared::SharedLimits, String)>,
}

impl Drop for SocketTicket {
    fn drop(&mut self) {
        if let Some((shared, address)) = self.shared.take() {
            tokio::spawn(async move {
                if let Err(e) = shared.close_socket(&address).await {
                    tracing::warn!(error = %e, "cannot count a closed socket in redis");
                }
            });
        }
        let mut sockets = self.sockets.lock().expect("sockets lock");
        if let Some(open) = sockets.get_mut(&self.address) {
            *open -= 1;
            if *open == 0 {
                sockets.remove(&self.address);
            }
        }
    }
}

/// `429 rate_limited` with the whole seconds to wait (at least one) for `Retry-After`.
pub fn rate_limited(what: &str, wait: Duration) -> ApiError {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let secs = secs.max(1);
    ApiError::new(
        ErrorCode::RateLimited,
        format!("{what}: try again in {secs} s"),
    )
    .retry_after(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_ones_say_why() {
        assert!(!LimitsConfig::parse("off").unwrap().enabled);
        let config = LimitsConfig::parse("guests_per_address=5/s, sockets_per_address=3").unwrap();
        assert_eq!(
            config.guests_per_address,
            Rate {
                count: 5,
                per: Duration::from_secs(1)
            }
        );
        assert_eq!(config.sockets_per_address, 3);
        assert_eq!(
            config.login_per_account,
            LimitsConfig::default().login_per_account
        );
        assert_eq!(
            LimitsConfig::parse("guests_per_address=3/10s")
                .unwrap()
                .guests_per_address
                .per,
            Duration::from_secs(10)
        );
        for bad in [
            "nope=1/s",
            "guests_per_address=0/s",
            "guests_per_address=5/week",
            "guests_per_address=5/0s",
            "x",
        ] {
            assert!(LimitsConfig::parse(bad).is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn a_rate_allows_its_burst_then_says_how_long_to_wait() {
        let limits = Limits::new(
            LimitsConfig::parse("guests_per_address=3/min").unwrap(),
            None,
        );
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        for _ in 0..3 {
            limits.check(Action::NewGuest, a, None).await.unwrap();
        }
        let refused = limits.check(Action::NewGuest, a, None).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::RateLimited);
        assert!(
            (1..=20).contains(&refused.retry_after.unwrap()),
            "{refused:?}"
        );
        limits.check(Action::NewGuest, b, None).await.unwrap();
    }

    #[tokio::test]
    async fn failed_logins_make_the_account_wait_longer_and_longer() {
        let limits = Limits::new(
            LimitsConfig::parse("login_failures_before_delay=2").unwrap(),
            None,
        );
        limits.login_failed("ann").await;
        assert!(limits.login_allowed("ann").await.is_ok());
        limits.login_failed("ann").await;
        assert_eq!(limits.login_delay(2), Duration::from_secs(1));
        assert_eq!(limits.login_delay(5), Duration::from_secs(8));
        assert_eq!(limits.login_delay(40), MAX_LOGIN_DELAY);
        assert!(limits.login_allowed("ann").await.is_err());
        assert!(limits.login_allowed("bob").await.is_ok());
        limits.login_succeeded("ann").await;
        assert!(limits.login_allowed("ann").await.is_ok());
    }

    #[tokio::test]
    async fn sockets_are_counted_per_address_until_closed() {
        let limits = Limits::new(LimitsConfig::parse("sockets_per_address=2").unwrap(), None);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let first = limits.open_socket(a).await.unwrap();
        let _second = limits.open_socket(a).await.unwrap();
        assert!(limits.open_socket(a).await.is_err());
        drop(first);
        assert!(limits.open_socket(a).await.is_ok());
    }
}
