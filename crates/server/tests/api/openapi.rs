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
    // A real value for each path parameter, so that a handler's own "no such …" cannot be
    // mistaken for an endpoint that is missing.
    let fill = |path: &str| -> String {
        let id = if path.starts_with("/api/games/") {
            "perekati"
        } else if path.starts_with("/api/tables/") || path.starts_with("/api/records/") {
            table_id.as_str()
        } else if path.starts_with("/api/users/") {
            owner_id.as_str()
        } else {
            "-"
        };
        let filled = path
            .replace("{id}", id)
            .replace("{game}", "perekati")
            .replace("{user}", &other_id);
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
        let body = response.body().limit(1 << 24).await.unwrap_or_default();
        assert_ne!(
            status,
            404,
            "{method} {path}: {}",
            String::from_utf8_lossy(&body)
        );
    }
    app.stop().await;
}
