//! A push retried after a push service's passing trouble, end to end at the stand-in push
//! service of `push.rs`: the first deliveries are answered 503, the sender waits its backoff
//! (doubled each time; shortened here through the server's configuration) and tries again,
//! and the push arrives once.

use std::time::Duration;

use crate::helpers::{Db, TestApp};
use crate::push::{correspondence, metric, move_once, push_service, subscribe, until_outbox_empty};

/// The wait after a first failure here (30 s on a site).
const FIRST_RETRY: Duration = Duration::from_millis(700);

#[actix_web::test]
async fn a_push_the_service_refused_for_now_is_tried_again_after_the_backoff_and_arrives_once() {
    let app = TestApp::spawn_tuned(Db::sqlite(), |config| {
        config.push.first_retry = FIRST_RETRY;
    })
    .await;
    let mut service = push_service(&app).await;
    let (mut alice, bob, mut seen) = correspondence(&app).await;
    subscribe(&app, &service, &bob, "bob-phone", "en").await;
    service.fail_next("bob-phone", 2, 503);

    move_once(&mut alice, &mut seen).await;
    let got = service.next().await;
    assert_eq!(got.device, "bob-phone");
    assert_eq!(got.payload["kind"], "your_turn", "{:?}", got.payload);
    assert_eq!(
        got.payload["body"],
        "Your move against alice in Mill (Troika)"
    );

    // Refused twice, then accepted: three deliveries, each retry at least its backoff after
    // the one before (FIRST_RETRY, then twice that).
    let attempts = service.attempts("bob-phone");
    assert_eq!(attempts.len(), 3, "{attempts:?}");
    assert!(attempts[1].duration_since(attempts[0]) >= FIRST_RETRY);
    assert!(attempts[2].duration_since(attempts[1]) >= FIRST_RETRY * 2);

    // Sent once: nothing is left to send and nothing else arrived.
    until_outbox_empty(&app).await;
    let extra = service.try_next();
    assert!(extra.is_none(), "{extra:?}");
    assert_eq!(service.attempts("bob-phone").len(), 3);
    assert!(metric(&app, "stolik_push_sent_total").await >= 1.0);
    service.stop().await;
    app.stop().await;
}
