//! One entry of the schedule as the file writes it, and its check: the same bounds as a
//! player's own arena or round robin (`create.rs`, `round_robin/create.rs`), plus when it
//! recurs and how far ahead each occurrence is created.

use std::time::Duration;

use serde::Deserialize;

use super::recurrence::{Recurrence, Weekday};
use crate::tournaments::create::{self, ArenaRequest};
use crate::tournaments::round_robin::create::{self as rr_create, RoundRobinRequest};

/// How far ahead an occurrence is created when the entry does not say, in hours.
pub const DEFAULT_AHEAD_HOURS: u64 = 6;
/// The furthest ahead: a week, the furthest a tournament may be set.
pub const MAX_AHEAD_HOURS: u64 = 7 * 24;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Arena,
    RoundRobin,
}

/// An entry as written: the fields of `POST /api/tournaments` (without `starts_in`) and the
/// recurrence.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryText {
    /// Names the entry; with a start time it keys each occurrence, so it is not to be renamed
    /// while its events are upcoming.
    pub id: String,
    pub kind: Kind,
    pub game: String,
    pub variant: Option<String>,
    /// A live clock, in seconds.
    pub initial: Option<u64>,
    pub increment: Option<u64>,
    /// A correspondence round robin's days a move.
    pub days: Option<u64>,
    /// An arena's length, in minutes.
    pub minutes: Option<u64>,
    /// A round robin's most players.
    pub max_players: Option<u64>,
    #[serde(default = "yes")]
    pub rated: bool,
    /// An arena's berserk (on when absent).
    pub berserk: Option<bool>,
    /// An arena's house bots, after this many seconds of waiting.
    pub house_bots_after: Option<u64>,
    /// A correspondence round robin's vacation days (allowed when absent).
    pub vacation: Option<bool>,
    pub hours: Vec<u8>,
    #[serde(default)]
    pub minute: u8,
    /// Every day when absent.
    pub weekdays: Option<Vec<Weekday>>,
    /// Created this many hours before it starts.
    pub ahead_hours: Option<u64>,
}

fn yes() -> bool {
    true
}

/// A checked entry.
#[derive(Debug, Clone)]
pub struct Entry {
    pub text: EntryText,
    pub recurrence: Recurrence,
    pub ahead_ms: i64,
}

impl Entry {
    /// Checks `text`: the error names the field.
    pub fn check(text: EntryText) -> Result<Entry, String> {
        let id_ok = !text.id.is_empty()
            && text.id.len() <= 64
            && text
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !id_ok {
            return Err(
                "`id` must be 1 to 64 characters: lower-case letters, digits, `-` and `_`".into(),
            );
        }
        let recurrence = Recurrence::new(
            text.hours.clone(),
            text.minute,
            text.weekdays
                .clone()
                .unwrap_or_else(|| Weekday::ALL.to_vec()),
        )?;
        let ahead = text.ahead_hours.unwrap_or(DEFAULT_AHEAD_HOURS);
        if !(1..=MAX_AHEAD_HOURS).contains(&ahead) {
            return Err(format!("`ahead_hours` must be from 1 to {MAX_AHEAD_HOURS}"));
        }
        let entry = Entry {
            text,
            recurrence,
            ahead_ms: ahead as i64 * 3_600_000,
        };
        entry.forbid_the_other_kinds_fields()?;
        // The same checks as a player's request, at any start.
        let minute = Duration::from_secs(60);
        match entry.text.kind {
            Kind::Arena => create::parse(&entry.arena()?, 0, minute).map(|_| ()),
            Kind::RoundRobin => rr_create::parse(&entry.round_robin(), 0, minute).map(|_| ()),
        }
        .map_err(|e| e.message)?;
        Ok(entry)
    }

    fn forbid_the_other_kinds_fields(&self) -> Result<(), String> {
        let t = &self.text;
        let (kind, foreign) = match t.kind {
            Kind::Arena => (
                "an arena",
                vec![
                    ("days", t.days.is_some()),
                    ("max_players", t.max_players.is_some()),
                    ("vacation", t.vacation.is_some()),
                ],
            ),
            Kind::RoundRobin => (
                "a round robin",
                vec![
                    ("minutes", t.minutes.is_some()),
                    ("berserk", t.berserk.is_some()),
                    ("house_bots_after", t.house_bots_after.is_some()),
                ],
            ),
        };
        match foreign.into_iter().find(|(_, there)| *there) {
            Some((field, _)) => Err(format!("`{field}` is not a field of {kind}")),
            None => Ok(()),
        }
    }

    /// The arena it creates, as a player's request starting at once.
    pub fn arena(&self) -> Result<ArenaRequest<'_>, String> {
        let t = &self.text;
        let needed = |value: Option<u64>, field: &str| {
            value.ok_or_else(|| format!("an arena needs `{field}`"))
        };
        Ok(ArenaRequest {
            game: &t.game,
            variant: t.variant.as_deref(),
            initial_seconds: needed(t.initial, "initial")?,
            increment_seconds: t.increment.unwrap_or(0),
            minutes: needed(t.minutes, "minutes")?,
            starts_in_minutes: 0,
            rated: t.rated,
            berserk: t.berserk.unwrap_or(true),
            house_bots_after_seconds: t.house_bots_after,
        })
    }

    /// The round robin it creates, as a player's request starting at once.
    pub fn round_robin(&self) -> RoundRobinRequest<'_> {
        let t = &self.text;
        RoundRobinRequest {
            game: &t.game,
            variant: t.variant.as_deref(),
            days: t.days,
            initial_seconds: t.initial,
            increment_seconds: t.increment,
            // Zero is refused by the bounds' check, with the field's name.
            max_players: t.max_players.unwrap_or(0),
            starts_in_minutes: 0,
            rated: t.rated,
            vacation: t.vacation.unwrap_or(true),
        }
    }

    /// The key of the occurrence starting at `starts_at` (unix ms).
    pub fn key(&self, starts_at: i64) -> String {
        format!("{}@{starts_at}", self.text.id)
    }
}
