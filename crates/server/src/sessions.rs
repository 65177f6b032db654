//! Sessions that can be ended: every token carries its user's token version, checked on each
//! request and socket against the database (through a short-lived cache), and bumping the
//! version — a password change, "log out everywhere", a guest becoming an account — refuses
//! every older token at once and closes their open sockets.
//!
//! Guests are written to the database lazily ([`Sessions::ensure_row`]): a page view hands out
//! a signed guest token and writes nothing; the row comes when the guest first sits, chats or
//! creates a table.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::api_tokens;
use crate::error::ApiError;
use crate::identity::{Identity, Keys, TokenGrant, UserView};
use crate::unix_time::unix_ms;

/// How long what the database said about a user is trusted without asking again. Changes
/// made on this node apply at once; this bounds how long another node's change takes.
const CACHE_TTL: Duration = Duration::from_secs(10);
/// Past this many cached users the cache starts afresh, so memory stays bounded.
const CACHE_MAX: usize = 100_000;
/// How often a personal API token's last use is written.
const TOKEN_USE_EVERY: Duration = Duration::from_secs(60);

/// What the database says about one user, as far as sessions care.
#[derive(Debug, Clone, Copy)]
struct Known {
    /// `None`: no row (a guest that has not done anything yet).
    version: Option<i64>,
    /// A bot account (tokens do not say: an account may become one after its token was
    /// issued).
    bot: bool,
    at: Instant,
}

pub struct Sessions {
    keys: Keys,
    store: store::Store,
    known: Mutex<HashMap<String, Known>>,
    /// The current token version of every user with open sockets; the sockets watch it.
    sockets: Mutex<HashMap<String, watch::Sender<i64>>>,
    /// Personal API tokens with open sockets here: each becomes true when revoked.
    revoked: Mutex<HashMap<String, watch::Sender<bool>>>,
    /// When each personal API token's use was last written.
    token_use: Mutex<HashMap<String, Instant>>,
    /// The mute lists of users with open sockets, shared by all their sockets.
    mutes: Mutex<HashMap<String, Weak<RwLock<HashSet<String>>>>>,
}

/// The ids whose chat a user does not want to see, shared by that user's open sockets (the
/// tables read it when they deliver a chat line).
#[derive(Clone, Default)]
pub struct MuteList(Arc<RwLock<HashSet<String>>>);

impl MuteList {
    pub fn hides(&self, author: Option<&str>) -> bool {
        author.is_some_and(|a| self.0.read().expect("mute list").contains(a))
    }

    pub fn is_empty(&self) -> bool {
        self.0.read().expect("mute list").is_empty()
    }

    /// The muted ids now (what a connection's node tells the node running its table).
    pub fn ids(&self) -> Vec<String> {
        self.0.read().expect("mute list").iter().cloned().collect()
    }

    /// A list that does not follow later changes: a copy of `ids`, kept by the node that
    /// runs a table for a connection of another node.
    pub fn fixed(ids: Vec<String>) -> MuteList {
        MuteList(Arc::new(RwLock::new(ids.into_iter().collect())))
    }
}

impl Sessions {
    pub fn new(keys: Keys, store: store::Store) -> Sessions {
        Sessions {
            keys,
            store,
            known: Mutex::new(HashMap::new()),
            sockets: Mutex::new(HashMap::new()),
            revoked: Mutex::new(HashMap::new()),
            token_use: Mutex::new(HashMap::new()),
            mutes: Mutex::new(HashMap::new()),
        }
    }

    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// A token for `user` under `version`.
    pub fn issue(&self, user: &UserView, version: i64) -> String {
        self.keys.issue(user, version)
    }

    /// Checks a token's signature, expiry and version. A guest token is good without a row
    /// (the guest has not done anything yet) as long as it is of version 0; an account's
    /// needs its row, with the same version.
    pub async fn authenticate(&self, token: &str) -> Result<Identity, ApiError> {
        if token.starts_with(api_tokens::PREFIX) {
            return self.authenticate_personal(token).await;
        }
        let (user, version) = self.keys.verify(token)?;
        let known = self.known(&user.id).await?;
        match known.version {
            Some(current) if current == version => Ok(Identity {
                user: UserView {
                    bot: known.bot,
                    ..user
                },
                version,
                token: None,
            }),
            Some(_) => Err(ApiError::unauthorized(
                "this session has ended (password changed, logged out everywhere, or \
                 registered): log in again",
            )),
            None if user.guest && version == 0 => Ok(Identity {
                user,
                version,
                token: None,
            }),
            None => Err(ApiError::unauthorized("this account no longer exists")),
        }
    }

