//! Bad input of every kind gets the documented error, changes nothing and keeps the socket
//! open; only abuse closes it.

use serde_json::json;

use crate::games::two_at_a_table;
use crate::helpers::TestApp;

#[actix_web::test]
async fn malformed_requests_get_errors_and_the_socket_stays_open() {
    let app = TestApp::spawn().await;
    let mut p = app.guest().await;
    p.send_text("{not json".to_string()).await;
    assert_eq!(p.next().await["code"], "bad_json");
    p.send_text("[1, 2, 3]".to_string()).await;
    assert_eq!(p.next().await["code"], "bad_json");
    p.refused(json!({"type": "teleport"}), "unknown_type").await;
    p.refused(json!({"no_type": true}), "bad_request").await;
    p.refused(json!({"type": "move", "table": 5}), "bad_request")
        .await;
    p.refused(
        json!({"type": "table.subscribe", "table": "nope"}),
        "not_found",
    )
    .await;
    // Still alive.
    assert_eq!(p.request(json!({"type": "ping"})).await["type"], "pong");
    app.stop().await;
}

#[actix_web::test]
async fn illegal_out_of_turn_and_wrong_seat_moves_change_nothing() {
    let app = TestApp::spawn().await;
    let (mut a, mut b, seen) =
        two_at_a_table(&app, json!({"game": "cephalopod", "variant": "3x3"})).await;
    let t = seen.table.clone();
    a.refused(
        json!({"type": "move", "table": t, "move": "z9"}),
        "illegal_move",
    )
    .await;
    a.refused(
        json!({"type": "move", "table": t, "move": "b2:a1,c1"}),
        "illegal_move",
    )
    .await;
    // b moving on a's turn: out of turn, and a move for the other seat.
    b.refused(
        json!({"type": "move", "table": t, "move": "b2"}),
        "not_your_turn",
    )
    .await;
    a.ok(json!({"type": "move", "table": t, "move": "b2"}))
        .await;
    a.refused(
        json!({"type": "move", "table": t, "move": "a1"}),
        "not_your_turn",
    )
    .await;
    b.refused(
        json!({"type": "move", "table": t, "move": "b2"}),
        "illegal_move",
    )
    .await;
    // A move against an old ply is refused.
    b.refused(
        json!({"type": "move", "table": t, "move": "a1", "ply": 0}),
        "stale_ply",
    )
    .await;
    let (_, table) = app.get(&format!("/api/tables/{t}"), None).await;
    assert_eq!(table["ply"], 1, "nothing but b2 was played");
    assert_eq!(table["moves"], json!(["b2"]));
    assert_eq!(table["to_move"], "b");
    app.stop().await;
}

#[actix_web::test]
async fn an_oversized_frame_closes_the_socket() {
    let app = TestApp::spawn().await;
    let mut p = app.guest().await;
    let huge = json!({"type": "chat", "table": "x", "text": "a".repeat(64 * 1024)});
    p.send_text(huge.to_string()).await;
    let closed = p.next().await;
    assert_eq!(closed["type"], "closed", "{closed}");
    assert!(
        closed["reason"].as_str().unwrap().contains("Size"),
        "{closed}"
    );
    app.stop().await;
}

/// This process's resident memory, from `/proc/self/statm`.
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("Linux /proc");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

#[actix_web::test]
async fn a_giant_announced_frame_is_refused_before_its_body_is_read() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::spawn().await;
    let address = app.base.trim_start_matches("http://").to_string();
    let mut socket = tokio::net::TcpStream::connect(&address).await.unwrap();
    let handshake = format!(
        "GET /ws HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    socket.write_all(handshake.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = socket.read(&mut buf).await.unwrap();
        assert!(n > 0, "the server closed during the handshake");
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(
        seen.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&seen)
    );
    let before = rss_bytes();
    // A masked binary frame announcing 1 GiB, then as much of its body as the server takes.
    let mut header = vec![0x82, 0x80 | 127];
    header.extend_from_slice(&(1u64 << 30).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]);
    socket.write_all(&header).await.unwrap();
    let chunk = vec![0u8; 1 << 20];
    let (mut reader, mut writer) = socket.into_split();
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let sender = tokio::spawn({
        let sent = sent.clone();
        async move {
            // Past the announced 1 GiB if need be: it ends only when a write fails.
            while writer.write_all(&chunk).await.is_ok() {
                sent.fetch_add(chunk.len() as u64, std::sync::atomic::Ordering::Relaxed);
            }
        }
    });
    // The server answers with a close frame, code 1009 (message too big), long before the
    // body could have arrived.
    let mut answer = Vec::new();
    let closed_at = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
            // An unmasked close frame (0x88, short length) whose code is 1009.
            if answer
                .windows(4)
                .any(|w| w[0] == 0x88 && w[2..4] == 1009u16.to_be_bytes())
            {
                return Some(sent.load(std::sync::atomic::Ordering::Relaxed));
            }
        }
    })
    .await
    .expect("the server kept reading the giant frame");
    let closed_at = closed_at.unwrap_or_else(|| panic!("no close frame with 1009: {answer:?}"));
    // Then it hangs up, though the client goes on sending the body: after actix's lingering
    // close (at most `client_disconnect_timeout`, 1 s, for the client to read the close) the
    // connection is closed, and the client's next writes fail.
    let hung_up = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(
        hung_up.is_ok(),
        "the connection stayed open after the close"
    );
    tokio::time::timeout(std::time::Duration::from_secs(10), sender)
        .await
        .expect("the server kept draining the body after hanging up")
        .unwrap();
    // Without the guard the close can only come once the whole body is in. (How much was sent
    // by the time the close is read depends on scheduling: the server drains and drops what
    // still comes, and this test, the sender and the server share one thread.)
    assert!(
        closed_at < 1 << 30,
        "refused only after the whole frame: {closed_at} bytes"
    );
    // The whole test process's memory (other tests run beside this one), against a 1 GiB frame.
    let grown = rss_bytes().saturating_sub(before);
    assert!(
        grown < 256 << 20,
        "memory grew by {grown} bytes for a frame that was refused"
    );
    app.stop().await;
}

