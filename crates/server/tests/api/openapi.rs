//! The OpenAPI document: fetched from a live server, it names exactly the endpoints the app
//! registers ([`server::routes::API`]), each with its path parameters, and every path in it
//! is served.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::helpers::TestApp;

/// `(method, path)` of every operation in the document.
fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    let paths = doc["paths"].as_object().expect("the document has paths");
    paths
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .expect("a path item is an object")
                .keys()
                .filter(|key| {
                    ["get", "put", "post", "delete", "patch", "head", "options"]
                        .contains(&key.as_str())
                })
                .map(move |method| (method.clone(), path.clone()))
        })
        .collect()
}

/// The names between braces in a path.
fn path_parameters(path: &str) -> BTreeSet<String> {
    path.split('{')
        .skip(1)
        .map(|rest| rest.split('}').next().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn the_document_lists_every_registered_endpoint_and_only_those() {
    let app = TestApp::spawn().await;
    let (status, doc) = app.get("/api/openapi.json", None).await;
    assert_eq!(status, 200, "{doc}");
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with('3')),
        "an OpenAPI 3 document: {}",
        doc["openapi"]
    );
    let registered: BTreeSet<(String, String)> = server::routes::API
        .iter()
        .map(|e| (e.method.to_string(), e.path.to_string()))
        .collect();
    assert_eq!(
        registered.len(),
        server::routes::API.len(),
        "an endpoint registered twice"
    );
    let documented = documented(&doc);
    let undocumented: Vec<_> = registered.difference(&documented).collect();
    let unregistered: Vec<_> = documented.difference(&registered).collect();
    assert!(
        undocumented.is_empty(),
        "registered, not documented: {undocumented:?}"
    );
    assert!(
        unregistered.is_empty(),
        "documented, not registered: {unregistered:?}"
    );
    for (method, path) in &documented {
        assert!(path.starts_with("/api/"), "{path}");
        let operation = &doc["paths"][path][method];
        assert!(
            operation["responses"]
                .as_object()
                .is_some_and(|r| !r.is_empty()),
            "{method} {path} documents its answers"
        );
        let declared: BTreeSet<String> = operation["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["in"] == "path")
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            declared,
            path_parameters(path),
            "{method} {path}'s path parameters"
        );
    }
    app.stop().await;
}

