//! What players do about each other: mute someone's chat for themselves, and report a player
//! or one of their chat lines to the operators (`stolik moderate reports`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::limits::Action;
use crate::state::AppState;
use crate::unix_time::unix_ms;

/// The longest reason a report may give.
const REASON_MAX_CHARS: usize = 500;

#[derive(Serialize, ToSchema)]
pub(crate) struct MuteList {
    muted: Vec<Muted>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Muted {
    user: String,
    name: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct ReportCreated {
    id: i64,
}

/// Whom the caller has muted.
#[utoipa::path(
    get,
    path = "/api/mutes",
    tag = "moderation",
    responses(
        (status = 200, description = "The muted players", body = MuteList),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn mutes(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let mut muted = Vec::new();
    for id in state.store.mutes_of(&user.id).await? {
        let name = state.store.user(&id).await?.map(|u| u.display_name);
        muted.push(Muted { user: id, name });
    }
    Ok(HttpResponse::Ok().json(MuteList { muted }))
}

/// Hides a player's chat from the caller, at every table.
#[utoipa::path(
    put,
    path = "/api/mutes/{user}",
    tag = "moderation",
    params(("user" = String, Path, description = "The player to mute")),
    responses(
        (status = 200, description = "Muted", body = super::Done),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "The caller", body = ErrorBody),
        (status = 404, description = "No such player", body = ErrorBody),
    ),
)]
pub(crate) async fn mute(
    req: HttpRequest,
    state: web::Data<AppState>,
    other: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    if *other == user.id {
        return Err(ApiError::forbidden("you cannot mute yourself"));
    }
    state.sessions.set_muted(&user, &other, true).await?;
    Ok(HttpResponse::Ok().json(super::DONE))
}

/// Shows a player's chat to the caller again.
#[utoipa::path(
    delete,
    path = "/api/mutes/{user}",
    tag = "moderation",
    params(("user" = String, Path, description = "The player to unmute")),
    responses(
        (status = 200, description = "Unmuted", body = super::Done),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn unmute(
    req: HttpRequest,
    state: web::Data<AppState>,
    other: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    state.sessions.set_muted(&user, &other, false).await?;
    Ok(HttpResponse::Ok().json(super::DONE))
}

#[derive(Deserialize, ToSchema)]
pub(crate) struct NewReport {
    /// The player reported.
    user: String,
    /// One of their chat lines, if the report is about it.
    chat: Option<i64>,
    /// 1 to 500 characters, not only spaces.
    // The pattern: a character that `str::trim` keeps (see `players::SearchQuery`).
    #[schema(
        min_length = 1,
        max_length = 500,
        pattern = r"[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
    )]
    reason: String,
}

/// Reports a player, or one of their chat lines, to the operators.
#[utoipa::path(
    post,
    path = "/api/reports",
    tag = "moderation",
    request_body = NewReport,
    responses(
        (status = 201, description = "The report is filed", body = ReportCreated),
        (status = 400, description = "A body that is not JSON (`bad_json`), or no reason", body = ErrorBody),
        (status = 403, description = "A report about the caller", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 404, description = "No such player", body = ErrorBody),
    ),
)]
pub(crate) async fn report(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: NewReport = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    let address = state.security.client_ip(&req);
    state
        .limits
        .check(Action::Report, address, Some(&user.id))
        .await?;
    let reason = body.reason.trim();
    if reason.is_empty() || reason.chars().count() > REASON_MAX_CHARS {
        return Err(ApiError::bad_request(format!(
            "a report gives a reason of 1 to {REASON_MAX_CHARS} characters"
        )));
    }
    if body.user == user.id {
        return Err(ApiError::forbidden("you cannot report yourself"));
    }
    if let Some(chat) = body.chat {
        let line = state.store.chat_line(chat).await?;
        if line.is_none_or(|l| l.user_id.as_deref() != Some(body.user.as_str())) {
            return Err(ApiError::new(
                ErrorCode::NotFound,
                "no such chat line of that player",
            ));
        }
    }
    state.sessions.ensure_row(&user).await?;
    let id = state
        .store
        .add_report(&store::NewReport {
            reporter_id: user.id,
            reported_id: body.user.clone(),
            chat_id: body.chat,
            reason: reason.to_string(),
            created_at: unix_ms(),
        })
        .await
        .map_err(|e| match e {
            store::StoreError::NotFound => ApiError::not_found("user"),
            other => other.into(),
        })?;
    Ok(HttpResponse::Created().json(ReportCreated { id }))
}
