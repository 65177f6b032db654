//! The start-up restore of the unfinished tables, and the middleware that holds requests off
//! until it is over.
//!
//! The port opens before the tables are back, so that `/healthz` can say why the node is not
//! ready yet (503 `restoring`) instead of refusing connections. The API and the socket are
//! answered 503 `restoring` meanwhile: a request could otherwise load a table on demand while
//! the restore starts the same one, and two actors would run one game. The pages and their
//! files read no table, so they are served: the web client waits for the API by itself.

use std::sync::atomic::{AtomicBool, Ordering};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{ResponseError, web};
use tokio::sync::watch;

use crate::error::{ApiError, ErrorCode};

/// How far the restore has got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// `back` tables run again, of `of` (not known ahead on a site of several nodes, where
    /// a node takes over what nobody runs, a batch at a time).
    Restoring { back: usize, of: Option<usize> },
    /// Every table is back and its clock runs: requests are taken.
    Done,
    /// The database failed; the server is stopping.
    Failed(String),
}

/// The restore's progress, shared by the task that restores and whoever waits for it.
pub struct Restore {
    /// Whether the phase is [`Phase::Done`]: read by every request, so without a lock.
    done: AtomicBool,
    phase: watch::Sender<Phase>,
}

impl Default for Restore {
    fn default() -> Self {
        Restore::new()
    }
}

impl Restore {
    pub fn new() -> Restore {
        Restore {
            done: AtomicBool::new(false),
            phase: watch::Sender::new(Phase::Restoring { back: 0, of: None }),
        }
    }

    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    pub fn phase(&self) -> Phase {
        self.phase.borrow().clone()
    }

    pub fn progress(&self, back: usize, of: Option<usize>) {
        self.phase.send_replace(Phase::Restoring { back, of });
    }

    pub fn finish(&self) {
        self.done.store(true, Ordering::Release);
        self.phase.send_replace(Phase::Done);
    }

    pub fn fail(&self, error: String) {
        self.phase.send_replace(Phase::Failed(error));
    }

    /// Waits until the restore is over: `Err` with the database's error when it failed.
    pub async fn finished(&self) -> Result<(), String> {
        let mut phase = self.phase.subscribe();
        let over = phase
            .wait_for(|p| !matches!(p, Phase::Restoring { .. }))
            .await
            .expect("the sender lives as long as self");
        match &*over {
            Phase::Failed(error) => Err(error.clone()),
            _ => Ok(()),
        }
    }

    /// The progress in words: "12 of 40 tables back".
    pub fn describe(&self) -> String {
        match self.phase() {
            Phase::Restoring { back, of: Some(of) } => format!("{back} of {of} tables back"),
            Phase::Restoring { back, of: None } => format!("{back} tables back so far"),
            Phase::Done => "every table is back".to_string(),
            Phase::Failed(error) => format!("the tables could not be restored: {error}"),
        }
    }
}

/// Paths held off while restoring: the API and the socket, which reach tables. The probes
/// (`/healthz`, `/metrics`), the pages and their files do not.
fn held_while_restoring(path: &str) -> bool {
    path == "/ws" || path.starts_with("/api/")
}

/// The middleware: 503 `restoring` with `Retry-After: 1` until the restore is over.
pub async fn refuse_until_restored(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if let Some(restore) = req.app_data::<web::Data<Restore>>()
        && !restore.is_done()
        && held_while_restoring(req.path())
    {
        let error = ApiError::new(
            ErrorCode::Restoring,
            format!(
                "the server is starting ({}): try again in a moment",
                restore.describe()
            ),
        )
        .retry_after(1);
        return Ok(req.into_response(error.error_response()));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::{App, HttpResponse, middleware, test};

    #[actix_web::test]
    async fn requests_wait_for_the_restore_and_the_probes_do_not() {
        let restore = web::Data::new(Restore::new());
        let app = test::init_service(
            App::new()
                .app_data(restore.clone())
                .wrap(middleware::from_fn(refuse_until_restored))
                .route("/healthz", web::get().to(HttpResponse::Ok))
                .route("/metrics", web::get().to(HttpResponse::Ok))
                .route("/", web::get().to(HttpResponse::Ok))
                .route("/api/tables", web::get().to(HttpResponse::Ok))
                .route("/ws", web::get().to(HttpResponse::Ok)),
        )
        .await;
        let get = |path: &str| test::TestRequest::get().uri(path).to_request();

        restore.progress(3, Some(7));
        assert_eq!(test::call_service(&app, get("/ws")).await.status(), 503);
        let refused = test::call_service(&app, get("/api/tables")).await;
        assert_eq!(refused.status(), 503);
        assert_eq!(refused.headers().get("retry-after").unwrap(), "1");
        let body: serde_json::Value = test::read_body_json(refused).await;
        assert_eq!(body["code"], "restoring", "{body}");
        assert!(
            body["message"].as_str().unwrap().contains("3 of 7"),
            "{body}"
        );
        for probe in ["/healthz", "/metrics", "/"] {
            assert_eq!(test::call_service(&app, get(probe)).await.status(), 200);
        }

        restore.finish();
        assert_eq!(restore.finished().await, Ok(()));
        let served = test::call_service(&app, get("/api/tables")).await;
        assert_eq!(served.status(), 200);
    }

    #[actix_web::test]
    async fn a_failed_restore_is_told_to_whoever_waits() {
        let restore = std::sync::Arc::new(Restore::new());
        let waiter = tokio::spawn({
            let restore = restore.clone();
            async move { restore.finished().await }
        });
        restore.progress(1, None);
        restore.fail("the database is gone".to_string());
        assert_eq!(
            waiter.await.unwrap(),
            Err("the database is gone".to_string())
        );
        assert!(!restore.is_done());
    }
}
