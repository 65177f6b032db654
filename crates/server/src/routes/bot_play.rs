//! A bot plays over HTTP (docs/bot-api.md): a move, a chat line, resigning, aborting,
//! answering draw and takeback offers, claiming a game its opponent left. Each goes through
//! the same table call as the socket's order, so the engine checks every move and the store
//! keeps it before anyone is told.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::DONE;
use super::bot::bot_caller;
use crate::error::{ApiError, ErrorBody};
use crate::identity::Identity;
use crate::state::AppState;
use crate::table::Action;
use crate::ws::protocol::ClaimOutcome;
use crate::ws::protocol::TableId;

/// A yes or a no to an offer.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub(crate) struct Answer {
    /// The table's id.
    id: String,
    /// `yes` offers (or accepts the opponent's offer); `no` declines the opponent's offer.
    #[param(pattern = "^(yes|no)$")]
    answer: String,
}

impl Answer {
    fn yes(&self) -> Result<bool, ApiError> {
        match self.answer.as_str() {
            "yes" => Ok(true),
            "no" => Ok(false),
            _ => Err(ApiError::bad_request("answer yes or no")),
        }
    }
}

/// Carries out `action` at table `id` for the bot, as its socket would.
async fn act(state: &AppState, id: &str, identity: &Identity, action: Action) -> HttpResult {
    let handle = state.hub.table(&TableId::parse(id)?).await?;
    let conn = state.hub.next_conn_id();
    handle.act(conn, identity.user.clone(), action).await?;
    Ok(HttpResponse::Ok().json(DONE))
}

type HttpResult = Result<HttpResponse, ApiError>;

/// Plays a move, in the game's notation.
#[utoipa::path(
    post,
    path = "/api/bot/game/{id}/move/{move}",
    tag = "bot",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("move" = String, Path, description = "The move, in the game's notation (docs/spec)"),
    ),
    responses(
        (status = 200, description = "Played: the game stream tells the new state", body = super::Done),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Not a bot account, not seated, not its turn, or a token without the bot scope", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 409, description = "An illegal move, or a game not being played", body = ErrorBody),
        (status = 429, description = "Too many requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn play(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> HttpResult {
    let (identity, _) = bot_caller(&state, &req).await?;
    let (id, mv) = path.into_inner();
    act(&state, &id, &identity, Action::Move { mv, ply: None }).await
}

/// A line of chat.
#[derive(Deserialize, ToSchema)]
pub(crate) struct ChatLine {
    /// 1 to 500 characters once trimmed.
    // The pattern: a character that is not Unicode White_Space, what `str::trim` removes.
    #[schema(
        min_length = 1,
        max_length = 500,
        pattern = r"[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
    )]
    text: String,
}

/// Writes a line in the game's chat of its players.
#[utoipa::path(
    post,
    path = "/api/bot/game/{id}/chat",
    tag = "bot",
    params(("id" = String, Path, description = "The table's id")),
    request_body = ChatLine,
    responses(
        (status = 200, description = "Written", body = super::Done),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Not a bot account, a restricted one, or a token without the bot scope", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 429, description = "Too many lines, or requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn chat(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResult {
    let body: ChatLine = super::json_body(&req, &body)?;
    let (identity, _) = bot_caller(&state, &req).await?;
    if state.sessions.flagged(&identity.user.id).await? {
        return Err(ApiError::forbidden(
            "a moderator has restricted this account: it cannot chat",
        ));
    }
    // A table takes a line only from a subscriber: the bot follows it for the line's time.
    let id = TableId::parse(&id)?;
    let handle = state.hub.table(&id).await?;
    let conn = state.hub.next_conn_id();
    let muted = state.sessions.mute_list(&identity.user.id).await?;
    let (out, _frames, _overflow) = crate::outbox::Outbox::new(16, muted);
    handle
        .subscribe(conn, identity.user.clone(), out, None, None)
        .await?;
    let said = handle
        .act(
            conn,
            identity.user.clone(),
            Action::Chat { text: body.text },
        )
        .await;
    state.hub.unsubscribe(&id, conn).await;
    said?;
    Ok(HttpResponse::Ok().json(DONE))
}

/// One of the answers without a body: resign, abort, claim.
macro_rules! order {
    ($name:ident, $path:literal, $action:expr, $what:literal, $refused:literal) => {
        #[doc = $what]
        #[utoipa::path(
            post,
            path = $path,
            tag = "bot",
            params(("id" = String, Path, description = "The table's id")),
            responses(
                (status = 200, description = "Done", body = super::Done),
                (status = 401, description = "No identity", body = ErrorBody),
                (status = 403, description = "Not a bot account, not seated, or a token without the bot scope", body = ErrorBody),
                (status = 404, description = "No such table", body = ErrorBody),
                (status = 409, description = $refused, body = ErrorBody),
                (status = 429, description = "Too many requests of this token", body = ErrorBody),
            ),
        )]
        pub(crate) async fn $name(
            req: HttpRequest,
            state: web::Data<AppState>,
            id: web::Path<String>,
        ) -> HttpResult {
            let (identity, _) = bot_caller(&state, &req).await?;
            act(&state, &id, &identity, $action).await
        }
    };
}

