//! What the API and the socket show of a tournament: its summary for the list, and its page
//! (the summary, a page of standings with names, the games in progress, and the caller's
//! own place in it). docs/protocol.md describes the fields.

use std::collections::HashMap;

use serde::Serialize;
use tournament::arena::{PairingStatus, Phase, Standing, scoring::Score};
use tournament::{GameResult, Page, PlayerId};

use super::{Loaded, Tournaments};
use crate::error::ApiError;
use crate::unix_time::unix_ms;

/// Standings lines on one page.
pub const PER_PAGE: usize = 20;
/// The games in progress a tournament's page lists: those of its best-placed players.
pub const GAMES_SHOWN: usize = 20;

/// A tournament as a list shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub id: String,
    pub kind: String,
    pub game: String,
    pub variant: String,
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub rated: bool,
    pub berserk: bool,
    /// Unix ms.
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running`, `finished` or `cancelled`.
    pub status: String,
    pub creator: Option<String>,
    /// The site's own event, from its schedule.
    pub site: bool,
    pub players: usize,
    /// A correspondence round robin's days for each move (its live clock is 0 + 0 then).
    pub move_days: Option<i64>,
    /// Its games may take vacation days.
    pub vacation: bool,
}

/// One line of the standings, with the player's name and the game they are in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    pub rank: u32,
    pub player: String,
    pub name: String,
    pub rating: i32,
    pub points: u32,
    pub performance: i32,
    pub on_fire: bool,
    pub paused: bool,
    pub withdrawn: bool,
    /// Each game's points in the order played, with what marked it.
    pub scores: Vec<ScoreMark>,
    /// The table of the game they play now.
    pub playing: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreMark {
    pub points: u32,
    /// `win`, `draw` or `loss`.
    pub result: GameResult,
    pub doubled: bool,
    pub early_draw: bool,
    /// The player went berserk in this game, and earned its extra point.
    pub berserk: bool,
    pub berserk_bonus: bool,
}

/// A game being played, to watch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameInProgress {
    pub table: String,
    /// Seat A's name, seat B's name.
    pub players: [String; 2],
}

/// The caller's part in the tournament.
#[derive(Debug, Clone, Serialize)]
pub struct Me {
    pub joined: bool,
    pub paused: bool,
    pub withdrawn: bool,
    /// The table of the caller's game now: their next game, to go to.
    pub playing: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PageView {
    pub tournament: Summary,
    pub standings: Page<Line>,
    pub games: Vec<GameInProgress>,
    pub me: Option<Me>,
    /// The server's clock (unix ms), for countdowns.
    pub now: i64,
}

impl Summary {
    pub fn of(row: &store::TournamentRow, players: usize, berserk: bool) -> Summary {
        Summary {
            id: row.id.clone(),
            kind: row.kind.clone(),
            game: row.game.clone(),
            variant: row.variant.clone(),
            initial_ms: row.clock_initial_ms,
            increment_ms: row.clock_increment_ms,
            rated: row.rated,
            berserk,
            starts_at: row.starts_at,
            ends_at: row.ends_at,
            status: row.status.clone(),
            creator: row.creator_id.clone(),
            site: row.scheduled,
            players,
            move_days: row.move_days,
            vacation: row.vacation,
        }
    }
}

/// Whether `rank` is on page `page` (from 1) of the standings.
pub(super) fn on_page(rank: u32, page: usize) -> bool {
    let rank = rank as usize;
    rank > page.saturating_sub(1).saturating_mul(PER_PAGE) && rank <= page.saturating_mul(PER_PAGE)
}

fn mark(score: &Score) -> ScoreMark {
    ScoreMark {
        points: score.points,
        result: score.played.result,
        doubled: score.doubled,
        early_draw: score.early_draw,
        berserk: score.played.berserk,
        berserk_bonus: score.berserk_bonus,
    }
}

impl Loaded {
    /// Who plays at which table now.
    fn playing(&self) -> HashMap<PlayerId, String> {
        let mut playing = HashMap::new();
        if self.arena.phase() == Phase::Finished {
            return playing;
        }
        for (_, record) in self.arena.pairings() {
            if let (PairingStatus::Playing, Some(game)) = (&record.status, &record.game) {
                for player in &record.seats {
                    playing.insert(player.clone(), game.clone());
                }
            }
        }
        playing
    }

    /// The lines of `standings` (as [`Arena::standings_unmarked`] gives them) that `wanted`
    /// picks, with names and each game's mark. A line's marks are most of its making, and a
    /// reader shows a page or two of an arena's hundreds of lines.
    ///
    /// [`Arena::standings_unmarked`]: tournament::arena::Arena::standings_unmarked
    pub fn lines_of(
        &self,
        names: &HashMap<String, String>,
        standings: &[Standing],
        wanted: impl Fn(&Standing) -> bool,
    ) -> Vec<Line> {
        let playing = self.playing();
        let named = |player: &PlayerId| {
            names
                .get(player.as_str())
                .cloned()
                .unwrap_or_else(|| player.to_string())
        };
        (standings.iter())
            .filter(|line| wanted(line))
            .map(|line: &Standing| Line {
                rank: line.rank,
                name: named(&line.player),
                playing: playing.get(&line.player).cloned(),
                player: line.player.to_string(),
                rating: line.rating,
                points: line.points,
                performance: line.performance,
                on_fire: line.on_fire,
                paused: line.paused,
                withdrawn: line.withdrawn,
                scores: (self.arena.games_of(&line.player).unwrap_or_default().iter())
                    .map(|game| mark(&game.score))
                    .collect(),
            })
            .collect()
    }

    /// The games being played, to watch: the [`GAMES_SHOWN`] of the best-placed players, by
    /// the standings' order (`standings`, as [`Loaded::lines_of`] takes them).
    pub fn games(
        &self,
        names: &HashMap<String, String>,
        standings: &[Standing],
    ) -> Vec<GameInProgress> {
        if self.arena.phase() == Phase::Finished {
            return Vec::new();
        }
        let ranks: HashMap<&str, u32> = standings
            .iter()
            .map(|line| (line.player.as_str(), line.rank))
            .collect();
        let best_rank = |seats: &[PlayerId; 2]| {
            seats
                .iter()
                .filter_map(|player| ranks.get(player.as_str()))
                .min()
                .copied()
                .unwrap_or(u32::MAX)
        };
        let mut games: Vec<(u32, GameInProgress)> = self
            .arena
            .pairings()
            .filter_map(|(_, record)| match (&record.status, &record.game) {
                (PairingStatus::Playing, Some(game)) => Some((
                    best_rank(&record.seats),
                    GameInProgress {
                        table: game.clone(),
                        players: record.seats.clone().map(|player| {
                            // A house bot keeps its id (`bot:easy`): pages name it in their language.
                            names
                                .get(player.as_str())
                                .cloned()
                                .unwrap_or_else(|| player.to_string())
                        }),
                    },
                )),
                _ => None,
            })
            .collect();
        games.sort_by_key(|(rank, game)| (*rank, game.table.clone()));
        games.truncate(GAMES_SHOWN);
        games.into_iter().map(|(_, game)| game).collect()
    }

    pub fn summary(&self) -> Summary {
        Summary::of(
            &self.row,
            self.arena.standings_unmarked().len(),
            self.arena.settings().berserk,
        )
    }
}

impl Tournaments {
    /// Tournament `id`'s page `page` of standings, as `viewer` (a user id) sees it.
    pub async fn page(
        &self,
        id: &str,
        page: usize,
        viewer: Option<&str>,
    ) -> Result<PageView, ApiError> {
        let page = page.max(1);
        let names = self.entrant_names(id).await?;
        let slot = self.slot(id).await?;
        let mut loaded = slot.lock().await;
        loaded.catch_up(&self.0.store).await?;
        let standings = loaded.arena.standings_unmarked();
        let shown = Page::of(&standings, page, PER_PAGE);
        let lines = loaded.lines_of(&names, &standings, |line| {
            on_page(line.rank, page) || viewer.is_some_and(|me| line.player.as_str() == me)
        });
        let me = viewer.map(|viewer| {
            let line = lines.iter().find(|line| line.player == viewer);
            Me {
                joined: line.is_some(),
                paused: line.is_some_and(|l| l.paused),
                withdrawn: line.is_some_and(|l| l.withdrawn),
                playing: line.and_then(|l| l.playing.clone()),
            }
        });
        let items = (lines.iter())
            .filter(|line| on_page(line.rank, page))
            .cloned()
            .collect();
        Ok(PageView {
            tournament: loaded.summary(),
            standings: Page {
                items,
                page: shown.page,
                pages: shown.pages,
                total: shown.total,
            },
            games: loaded.games(&names, &standings),
            me,
            now: unix_ms(),
        })
    }
}
