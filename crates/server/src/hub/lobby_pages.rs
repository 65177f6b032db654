//! The lobby's pages, as pure functions: the open tables in the lobby's order, one page of
//! them, and what changed between two versions of a page — so that a watcher is sent the few
//! lines that changed, not the whole lobby.

use std::cmp::Reverse;
use std::collections::HashMap;

use serde_json::Value;

use crate::domain::LobbyQuery;

/// Where an entry stands in the lobby's order: the newest table first (`opened_at`), then by
/// id, so that every node and every client puts the same entries in the same order.
pub(super) type OrderKey = (Reverse<i64>, String);

/// A lobby entry with what the pages read of it taken out once: its place and its game.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Listed {
    pub key: OrderKey,
    pub game: String,
    pub entry: Value,
}

impl Listed {
    pub fn new(entry: Value) -> Listed {
        let key = (
            Reverse(entry["opened_at"].as_i64().unwrap_or(0)),
            id_of(&entry).to_string(),
        );
        let game = entry["game"].as_str().unwrap_or_default().to_string();
        Listed { key, game, entry }
    }
}

/// Entries in the lobby's order (for entries not kept in order already).
pub(super) fn in_order<'a>(entries: impl Iterator<Item = &'a Listed>) -> Vec<&'a Listed> {
    let mut listed: Vec<&Listed> = entries.collect();
    listed.sort_by(|a, b| a.key.cmp(&b.key));
    listed
}

/// The page `query` asks for out of entries in the lobby's order, and how many match it in
/// all.
pub(super) fn page<'a>(
    ordered: impl IntoIterator<Item = &'a Listed>,
    query: &LobbyQuery,
) -> (Vec<Value>, usize) {
    let game = query.game().map(|g| g.as_str());
    let mut total = 0;
    let mut shown = Vec::new();
    for listed in ordered
        .into_iter()
        .filter(|listed| game.is_none_or(|g| listed.game == g))
    {
        if total >= query.offset() && shown.len() < query.limit() {
            shown.push(listed.entry.clone());
        }
        total += 1;
    }
    (shown, total)
}

/// What turns page `old` into page `new`: the ids that left it, and the entries that are new
/// to it or changed.
pub(super) fn changes(old: &[Value], new: &[Value]) -> (Vec<String>, Vec<Value>) {
    let before: HashMap<&str, &Value> = old.iter().map(|e| (id_of(e), e)).collect();
    let after: HashMap<&str, &Value> = new.iter().map(|e| (id_of(e), e)).collect();
    let removed = old
        .iter()
        .map(id_of)
        .filter(|id| !after.contains_key(id))
        .map(str::to_string)
        .collect();
    let upserted = new
        .iter()
        .filter(|entry| before.get(id_of(entry)) != Some(entry))
        .cloned()
        .collect();
    (removed, upserted)
}

fn id_of(entry: &Value) -> &str {
    entry["id"].as_str().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn entry(id: &str, game: &str, opened_at: i64) -> Listed {
        Listed::new(json!({"id": id, "game": game, "opened_at": opened_at, "players": []}))
    }

    fn values(listed: &[&Listed]) -> Vec<Value> {
        listed.iter().map(|l| l.entry.clone()).collect()
    }

    /// What a client does with a change: drop, put in by id, order.
    fn apply(page: &[Value], removed: &[String], upserted: &[Value]) -> Vec<Value> {
        let mut next: Vec<Value> = page
            .iter()
            .filter(|e| !removed.iter().any(|id| id == id_of(e)))
            .filter(|e| !upserted.iter().any(|u| id_of(u) == id_of(e)))
            .cloned()
            .collect();
        next.extend(upserted.iter().cloned());
        let next: Vec<Listed> = next.into_iter().map(Listed::new).collect();
        values(&in_order(next.iter()))
    }

    #[test]
    fn the_newest_table_comes_first_and_ties_go_by_id() {
        let entries = [
            entry("b", "mill", 5),
            entry("c", "mill", 9),
            entry("a", "mill", 5),
        ];
        let ordered = values(&in_order(entries.iter()));
        let ids: Vec<&str> = ordered.iter().map(id_of).collect();
        assert_eq!(ids, ["c", "a", "b"]);
    }

    #[test]
    fn a_page_counts_every_match_but_holds_only_its_own() {
        let entries: Vec<Listed> = (0..10)
            .map(|i| {
                entry(
                    &format!("t{i}"),
                    if i % 2 == 0 { "mill" } else { "cephalopod" },
                    i,
                )
            })
            .collect();
        let ordered = in_order(entries.iter());
        let query = LobbyQuery::parse(Some("mill"), Some(1), Some(2)).unwrap();
        let (shown, total) = page(ordered.iter().copied(), &query);
        assert_eq!(total, 5);
        let ids: Vec<&str> = shown.iter().map(id_of).collect();
        assert_eq!(ids, ["t6", "t4"]);
        let past_the_end = LobbyQuery::parse(None, Some(40), None).unwrap();
        assert_eq!(page(ordered.iter().copied(), &past_the_end), (vec![], 10));
    }

    #[test]
    fn a_change_names_only_what_moved_and_applied_gives_the_new_page() {
        let query = LobbyQuery::parse(None, None, Some(3)).unwrap();
        let mut lobby: Vec<Value> = (0..5)
            .map(|i| entry(&format!("t{i}"), "mill", i).entry)
            .collect();
        let page_of = |lobby: &[Value]| {
            let listed: Vec<Listed> = lobby.iter().cloned().map(Listed::new).collect();
            page(in_order(listed.iter()), &query)
        };
        let (old, _) = page_of(&lobby);
        // A newer table pushes the oldest of the page off; another table's seats change; an
        // entry off the page closes.
        lobby.push(entry("t9", "mill", 9).entry);
        lobby[3]["players"] = json!(["alice"]);
        lobby.remove(0);
        let (new, total) = page_of(&lobby);
        assert_eq!(total, 5);
        let (removed, upserted) = changes(&old, &new);
        assert_eq!(removed, ["t2"]);
        let ids: Vec<&str> = upserted.iter().map(id_of).collect();
        assert_eq!(ids, ["t9", "t3"]);
        assert_eq!(apply(&old, &removed, &upserted), new);
        assert_eq!(changes(&new, &new), (vec![], vec![]));
    }
}