order!(
    resign,
    "/api/bot/game/{id}/resign",
    Action::Resign,
    "Resigns the game.",
    "A game not being played"
);
order!(
    abort,
    "/api/bot/game/{id}/abort",
    Action::Abort,
    "Aborts a game before both sides have moved.",
    "Too late to abort, or a game not being played"
);
order!(
    claim,
    "/api/bot/game/{id}/claim",
    Action::Claim {
        outcome: ClaimOutcome::Win,
    },
    "Takes the win of a game whose opponent has been gone long enough.",
    "The opponent is here, or has not been gone long enough"
);

/// Offers a draw or accepts the opponent's (`yes`), or declines it (`no`).
#[utoipa::path(
    post,
    path = "/api/bot/game/{id}/draw/{answer}",
    tag = "bot",
    params(Answer),
    responses(
        (status = 200, description = "Done", body = super::Done),
        (status = 400, description = "An answer that is neither yes nor no", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Not a bot account, not seated, or a token without the bot scope", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 409, description = "No offer to decline, or a game not being played", body = ErrorBody),
        (status = 429, description = "Too many requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn draw(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<Answer>,
) -> HttpResult {
    let yes = path.yes()?;
    let (identity, _) = bot_caller(&state, &req).await?;
    // An offer made while the opponent's stands is an agreement.
    let action = if yes {
        Action::DrawOffer
    } else {
        Action::DrawDecline
    };
    act(&state, &path.id, &identity, action).await
}

/// Asks to take back the bot's last move or accepts the opponent's asking (`yes`), or
/// declines it (`no`). Casual games only.
#[utoipa::path(
    post,
    path = "/api/bot/game/{id}/takeback/{answer}",
    tag = "bot",
    params(Answer),
    responses(
        (status = 200, description = "Done", body = super::Done),
        (status = 400, description = "An answer that is neither yes nor no", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Not a bot account, not seated, or a token without the bot scope", body = ErrorBody),
        (status = 404, description = "No such table", body = ErrorBody),
        (status = 409, description = "A rated game, nothing to take back, or no asking to decline", body = ErrorBody),
        (status = 429, description = "Too many requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn takeback(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<Answer>,
) -> HttpResult {
    let yes = path.yes()?;
    let (identity, _) = bot_caller(&state, &req).await?;
    let action = if !yes {
        Action::TakebackDecline
    } else {
        // The opponent's asking stands: this yes accepts it; else it asks.
        let view = state
            .hub
            .table(&TableId::parse(&path.id)?)
            .await?
            .view(Some(identity.user.clone()), None)
            .await?;
        let asked = view.takeback_offer;
        if asked.is_some() && asked != view.you {
            Action::TakebackAccept
        } else {
            Action::TakebackOffer
        }
    };
    act(&state, &path.id, &identity, action).await
}
