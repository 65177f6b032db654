//! Personal API tokens: secrets an account makes for its own programs (an engine, a script),
//! each granting some [`Scope`]s. A token works on the HTTP API and the socket like a session
//! of its owner, within its scopes; it ends when revoked, and with every other session of its
//! owner at "log out everywhere" (or a password change: both bump the token version it was
//! made under). Only a SHA-256 hash of the secret is stored: the secret has 190 random bits,
//! so a slow password hash would add cost and no safety.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::error::ApiError;

/// Every personal token starts with this, so it is told apart from a session token at once
/// (and a leaked one is easy to search for).
pub const PREFIX: &str = "stk_";
/// Tokens an account may have at once.
pub const PER_ACCOUNT: usize = 20;
/// The longest name a token may have, in characters.
pub const NAME_MAX: usize = 40;

/// What a token may do.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Read: the catalogue, tables, game records, profiles, the owner's games and
    /// notifications (every `GET` of the API).
    Read,
    /// Play: open the socket and play at the owner's tables (moves, offers, chat).
    Play,
    /// Challenge: create tables (open challenges), challenge players, answer challenges and
    /// start games.
    Challenge,
    /// Bot: the Bot API, a bot account's streams and its play over HTTP (and making the
    /// account a bot).
    Bot,
}

impl Scope {
    pub const ALL: [Scope; 4] = [Scope::Read, Scope::Play, Scope::Challenge, Scope::Bot];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Play => "play",
            Scope::Challenge => "challenge",
            Scope::Bot => "bot",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// The scopes one token grants: a set, kept in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scopes(u8);

impl Scopes {
    fn bit(scope: Scope) -> u8 {
        1 << scope as u8
    }

    pub fn has(self, scope: Scope) -> bool {
        self.0 & Scopes::bit(scope) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Scope> {
        Scope::ALL.into_iter().filter(move |s| self.has(*s))
    }

    /// The set of `scopes`.
    pub fn of(scopes: &[Scope]) -> Scopes {
        Scopes(scopes.iter().fold(0, |bits, s| bits | Scopes::bit(*s)))
    }

    /// The stored form, `read,play`.
    pub fn stored(self) -> String {
        self.to_string()
    }

    /// The stored form read back; a name this build does not know grants nothing.
    pub fn from_stored(text: &str) -> Scopes {
        let mut scopes = Scopes::default();
        for scope in text.split(',').filter_map(Scope::parse) {
            scopes.0 |= Scopes::bit(scope);
        }
        scopes
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Scope::as_str).collect();
        f.write_str(&names.join(","))
    }
}

/// What a request needs of a personal token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Scope(Scope),
    /// Only the owner, signed in on the site: account settings, passwords, sessions, tokens,
    /// mutes and reports.
    Site,
}

/// What `method` on `path` needs of a personal token. Writes are refused unless listed here,
/// so an endpoint added later is closed to tokens until someone decides otherwise.
pub fn need(method: &str, path: &str) -> Need {
    let method = method.to_ascii_uppercase();
    if path == "/api/me/tokens" || path.starts_with("/api/me/tokens/") {
        return Need::Site;
    }
    if path.starts_with("/api/bot/") || path == "/api/stream/event" {
        return Need::Scope(Scope::Bot);
    }
    match (method.as_str(), path) {
        (_, "/ws") => Need::Scope(Scope::Play),
        ("GET" | "HEAD", _) => Need::Scope(Scope::Read),
        ("POST", "/api/tables" | "/api/daily") => Need::Scope(Scope::Challenge),
        ("POST", challenge) if challenge.starts_with("/api/challenge/") => {
            Need::Scope(Scope::Challenge)
        }
        _ => Need::Site,
    }
}

/// Whether a token with `scopes` may do what `need` says; the error says what it lacks.
pub fn allow(scopes: Scopes, need: Need) -> Result<(), ApiError> {
    match need {
        Need::Scope(scope) if scopes.has(scope) => Ok(()),
        Need::Scope(scope) => Err(lacking(scope)),
        Need::Site => Err(ApiError::forbidden(
            "an API token cannot change the account: do this on the site, signed in",
        )),
    }
}

/// The refusal of a request that needs `scope`, made with a token without it.
pub fn lacking(scope: Scope) -> ApiError {
    ApiError::forbidden(format!(
        "this API token lacks the {} scope: make a token with it on your profile",
        scope.as_str()
    ))
}

