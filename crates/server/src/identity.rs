//! Who is asking: guests and accounts, carried by a signed token (JWT).
//!
//! Browsers keep the token in an HttpOnly cookie; API and bot clients send it as a bearer
//! token. A first visit without a token gets a guest identity (a user row without a username,
//! written once the guest first does something) so that everything a guest does is kept when
//! the guest later registers. Each token carries its user's token version, checked by
//! [`crate::sessions`].

use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use jsonwebtoken::{DecodingKey, EncodingKey, Header, Validation};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::error::{ErrorCode, WsError};

pub const COOKIE: &str = "stolik";
const GUEST_TTL_SECS: u64 = 365 * 24 * 60 * 60;
const ACCOUNT_TTL_SECS: u64 = 30 * 24 * 60 * 60;

/// The identity behind a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserView {
    pub id: String,
    pub name: String,
    pub guest: bool,
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    name: String,
    guest: bool,
    exp: u64,
    /// The user's token version when the token was issued (tokens from before versions
    /// existed read as 0).
    #[serde(default)]
    ver: i64,
}

/// Signs and checks identity tokens with the server's secret (kept in the database, so every
/// node and every restart accepts the same tokens).
#[derive(Clone)]
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl Keys {
    pub fn from_secret(secret: &[u8]) -> Keys {
        Keys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
        }
    }

    /// A token for `user` under token version `version`, valid for a year (guests) or thirty
    /// days (accounts).
    pub fn issue(&self, user: &UserView, version: i64) -> String {
        let ttl = if user.guest {
            GUEST_TTL_SECS
        } else {
            ACCOUNT_TTL_SECS
        };
        let claims = Claims {
            sub: user.id.clone(),
            name: user.name.clone(),
            guest: user.guest,
            exp: unix_secs() + ttl,
            ver: version,
        };
        jsonwebtoken::encode(&Header::default(), &claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    /// The identity and token version a token names, if its signature and expiry are good
    /// (whether its version is still current is [`crate::sessions`]' question).
    pub fn verify(&self, token: &str) -> Result<(UserView, i64), WsError> {
        let mut validation = Validation::default();
        validation.leeway = 0;
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .map_err(|e| WsError::new(ErrorCode::Unauthorized, format!("bad token: {e}")))?;
        let user = UserView {
            id: data.claims.sub,
            name: data.claims.name,
            guest: data.claims.guest,
        };
        Ok((user, data.claims.ver))
    }

    /// The cookie that carries `token` for a browser; `Secure` when the site is served over
    /// TLS.
    pub fn cookie(&self, token: &str, guest: bool, secure: bool) -> Cookie<'static> {
        let ttl = if guest {
            GUEST_TTL_SECS
        } else {
            ACCOUNT_TTL_SECS
        };
        Cookie::build(COOKIE, token.to_string())
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(secure)
            .max_age(CookieDuration::seconds(ttl as i64))
            .finish()
    }

    pub fn removal_cookie() -> Cookie<'static> {
        let mut cookie = Cookie::build(COOKIE, "").path("/").finish();
        cookie.make_removal();
        cookie
    }
}

/// The token a request carries, if any: the bearer header first, then the cookie.
pub fn token_of(req: &HttpRequest) -> Option<String> {
    bearer_of(req).or_else(|| req.cookie(COOKIE).map(|c| c.value().to_string()))
}

/// The bearer token of an `Authorization` header.
pub fn bearer_of(req: &HttpRequest) -> Option<String> {
    let value = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
}

pub fn unix_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A random id of `len` characters from an alphabet safe in URLs.
pub fn random_id(len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A friendly generated name for a guest ("Hedgehog 4821").
pub fn guest_name() -> String {
    const ANIMALS: &[&str] = &[
        "Hedgehog", "Fox", "Owl", "Hare", "Badger", "Lynx", "Otter", "Crane", "Beaver", "Marten",
        "Squirrel", "Heron", "Elk", "Wolf", "Bear", "Sparrow",
    ];
    let mut rng = rand::rng();
    let animal = ANIMALS[rng.random_range(0..ANIMALS.len())];
    format!("{animal} {}", rng.random_range(1000..10000))
}

/// Checks a new password: 8–128 characters.
pub fn parse_password(password: &str) -> Result<&str, WsError> {
    if (8..=128).contains(&password.chars().count()) {
        Ok(password)
    } else {
        Err(WsError::bad_request("a password has 8 to 128 characters"))
    }
}

/// Argon2id with the crate's recommended parameters. Slow on purpose: call it on a blocking
/// thread.
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    rand::rng().fill(&mut salt);
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a valid salt");
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 with default parameters cannot fail")
        .to_string()
}

pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|hash| {
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &hash)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Argon2 work in flight is bounded: each hash takes ~19 MiB and a core for tens of
/// milliseconds, so a flood of logins queues here (and past a point is refused) instead of
/// taking the server's memory and every core.
pub struct PasswordWork {
    slots: tokio::sync::Semaphore,
    waiting: std::sync::atomic::AtomicUsize,
    max_waiting: usize,
    /// Checked against when the username does not exist, so that the answer takes as long as
    /// for a wrong password and does not tell which usernames exist.
    decoy: String,
}

