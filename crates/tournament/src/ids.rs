//! The names a tournament gives to the people and games in it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player of the platform (an account or a house bot), by the id the server gives it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(String);

impl PlayerId {
    pub fn new(id: impl Into<String>) -> PlayerId {
        PlayerId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One game a director asked for, numbered from 0 in the order the director made them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PairingId(pub u32);

impl fmt::Display for PairingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// `items` with their ids: a director's games are kept in a list whose index is the id.
pub(crate) fn numbered<T>(items: &[T]) -> impl Iterator<Item = (PairingId, &T)> {
    (0u32..).map(PairingId).zip(items)
}

/// [`numbered`], to change the items.
pub(crate) fn numbered_mut<T>(items: &mut [T]) -> impl Iterator<Item = (PairingId, &mut T)> {
    (0u32..).map(PairingId).zip(items)
}
