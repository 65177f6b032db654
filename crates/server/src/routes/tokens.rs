//! An account's personal API tokens (docs/bot-api.md): list, make (the secret is shown once)
//! and revoke. Only the owner, signed in on the site, manages them: a token cannot.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api_tokens::{self, PER_ACCOUNT, Scope, Scopes};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::identity::Identity;
use crate::state::AppState;
use crate::unix_time::unix_ms;

/// One token as its owner sees it (never its secret).
#[derive(Serialize, ToSchema)]
pub(crate) struct TokenView {
    id: String,
    name: String,
    /// Among `read`, `play`, `challenge` and `bot`.
    scopes: Vec<&'static str>,
    /// Unix ms.
    created_at: i64,
    /// Unix ms, to the minute; `null` before its first use.
    last_used_at: Option<i64>,
}

impl TokenView {
    fn of(token: store::ApiToken) -> TokenView {
        TokenView {
            scopes: Scopes::from_stored(&token.scopes)
                .iter()
                .map(|s| s.as_str())
                .collect(),
            id: token.id,
            name: token.name,
            created_at: token.created_at,
            last_used_at: token.last_used_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub(crate) struct TokenList {
    tokens: Vec<TokenView>,
    /// How many an account may have at once.
    limit: usize,
}

#[derive(Deserialize, ToSchema)]
pub(crate) struct NewToken {
    /// 1 to 40 characters, not only white space, no control characters; trimmed.
    // The pattern: no control character (`char::is_control`), and one character that
    // `str::trim` keeps.
    #[schema(
        min_length = 1,
        max_length = 40,
        pattern = r"^[^\x00-\x1f\x7f-\x9f]*[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^\x00-\x1f\x7f-\x9f]*$"
    )]
    name: String,
    /// What the token may do: at least one scope.
    #[schema(min_items = 1)]
    scopes: Vec<Scope>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct MadeToken {
    token: TokenView,
    /// The secret, shown this once: send it as `Authorization: Bearer SECRET`.
    secret: String,
}

/// The caller, signed in to an account (tokens are for accounts).
async fn owner(state: &AppState, req: &HttpRequest) -> Result<Identity, ApiError> {
    let identity = state
        .identity(req)
        .await?
        .ok_or_else(|| ApiError::unauthorized("no identity: log in to manage your API tokens"))?;
    if identity.user.guest {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "API tokens are for accounts: sign up to make one",
        ));
    }
    Ok(identity)
}

#[utoipa::path(
    get,
    path = "/api/me/tokens",
    tag = "accounts",
    responses(
        (status = 200, description = "The caller's API tokens, newest first", body = TokenList),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Asked with an API token", body = ErrorBody),
        (status = 409, description = "A guest has no tokens", body = ErrorBody),
    ),
)]
pub(crate) async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let identity = owner(&state, &req).await?;
    let tokens = state
        .store
        .api_tokens_of(&identity.user.id, identity.version)
        .await?;
    Ok(HttpResponse::Ok().json(TokenList {
        tokens: tokens.into_iter().map(TokenView::of).collect(),
        limit: PER_ACCOUNT,
    }))
}

/// Makes a token; the answer holds its secret, which is not shown again.
#[utoipa::path(
    post,
    path = "/api/me/tokens",
    tag = "accounts",
    request_body = NewToken,
    responses(
        (status = 201, description = "The token and its secret", body = MadeToken),
        (status = 400, description = "A bad name or scope", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Asked with an API token", body = ErrorBody),
        (status = 409, description = "A guest, or the account has its limit of tokens", body = ErrorBody),
    ),
)]
pub(crate) async fn make(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: NewToken = super::json_body(&req, &body)?;
    let identity = owner(&state, &req).await?;
    let name = api_tokens::parse_name(&body.name)?;
    let scopes = Scopes::of(&body.scopes);
    if scopes.is_empty() {
        return Err(ApiError::bad_request(
            "choose at least one scope: read, play, challenge or bot",
        ));
    }
    let held = state
        .store
        .api_tokens_of(&identity.user.id, identity.version)
        .await?;
    if held.len() >= PER_ACCOUNT {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            format!("an account has at most {PER_ACCOUNT} API tokens: revoke one first"),
        ));
    }
    let token = store::ApiToken {
        id: store::new_id(),
        user_id: identity.user.id.clone(),
        name,
        scopes: scopes.stored(),
        version: identity.version,
        created_at: unix_ms(),
        last_used_at: None,
    };
    let secret = api_tokens::new_secret();
    state
        .store
        .add_api_token(&store::NewApiToken {
            token: &token,
            hash: &api_tokens::hash(&secret),
        })
        .await?;
    Ok(HttpResponse::Created().json(MadeToken {
        token: TokenView::of(token),
        secret,
    }))
}

/// Revokes a token: refused from then on, and the sockets it opened close.
#[utoipa::path(
    delete,
    path = "/api/me/tokens/{id}",
    tag = "accounts",
    params(("id" = String, Path, description = "The token's id")),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Asked with an API token", body = ErrorBody),
        (status = 404, description = "The caller has no such token", body = ErrorBody),
        (status = 409, description = "A guest has no tokens", body = ErrorBody),
    ),
)]
pub(crate) async fn revoke(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let identity = owner(&state, &req).await?;
    state.sessions.revoke(&identity.user.id, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}
