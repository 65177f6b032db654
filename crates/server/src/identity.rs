//! Who is asking: guests and accounts, carried by a signed token (JWT).
//!
//! Browsers keep the token in an HttpOnly cookie; API and bot clients send it as a bearer
//! token. A first visit without a token gets a guest identity (a user row without a username,
//! written once the guest first does something) so that everything a guest does is kept when
//! the guest later registers. Each token carries its user's token version, checked by
//! the `sessions` module.

use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use jsonwebtoken::{DecodingKey, EncodingKey, Header, Validation};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ErrorCode};
pub use crate::ws::protocol::UserView;
// Their old home: the table actor and the hub import them from here.
pub use crate::unix_time::{unix_ms, unix_secs};

pub const COOKIE: &str = "stolik";
const GUEST_TTL_SECS: u64 = 365 * 24 * 60 * 60;
const ACCOUNT_TTL_SECS: u64 = 30 * 24 * 60 * 60;

/// A stored user as the tables and the protocol show them.
pub fn user_view(row: store::User) -> UserView {
    UserView {
        guest: row.username.is_none(),
        id: row.id,
        name: row.display_name,
        bot: row.bot,
    }
}

/// A verified identity and the token version it was issued under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub user: UserView,
    pub version: i64,
    /// The personal API token the request came with (`None`: a session of the site).
    pub token: Option<TokenGrant>,
}

/// A personal API token's part in an identity: which token, and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenGrant {
    pub id: String,
    pub scopes: crate::api_tokens::Scopes,
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
    /// (whether its version is still current is the `sessions` module's question).
    pub fn verify(&self, token: &str) -> Result<(UserView, i64), ApiError> {
        let mut validation = Validation::default();
        validation.leeway = 0;
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .map_err(|e| ApiError::new(ErrorCode::Unauthorized, format!("bad token: {e}")))?;
        let user = UserView {
            id: data.claims.sub,
            name: data.claims.name,
            guest: data.claims.guest,
            // Not in the token: a bot account is known from its row (`Sessions::authenticate`).
            bot: false,
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
            bot: false,
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
}
