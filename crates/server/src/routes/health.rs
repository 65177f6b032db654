//! `/healthz`: whether the server can do its work.

use actix_web::{HttpResponse, web};

use crate::restoring::Phase;
use crate::state::AppState;

/// 200 when the server can do its work: every unfinished table is back and the database
/// accepts a write (checked at most every [`crate::health::PROBE_EVERY`]); 503 naming what is
/// missing otherwise — `"failed": "restoring"` while the tables are being restored after a
/// start.
pub(crate) async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    if !state.restore.is_done() {
        let status = match state.restore.phase() {
            Phase::Failed(_) => "unavailable",
            _ => "restoring",
        };
        return HttpResponse::ServiceUnavailable().json(serde_json::json!({
            "status": status,
            "failed": "restoring",
            "error": state.restore.describe(),
        }));
    }
    match state.health.check(&state.store).await {
        // The operator's view of White Rabbit's exact tables (`null` with `--rabbit-tables off`).
        Ok(()) => HttpResponse::Ok().json(serde_json::json!({
            "status": "ok",
            "rabbit_tables": state.solo.tables_status(),
        })),
        Err(failure) => HttpResponse::ServiceUnavailable().json(serde_json::json!({
            "status": "unavailable",
            "failed": failure.part,
            "error": failure.detail,
        })),
    }
}
