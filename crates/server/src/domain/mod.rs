//! What a request may ask for, checked once: each type here is built only by a parsing
//! constructor, so whoever holds one — an HTTP route, a socket session, the daily deal — holds
//! something already valid. A table's settings are checked the same way, by the parser and
//! the named constructors of `table::TableSettings`, which lives beside the table's rules
//! because they keep it.

pub mod bots;
pub mod lobby_query;
pub mod password;
pub mod position_query;
pub mod username;

pub use lobby_query::LobbyQuery;
pub use password::Password;
pub use username::Username;
