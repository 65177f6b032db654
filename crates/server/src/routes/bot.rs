//! The Bot API's account and streams (docs/bot-api.md): making an account a bot, the
//! account's event stream and a game's stream. The streams themselves are in
//! `bot_streams/`; playing over HTTP is in `bot_play.rs`.

use actix_web::{HttpRequest, HttpResponse, web};

use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::identity::{Identity, token_of};
use crate::limits::Action;
use crate::state::AppState;
use crate::ws::protocol::UserView;

/// The caller, with the token it came with (a stream checks it again as it runs).
pub(crate) async fn caller(
    state: &AppState,
    req: &HttpRequest,
) -> Result<(Identity, String), ApiError> {
    let identity = state.identity(req).await?.ok_or_else(|| {
        ApiError::unauthorized("no identity: send your API token as a bearer token")
    })?;
    let token = token_of(req).expect("an identity comes with its token");
    Ok((identity, token))
}

/// One more Bot API request of the caller's token (or session), against its limit.
pub(crate) async fn count_request(
    state: &AppState,
    req: &HttpRequest,
    identity: &Identity,
) -> Result<(), ApiError> {
    let key = match &identity.token {
        Some(grant) => format!("token:{}", grant.id),
        None => format!("session:{}", identity.user.id),
    };
    let address = state.security.client_ip(req);
    state
        .limits
        .check(Action::BotRequest, address, Some(&key))
        .await
}

/// The caller, who must be a bot account: the game endpoints are for bots.
pub(crate) async fn bot_caller(
    state: &AppState,
    req: &HttpRequest,
) -> Result<(Identity, String), ApiError> {
    let (identity, token) = caller(state, req).await?;
    if !identity.user.bot {
        return Err(ApiError::forbidden(
            "this endpoint is for bot accounts: upgrade an account that has no games first",
        ));
    }
    count_request(state, req, &identity).await?;
    Ok((identity, token))
}

/// Makes the caller's account a bot account, for good. Only an account that has never
/// played may: a bot's games and ratings are a bot's from the first.
#[utoipa::path(
    post,
    path = "/api/bot/account/upgrade",
    tag = "bot",
    responses(
        (status = 200, description = "The account, now a bot", body = UserView),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A token without the bot scope", body = ErrorBody),
        (status = 409, description = "A guest, an account that has played, or a bot already", body = ErrorBody),
    ),
)]
pub(crate) async fn upgrade(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (identity, _) = caller(&state, &req).await?;
    let user = identity.user;
    if user.guest {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "a guest cannot become a bot: sign up for an account first",
        ));
    }
    state.store.make_bot(&user.id).await.map_err(|e| match e {
        store::StoreError::Conflict | store::StoreError::NotFound => ApiError::new(
            ErrorCode::WrongState,
            "only an account that has never played can become a bot (and only once)",
        ),
        other => other.into(),
    })?;
    // Its sessions and tokens are read again: from now on they speak for a bot.
    state.sessions.forget(&user.id);
    Ok(HttpResponse::Ok().json(UserView { bot: true, ..user }))
}

/// The account's events, as NDJSON: games starting and finishing, challenges sent,
/// received, cancelled and declined; an empty line every few seconds keeps it open.
#[utoipa::path(
    get,
    path = "/api/stream/event",
    tag = "bot",
    responses(
        (status = 200, description = "An NDJSON stream (`application/x-ndjson`) of `gameStart`, `gameFinish`, `challenge`, `challengeCanceled` and `challengeDeclined` lines (docs/bot-api.md)", content_type = "application/x-ndjson", body = String),
        (status = 401, description = "No identity, or an ended token", body = ErrorBody),
        (status = 403, description = "A token without the bot scope", body = ErrorBody),
        (status = 429, description = "Too many requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn event_stream(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (identity, token) = caller(&state, &req).await?;
    count_request(&state, &req, &identity).await?;
    crate::bot_streams::event_stream(state.into_inner(), identity, token).await
}

/// One game of the bot's, as NDJSON: `gameFull` first, then `gameState` on every change and
/// `chatLine` for each line of chat; it ends with the game.
#[utoipa::path(
    get,
    path = "/api/bot/game/stream/{id}",
    tag = "bot",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 200, description = "An NDJSON stream (`application/x-ndjson`) of `gameFull`, `gameState` and `chatLine` lines (docs/bot-api.md)", content_type = "application/x-ndjson", body = String),
        (status = 401, description = "No identity, or an ended token", body = ErrorBody),
        (status = 403, description = "Not a bot account, not a player of this game, or a token without the bot scope", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 429, description = "Too many requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn game_stream(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (identity, token) = bot_caller(&state, &req).await?;
    crate::bot_streams::game_stream(state.into_inner(), identity, token, &id).await
}