    /// Checks a personal API token: known, not revoked, and made under its owner's current
    /// token version. Read from the database each time, so a revocation holds at once on
    /// every node.
    async fn authenticate_personal(&self, secret: &str) -> Result<Identity, ApiError> {
        let owner = self
            .store
            .api_token_by_hash(&api_tokens::hash(secret))
            .await?
            .ok_or_else(|| ApiError::unauthorized("unknown or revoked API token"))?;
        if owner.current_version != owner.token.version {
            return Err(ApiError::unauthorized(
                "this API token ended when its owner logged out everywhere or changed the \
                 password: make a new one",
            ));
        }
        self.note_use(&owner.token.id).await;
        Ok(Identity {
            user: UserView {
                id: owner.token.user_id,
                name: owner.display_name,
                guest: false,
                bot: owner.bot,
            },
            version: owner.current_version,
            token: Some(TokenGrant {
                scopes: api_tokens::Scopes::from_stored(&owner.token.scopes),
                id: owner.token.id,
            }),
        })
    }

    /// Records a token's use, at most once a minute per token (the list shows it to the
    /// minute; a write per request would be waste). A failure is only logged.
    async fn note_use(&self, token_id: &str) {
        let now = Instant::now();
        {
            let mut used = self.token_use.lock().expect("token use");
            if used
                .get(token_id)
                .is_some_and(|at| now.duration_since(*at) < TOKEN_USE_EVERY)
            {
                return;
            }
            if used.len() >= CACHE_MAX {
                used.clear();
            }
            used.insert(token_id.to_string(), now);
        }
        if let Err(e) = self.store.touch_api_token(token_id, unix_ms()).await {
            tracing::warn!(%e, "could not record an API token's use");
        }
    }

    /// Revokes `user_id`'s token `token_id`: refused from now on, on every node, and the
    /// sockets it opened here close.
    pub async fn revoke(&self, user_id: &str, token_id: &str) -> Result<(), ApiError> {
        self.store
            .revoke_api_token(user_id, token_id)
            .await
            .map_err(|e| match e {
                store::StoreError::NotFound => ApiError::not_found("API token"),
                other => other.into(),
            })?;
        if let Some(sender) = self.revoked.lock().expect("revocations").get(token_id) {
            sender.send_replace(true);
        }
        Ok(())
    }

    /// Whether an operator has flagged the user (no chat, no public tables). Read from the
    /// database each time, not the cache: it is asked only before a chat line or a new public
    /// table, and an operator's flag then holds at once, on every node.
    pub async fn flagged(&self, user_id: &str) -> Result<bool, ApiError> {
        let row = self.store.user(user_id).await?;
        Ok(row.is_some_and(|u| u.flagged_at.is_some()))
    }

    async fn known(&self, user_id: &str) -> Result<Known, ApiError> {
        if let Some(known) = self.cached(user_id) {
            return Ok(known);
        }
        let row = self.store.user(user_id).await?;
        let known = Known {
            version: row.as_ref().map(|u| u.token_version),
            bot: row.as_ref().is_some_and(|u| u.bot),
            at: Instant::now(),
        };
        self.remember(user_id, known);
        Ok(known)
    }

    fn cached(&self, user_id: &str) -> Option<Known> {
        let known = self.known.lock().expect("sessions cache");
        known
            .get(user_id)
            .filter(|k| k.at.elapsed() < CACHE_TTL)
            .copied()
    }

    fn remember(&self, user_id: &str, known: Known) {
        let mut cache = self.known.lock().expect("sessions cache");
        if cache.len() >= CACHE_MAX {
            cache.clear();
        }
        cache.insert(user_id.to_string(), known);
    }

    /// Forgets what is cached of a user, so the next request asks the database.
    pub fn forget(&self, user_id: &str) {
        self.known.lock().expect("sessions cache").remove(user_id);
    }

    /// Writes the guest's row if it has none yet: call before anything that stores the
    /// user's id (a seat, a chat line, a table it hosts).
    pub async fn ensure_row(&self, user: &UserView) -> Result<(), ApiError> {
        if self.cached(&user.id).is_some_and(|k| k.version.is_some()) {
            return Ok(());
        }
        self.store
            .ensure_user(&user.id, &user.name, unix_ms())
            .await?;
        self.forget(&user.id);
        Ok(())
    }

    /// The user's token version is now `version` (after the database was changed): older
    /// tokens are refused from now on and their open sockets close.
    pub fn version_changed(&self, user_id: &str, version: i64) {
        self.forget(user_id);
        if let Some(sender) = self.sockets.lock().expect("socket versions").get(user_id) {
            sender.send_replace(version);
        }
    }

