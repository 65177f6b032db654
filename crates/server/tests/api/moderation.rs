//! Players muting and reporting each other, and an operator's flag.

use serde_json::{Value, json};

use crate::games::two_at_a_table;
use crate::helpers::{Player, TestApp};

async fn call(app: &TestApp, method: &str, path: &str, token: &str) -> (u16, Value) {
    let request = match method {
        "PUT" => app.http().put(format!("{}{path}", app.base)),
        "DELETE" => app.http().delete(format!("{}{path}", app.base)),
        _ => app.http().get(format!("{}{path}", app.base)),
    };
    let mut response = request.bearer_auth(token).send().await.unwrap();
    let body = response.json::<Value>().await.unwrap_or(Value::Null);
    (response.status().as_u16(), body)
}

fn id(p: &Player) -> String {
    p.id().to_string()
}

#[actix_web::test]
async fn a_muted_players_chat_reaches_everyone_but_the_muter() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    let table = seen.table.clone();
    let (status, body) = call(&app, "PUT", &format!("/api/mutes/{}", id(&b)), &a.token).await;
    assert_eq!(status, 200, "{body}");
    let (_, list) = call(&app, "GET", "/api/mutes", &a.token).await;
    assert_eq!(list["muted"][0]["user"], id(&b).as_str(), "{list}");
    assert_eq!(list["muted"][0]["name"], b.user["name"], "{list}");
    b.ok(json!({"type": "chat", "table": table, "text": "you will not see this"}))
        .await;
    a.ok(json!({"type": "chat", "table": table, "text": "hello"}))
        .await;
    // b hears both lines; a hears only its own.
    assert_eq!(
        b.expect("chat").await["line"]["text"],
        "you will not see this"
    );
    assert_eq!(b.expect("chat").await["line"]["text"], "hello");
    assert_eq!(a.expect("chat").await["line"]["text"], "hello");
    // Nor is the line in a's snapshot, while a third player sees it.
    let snapshot = a
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    let texts: Vec<&str> = snapshot["table"]["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, vec!["hello"]);
    let mut c = app.guest().await;
    let snapshot = c
        .ok(json!({"type": "table.subscribe", "table": table}))
        .await;
    assert_eq!(snapshot["table"]["chat"].as_array().unwrap().len(), 2);
    // Unmuted, b is heard again.
    assert_eq!(
        call(&app, "DELETE", &format!("/api/mutes/{}", id(&b)), &a.token)
            .await
            .0,
        200
    );
    b.ok(json!({"type": "chat", "table": table, "text": "back"}))
        .await;
    assert_eq!(a.expect("chat").await["line"]["text"], "back");
    assert_eq!(c.expect("chat").await["line"]["text"], "back");
    let (status, _) = call(&app, "PUT", &format!("/api/mutes/{}", id(&a)), &a.token).await;
    assert_eq!(status, 403, "muting oneself");
    let (status, _) = call(&app, "PUT", "/api/mutes/nobody", &a.token).await;
    assert_eq!(status, 404);
    app.stop().await;
}

#[actix_web::test]
async fn reports_are_stored_for_the_operators() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "cephalopod"})).await;
    b.ok(json!({"type": "chat", "table": seen.table, "text": "rude words"}))
        .await;
    let line = a.expect("chat").await["line"].clone();
    let chat = line["id"].as_i64().expect("a chat line has an id");
    let (status, body) = app
        .post(
            "/api/reports",
            Some(&a.token),
            json!({"user": id(&b), "chat": chat, "reason": "insults"}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    for (report, expected) in [
        (
            json!({"user": id(&a), "chat": chat, "reason": "insults"}),
            404,
        ),
        (json!({"user": id(&b), "reason": ""}), 400),
        (json!({"user": id(&b), "reason": "myself"}), 403),
        (json!({"user": "nobody", "reason": "who"}), 404),
    ] {
        let (status, body) = app
            .post("/api/reports", Some(&b.token), report.clone())
            .await;
        assert_eq!(status, expected, "{report}: {body}");
    }
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    let reports = store.reports_about(&id(&b)).await.unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(
        (reports[0].chat_id, reports[0].reason.as_str()),
        (Some(chat), "insults")
    );
    store.close().await;
    app.stop().await;
}

#[actix_web::test]
async fn a_flagged_account_cannot_chat_or_open_public_tables() {
    let app = TestApp::spawn().await;
    let (mut a, _b, seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    store.set_flagged(&id(&a), Some(1)).await.unwrap();
    let refused = a
        .request(json!({"type": "chat", "table": seen.table, "text": "spam"}))
        .await;
    assert_eq!(refused["code"], "forbidden", "{refused}");
    let (status, body) = app
        .post("/api/tables", Some(&a.token), json!({"game": "mill"}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("forbidden")),
        "{body}"
    );
    // A private table or a bot game is still fine.
    let (status, body) = app
        .post(
            "/api/tables",
            Some(&a.token),
            json!({"game": "mill", "private": true}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    store.set_flagged(&id(&a), None).await.unwrap();
    a.ok(json!({"type": "chat", "table": seen.table, "text": "sorry"}))
        .await;
    store.close().await;
    app.stop().await;
}

#[actix_web::test]
async fn voice_carries_only_webrtc_signals_and_never_from_a_muted_or_flagged_player() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "mill"})).await;
    let table = seen.table.clone();
    let voice = |signal: Value| json!({"type": "voice", "table": table, "signal": signal});
    let offer = json!({"kind": "offer", "sdp": "v=0\r\n"});

    // Not WebRTC-shaped: refused, and nothing reaches the other player.
    for signal in [
        json!("x".repeat(832)),
        json!({"kind": "offer", "sdp": "v=0", "text": "x".repeat(832)}),
        json!({"kind": "message", "text": "hello"}),
        json!({"kind": "offer", "sdp": "x".repeat(8_193)}),
        json!({"kind": "ice", "candidate": {"candidate": "x".repeat(1_025)}}),
    ] {
        let refused = b.refused(voice(signal.clone()), "bad_request").await;
        assert!(refused["message"].is_string(), "{signal}: {refused}");
    }
    b.ok(voice(offer.clone())).await;
    assert_eq!(a.expect("voice").await["signal"], offer);

    // Muted: b's signals are accepted but never reach a (nor does a's ringing start).
    let (status, _) = call(&app, "PUT", &format!("/api/mutes/{}", id(&b)), &a.token).await;
    assert_eq!(status, 200);
    b.ok(voice(offer.clone())).await;
    b.ok(voice(json!({"kind": "bye"}))).await;
    // a's next message is the reply to this ping: no voice came in between.
    assert_eq!(a.request(json!({"type": "ping"})).await["type"], "pong");
    assert!(a.backlog_has("voice").is_none());
    // a may still call b, who has not muted a.
    a.ok(voice(json!({"kind": "answer", "sdp": "v=0"}))).await;
    assert_eq!(b.expect("voice").await["from"], "a");
    let (status, _) = call(&app, "DELETE", &format!("/api/mutes/{}", id(&b)), &a.token).await;
    assert_eq!(status, 200);
    b.ok(voice(json!({"kind": "bye"}))).await;
    assert_eq!(a.expect("voice").await["signal"]["kind"], "bye");

    // Flagged: refused outright.
    let store = store::Store::connect(&app.db.url()).await.unwrap();
    store.set_flagged(&id(&b), Some(1)).await.unwrap();
    b.refused(voice(offer.clone()), "forbidden").await;
    assert_eq!(a.request(json!({"type": "ping"})).await["type"], "pong");
    assert!(a.backlog_has("voice").is_none());
    store.close().await;
    app.stop().await;
}
