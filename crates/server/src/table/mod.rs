//! A table: one game, its seats, clock, offers, chat and watchers, in two layers.
//!
//! - [`core`], the rules: a pure state machine over `TableState` (see its doc). No runtime,
//!   database, socket, hub or clock read; the time is an argument.
//! - [`actor`], the actor that runs them: one command at a time from a bounded channel (a
//!   cloneable [`TableHandle`] in front of it, as fishnet's `ApiStub`), with narrow
//!   [`Services`] instead of the hub. Every write through the store, every timer and every
//!   message sent is here. That single line of commands keeps the move protocol simple and
//!   safe: check with the rules → commit to the database → only then apply and tell anyone.
//!
//! The core never imports the actor; `crates/server/tests/architecture.rs` checks both rules.

mod actor;
mod core;

pub use actor::handle::{Answer, Call, Command, Forwarder, Forwarding, TableHandle, Watchers};
pub use actor::{Table, services};
pub use core::{
    Action, CHAT_MAX_CHARS, CORRESPONDENCE_DAYS, NewTable, RATED_FOR_ACCOUNTS, SoloPosition,
    TableSettings, bot_level, bot_user,
};
pub use core::{clock, vacation};
pub use services::Services;
