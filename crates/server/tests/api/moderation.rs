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
    assert_eq!(status, 400, "muting oneself");
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
            400,
        ),
        (json!({"user": id(&b), "reason": ""}), 400),
        (json!({"user": id(&b), "reason": "myself"}), 400),
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
