//! A player's notifications (routes): the list, newest first with the unread count, and
//! marking them read. The tables write them (`Hub::notify`), and open sockets get each one as
//! it comes.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::error::{ApiError, WsError};
use crate::identity::unix_ms;
use crate::startup::AppState;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/notifications", web::get().to(list))
        .route("/api/notifications/read", web::post().to(mark_read));
}

/// The most a list holds.
const LIST_MAX: u32 = 100;
/// The most ids one request may mark.
const IDS_MAX: usize = 500;

async fn list(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let (notifications, unread) = state.store.notifications_of(&user.id, LIST_MAX).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "unread": unread,
        "notifications": notifications,
    })))
}

#[derive(Deserialize)]
struct MarkRead {
    /// These notifications, or every one when absent.
    ids: Option<Vec<i64>>,
}

async fn mark_read(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<MarkRead>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    if body.ids.as_ref().is_some_and(|ids| ids.len() > IDS_MAX) {
        return Err(WsError::bad_request(format!(
            "at most {IDS_MAX} notifications at once"
        )));
    }
    let marked = state
        .store
        .mark_read(&user.id, body.ids.as_deref(), unix_ms())
        .await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "marked": marked })))
}