#[actix_web::test]
async fn every_documented_path_is_served() {
    let app = TestApp::spawn().await;
    let (_, doc) = app.get("/api/openapi.json", None).await;
    let owner = app.account("documented").await;
    let other = app.account("another").await;
    let table = owner.create_table(&app, json!({"game": "perekati"})).await;
    let table_id = table["id"].as_str().expect("a table id").to_string();
    let owner_id = owner.id().to_string();
    let other_id = other.id().to_string();
    let (status, made) = app
        .post(
            "/api/me/tokens",
            Some(&owner.token),
            json!({"name": "documented", "scopes": ["read"]}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let token_id = made["token"]["id"]
        .as_str()
        .expect("a token id")
        .to_string();
    let (status, arena) = app
        .post(
            "/api/tournaments",
            Some(&owner.token),
            json!({"game": "mill", "initial": 180, "increment": 2, "minutes": 60, "starts_in": 60}),
        )
        .await;
    assert_eq!(status, 201, "{arena}");
    let arena_id = arena["id"].as_str().expect("an arena id").to_string();
    let (status, challenge) = app
        .post(
            &format!("/api/challenge/{}", other.id()),
            Some(&owner.token),
            json!({"game": "mill"}),
        )
        .await;
    assert_eq!(status, 201, "{challenge}");
    let challenge_id = challenge["id"]
        .as_str()
        .expect("a challenge id")
        .to_string();
    // A real value for each path parameter, so that a handler's own "no such …" cannot be
    // mistaken for an endpoint that is missing.
    let fill = |path: &str| -> String {
        let id = if path.starts_with("/api/games/") {
            "perekati"
        } else if path.starts_with("/api/tables/") || path.starts_with("/api/records/") {
            table_id.as_str()
        } else if path.starts_with("/api/users/") {
            owner_id.as_str()
        } else if path.starts_with("/api/me/tokens/") {
            token_id.as_str()
        } else if path.starts_with("/api/tournaments/") {
            arena_id.as_str()
        } else if path.starts_with("/api/challenge/") {
            challenge_id.as_str()
        } else {
            "-"
        };
        let filled = path
            .replace("{id}", id)
            .replace("{game}", "perekati")
            .replace("{user}", &other_id)
            .replace("{move}", "a1")
            .replace("{answer}", "yes");
        assert!(
            !filled.contains('{'),
            "no sample value for {path}: add one here"
        );
        filled
    };
    let client = app.http();
    // Ending every session goes last: the other requests need the owner's token.
    let mut operations: Vec<_> = documented(&doc).into_iter().collect();
    operations.sort_by_key(|(_, path)| path == "/api/logout/everywhere");
    for (method, path) in operations {
        let url = format!("{}{}", app.base, fill(&path));
        let request = match method.as_str() {
            "get" => client.get(&url),
            "post" => client.post(&url),
            "put" => client.put(&url),
            "delete" => client.delete(&url),
            other => panic!("{other} {path}: a method this test does not send"),
        }
        .bearer_auth(&owner.token);
        let mut response = if method == "get" || method == "delete" {
            request.send().await.unwrap()
        } else {
            request.send_json(&json!({})).await.unwrap()
        };
        let status = response.status().as_u16();
        // A stream is not read to its end (it has none).
        let body = if is_stream(&response) {
            Default::default()
        } else {
            response.body().limit(1 << 24).await.unwrap_or_default()
        };
        assert_ne!(
            status,
            404,
            "{method} {path}: {}",
            String::from_utf8_lossy(&body)
        );
    }
    app.stop().await;
}

/// Whether a response is an NDJSON stream (the Bot API's), which never ends by itself.
fn is_stream<S>(response: &awc::ClientResponse<S>) -> bool {
    response
        .headers()
        .get("content-type")
        .is_some_and(|t| t.as_bytes().starts_with(b"application/x-ndjson"))
}

/// The statuses an operation's document lists.
fn listed(doc: &Value, method: &str, path: &str) -> BTreeSet<u16> {
    doc["paths"][path][method]["responses"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(status, _)| status.parse().expect("statuses are numbers"))
        .collect()
}

/// Each route, asked in ways that go wrong (a method it lacks, a body that is not JSON, a
/// token whose session has ended, a stranger's ids), answers only statuses its document
/// lists, and `405` with `Allow` for a method it lacks.
#[actix_web::test]
async fn every_route_answers_only_what_its_document_lists() {
    let app = TestApp::spawn().await;
    let (_, doc) = app.get("/api/openapi.json", None).await;
    let owner = app.account("listed").await;
    // A token whose sessions have all ended.
    let ended = app.account("ended").await;
    let (status, body) = app
        .post("/api/logout/everywhere", Some(&ended.token), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let client = app.http();
    let operations = documented(&doc);
    // Ending every session goes last: the other requests need the owner's token.
    let mut order: Vec<_> = operations.iter().collect();
    order.sort_by_key(|(_, path)| path == "/api/logout/everywhere");
    for (method, path) in order {
        let url = format!(
            "{}{}",
            app.base,
            path.replace("{id}", "perekati")
                .replace("{game}", "mill")
                .replace("{user}", "nobody")
                .replace("{move}", "a1")
                .replace("{answer}", "yes")
        );
        let lists = listed(&doc, method, path);
        let send = |token: &str, body: Option<&'static [u8]>| {
            let request = client
                .request(method.to_uppercase().parse().unwrap(), &url)
                .bearer_auth(token);
            async move {
                let response = match body {
                    Some(body) => {
                        request
                            .insert_header(("content-type", "application/json"))
                            .send_body(body)
                            .await
                    }
                    None => request.send().await,
                };
                let mut response = response.unwrap();
                let status = response.status().as_u16();
                // A stream is not read to its end (it has none).
                if is_stream(&response) {
                    return (status, Value::Null);
                }
                let body: Value = response.json().limit(1 << 24).await.unwrap_or(Value::Null);
                (status, body)
            }
        };
        let takes_body = doc["paths"][path][method].get("requestBody").is_some();
        let (status, body) = send(&ended.token, takes_body.then_some(&b"{}"[..])).await;
        assert!(
            lists.contains(&status),
            "{method} {path} with an ended token answered {status}, not listed in {lists:?}: {body}"
        );
        let (status, body) = send(&owner.token, takes_body.then_some(&b"{}"[..])).await;
        assert!(
            lists.contains(&status),
            "{method} {path} answered {status}, not listed in {lists:?}: {body}"
        );
        if takes_body {
            let (status, body) = send(&owner.token, Some(&b"\x00 not json"[..])).await;
            assert_eq!(
                (status, body["code"].as_str()),
                (400, Some("bad_json")),
                "{method} {path}"
            );
            assert!(lists.contains(&400), "{method} {path}: 400 not listed");
        }
        // A method the path does not have: 405, with the ones it has.
        let mut response = client
            .request(actix_web::http::Method::TRACE, &url)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 405, "TRACE {path}");
        let allow: BTreeSet<String> = response
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok())
            .expect("an Allow header")
            .split(',')
            .map(|m| m.trim().to_lowercase())
            .collect();
        let has: BTreeSet<String> = operations
            .iter()
            .filter(|(_, p)| p == path)
            .map(|(m, _)| m.clone())
            .collect();
        assert_eq!(allow, has, "Allow of {path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "method_not_allowed");
    }
    // A path the API does not have is still 404.
    let (status, body) = app.get("/api/no-such-thing", None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    app.stop().await;
}