    /// Ends every session of a user but the one the caller is given back: bumps the version
    /// and returns it.
    pub async fn end_all(&self, user_id: &str) -> Result<i64, ApiError> {
        let version = self.store.bump_token_version(user_id).await?;
        self.version_changed(user_id, version);
        // Its API tokens no longer work (their version is older): they go from the list too.
        self.store.drop_ended_api_tokens(user_id, version).await?;
        Ok(version)
    }

    /// What an open socket of `identity` watches: it changes when the user's sessions end.
    pub fn watch(&self, identity: &Identity) -> SessionWatch {
        let mut sockets = self.sockets.lock().expect("socket versions");
        let sender = sockets
            .entry(identity.user.id.clone())
            .or_insert_with(|| watch::Sender::new(identity.version));
        let receiver = sender.subscribe();
        drop(sockets);
        let revoked = identity.token.as_ref().map(|grant| {
            self.revoked
                .lock()
                .expect("revocations")
                .entry(grant.id.clone())
                .or_insert_with(|| watch::Sender::new(false))
                .subscribe()
        });
        SessionWatch {
            receiver,
            version: identity.version,
            revoked,
        }
    }

    /// The user's mute list, shared with their other open sockets (read from the database by
    /// the first one).
    pub async fn mute_list(&self, user_id: &str) -> Result<MuteList, ApiError> {
        if let Some(list) = self.live_mutes(user_id) {
            return Ok(list);
        }
        let ids: HashSet<String> = self.store.mutes_of(user_id).await?.into_iter().collect();
        let mut mutes = self.mutes.lock().expect("mute lists");
        // Another socket may have loaded it meanwhile: share that one.
        if let Some(list) = mutes.get(user_id).and_then(Weak::upgrade) {
            return Ok(MuteList(list));
        }
        mutes.retain(|_, weak| weak.strong_count() > 0);
        let list = Arc::new(RwLock::new(ids));
        mutes.insert(user_id.to_string(), Arc::downgrade(&list));
        Ok(MuteList(list))
    }

    fn live_mutes(&self, user_id: &str) -> Option<MuteList> {
        let mutes = self.mutes.lock().expect("mute lists");
        mutes.get(user_id).and_then(Weak::upgrade).map(MuteList)
    }

    /// Mutes or unmutes `other` for `user` in the database and on the user's open sockets.
    pub async fn set_muted(
        &self,
        user: &UserView,
        other: &str,
        muted: bool,
    ) -> Result<(), ApiError> {
        if muted {
            self.ensure_row(user).await?;
            self.store
                .mute(&user.id, other, unix_ms())
                .await
                .map_err(|e| match e {
                    store::StoreError::NotFound => ApiError::not_found("user"),
                    other => other.into(),
                })?;
        } else {
            self.store.unmute(&user.id, other).await?;
        }
        if let Some(list) = self.live_mutes(&user.id) {
            let mut ids = list.0.write().expect("mute list");
            if muted {
                ids.insert(other.to_string());
            } else {
                ids.remove(other);
            }
        }
        Ok(())
    }

    /// Drops the version channel of a user whose last socket closed.
    pub fn unwatch(&self, user_id: &str) {
        let mut sockets = self.sockets.lock().expect("socket versions");
        if sockets
            .get(user_id)
            .is_some_and(|s| s.receiver_count() == 0)
        {
            sockets.remove(user_id);
        }
        drop(sockets);
        let mut revoked = self.revoked.lock().expect("revocations");
        revoked.retain(|_, sender| sender.receiver_count() > 0);
    }
}

/// An open socket's view of its session.
pub struct SessionWatch {
    receiver: watch::Receiver<i64>,
    version: i64,
    /// For a socket opened with a personal API token: becomes true when it is revoked.
    revoked: Option<watch::Receiver<bool>>,
}

impl SessionWatch {
    /// Resolves when the socket's session has ended (its version is no longer current).
    pub async fn ended(&mut self) {
        let version = self.version;
        let receiver = &mut self.receiver;
        let ended = async move {
            if receiver
                .wait_for(|current| *current != version)
                .await
                .is_err()
            {
                std::future::pending::<()>().await;
            }
        };
        let revoked = async {
            let told = match self.revoked.as_mut() {
                Some(revoked) => revoked.wait_for(|r| *r).await.is_ok(),
                None => false,
            };
            if !told {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            () = ended => {}
            () = revoked => {}
        }
    }
}