impl PasswordWork {
    pub fn new() -> PasswordWork {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        PasswordWork {
            slots: tokio::sync::Semaphore::new(cores.div_ceil(2).max(1)),
            waiting: std::sync::atomic::AtomicUsize::new(0),
            max_waiting: 32,
            decoy: hash_password("a password nobody has"),
        }
    }

    /// Runs `work` on the blocking pool when a slot is free; `busy` (503) when too many are
    /// already waiting.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, WsError> {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(WsError::new(
                ErrorCode::Busy,
                "too many password checks at once: try again in a moment",
            )
            .retry_after(1));
        }
        let slot = self.slots.acquire().await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let _slot = slot.map_err(|e| WsError::internal("password work stopped", e))?;
        actix_web::web::block(work)
            .await
            .map_err(|e| WsError::internal("password hashing failed", e))
    }

    /// Checks `password` against `stored`, or against the decoy when there is no account.
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<bool, WsError> {
        let real = stored.is_some();
        let hash = stored.unwrap_or_else(|| self.decoy.clone());
        let ok = self.run(move || verify_password(&password, &hash)).await?;
        Ok(ok && real)
    }

    pub async fn hash(&self, password: String) -> Result<String, WsError> {
        self.run(move || hash_password(&password)).await
    }
}

impl Default for PasswordWork {
    fn default() -> PasswordWork {
        PasswordWork::new()
    }
}

impl crate::startup::AppState {
    /// The identity a request carries: `Ok(None)` without a token, an error for a forged,
    /// expired or ended one.
    pub async fn identify(&self, req: &HttpRequest) -> Result<Option<UserView>, WsError> {
        Ok(self.identity(req).await?.map(|i| i.user))
    }

    pub async fn identity(
        &self,
        req: &HttpRequest,
    ) -> Result<Option<crate::sessions::Identity>, WsError> {
        match token_of(req) {
            Some(token) => self.sessions.authenticate(&token).await.map(Some),
            None => Ok(None),
        }
    }

    pub async fn require_identity(&self, req: &HttpRequest) -> Result<UserView, WsError> {
        self.identify(req).await?.ok_or_else(|| {
            WsError::unauthorized("no identity: visit /api/me first or send a bearer token")
        })
    }

    /// A new guest: an identity and its token, nothing written yet (see
    /// [`crate::sessions::Sessions::ensure_row`]). Limited per address.
    pub fn mint_guest(&self, req: &HttpRequest) -> Result<(UserView, String), WsError> {
        let address = self.security.client_ip(req);
        self.limits
            .check(crate::limits::Action::NewGuest, address, None)?;
        let user = UserView {
            id: random_id(12),
            name: guest_name(),
            guest: true,
        };
        let token = self.sessions.issue(&user, 0);
        Ok((user, token))
    }

    /// The caller's identity, or a new guest (with the token to hand back) when it has none or
    /// its browser cookie is stale; a bad bearer token is an error.
    pub async fn identify_or_mint_guest(
        &self,
        req: &HttpRequest,
    ) -> Result<(crate::sessions::Identity, Option<String>), WsError> {
        match self.identity(req).await {
            Ok(Some(identity)) => Ok((identity, None)),
            Err(e) if bearer_of(req).is_some() => Err(e),
            _ => {
                let (user, token) = self.mint_guest(req)?;
                let identity = crate::sessions::Identity { user, version: 0 };
                Ok((identity, Some(token)))
            }
        }
    }

    /// The cookie for `token`, `Secure` when this request came over TLS.
    pub fn cookie_for(&self, req: &HttpRequest, token: &str, guest: bool) -> Cookie<'static> {
        self.sessions
            .keys()
            .cookie(token, guest, self.security.is_https(req))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_forgeries_are_refused() {
        let keys = Keys::from_secret(b"one secret");
        let user = UserView {
            id: "u1".into(),
            name: "Fox 1234".into(),
            guest: true,
        };
        let token = keys.issue(&user, 3);
        assert_eq!(keys.verify(&token).unwrap(), (user, 3));
        let other = Keys::from_secret(b"another secret");
        assert_eq!(
            other.verify(&token).unwrap_err().code,
            ErrorCode::Unauthorized
        );
        assert!(keys.verify("not.a.token").is_err());
    }

    #[test]
    fn expired_tokens_are_refused() {
        let keys = Keys::from_secret(b"s");
        let claims = Claims {
            sub: "u".into(),
            name: "n".into(),
            guest: true,
            exp: unix_secs() - 10,
            ver: 0,
        };
        let token = jsonwebtoken::encode(&Header::default(), &claims, &keys.encoding).unwrap();
        assert_eq!(
            keys.verify(&token).unwrap_err().code,
            ErrorCode::Unauthorized
        );
    }

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
        assert!(!verify_password("correct horse", "garbage"));
    }

    #[test]
    fn passwords_are_checked() {
        assert!(parse_password("short").is_err());
        assert!(parse_password("long enough").is_ok());
    }
}
