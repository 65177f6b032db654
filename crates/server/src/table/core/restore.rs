//! A table's state rebuilt from its stored record: the moves replayed, the seats, the clock
//! from the times stored with the last move, the correspondence deadline (a date, so time the
//! server was down counts) and a vacation under way. The one place a state is built from a
//! record; the actor reads the record and the chat and hands them in.

use crate::ws::protocol::TableId;
use record::{GameRecord, GameStatus};
use std::collections::HashMap;
use std::time::Duration;

use catalog::AnyGame;

use super::clock::Clock;
use super::presence::Presence;
use super::state::TableState;
use super::{Ply, TableSettings, bot_user, next_turn};
use crate::ws::protocol::{ChatView, UserView, VacationView};

impl TableState {
    /// The state of the stored game `record` with the tail of its `chat`, held (no clock runs
    /// until the actor releases it); `day` is a correspondence day.
    pub fn restore(
        record: &GameRecord,
        chat: Vec<ChatView>,
        day: Duration,
    ) -> Result<TableState, String> {
        let settings = TableSettings::restored(record)?;
        let variant = settings.variant();
        let mut game = AnyGame::new(variant, record.seed);
        let mut plies = Vec::new();
        for row in &record.moves {
            let by = game.to_move().ok_or("a move after the end")?;
            game.play_text(&row.mv)
                .map_err(|e| format!("ply {}: {e}", row.ply))?;
            plies.push(Ply {
                mv: row.mv.clone(),
                by,
                position: game.view(None),
                clock: row.clock_a_ms.zip(row.clock_b_ms).map(|(a, b)| [a, b]),
            });
        }
        let mut seats = vec![None; variant.game().info().seats as usize];
        for seat in &record.seats {
            let Some(slot) = seats.get_mut(seat.seat as usize) else {
                continue;
            };
            if let Some(user_id) = &seat.user_id {
                *slot = Some(UserView {
                    id: user_id.clone(),
                    name: seat.display_name.clone().unwrap_or_default(),
                    guest: seat.guest,
                    bot: seat.bot_account,
                });
            } else if let Some(level) = seat.bot.as_deref().and_then(|b| b.parse().ok()) {
                *slot = Some(bot_user(level));
            }
        }
        let clock = settings
            .control()
            .map(|control| match plies.last().and_then(|p| p.clock) {
                Some(remaining) => Clock::resumed(control, remaining),
                None => Clock::new(control),
            });
        let days = settings.days();
        // The deadline runs from the last move (or the start): it is a date, not a clock, so
        // time the server was down counts like any other.
        // Vacation days taken for the move to play now moved its deadline later.
        let vacation_deadline = record
            .vacation_deadline
            .filter(|(ply, _)| *ply == record.moves.len() as i64)
            .map(|(_, at)| at);
        let deadline = days
            .filter(|_| record.status == GameStatus::Playing)
            .map(|d| {
                let since = record
                    .moves
                    .last()
                    .map(|m| m.played_at)
                    .or(record.started_at)
                    .unwrap_or(record.created_at);
                let due = since + day.as_millis() as i64 * i64::from(d);
                vacation_deadline.map_or(due, |at| at.max(due))
            });
        // Its days left are read once the actor runs ([`Table::load_vacation`]).
        let vacation = vacation_deadline
            .filter(|_| deadline.is_some())
            .and_then(|_| game.to_move())
            .map(|seat| VacationView {
                seat: seat.letter().into(),
                days_left: None,
            });
        Ok(TableState {
            id: TableId::parse(&record.id).map_err(|e| e.to_string())?,
            seed: record.seed,
            takeback_offer: None,
            next: next_turn(&game),
            deadline,
            warned: false,
            vacation,
            settings,
            token: record.invite_token.clone().unwrap_or_default(),
            host: record.host_id.clone(),
            seats,
            status: record.status,
            game,
            plies,
            clock,
            result: record.result,
            reason: record.end_reason,
            draw_offer: None,
            rematch_offer: None,
            // A table reloaded after its rematch began must not start a second one.
            rematch: record.rematch.clone(),
            chat: chat.into(),
            chat_times: HashMap::new(),
            ratings: Vec::new(),
            created_at: record.created_at,
            started_at: record.started_at,
            rating_changes: {
                let mut changes = vec![None; variant.game().info().seats as usize];
                for seat in &record.seats {
                    if let Some(slot) = changes.get_mut(seat.seat as usize) {
                        *slot = seat.rating_change;
                    }
                }
                changes
            },
            presence: Presence::default(),
            day,
            held: true,
            arena: None,
        })
    }
}
