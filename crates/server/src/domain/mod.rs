//! What a request may ask for, checked once: each type here is built only by a parsing
//! constructor, so whoever holds one — an HTTP route, a socket session, the daily deal — holds
//! something already valid.

pub mod bots;
pub mod lobby_query;
pub mod password;
pub mod position_query;
pub mod table_settings;
pub mod username;

pub use lobby_query::LobbyQuery;
pub use password::Password;
pub use username::Username;