/// A new secret: the prefix and 32 characters from 62 symbols (about 190 bits).
pub fn new_secret() -> String {
    format!(
        "{PREFIX}{}{}",
        store::new_token(),
        &store::new_token()[..10]
    )
}

/// What is stored of a secret.
pub fn hash(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A token's name as given, trimmed: 1 to [`NAME_MAX`] characters, no control characters.
pub fn parse_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request("give the token a name"));
    }
    if name.chars().count() > NAME_MAX {
        return Err(ApiError::bad_request(format!(
            "a token's name is at most {NAME_MAX} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "a token's name cannot hold control characters",
        ));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_read_back_as_written_and_unknown_stored_names_grant_nothing() {
        let scopes = Scopes::of(&[Scope::Play, Scope::Read]);
        assert_eq!(scopes.stored(), "read,play");
        assert_eq!(Scopes::from_stored(&scopes.stored()), scopes);
        assert!(scopes.has(Scope::Read) && scopes.has(Scope::Play));
        assert!(!scopes.has(Scope::Challenge));
        assert_eq!(
            Scopes::from_stored("read,someday"),
            Scopes::of(&[Scope::Read])
        );
        assert!(Scopes::of(&[]).is_empty());
    }

    #[test]
    fn every_request_needs_the_scope_the_docs_name() {
        assert_eq!(need("get", "/ws"), Need::Scope(Scope::Play));
        assert_eq!(need("GET", "/api/records/abc"), Need::Scope(Scope::Read));
        assert_eq!(need("post", "/api/tables"), Need::Scope(Scope::Challenge));
        assert_eq!(need("post", "/api/daily"), Need::Scope(Scope::Challenge));
        assert_eq!(
            need("post", "/api/challenge/someone"),
            Need::Scope(Scope::Challenge)
        );
        assert_eq!(
            need("post", "/api/challenge/c1/accept"),
            Need::Scope(Scope::Challenge)
        );
        // The Bot API, its streams included, needs the bot scope, reading or writing.
        assert_eq!(need("get", "/api/stream/event"), Need::Scope(Scope::Bot));
        assert_eq!(
            need("get", "/api/bot/game/stream/t1"),
            Need::Scope(Scope::Bot)
        );
        assert_eq!(
            need("post", "/api/bot/game/t1/move/a1"),
            Need::Scope(Scope::Bot)
        );
        assert_eq!(
            need("post", "/api/bot/account/upgrade"),
            Need::Scope(Scope::Bot)
        );
        // The token list and every account change are the site's alone.
        assert_eq!(need("get", "/api/me/tokens"), Need::Site);
        assert_eq!(need("delete", "/api/me/tokens/x1"), Need::Site);
        assert_eq!(need("post", "/api/password"), Need::Site);
        assert_eq!(need("post", "/api/logout/everywhere"), Need::Site);
        assert_eq!(need("put", "/api/me/vacation"), Need::Site);
        // An endpoint nobody listed is closed to tokens.
        assert_eq!(need("post", "/api/some/new/thing"), Need::Site);
    }

    #[test]
    fn a_token_does_only_what_its_scopes_allow() {
        let read = Scopes::of(&[Scope::Read]);
        assert!(allow(read, need("get", "/api/me")).is_ok());
        let refused = allow(read, need("get", "/ws")).unwrap_err();
        assert!(
            refused.message.contains("play scope"),
            "{}",
            refused.message
        );
        let all = Scopes::of(&Scope::ALL);
        assert!(allow(all, need("post", "/api/password")).is_err());
    }

    #[test]
    fn secrets_are_long_prefixed_and_hashed_apart() {
        let a = new_secret();
        let b = new_secret();
        assert!(a.starts_with(PREFIX) && a.len() == PREFIX.len() + 32, "{a}");
        assert_ne!(a, b);
        assert_eq!(hash(&a), hash(&a));
        assert_ne!(hash(&a), hash(&b));
        assert_eq!(hash(&a).len(), 64);
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(parse_name("  my engine ").unwrap(), "my engine");
        assert!(parse_name("   ").is_err());
        assert!(parse_name(&"x".repeat(NAME_MAX + 1)).is_err());
        assert!(parse_name("a\u{7}b").is_err());
    }
}
