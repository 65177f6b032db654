//! The record a player keeps of the tournaments they took part in: each finished one, newest
//! first, with their place among its final standings and their points. Read from the frozen
//! standings written when it ended, never recomputed.

use serde::Serialize;
use utoipa::ToSchema;

use super::Tournaments;
use super::round_robin::KIND as ROUND_ROBIN;
use crate::error::ApiError;

/// Tournaments on one page of a player's record.
pub const PER_PAGE: usize = 20;

/// One tournament of a player's record.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Record {
    /// The tournament's id.
    pub id: String,
    /// `arena` or `round_robin`.
    pub kind: String,
    pub game: String,
    pub variant: String,
    pub initial_ms: i64,
    pub increment_ms: i64,
    /// A correspondence round robin's days a move.
    pub move_days: Option<i64>,
    pub rated: bool,
    /// Unix ms.
    pub starts_at: i64,
    /// Unix ms: when it ended.
    pub ends_at: i64,
    /// The site's own event, from its schedule (no player created it).
    pub site: bool,
    /// The player's place, from 1 (shared by players level in a round robin); absent when
    /// they are not in the final standings (they left before playing, or were struck out).
    pub place: Option<u32>,
    /// Players in the final standings.
    pub of: u32,
    /// The player's points (a round robin's in halves: 1.5).
    pub points: Option<f64>,
}

/// A page of a player's record.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RecordPage {
    pub tournaments: Vec<Record>,
    /// From 1.
    pub page: usize,
    /// There are older ones, on the next page.
    pub more: bool,
}

/// Where `player` finished in `row`'s frozen standings: (place, points) and the field's size.
fn place_of(
    row: &store::TournamentRow,
    player: &str,
) -> Result<(Option<(u32, f64)>, u32), ApiError> {
    let text = row.standings.as_deref().unwrap_or("[]");
    let unreadable = |e| ApiError::internal("stored standings do not read", e);
    let lines: Vec<(String, u32, f64)> = if row.kind == ROUND_ROBIN {
        serde_json::from_str::<Vec<tournament::round_robin::Standing>>(text)
            .map_err(unreadable)?
            .into_iter()
            .map(|l| (l.player.to_string(), l.rank, l.points()))
            .collect()
    } else {
        serde_json::from_str::<Vec<tournament::arena::Standing>>(text)
            .map_err(unreadable)?
            .into_iter()
            .map(|l| (l.player.to_string(), l.rank, f64::from(l.points)))
            .collect()
    };
    let mine = lines
        .iter()
        .find(|(id, _, _)| id == player)
        .map(|&(_, rank, points)| (rank, points));
    Ok((mine, lines.len() as u32))
}

impl Tournaments {
    /// Page `page` (from 1) of the finished tournaments `player` (a user id) entered.
    pub async fn records_of(&self, player: &str, page: usize) -> Result<RecordPage, ApiError> {
        let skip = (page.max(1) - 1) * PER_PAGE;
        let mut rows = self
            .store()
            .finished_tournaments_of(player, PER_PAGE as i64 + 1, skip as i64)
            .await?;
        let more = rows.len() > PER_PAGE;
        rows.truncate(PER_PAGE);
        let mut tournaments = Vec::with_capacity(rows.len());
        for row in rows {
            let (mine, of) = place_of(&row, player)?;
            tournaments.push(Record {
                place: mine.map(|(place, _)| place),
                points: mine.map(|(_, points)| points),
                of,
                site: row.scheduled,
                id: row.id,
                kind: row.kind,
                game: row.game,
                variant: row.variant,
                initial_ms: row.clock_initial_ms,
                increment_ms: row.clock_increment_ms,
                move_days: row.move_days,
                rated: row.rated,
                starts_at: row.starts_at,
                ends_at: row.ends_at,
            });
        }
        Ok(RecordPage {
            tournaments,
            page: page.max(1),
            more,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tournament::PlayerId;
    use tournament::round_robin::Standing;

    fn row(kind: &str, standings: &str) -> store::TournamentRow {
        store::TournamentRow {
            id: "t".into(),
            kind: kind.into(),
            game: "mill".into(),
            variant: "standard".into(),
            clock_initial_ms: 0,
            clock_increment_ms: 0,
            rated: true,
            starts_at: 0,
            ends_at: 0,
            status: "finished".into(),
            creator_id: None,
            settings: "{}".into(),
            standings: Some(standings.into()),
            created_at: 0,
            players: 0,
            move_days: Some(3),
            vacation: true,
            start_pushed: false,
            scheduled: true,
        }
    }

    #[test]
    fn a_round_robin_place_is_shared_and_its_points_have_halves() {
        let line = |player: &str, rank, half_points| Standing {
            rank,
            player: PlayerId::new(player.to_string()),
            rating: 1500,
            half_points,
            sb_quarters: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            withdrawn: false,
        };
        let standings = vec![line("ann", 1, 5), line("bob", 1, 5), line("cyd", 3, 2)];
        let row = row(ROUND_ROBIN, &serde_json::to_string(&standings).unwrap());
        assert_eq!(place_of(&row, "bob").unwrap(), (Some((1, 2.5)), 3));
        assert_eq!(place_of(&row, "cyd").unwrap(), (Some((3, 1.0)), 3));
        // Struck out: entered, but not in the final standings.
        assert_eq!(place_of(&row, "dee").unwrap(), (None, 3));
    }
}
