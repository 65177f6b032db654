//! What players do about each other: mute someone's chat for themselves, and report a player
//! or one of their chat lines to the operators (`stolik moderate reports`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::error::{ApiError, WsError};
use crate::identity::unix_ms;
use crate::limits::Action;
use crate::startup::AppState;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/mutes", web::get().to(mutes))
        .route("/api/mutes/{user}", web::put().to(mute))
        .route("/api/mutes/{user}", web::delete().to(unmute))
        .route("/api/reports", web::post().to(report));
}

/// The longest reason a report may give.
const REASON_MAX_CHARS: usize = 500;

async fn mutes(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let mut muted = Vec::new();
    for id in state.store.mutes_of(&user.id).await? {
        let name = state.store.user(&id).await?.map(|u| u.display_name);
        muted.push(serde_json::json!({ "user": id, "name": name }));
    }
    Ok(HttpResponse::Ok().json(serde_json::json!({ "muted": muted })))
}

async fn mute(
    req: HttpRequest,
    state: web::Data<AppState>,
    other: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    if *other == user.id {
        return Err(WsError::bad_request("you cannot mute yourself"));
    }
    state.sessions.set_muted(&user, &other, true).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({"type": "ok"})))
}

async fn unmute(
    req: HttpRequest,
    state: web::Data<AppState>,
    other: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    state.sessions.set_muted(&user, &other, false).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({"type": "ok"})))
}

#[derive(Deserialize)]
struct NewReport {
    /// The player reported.
    user: String,
    /// One of their chat lines, if the report is about it.
    chat: Option<i64>,
    reason: String,
}

async fn report(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<NewReport>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let address = state.security.client_ip(&req);
    state
        .limits
        .check(Action::Report, address, Some(&user.id))?;
    let reason = body.reason.trim();
    if reason.is_empty() || reason.chars().count() > REASON_MAX_CHARS {
        return Err(WsError::bad_request(format!(
            "a report gives a reason of 1 to {REASON_MAX_CHARS} characters"
        )));
    }
    if body.user == user.id {
        return Err(WsError::bad_request("you cannot report yourself"));
    }
    if let Some(chat) = body.chat {
        let line = state.store.chat_line(chat).await?;
        if line.is_none_or(|l| l.user_id.as_deref() != Some(body.user.as_str())) {
            return Err(WsError::bad_request("that chat line is not that player's"));
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
            store::StoreError::NotFound => WsError::not_found("user"),
            other => other.into(),
        })?;
    Ok(HttpResponse::Created().json(serde_json::json!({ "id": id })))
}
