//! Offers between the players: a draw, a rematch, a takeback, put on the table or withdrawn.
//! Who may offer or answer is checked in [`super::rules`]; an offer lives in memory only. The
//! rematch's table is opened by the actor (`actor/ending.rs`).

use catalog::Seat;

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
        // A correspondence player hears of a draw offer wherever they are.
        if kind == OfferKind::Draw
            && self.settings.days.is_some()
            && let Some(Some(other)) = self.seats.get(by.other().index())
        {
            effects.push(Effect::Notify {
                user: other.id.clone(),
                kind: "draw_offer",
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
