//! Who the caller is, and accounts: registering, logging in and out, changing the password.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{Password, Username};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::identity::{Keys, UserView};
use crate::limits::Action;
use crate::state::AppState;

/// Who the caller is, and the token to keep when this answer hands out a new one (it is also
/// set as the identity cookie).
#[derive(Serialize, ToSchema)]
pub(crate) struct SessionView {
    user: UserView,
    token: Option<String>,
}

fn with_identity(
    state: &AppState,
    req: &HttpRequest,
    user: &UserView,
    token: Option<&str>,
) -> HttpResponse {
    let mut response = HttpResponse::Ok();
    if let Some(token) = token {
        response.cookie(state.cookie_for(req, token, user.guest));
    }
    response.json(SessionView {
        user: user.clone(),
        token: token.map(str::to_string),
    })
}

/// Who am I? A browser's first visit becomes a guest here (and gets its cookie); nothing is
/// written until the guest does something.
#[utoipa::path(
    get,
    path = "/api/me",
    tag = "accounts",
    responses(
        (status = 200, description = "The caller; `token` is set when a new guest was made", body = SessionView),
        (status = 401, description = "A bad bearer token", body = ErrorBody),
    ),
)]
pub(crate) async fn me(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (identity, fresh) = state.identify_or_mint_guest(&req).await?;
    Ok(with_identity(
        &state,
        &req,
        &identity.user,
        fresh.as_deref(),
    ))
}

#[derive(Deserialize, ToSchema)]
pub(crate) struct Credentials {
    /// 3 to 20 letters, digits, `_` or `-`, of one script.
    #[schema(min_length = 3, max_length = 20, pattern = r"^[\w-]+$")]
    username: String,
    #[schema(min_length = 8, max_length = 128)]
    password: String,
}

/// Turns the caller (a guest, or a new visitor) into an account; a guest keeps its games. The
/// guest's token stops working: the answer carries the account's.
#[utoipa::path(
    post,
    path = "/api/register",
    tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 200, description = "The new account and its token", body = SessionView),
        (status = 400, description = "A username or password that may not be registered", body = ErrorBody),
        (status = 409, description = "The name is taken, or the caller already has an account", body = ErrorBody),
    ),
)]
pub(crate) async fn register(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: Credentials = super::json_body(&req, &body)?;
    let address = state.security.client_ip(&req);
    state.limits.check(Action::Register, address, None).await?;
    let username = Username::parse(&body.username)?;
    let password = Password::parse(&body.password)?;
    let user = match state.identify(&req).await? {
        Some(user) if !user.guest => {
            return Err(ApiError::new(
                ErrorCode::WrongState,
                "you already have an account",
            ));
        }
        Some(user) => user,
        None => state.mint_guest(&req).await?.0,
    };
    state.sessions.ensure_row(&user).await?;
    let hash = state.passwords.hash(password.into_string()).await?;
    let version = state
        .store
        .register(
            &user.id,
            &store::Registration {
                username: username.name(),
                skeleton: username.skeleton(),
                password_hash: &hash,
            },
        )
        .await
        .map_err(|e| match e {
            store::StoreError::NameTaken => {
                ApiError::new(ErrorCode::NameTaken, "that username is taken")
            }
            store::StoreError::Conflict => {
                ApiError::new(ErrorCode::WrongState, "this guest is already registered")
            }
            other => other.into(),
        })?;
    state.sessions.version_changed(&user.id, version);
    // From now on the player is known by the chosen name, in old games too.
    state
        .store
        .set_display_name(&user.id, username.name())
        .await?;
    let account = UserView {
        id: user.id,
        name: username.into_name(),
        guest: false,
        bot: false,
    };
    Ok(fresh_session(&state, &req, &account, version))
}

