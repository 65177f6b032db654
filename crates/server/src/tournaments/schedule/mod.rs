//! The site's own tournaments, from a schedule in the server's configuration
//! (`--schedule FILE`, docs/tournaments.md "Scheduled events"): recurring arenas and round
//! robins, each occurrence created ahead of its start by the node holding the `tournaments`
//! role, once, keyed by the entry's id and its start time.
//!
//! - `entry.rs`: one entry as the file writes it, checked;
//! - `recurrence.rs`: when an entry recurs (hours of the day, weekdays; UTC);
//! - `default.rs`: the schedule used when none is given;
//! - `pass.rs`: the occurrences due created, each once.

mod default;
mod entry;
mod pass;
mod recurrence;

use serde::Deserialize;

pub use entry::{Entry, EntryText, Kind};
pub use pass::Made;
pub use recurrence::{Recurrence, Weekday};

/// The schedule: its entries, checked.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub entries: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScheduleText {
    events: Vec<EntryText>,
}

impl Schedule {
    /// What `--schedule` says: absent, the built-in schedule; `off`, none; otherwise the JSON
    /// file it names. The error names the file, and the line and field at fault.
    pub fn from_option(option: Option<&str>) -> Result<Option<Schedule>, String> {
        match option {
            None => Ok(Some(default::schedule())),
            Some("off") => Ok(None),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the schedule {path}: {e}"))?;
                Schedule::parse(&text)
                    .map(Some)
                    .map_err(|e| format!("the schedule {path} is wrong: {e}"))
            }
        }
    }

    /// Reads and checks a schedule's JSON text.
    pub fn parse(text: &str) -> Result<Schedule, String> {
        let written: ScheduleText = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut entries: Vec<Entry> = Vec::new();
        for (index, entry) in written.events.into_iter().enumerate() {
            let id = entry.id.clone();
            let place = match line_of_id(text, &id) {
                Some(line) => format!("line {line}, event `{id}`"),
                None => format!("event {} `{id}`", index + 1),
            };
            if entries.iter().any(|e| e.text.id == id) {
                return Err(format!("{place}: `id` is used by an earlier event"));
            }
            entries.push(Entry::check(entry).map_err(|e| format!("{place}: {e}"))?);
        }
        Ok(Schedule { entries })
    }
}

/// The line (from 1) where `"id": "<id>"` is written, to point at an entry's fault.
fn line_of_id(text: &str, id: &str) -> Option<usize> {
    let quoted = serde_json::to_string(id).ok()?;
    text.match_indices(&quoted).find_map(|(at, _)| {
        let before = text[..at].trim_end().strip_suffix(':')?;
        before
            .trim_end()
            .ends_with("\"id\"")
            .then(|| text[..at].matches('\n').count() + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{
  "events": [
    { "id": "evening", "kind": "arena", "game": "mill", "initial": 180, "increment": 2,
      "minutes": 45, "hours": [18, 20] },
    { "id": "weekly", "kind": "round_robin", "game": "mill", "days": 3, "max_players": 8,
      "hours": [12], "weekdays": ["mon"], "ahead_hours": 72 }
  ]
}"#;

    #[test]
    fn a_good_schedule_reads_with_its_defaults() {
        let schedule = Schedule::parse(GOOD).unwrap();
        assert_eq!(schedule.entries.len(), 2);
        let evening = &schedule.entries[0];
        assert_eq!(evening.ahead_ms, 6 * 3_600_000);
        assert_eq!(evening.recurrence.weekdays, Weekday::ALL.to_vec());
        assert!(evening.text.rated);
        assert_eq!(schedule.entries[1].recurrence.weekdays, vec![Weekday::Mon]);
    }

    #[test]
    fn a_fault_is_named_by_line_and_field() {
        let long = GOOD.replace("\"minutes\": 45", "\"minutes\": 900");
        let error = Schedule::parse(&long).unwrap_err();
        assert!(
            error.starts_with("line 3, event `evening`") && error.contains("length in minutes"),
            "{error}"
        );
        let misspelt = GOOD.replace("\"hours\": [12]", "\"hour\": [12]");
        let error = Schedule::parse(&misspelt).unwrap_err();
        assert!(
            error.contains("unknown field `hour`") && error.contains("line 6"),
            "{error}"
        );
        let foreign = GOOD.replace("\"days\": 3", "\"days\": 3, \"berserk\": true");
        let error = Schedule::parse(&foreign).unwrap_err();
        assert!(
            error.contains("`berserk` is not a field of a round robin"),
            "{error}"
        );
        let twice = GOOD.replace("\"weekly\"", "\"evening\"");
        let error = Schedule::parse(&twice).unwrap_err();
        assert!(
            error.contains("`id` is used by an earlier event"),
            "{error}"
        );
        let solo = GOOD.replace(
            "\"game\": \"mill\", \"days\"",
            "\"game\": \"white-rabbit\", \"days\"",
        );
        let error = Schedule::parse(&solo).unwrap_err();
        assert!(
            error.contains("line 5") && error.contains("alone"),
            "{error}"
        );
    }

    #[test]
    fn off_means_none_and_absent_means_the_built_in_schedule() {
        assert!(Schedule::from_option(Some("off")).unwrap().is_none());
        let built_in = Schedule::from_option(None).unwrap().unwrap();
        assert!(!built_in.entries.is_empty());
        let missing = Schedule::from_option(Some("/nonexistent/schedule.json")).unwrap_err();
        assert!(missing.contains("/nonexistent/schedule.json"), "{missing}");
    }
}