#[actix_web::test]
async fn a_flood_is_refused_then_cut_off() {
    let app = TestApp::spawn().await;
    let mut p = app.guest().await;
    let ping = json!({"type": "ping"}).to_string();
    for _ in 0..300 {
        p.send_text(ping.clone()).await;
    }
    let mut limited = 0;
    loop {
        let message = p.next().await;
        match message["type"].as_str().unwrap() {
            "pong" => {}
            "error" => {
                assert_eq!(message["code"], "rate_limited");
                limited += 1;
            }
            "closed" => break,
            other => panic!("unexpected {other}"),
        }
    }
    assert!(limited > 0);
    app.stop().await;
}

#[actix_web::test]
async fn forged_and_expired_tokens_are_refused() {
    let app = TestApp::spawn().await;
    let forged = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4IiwibmFtZSI6IngiLCJndWVzdCI6dHJ1ZSwiZXhwIjo5OTk5OTk5OTk5fQ.c2lnbmF0dXJl";
    let (status, body) = app.get("/api/me", Some(forged)).await;
    assert_eq!(status, 401);
    assert_eq!(body["code"], "unauthorized");
    let (status, _) = app
        .post("/api/tables", Some(forged), json!({"game": "mill"}))
        .await;
    assert_eq!(status, 401);
    let refused = app
        .http()
        .ws(&app.ws_url)
        .bearer_auth(forged)
        .connect()
        .await;
    assert!(refused.is_err(), "the WebSocket handshake is refused");

    // A token signed with the server's own secret but expired.
    let db_url = app.db.url();
    let store = store::Store::connect(&db_url).await.unwrap();
    let secret = store
        .setting_or_insert("identity_secret", || unreachable!("the server made it"))
        .await
        .unwrap();
    #[derive(serde::Serialize)]
    struct Claims {
        sub: String,
        name: String,
        guest: bool,
        exp: u64,
    }
    let expired = jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &Claims {
            sub: "someone".into(),
            name: "Someone".into(),
            guest: true,
            exp: 1_000_000,
        },
        &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()),
    )
    .unwrap();
    let (status, body) = app.get("/api/me", Some(&expired)).await;
    assert_eq!(status, 401);
    assert!(
        body["message"].as_str().unwrap().contains("xpired"),
        "{body}"
    );
    app.stop().await;
}

#[actix_web::test]
async fn bad_table_requests_get_clear_errors() {
    let app = TestApp::spawn().await;
    let p = app.guest().await;
    for (body, code) in [
        (json!({"game": "chess"}), "bad_request"),
        (json!({"game": "mill", "variant": "ten"}), "bad_request"),
        (
            json!({"game": "mill", "clock": {"initial": 0, "increment": 0}}),
            "bad_request",
        ),
        (
            json!({"game": "white-rabbit", "clock": {"initial": 60, "increment": 0}}),
            "bad_request",
        ),
        (json!({"game": "mill", "seat": 2}), "bad_request"),
        // Well-formed JSON of the wrong shape or range is a bad request, not bad JSON.
        (json!({"game": "mill", "seat": 256}), "bad_request"),
        (json!({"variant": "5x5"}), "bad_request"),
        (json!([1, 2]), "bad_request"),
    ] {
        let (status, reply) = app.post("/api/tables", Some(&p.token), body.clone()).await;
        assert_eq!(status, 400, "{body}: {reply}");
        assert_eq!(reply["code"], code, "{body}: {reply}");
    }
    let (status, _) = app.get("/api/games/chess", None).await;
    assert_eq!(status, 404);
    let (status, _) = app.get("/api/tables/nothing", None).await;
    assert_eq!(status, 404);
    let (status, body) = app.get("/api/no/such/endpoint", None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    app.stop().await;
}
