//! Who is asking: guests and accounts, carried by a signed token (JWT).
//!
//! Browsers keep the token in an HttpOnly cookie; API and bot clients send it as a bearer
//! token. A first visit without a token gets a guest identity (a user row without a username)
//! so that everything a guest does is kept when the guest later registers.

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

    /// A token for `user`, valid for a year (guests) or thirty days (accounts).
    pub fn issue(&self, user: &UserView) -> String {
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
        };
        jsonwebtoken::encode(&Header::default(), &claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    pub fn verify(&self, token: &str) -> Result<UserView, WsError> {
        let mut validation = Validation::default();
        validation.leeway = 0;
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .map_err(|e| WsError::new(ErrorCode::Unauthorized, format!("bad token: {e}")))?;
        Ok(UserView {
            id: data.claims.sub,
            name: data.claims.name,
            guest: data.claims.guest,
        })
    }

    /// The cookie that carries `token` for a browser.
    pub fn cookie(&self, token: &str, guest: bool) -> Cookie<'static> {
        let ttl = if guest {
            GUEST_TTL_SECS
        } else {
            ACCOUNT_TTL_SECS
        };
        Cookie::build(COOKIE, token.to_string())
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
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

/// Checks a username for registration: 3–20 letters, digits, `_` or `-`.
pub fn parse_username(name: &str) -> Result<&str, WsError> {
    let valid = (3..=20).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if valid {
        Ok(name)
    } else {
        Err(WsError::bad_request(
            "a username has 3 to 20 letters, digits, '_' or '-'",
        ))
    }
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
        let token = keys.issue(&user);
        assert_eq!(keys.verify(&token).unwrap(), user);
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
    fn usernames_and_passwords_are_checked() {
        assert!(parse_username("ёжик_42").is_ok());
        assert!(parse_username("ab").is_err());
        assert!(parse_username("a b c").is_err());
        assert!(parse_password("short").is_err());
        assert!(parse_password("long enough").is_ok());
    }
}
