//! A challenge pushed, end to end at the stand-in push service of `push.rs`: the person
//! challenged gets one push that names the challenger and the game and opens the challenges
//! page; none once they switched the kind off, none to a bot account (its event stream tells
//! it); a push still waiting goes when its challenge is canceled or declined.

use serde_json::{Value, json};

use crate::bot_api::bot_account;
use crate::helpers::{Db, Player, TestApp};
use crate::push::{outbox_len, push_service, send, subscribe, until_outbox_empty};

/// `from` challenges `to` with `body`: the challenge's id.
async fn challenge(app: &TestApp, from: &Player, to: &Player, body: Value) -> String {
    let (status, sent) = app
        .post(
            &format!("/api/challenge/{}", to.id()),
            Some(&from.token),
            body,
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    sent["id"].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn a_person_challenged_is_pushed_once_unless_they_switched_it_off_and_a_bot_never() {
    challenged(Db::sqlite()).await;
}

#[actix_web::test]
#[ignore = "needs PostgreSQL: tests/run runs it when PostgreSQL answers"]
async fn on_postgres_a_person_challenged_is_pushed_once() {
    challenged(Db::postgres().await).await;
}

async fn challenged(db: Db) {
    let app = TestApp::spawn_on(db).await;
    let mut service = push_service(&app).await;
    let alice = app.account("alice").await;
    let bob = app.account("bob").await;
    let (robo, _, _) = bot_account(&app, "robo").await;
    subscribe(&app, &service, &bob, "bob-phone", "en").await;
    // The bot's owner could subscribe it like any account: the challenge still skips it.
    subscribe(&app, &service, &robo, "robo-device", "en").await;

    let first = challenge(
        &app,
        &alice,
        &bob,
        json!({"game": "mill", "clock": {"days": 3}}),
    )
    .await;
    let got = service.next().await;
    assert_eq!(got.device, "bob-phone");
    assert_eq!(
        got.payload,
        json!({
            "title": "Stolik",
            "body": "alice challenges you to a game of Mill (Troika)",
            "url": "/#/challenges",
            "tag": format!("stolik-{first}"),
            "kind": "challenge",
            "game_id": null,
            "challenge_id": first,
        })
    );
    until_outbox_empty(&app).await;

    // Bob switches challenges off; Alice challenges him and the bot: nothing is queued.
    let (status, body) = send(&app, "PUT", &bob, json!({"off": ["challenge"]})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["off"], json!(["challenge"]));
    challenge(&app, &alice, &bob, json!({"game": "cephalopod"})).await;
    challenge(&app, &alice, &robo, json!({"game": "mill"})).await;
    assert_eq!(outbox_len(&app).await, 0, "no push queued for either");

    // Switched on again: the next challenge is pushed, and it is the only push since the
    // first (a row leaves the outbox only once the service has answered, and the service
    // passes a message on before it answers).
    let (status, body) = send(&app, "PUT", &bob, json!({"off": []})).await;
    assert_eq!(status, 200, "{body}");
    let last = challenge(&app, &alice, &bob, json!({"game": "mill"})).await;
    let got = service.next().await;
    assert_eq!(
        (got.device.as_str(), &got.payload["challenge_id"]),
        ("bob-phone", &json!(last))
    );
    until_outbox_empty(&app).await;
    assert!(service.try_next().is_none(), "one push a challenge pushed");
    service.stop().await;
    app.stop().await;
}

#[actix_web::test]
async fn a_challenge_canceled_or_declined_takes_back_its_push_not_yet_delivered() {
    let app = TestApp::spawn().await;
    let mut service = push_service(&app).await;
    let alice = app.account("alice").await;
    let bob = app.account("bob").await;
    subscribe(&app, &service, &bob, "bob-phone", "uk").await;
    // Bob's push service is in trouble: each push waits in the outbox to be tried again.
    service.answer("bob-phone", 503);
    let canceled = challenge(&app, &alice, &bob, json!({"game": "mill"})).await;
    let declined = challenge(&app, &alice, &bob, json!({"game": "cephalopod"})).await;
    until_tried(&service, "bob-phone").await;
    assert_eq!(outbox_len(&app).await, 2, "both wait to be tried again");

    let (status, body) = app
        .post(
            &format!("/api/challenge/{canceled}/cancel"),
            Some(&alice.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        outbox_len(&app).await,
        1,
        "the canceled challenge's push went"
    );
    let (status, body) = app
        .post(
            &format!("/api/challenge/{declined}/decline"),
            Some(&bob.token),
            json!({"reason": "later"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        outbox_len(&app).await,
        0,
        "the declined challenge's push went"
    );

    // The service recovers: a new challenge arrives, in Ukrainian, and nothing else.
    service.answer("bob-phone", 201);
    let fresh = challenge(&app, &alice, &bob, json!({"game": "mill"})).await;
    let got = service.next().await;
    assert_eq!(got.payload["challenge_id"], fresh.as_str());
    assert_eq!(
        got.payload["body"],
        "alice викликає вас на партію: Млин (Трійка)"
    );
    until_outbox_empty(&app).await;
    let extra = service.try_next();
    assert!(extra.is_none(), "{extra:?}");
    service.stop().await;
    app.stop().await;
}

/// Waits until the service has been sent something for `device` (and refused it).
async fn until_tried(service: &testkit::PushService, device: &str) {
    for _ in 0..200 {
        if !service.attempts(device).is_empty() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("nothing was sent to {device}");
}
