//! Ratings cannot be farmed: games in which a side has not moved are aborted, and games
//! between the same two accounts count for less and less (docs/protocol.md, "Ratings").

use serde_json::json;

use crate::helpers::{Player, TestApp};
use crate::ratings::{blitz, both_move_then_resign, profile, seated};

#[actix_web::test]
async fn a_farm_of_a_hundred_games_between_two_accounts_gains_at_most_the_bound() {
    let app = TestApp::spawn().await;
    let mut ann = app.account("ann_farms").await;
    let mut bob = app.account("bob_feeds").await;

    // Taking turns to host, the second resigns at once: every game is aborted.
    for game in 0..100 {
        let (host, other) = if game % 2 == 0 {
            (&mut ann, &mut bob)
        } else {
            (&mut bob, &mut ann)
        };
        let (id, _) = seated(&app, host, other, blitz(true)).await;
        other.ok(json!({"type": "resign", "table": id})).await;
        let end = host.expect("end").await;
        assert_eq!(end["status"], "aborted", "{end}");
        assert_eq!(end["result"], json!(null), "{end}");
        assert!(end.get("ratings").is_none(), "{end}");
        other.expect("end").await;
        leave(host, &id).await;
        leave(other, &id).await;
    }
    for player in [&ann, &bob] {
        let body = profile(&app, player).await;
        assert_eq!(body["ratings"], json!({}), "no rating moved: {body}");
        assert_eq!(
            body["results"],
            json!({"wins": 0, "draws": 0, "losses": 0}),
            "{body}"
        );
    }

    // One move each, then bob resigns: rated, but the pair's games count for less and less.
    let mut changes = Vec::new();
    for game in 0..100 {
        let (id, end) = if game % 2 == 0 {
            let (id, started) = seated(&app, &mut ann, &mut bob, blitz(true)).await;
            let end = both_move_then_resign(&mut ann, &mut bob, &id, &started, false).await;
            (id, end)
        } else {
            let (id, started) = seated(&app, &mut bob, &mut ann, blitz(true)).await;
            let end = both_move_then_resign(&mut bob, &mut ann, &id, &started, true).await;
            (id, end)
        };
        assert_eq!(end["status"], "finished", "{end}");
        let ann_seat = if game % 2 == 0 { "a" } else { "b" };
        changes.push(end["ratings"][ann_seat]["change"].as_i64().unwrap());
        leave(&mut ann, &id).await;
        leave(&mut bob, &id).await;
    }
    let ann_rating = &profile(&app, &ann).await["ratings"]["cephalopod"]["blitz"];
    let bob_rating = &profile(&app, &bob).await["ratings"]["cephalopod"]["blitz"];
    let gained = ann_rating["rating"].as_i64().unwrap() - 1500;
    let lost = 1500 - bob_rating["rating"].as_i64().unwrap();
    assert!(gained > 0 && gained <= 150, "farmed {gained}: {changes:?}");
    assert!(lost > 0 && lost <= 150, "fed {lost}");
    assert_eq!(ann_rating["games"], 100);
    // The pair rule damps the rating only: a hundred games make the rating established,
    // within the bound of where it began.
    assert_eq!(ann_rating["provisional"], false, "{ann_rating}");
    assert!(
        changes[10..].iter().all(|c| *c <= 2),
        "later games move little: {changes:?}"
    );
}

/// Stops following a finished table (a connection follows at most 32).
async fn leave(player: &mut Player, table: &str) {
    player
        .ok(json!({"type": "table.unsubscribe", "table": table}))
        .await;
    player.forget();
}
