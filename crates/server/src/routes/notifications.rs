//! A player's notifications (routes): the list, newest first with the unread count, and
//! marking them read. The tables write them (`Hub::notify`), and open sockets get each one as
//! it comes.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use crate::unix_time::unix_ms;
use crate::ws::protocol::NotificationView;

/// The most a list holds.
const LIST_MAX: u32 = 100;
/// The most ids one request may mark.
const IDS_MAX: usize = 500;

#[derive(Serialize, ToSchema)]
pub(crate) struct NotificationsView {
    unread: i64,
    /// Newest first: each with `id`, `kind`, `game_id`, `game`, `opponent`, `created_at` and
    /// `read`.
    #[schema(value_type = Vec<Object>)]
    notifications: Vec<NotificationView>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Marked {
    marked: u64,
}

/// The caller's notifications, newest first (at most 100), and how many are unread.
#[utoipa::path(
    get,
    path = "/api/notifications",
    tag = "notifications",
    responses(
        (status = 200, description = "The notifications", body = NotificationsView),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let (notifications, unread) = state.store.notifications_of(&user.id, LIST_MAX).await?;
    Ok(HttpResponse::Ok().json(NotificationsView {
        unread,
        notifications: notifications.iter().map(NotificationView::from).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
pub(crate) struct MarkRead {
    /// These notifications, or every one when absent.
    #[schema(max_items = 500)]
    ids: Option<Vec<i64>>,
}

/// Marks notifications read.
#[utoipa::path(
    post,
    path = "/api/notifications/read",
    tag = "notifications",
    request_body = MarkRead,
    responses(
        (status = 200, description = "How many were unread and now are read", body = Marked),
        (status = 400, description = "Too many ids", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn mark_read(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: MarkRead = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    if body.ids.as_ref().is_some_and(|ids| ids.len() > IDS_MAX) {
        return Err(ApiError::bad_request(format!(
            "at most {IDS_MAX} notifications at once"
        )));
    }
    let marked = state
        .store
        .mark_read(&user.id, body.ids.as_deref(), unix_ms())
        .await?;
    Ok(HttpResponse::Ok().json(Marked { marked }))
}
