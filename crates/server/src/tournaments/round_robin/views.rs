//! What the API shows of a round robin: its summary, the cross table (each player's results
//! against each other, points, Sonneborn–Berger) and its games. docs/protocol.md describes
//! the fields.

use std::collections::HashMap;

use serde::Serialize;
use tournament::round_robin::{GameStatus, Phase};
use tournament::{GameResult, PlayerId};

use super::super::Tournaments;
use super::super::views::Summary;
use super::LoadedRoundRobin;
use crate::error::ApiError;
use crate::unix_time::unix_ms;

/// One line of the cross table, in the standings' order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrossLine {
    /// From 1; players level on points, Sonneborn–Berger and wins share it.
    pub rank: u32,
    pub player: String,
    pub name: String,
    pub rating: i32,
    pub points: f64,
    pub sonneborn_berger: f64,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub withdrawn: bool,
    /// Against each line's player, in the lines' order (empty against oneself): the games
    /// between the two, in the schedule's order.
    pub against: Vec<Vec<CrossGame>>,
}

/// One game in a cell of the cross table, as its line's player played it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrossGame {
    /// The line's player's seat: `a` or `b`.
    pub seat: &'static str,
    /// `win`, `draw` or `loss` once it counts; `None` while it is to come or being played.
    pub result: Option<GameResult>,
    /// Won or lost because a player withdrew.
    pub forfeit: bool,
    pub table: Option<String>,
}

/// A game of the schedule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScheduledGame {
    /// From 1.
    pub round: u32,
    /// Seat A's name, seat B's name.
    pub players: [String; 2],
    /// `scheduled`, `created`, `playing`, `finished`, `forfeited` or `annulled`.
    pub status: &'static str,
    /// The outcome (`a`, `b`, `draw`) once it counts.
    pub result: Option<String>,
    pub table: Option<String>,
}

/// The caller's part in the round robin.
#[derive(Debug, Clone, Serialize)]
pub struct RoundRobinMe {
    pub joined: bool,
    pub withdrawn: bool,
    /// Their games being played, to go to.
    pub playing: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoundRobinPage {
    pub tournament: Summary,
    pub cross_table: Vec<CrossLine>,
    pub games: Vec<ScheduledGame>,
    pub me: Option<RoundRobinMe>,
    /// The server's clock (unix ms), for countdowns.
    pub now: i64,
}

fn status_name(status: &GameStatus) -> &'static str {
    match status {
        GameStatus::Scheduled => "scheduled",
        GameStatus::Created => "created",
        GameStatus::Playing => "playing",
        GameStatus::Finished { .. } => "finished",
        GameStatus::Forfeited { .. } => "forfeited",
        GameStatus::Annulled => "annulled",
    }
}

/// The outcome of a game that counts, as the seats scored it.
fn outcome(seats: &[PlayerId; 2], status: &GameStatus) -> Option<catalog::Outcome> {
    match status {
        GameStatus::Finished { outcome, .. } => Some(*outcome),
        GameStatus::Forfeited { loser } => {
            let loser = seats.iter().position(|p| p == loser)?;
            Some(catalog::Outcome::Win(catalog::Seat::from_index(1 - loser)?))
        }
        _ => None,
    }
}

impl LoadedRoundRobin {
    fn name(names: &HashMap<String, String>, player: &PlayerId) -> String {
        names
            .get(player.as_str())
            .cloned()
            .unwrap_or_else(|| player.to_string())
    }

    /// The cross table, in the standings' order.
    pub fn cross_table(&self, names: &HashMap<String, String>) -> Vec<CrossLine> {
        let standings = self.director.standings();
        let order: Vec<&PlayerId> = standings.iter().map(|line| &line.player).collect();
        standings
            .iter()
            .map(|line| {
                let against = order
                    .iter()
                    .map(|&opponent| self.cell(&line.player, opponent))
                    .collect();
                CrossLine {
                    rank: line.rank,
                    player: line.player.to_string(),
                    name: Self::name(names, &line.player),
                    rating: line.rating,
                    points: line.points(),
                    sonneborn_berger: line.sonneborn_berger(),
                    wins: line.wins,
                    draws: line.draws,
                    losses: line.losses,
                    withdrawn: line.withdrawn,
                    against,
                }
            })
            .collect()
    }

    /// `player`'s games against `opponent`.
    fn cell(&self, player: &PlayerId, opponent: &PlayerId) -> Vec<CrossGame> {
        if player == opponent {
            return Vec::new();
        }
        self.director
            .games()
            .filter_map(|(_, game)| {
                let index = game.seats.iter().position(|p| p == player)?;
                if &game.seats[1 - index] != opponent || game.status == GameStatus::Annulled {
                    return None;
                }
                let result = outcome(&game.seats, &game.status)
                    .map(|outcome| GameResult::of(outcome, index));
                Some(CrossGame {
                    seat: if index == 0 { "a" } else { "b" },
                    result,
                    forfeit: matches!(game.status, GameStatus::Forfeited { .. }),
                    table: game.game.clone(),
                })
            })
            .collect()
    }

    /// Every game of the schedule (none before the start).
    pub fn schedule(&self, names: &HashMap<String, String>) -> Vec<ScheduledGame> {
        self.director
            .games()
            .map(|(_, game)| ScheduledGame {
                round: game.round + 1,
                players: game.seats.clone().map(|p| Self::name(names, &p)),
                status: status_name(&game.status),
                result: outcome(&game.seats, &game.status).map(|o| o.to_string()),
                table: game.game.clone(),
            })
            .collect()
    }

    pub fn summary(&self) -> Summary {
        Summary::of(&self.row, self.director.standings().len(), false)
    }
}

impl Tournaments {
    /// Round robin `id`'s page as `viewer` (a user id) sees it; `None` when `id` is an arena.
    pub async fn round_robin_page(
        &self,
        id: &str,
        viewer: Option<&str>,
    ) -> Result<Option<RoundRobinPage>, ApiError> {
        let Some(slot) = self.round_robin(id).await? else {
            return Ok(None);
        };
        let names = self.entrant_names(id).await?;
        let mut loaded = slot.lock().await;
        loaded.catch_up(&self.0.store).await?;
        let cross_table = loaded.cross_table(&names);
        let me = viewer.map(|viewer| {
            let line = cross_table.iter().find(|line| line.player == viewer);
            let over = loaded.director.phase() != Phase::Running;
            let playing = loaded
                .director
                .games()
                .filter(|(_, g)| !over && g.status == GameStatus::Playing)
                .filter(|(_, g)| g.seats.iter().any(|p| p.as_str() == viewer))
                .filter_map(|(_, g)| g.game.clone())
                .collect();
            // A player struck out is in no line, but withdrew all the same.
            let withdrew = loaded.director.withdrawal(&PlayerId::new(viewer)).is_some();
            RoundRobinMe {
                joined: line.is_some() || withdrew,
                withdrawn: withdrew,
                playing,
            }
        });
        Ok(Some(RoundRobinPage {
            tournament: loaded.summary(),
            games: loaded.schedule(&names),
            cross_table,
            me,
            now: unix_ms(),
        }))
    }
}
