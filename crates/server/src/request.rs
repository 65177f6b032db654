//! Who a request speaks for: the identity helpers that need the whole application state
//! (sessions, limits, the TLS setting), kept out of `identity` so that it stays below them.

use actix_web::HttpRequest;
use actix_web::cookie::Cookie;

use crate::api_tokens;
use crate::error::ApiError;
use crate::identity::{Identity, UserView, bearer_of, guest_name, random_id, token_of};
use crate::state::AppState;

impl AppState {
    /// The identity a request carries: `Ok(None)` without a token, an error for a forged,
    /// expired or ended one.
    pub async fn identify(&self, req: &HttpRequest) -> Result<Option<UserView>, ApiError> {
        Ok(self.identity(req).await?.map(|i| i.user))
    }

    pub async fn identity(&self, req: &HttpRequest) -> Result<Option<Identity>, ApiError> {
        match token_of(req) {
            Some(token) => {
                let identity = self.sessions.authenticate(&token).await?;
                if let Some(grant) = &identity.token {
                    let need = api_tokens::need(req.method().as_str(), req.path());
                    api_tokens::allow(grant.scopes, need)?;
                }
                Ok(Some(identity))
            }
            None => Ok(None),
        }
    }

    pub async fn require_identity(&self, req: &HttpRequest) -> Result<UserView, ApiError> {
        self.identify(req).await?.ok_or_else(|| {
            ApiError::unauthorized("no identity: visit /api/me first or send a bearer token")
        })
    }

    /// A new guest: an identity and its token, nothing written yet (see
    /// [`crate::sessions::Sessions::ensure_row`]). Limited per address.
    pub async fn mint_guest(&self, req: &HttpRequest) -> Result<(UserView, String), ApiError> {
        let address = self.security.client_ip(req);
        self.limits
            .check(crate::limits::Action::NewGuest, address, None)
            .await?;
        let user = UserView {
            id: random_id(12),
            name: guest_name(),
            guest: true,
            bot: false,
        };
        let token = self.sessions.issue(&user, 0);
        Ok((user, token))
    }

    /// The caller's identity, or a new guest (with the token to hand back) when it has none or
    /// its browser cookie is stale; a bad bearer token is an error.
    pub async fn identify_or_mint_guest(
        &self,
        req: &HttpRequest,
    ) -> Result<(Identity, Option<String>), ApiError> {
        match self.identity(req).await {
            Ok(Some(identity)) => Ok((identity, None)),
            Err(e) if bearer_of(req).is_some() => Err(e),
            _ => {
                let (user, token) = self.mint_guest(req).await?;
                let identity = Identity {
                    user,
                    version: 0,
                    token: None,
                };
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
