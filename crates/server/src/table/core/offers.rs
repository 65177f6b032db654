//! Offers between the players: a draw, a rematch, a takeback, put on the table or withdrawn.
//! Who may offer or answer is checked in [`super::rules`]; an offer lives in memory only. The
//! rematch's table is opened by the actor (`actor/ending.rs`).

use catalog::Seat;
use record::NoteKind;

use super::bot_level;
use super::effects::Effect;
use super::state::TableState;
use crate::ws::protocol::{Message, OfferKind};

impl TableState {
    /// Puts `by`'s offer of `kind` on the table.
    pub fn offer(&mut self, kind: OfferKind, by: Seat) -> Vec<Effect> {
        *self.offer_slot(kind) = Some(by);
        let mut effects = vec![Effect::Broadcast(Message::Offer {
            table: self.id.to_string(),
            kind,
            by: Some(by.letter()),
        })];
        // A correspondence player hears of a draw offer wherever they are; a player who left
        // the finished game hears of a rematch offer (a bot answers at the table itself).
        let note = match kind {
            OfferKind::Draw if self.settings.days().is_some() => Some(NoteKind::DrawOffer),
            OfferKind::Rematch => Some(NoteKind::RematchOffer),
            _ => None,
        };
        if let Some(note) = note
            && let Some(Some(other)) = self.seats.get(by.other().index())
            && bot_level(other).is_none()
        {
            effects.push(Effect::Notify {
                user: other.id.clone(),
                kind: note,
            });
        }
        effects
    }

    /// Withdraws the offer of `kind`.
    pub fn clear_offer(&mut self, kind: OfferKind) -> Vec<Effect> {
        *self.offer_slot(kind) = None;
        vec![Effect::Broadcast(Message::Offer {
            table: self.id.to_string(),
            kind,
            by: None,
        })]
    }

    fn offer_slot(&mut self, kind: OfferKind) -> &mut Option<Seat> {
        match kind {
            OfferKind::Draw => &mut self.draw_offer,
            OfferKind::Rematch => &mut self.rematch_offer,
            OfferKind::Takeback => &mut self.takeback_offer,
        }
    }
}
