//! A table's life before and after its game: the host cancels it, it closes when nobody is
//! left seated, and a private game's rematch keeps its link for those who had it.

use std::time::Duration;

use serde_json::json;

use crate::games::two_at_a_table;
use crate::helpers::TestApp;

/// Whether the public lobby lists the table `id`.
async fn listed_in_lobby(app: &TestApp, id: &str) -> bool {
    let (_, lobby) = app.get("/api/tables", None).await;
    lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"] == id)
}

/// The table's status and reason as its record has them.
async fn ending(app: &TestApp, id: &str, token: &str) -> (String, String) {
    for _ in 0..50 {
        let (_, record) = app.get(&format!("/api/tables/{id}"), Some(token)).await;
        if record["status"] != "open" {
            return (
                record["status"].as_str().unwrap().to_string(),
                record["reason"].as_str().unwrap_or_default().to_string(),
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("table {id} stayed open");
}

#[actix_web::test]
async fn a_host_who_stands_up_alone_closes_the_table_and_it_leaves_the_lobby() {
    let app = TestApp::spawn().await;
    let mut host = app.guest().await;
    let table = host.create_table(&app, json!({"game": "perekati"})).await;
    let id = table["id"].as_str().unwrap();
    assert!(listed_in_lobby(&app, id).await);
    host.ok(json!({"type": "table.subscribe", "table": id}))
        .await;
    host.ok(json!({"type": "stand", "table": id})).await;
    let end = host.expect("end").await;
    assert_eq!(
        (end["status"].as_str(), end["reason"].as_str()),
        (Some("aborted"), Some("empty"))
    );
    assert_eq!(
        ending(&app, id, &host.token).await,
        ("aborted".into(), "empty".into())
    );
    for _ in 0..50 {
        if !listed_in_lobby(&app, id).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the closed table is still in the lobby");
}

#[actix_web::test]
async fn only_the_host_cancels_an_open_table() {
    let app = TestApp::spawn().await;
    let mut host = app.guest().await;
    let mut stranger = app.guest().await;
    let table = host.create_table(&app, json!({"game": "mill"})).await;
    let id = table["id"].as_str().unwrap();
    let refusal = stranger
        .refused(json!({"type": "cancel", "table": id}), "forbidden")
        .await;
    assert!(
        refusal["message"].as_str().unwrap().contains("host"),
        "{refusal}"
    );
    host.ok(json!({"type": "cancel", "table": id})).await;
    assert_eq!(
        ending(&app, id, &host.token).await,
        ("aborted".into(), "cancelled".into())
    );
    // Once called off, it cannot be called off again nor sat at.
    host.refused(json!({"type": "cancel", "table": id}), "wrong_state")
        .await;
    stranger
        .refused(json!({"type": "sit", "table": id}), "wrong_state")
        .await;
}

#[actix_web::test]
async fn a_spectator_with_the_link_follows_a_private_game_to_its_rematch() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) = two_at_a_table(&app, json!({"game": "mill", "private": true})).await;
    let (_, first) = app
        .get(&format!("/api/tables/{}", seen.table), Some(&a.token))
        .await;
    let token = first["invite"]
        .as_str()
        .expect("a private table's link")
        .to_string();
    let mut watcher = app.guest().await;
    watcher
        .ok(json!({"type": "table.subscribe", "table": seen.table, "token": token}))
        .await;
    b.ok(json!({"type": "resign", "table": seen.table})).await;
    a.ok(json!({"type": "rematch.offer", "table": seen.table}))
        .await;
    b.ok(json!({"type": "rematch.accept", "table": seen.table}))
        .await;
    let next = watcher.expect("rematch").await["next"]
        .as_str()
        .unwrap()
        .to_string();
    // Without the link the rematch is private; with the first game's link it opens.
    let stranger = app.guest().await;
    let (status, _) = app
        .get(&format!("/api/tables/{next}"), Some(&stranger.token))
        .await;
    assert_eq!(status, 403);
    let snapshot = watcher
        .ok(json!({"type": "table.subscribe", "table": next, "token": token}))
        .await;
    assert_eq!(snapshot["table"]["status"], "playing", "{snapshot}");
    assert_eq!(snapshot["table"]["you"], serde_json::Value::Null);
}

#[actix_web::test]
async fn players_are_found_by_the_start_of_their_username_and_guests_never() {
    let app = TestApp::spawn().await;
    let anna = app.account("anna_x").await;
    app.account("Annabel").await;
    app.account("bob").await;
    let guest = app.guest().await;
    let names = |body: &serde_json::Value| -> Vec<String> {
        body["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    let (status, found) = app.get("/api/users?q=ANN", None).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(names(&found), ["anna_x", "Annabel"]);
    assert_eq!(found["players"][0]["id"], anna.user["id"]);
    // `_` is a letter of the name, not a wildcard.
    let (_, found) = app.get("/api/users?q=anna_", None).await;
    assert_eq!(names(&found), ["anna_x"]);
    let guest_name = guest.user["name"].as_str().unwrap().to_string();
    let (_, found) = app
        .get(&format!("/api/users?q={}", &guest_name[..3]), None)
        .await;
    assert!(!names(&found).contains(&guest_name), "{found}");
    for bad in ["", "%20", &"a".repeat(33)] {
        let (status, body) = app.get(&format!("/api/users?q={bad}"), None).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    // Only white space is refused, by the same definition as the document's pattern (Unicode
    // White_Space, what `str::trim` removes): U+0085 and U+3000 are refused, U+FEFF (white
    // space to ECMAScript's `\s`, not to Unicode) is searched for.
    for white in ['\u{85}', '\u{a0}', '\u{2028}', '\u{3000}'] {
        let q = percent(white);
        let (status, body) = app.get(&format!("/api/users?q={q}"), None).await;
        assert_eq!(status, 400, "{white:?}: {body}");
    }
    let (status, found) = app
        .get(&format!("/api/users?q={}", percent('\u{feff}')), None)
        .await;
    assert_eq!(status, 200, "{found}");
}

/// `c` percent-encoded as UTF-8, for a query string.
fn percent(c: char) -> String {
    let mut bytes = [0; 4];
    c.encode_utf8(&mut bytes)
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect()
}
