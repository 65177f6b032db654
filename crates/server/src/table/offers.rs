//! Offers between the players: a draw, a rematch, a takeback. The rules decide who may offer
//! or answer ([`super::core`]); an offer lives in memory only, while the rematch's table is
//! opened through the hub.

use catalog::Seat;

use super::core::TableState;
use super::effects::Effect;
use super::services::RematchOf;
use super::{Table, TableSettings};
use crate::error::WsError;
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

impl Table {
    pub(super) async fn start_rematch(&mut self) -> Result<(), WsError> {
        // Colours swap: the second seat of this game is the first of the next.
        let mut seats = self.state.seats.clone();
        seats.reverse();
        // Another game of the daily deal would be a second attempt: the next one is a new deal.
        let settings = TableSettings {
            daily: None,
            practice: None,
            ..self.state.settings.clone()
        };
        let host = self.state.host.as_ref().and_then(|id| {
            self.state
                .seats
                .iter()
                .flatten()
                .find(|u| &u.id == id)
                .cloned()
        });
        let next = self
            .services
            .tables
            .open(
                settings,
                host,
                seats,
                Some(RematchOf {
                    id: self.state.id.to_string(),
                    token: self.state.token.clone(),
                }),
            )
            .await?;
        self.state.rematch = Some(next.id.to_string());
        self.state.rematch_offer = None;
        self.broadcast(&Message::Rematch {
            table: self.state.id.to_string(),
            next: next.id.to_string(),
        });
        Ok(())
    }
}
