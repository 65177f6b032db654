//! A bot's turn at a table: it thinks on the CPU pool (never on the tables' runtime, and below
//! the tables' priority), and its decision (a move, a move with a draw offer, taking the
//! person's offer, or resigning; `ai::decide`) is carried out through the same checks, store
//! and messages as a person's order, so that it is written, told and rated alike. At a table
//! where only house bots sit (the bot ladder's), nobody waits for the move: it thinks at the
//! pool's ladder priority, below everything a person waits for, for a short fixed time, through
//! one lane shared by all such tables (`BotsOnlyLane`).

use catalog::Seat;
use std::time::Instant;
use store::GameStatus;
use tokio::sync::mpsc;

use super::Table;
use super::handle::Command;
use crate::cpu_pool::Priority;
use crate::error::WsError;
use crate::table::core::{Orderer, Step};
use crate::table::{Action, bot_level};

impl Table {
    /// When a bot is to move, lets it think; its answer comes back as [`Command::BotMove`].
    pub(super) fn ask_bot_if_its_turn(&mut self) {
        if self.bot_thinking {
            return;
        }
        let Some((level, ply)) = self.state.bot_turn() else {
            return;
        };
        let Some(me) = self.me.as_ref().and_then(mpsc::WeakSender::upgrade) else {
            return;
        };
        self.bot_thinking = true;
        let game = self.state.game.clone();
        let offered = self.draw_offered_to_mover();
        let seed: u64 = rand::random();
        let bots_only = self
            .state
            .seats
            .iter()
            .all(|seat| seat.as_ref().is_some_and(|u| bot_level(u).is_some()));
        let priority = if bots_only {
            Priority::Ladder
        } else {
            Priority::Bot
        };
        let budget = ai::Budget::Time(self.services.bots.budget(level, bots_only));
        let think = move || {
            let decision = ai::decide(&game, level, budget, seed, offered);
            let _ = me.blocking_send(Command::BotMove {
                ply,
                offered,
                decision,
            });
        };
        let cpu = self.services.bots.cpu.clone();
        if bots_only {
            self.services.bots.bots_only.think(cpu, priority, think);
        } else {
            cpu.spawn(priority, think);
        }
    }

    /// Whether the side to move has a draw offer from its opponent to answer.
    fn draw_offered_to_mover(&self) -> bool {
        let mover = self.state.game.to_move();
        mover.is_some_and(|seat: Seat| self.state.draw_offer == Some(seat.other()))
    }

    /// Carries out a bot's decision for the position at `ply`, unless the game has moved on.
    /// A decision thought before the person offered a draw is dropped, and the bot thinks
    /// again with the offer in view.
    pub(super) async fn carry_out_bot_decision(
        &mut self,
        ply: u32,
        offered: bool,
        decision: Option<ai::Decision>,
    ) {
        let stale =
            ply as usize != self.state.plies.len() || self.state.status != GameStatus::Playing;
        if stale || offered != self.draw_offered_to_mover() {
            return;
        }
        let Some(decision) = decision else {
            return;
        };
        let Some(bot) = self.state.mover().cloned() else {
            return;
        };
        let by = Orderer {
            user: &bot,
            subscribed: false,
        };
        let mut orders = match &decision {
            ai::Decision::Play(mv) | ai::Decision::PlayAndOfferDraw(mv) => vec![Action::Move {
                mv: mv.clone(),
                ply: Some(ply),
            }],
            ai::Decision::AcceptDraw => vec![Action::DrawAccept],
            ai::Decision::Resign => vec![Action::Resign],
        };
        if matches!(decision, ai::Decision::PlayAndOfferDraw(_)) {
            orders.push(Action::DrawOffer);
        }
        for action in orders {
            if self.state.status != GameStatus::Playing {
                break;
            }
            if let Err(e) = self.carry_out(&by, &action).await {
                tracing::error!(table = %self.state.id, ?decision, error = %e, "a bot's order was refused");
                break;
            }
        }
    }

    /// One order of the bot, checked by the rules like a person's.
    async fn carry_out(&mut self, by: &Orderer<'_>, action: &Action) -> Result<(), WsError> {
        match self.state.check(by, action, Instant::now())? {
            Step::Move { seat, mv, next } => self.play(seat, mv, *next).await,
            Step::Finish {
                status,
                result,
                reason,
            } => self.finish(status, result, reason).await,
            Step::Offer { kind, by } => {
                let effects = self.state.offer(kind, by);
                self.deliver(effects);
                Ok(())
            }
            _ => unreachable!("a bot moves, offers or takes a draw, or resigns"),
        }
    }
}
