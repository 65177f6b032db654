//! Tournaments as pure functions: no I/O, no async, no clock. Times are arguments (unix
//! milliseconds, from the server's clock), so the same events give the same tournament.
//!
//! - [`arena`]: lichess's arena — scoring with streaks and berserk (`scoring`), standings
//!   (`standings`), pairing the waiting players by a weighted matching (`pairing`), and the
//!   arena's director (`director`).
//! - [`round_robin`]: each plays each — the schedule (`schedule`), standings with the
//!   Sonneborn–Berger tie-break (`standings`) and the round robin's director (`director`).
//! - A director takes [`Event`]s and answers [`Decision`]s; it is serde-serialisable, so
//!   the server can store it, and a replay of its events rebuilds it exactly.
//!
//! The rules as players read them, and how pairing decides, are in `docs/tournaments.md`.

pub mod arena;
mod error;
mod event;
mod ids;
pub mod matching;
mod page;
mod plies;
mod result;
pub mod round_robin;

pub use error::Error;
pub use event::{Decision, Event};
pub use ids::{PairingId, PlayerId};
pub use page::Page;
pub use plies::PlyMinimums;
pub use result::GameResult;
