//! A table's id: the short random name a table goes by in its link, its rows and every message
//! about it. Built by [`TableId::random`] for a new table, or by [`TableId::parse`] from what a
//! client or a stored row names, so that whoever holds one holds a well-formed id (whether such
//! a table exists is the hub's question).

use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

use rand::RngExt;
use serde::{Deserialize, Deserializer, Serialize};

/// The letters of a new id: no look-alikes (0/O, 1/l/I).
const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/// A new id's length.
const NEW_LENGTH: usize = 8;
/// The longest id a request may name.
const MAX_LENGTH: usize = 64;

/// A table's id; cheap to clone (one shared string).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct TableId(Arc<str>);

/// Not a table's id: empty, too long, or with a character no id has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a table's id is 1 to {MAX_LENGTH} letters, digits, '-' or '_'")]
pub struct BadTableId;

impl TableId {
    /// A fresh id for a new table.
    pub fn random() -> TableId {
        let mut rng = rand::rng();
        let id: String = (0..NEW_LENGTH)
            .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
            .collect();
        TableId(id.into())
    }

    /// An id as named by a request or a stored row.
    pub fn parse(text: &str) -> Result<TableId, BadTableId> {
        let well_formed = !text.is_empty()
            && text.len() <= MAX_LENGTH
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if well_formed {
            Ok(TableId(text.into()))
        } else {
            Err(BadTableId)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An id is read as the text it is (the store's rows and the log take `&str`).
impl std::ops::Deref for TableId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// So that a map keyed by ids is searched with the `&str` a route holds.
impl Borrow<str> for TableId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for TableId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for TableId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        TableId::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_id_parses_back_to_itself() {
        let id = TableId::random();
        assert_eq!(id.as_str().len(), NEW_LENGTH);
        assert_eq!(TableId::parse(id.as_str()), Ok(id));
    }

    #[test]
    fn ids_that_no_table_has_are_refused() {
        for bad in ["", "a b", "../x", "é", &"a".repeat(MAX_LENGTH + 1)] {
            assert_eq!(TableId::parse(bad), Err(BadTableId), "{bad:?}");
        }
        assert!(TableId::parse("no-such_table9").is_ok());
    }

    #[test]
    fn it_is_read_and_written_as_a_plain_string() {
        let id: TableId = serde_json::from_str("\"abc\"").unwrap();
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"abc\"");
        assert!(serde_json::from_str::<TableId>("\"a b\"").is_err());
    }
}
