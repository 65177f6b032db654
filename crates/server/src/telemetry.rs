//! `/metrics`: what the server is doing, in the Prometheus text format.
//!
//! Every part records through the `metrics` facade (the store's writer included); this module
//! installs the one process-wide recorder and renders it. The figures are the node's own, so
//! the page is served on a listener of its own (`--metrics-bind`, by default
//! `127.0.0.1:9091`, Prometheus exporters' convention), never on the public port: whatever
//! headers a request carries, the public port does not know the path.

use std::sync::OnceLock;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::{App, HttpResponse, HttpServer, web};
use anyhow::Context;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// The public port knows no `/metrics`: a 404 there, rather than the web client's page.
pub fn not_on_the_public_port(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/metrics",
        web::to(|| async {
            Err::<HttpResponse, _>(crate::error::ApiError::new(
                crate::error::ErrorCode::NotFound,
                "not here: the metrics have a listener of their own",
            ))
        }),
    );
}

/// Serves `/metrics` (and nothing else) on `bind`: its port and the server, to run.
pub fn serve(bind: &str) -> anyhow::Result<(u16, Server)> {
    let listener = std::net::TcpListener::bind(bind)
        .with_context(|| format!("cannot listen for metrics on {bind}"))?;
    let port = listener.local_addr()?.port();
    let server = HttpServer::new(|| App::new().route("/metrics", web::get().to(metrics_page)))
        .workers(1)
        .listen(listener)?
        .disable_signals()
        .shutdown_timeout(1)
        .run();
    Ok((port, server))
}

/// Installs the recorder on first use; later calls (several servers in one test process)
/// share it.
pub fn install() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Suffix("_seconds".to_string()),
                &[
                    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                    1.0,
                ],
            )
            .and_then(|b| {
                b.set_buckets_for_metric(
                    Matcher::Full("stolik_commit_batch_moves".to_string()),
                    &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0],
                )
            })
            .expect("the bucket lists are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed: /metrics will be empty");
        }
        describe();
        let upkeep = handle.clone();
        // Histograms are kept as raw samples until folded into buckets; fold them regularly
        // even when nobody scrapes.
        std::thread::Builder::new()
            .name("stolik-metrics".to_string())
            .spawn(move || {
                loop {
                    std::thread::sleep(Duration::from_secs(5));
                    upkeep.run_upkeep();
                }
            })
            .expect("cannot start the metrics upkeep thread");
        handle
    })
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_gauge!("stolik_sockets_open", "WebSocket connections open");
    describe_gauge!(
        "stolik_tables_live",
        "tables running in memory on this node"
    );
    describe_counter!("stolik_moves_total", "moves accepted and committed");
    describe_histogram!("stolik_commit_batch_moves", "moves per group commit");
    describe_histogram!("stolik_commit_seconds", "time to write one batch of moves");
    describe_gauge!("stolik_writer_queue", "moves waiting for the writer");
    describe_counter!(
        "stolik_delivery_drops_total",
        "connections cut because they did not read their messages"
    );
    describe_gauge!(
        "stolik_cpu_pool_busy",
        "CPU pool threads busy, per priority (bot, hint, review, background)"
    );
    describe_gauge!(
        "stolik_cpu_pool_queued",
        "jobs waiting for the CPU pool, per priority (bot, hint, review, background)"
    );
    describe_gauge!("stolik_cpu_pool_threads", "threads of the CPU pool");
    describe_counter!(
        "stolik_lobby_updates_total",
        "lobby updates sent to watchers"
    );
    describe_counter!(
        "stolik_forwarded_calls_total",
        "calls sent to the node that runs their table (several nodes)"
    );
    describe_counter!(
        "stolik_tables_adopted_total",
        "tables taken over from a node that died or stopped (several nodes)"
    );
    describe_counter!("stolik_push_sent_total", "pushes a push service accepted");
    describe_counter!(
        "stolik_thinking_stopped_total",
        "analysis-board thinking stopped before its last stage, by reason"
    );
    describe_counter!(
        "stolik_push_failed_total",
        "pushes given up: refused for good, or failing every retry"
    );
    describe_counter!(
        "stolik_push_removed_total",
        "push subscriptions deleted because their push service no longer knows them"
    );
    describe_gauge!(
        "stolik_push_waiting",
        "pushes in the outbox after the sender's last round (the whole site's)"
    );
    describe_counter!(
        "stolik_leases_lost_total",
        "tables stopped here because their lease was lost (several nodes)"
    );
}

async fn metrics_page() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(install().render())
}