#[utoipa::path(
    post,
    path = "/api/login",
    tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 200, description = "The account and a token for it", body = SessionView),
        (status = 401, description = "Wrong username or password", body = ErrorBody),
        (status = 429, description = "Too many failed attempts: `Retry-After` says how long to wait", body = ErrorBody),
    ),
)]
pub(crate) async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: Credentials = super::json_body(&req, &body)?;
    let wrong = || ApiError::unauthorized("wrong username or password");
    let typed = crate::names::login_form(&body.username);
    let address = state.security.client_ip(&req);
    // Attempts and failures count per account *and* address together: guesses from
    // elsewhere never make the owner wait at a clean address. Each address is also limited
    // over all accounts (`check`), and the argon2 work in flight is bounded (`passwords`).
    let account_key = format!("{} {address}", typed.to_lowercase());
    state
        .limits
        .check(Action::Login, address, Some(&account_key))
        .await?;
    state.limits.login_allowed(&account_key).await?;
    let user = state.store.user_by_username(&typed).await?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    // An unknown name costs the same argon2 check as a wrong password: the time of the
    // answer does not tell which names exist.
    let ok = state
        .passwords
        .verify(body.password.clone(), stored)
        .await?;
    let Some(user) = user.filter(|_| ok) else {
        state.limits.login_failed(&account_key).await;
        return Err(wrong());
    };
    state.limits.login_succeeded(&account_key).await;
    let account = UserView {
        id: user.id,
        name: user.username.unwrap_or(user.display_name),
        guest: false,
        bot: user.bot,
    };
    Ok(fresh_session(&state, &req, &account, user.token_version))
}

/// Forgets this browser's identity (its cookie). Other devices stay logged in: see
/// [`logout_everywhere`].
#[utoipa::path(
    post,
    path = "/api/logout",
    tag = "accounts",
    responses((status = 200, description = "The identity cookie is removed", body = super::Done)),
)]
pub(crate) async fn logout() -> HttpResponse {
    HttpResponse::Ok()
        .cookie(Keys::removal_cookie())
        .json(super::DONE)
}

/// Ends every session of the account, on every device, and closes their sockets; the caller
/// gets a fresh token for this one.
#[utoipa::path(
    post,
    path = "/api/logout/everywhere",
    tag = "accounts",
    responses(
        (status = 200, description = "A fresh token for this session", body = SessionView),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 409, description = "A guest has only this session", body = ErrorBody),
    ),
)]
pub(crate) async fn logout_everywhere(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    if user.guest {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "a guest has only this session: log out instead",
        ));
    }
    let version = state.sessions.end_all(&user.id).await?;
    Ok(fresh_session(&state, &req, &user, version))
}

/// The answer that hands the caller a token of the account's new version (and its cookie).
fn fresh_session(
    state: &AppState,
    req: &HttpRequest,
    user: &UserView,
    version: i64,
) -> HttpResponse {
    let token = state.sessions.issue(user, version);
    with_identity(state, req, user, Some(&token))
}

#[derive(Deserialize, ToSchema)]
pub(crate) struct PasswordChange {
    #[schema(min_length = 8, max_length = 128)]
    old: String,
    #[schema(min_length = 8, max_length = 128)]
    new: String,
}

/// Changes the password: every other session of the account ends; the caller gets a fresh
/// token.
#[utoipa::path(
    post,
    path = "/api/password",
    tag = "accounts",
    request_body = PasswordChange,
    responses(
        (status = 200, description = "A fresh token for this session", body = SessionView),
        (status = 400, description = "The new password is too short or too long", body = ErrorBody),
        (status = 401, description = "No identity, or the old password is wrong", body = ErrorBody),
        (status = 409, description = "Guests have no password", body = ErrorBody),
    ),
)]
pub(crate) async fn change_password(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: PasswordChange = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    let new = Password::parse(&body.new)?;
    let record = state
        .store
        .user(&user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    let stored = record
        .password_hash
        .ok_or_else(|| ApiError::new(ErrorCode::WrongState, "guests have no password"))?;
    if !state
        .passwords
        .verify(body.old.clone(), Some(stored))
        .await?
    {
        return Err(ApiError::unauthorized("wrong password"));
    }
    let hash = state.passwords.hash(new.into_string()).await?;
    let version = state.store.set_password(&user.id, &hash).await?;
    state.sessions.version_changed(&user.id, version);
    Ok(fresh_session(&state, &req, &user, version))
}
