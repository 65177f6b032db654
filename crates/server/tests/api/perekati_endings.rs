//! A Perekati-pole game that ends by its rules says which rule: rules 2 (a side blocked) and 3
//! (a position's third occurrence) score alike, so the end reason names them.

use serde_json::json;

use crate::ratings::seated;

#[actix_web::test]
async fn a_threefold_repetition_ends_the_game_with_its_own_reason() {
    let app = crate::helpers::TestApp::spawn().await;
    let mut ann = app.guest().await;
    let mut bob = app.guest().await;
    let (id, started) = seated(
        &app,
        &mut ann,
        &mut bob,
        json!({"game": "perekati", "variant": "malysh"}),
    )
    .await;
    // Seat a moves first; whoever holds it, a cube of each side steps out and back twice.
    let ann_is_a = started["you"] == "a";
    let moves = [
        "a1a2", "a6a5", "a2a1", "a5a6", "a1a2", "a6a5", "a2a1", "a5a6",
    ];
    for (ply, mv) in moves.iter().enumerate() {
        let mover = if (ply % 2 == 0) == ann_is_a {
            &mut ann
        } else {
            &mut bob
        };
        mover
            .ok(json!({"type": "move", "table": id, "move": mv, "ply": ply}))
            .await;
    }
    let end = ann.expect("end").await;
    assert_eq!(end["reason"], "repetition", "{end}");
    assert_eq!(end["result"], "draw", "{end}");
    // The record keeps the reason.
    let (status, record) = app.get(&format!("/api/records/{id}"), None).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["reason"], "repetition", "{record}");
    app.stop().await;
}
