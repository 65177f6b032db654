//! A standings line's change as a watcher that has the line is sent it: its `player` and
//! `rank`, the fields whose value changed, and the score marks it gained (`scores_from`, how
//! many of the marks it has stay; `scores`, the new ones after them, when there are any). A
//! game's mark does not change once made, so a line that changed is a few fields and a mark
//! or two, where the whole line carries a mark for every game played.

use serde_json::{Map, Value, json};

use super::views::Line;

/// `now` as a change to `before`, the same player's line as the watcher has it.
pub(super) fn patch(before: &Line, now: &Line) -> Value {
    let mut out = Map::new();
    out.insert("player".into(), json!(now.player));
    out.insert("rank".into(), json!(now.rank));
    let mut put = |name: &str, changed: bool, value: Value| {
        if changed {
            out.insert(name.into(), value);
        }
    };
    put("name", before.name != now.name, json!(now.name));
    put("rating", before.rating != now.rating, json!(now.rating));
    put("points", before.points != now.points, json!(now.points));
    put(
        "performance",
        before.performance != now.performance,
        json!(now.performance),
    );
    put("on_fire", before.on_fire != now.on_fire, json!(now.on_fire));
    put("paused", before.paused != now.paused, json!(now.paused));
    put(
        "withdrawn",
        before.withdrawn != now.withdrawn,
        json!(now.withdrawn),
    );
    put("playing", before.playing != now.playing, json!(now.playing));
    let kept = (before.scores.iter())
        .zip(&now.scores)
        .take_while(|(was, is)| was == is)
        .count();
    out.insert("scores_from".into(), json!(kept));
    if kept < now.scores.len() {
        out.insert("scores".into(), json!(now.scores[kept..]));
    }
    Value::Object(out)
}
