//! How long the engine may think about a move: a thirtieth of what is left on the bridge's
//! clock plus most of the increment, never more than a third of what is left (the answer
//! still has to travel), and never more than the bridge's own cap. A game without a clock
//! (untimed, or days a move) gets the cap.

use std::time::Duration;

use serde_json::Value;

/// The least the engine is given, however short the clock: a move it cannot find is a loss.
const FLOOR: Duration = Duration::from_millis(10);

/// The engine's time for a move at seat `you` (`a` or `b`), from a game state's `clock`
/// (`{"remaining_ms": [a, b], "increment_ms"}`, or null).
pub fn think_time(clock: &Value, you: &str, cap: Duration) -> Duration {
    let index = if you == "b" { 1 } else { 0 };
    let Some(left) = clock["remaining_ms"][index].as_u64() else {
        return cap;
    };
    let increment = clock["increment_ms"].as_u64().unwrap_or(0);
    let share = left / 30 + increment * 3 / 4;
    Duration::from_millis(share.min(left / 3))
        .min(cap)
        .max(FLOOR)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const CAP: Duration = Duration::from_secs(2);

    #[test]
    fn without_a_clock_the_engine_thinks_for_the_cap() {
        assert_eq!(think_time(&Value::Null, "a", CAP), CAP);
    }

    #[test]
    fn a_thirtieth_of_the_time_left_and_most_of_the_increment() {
        let clock = json!({"remaining_ms": [30_000, 3_000], "increment_ms": 400});
        assert_eq!(think_time(&clock, "a", CAP), Duration::from_millis(1_300));
        assert_eq!(think_time(&clock, "b", CAP), Duration::from_millis(400));
        let long = json!({"remaining_ms": [600_000, 600_000], "increment_ms": 0});
        assert_eq!(think_time(&long, "a", CAP), CAP);
    }

    #[test]
    fn never_more_than_a_third_of_what_is_left_nor_less_than_the_floor() {
        let short = json!({"remaining_ms": [900, 900], "increment_ms": 5_000});
        assert_eq!(think_time(&short, "a", CAP), Duration::from_millis(300));
        let flagging = json!({"remaining_ms": [0, 10], "increment_ms": 0});
        assert_eq!(think_time(&flagging, "b", CAP), FLOOR);
    }
}
