//! A new password, as an account may set it.

use crate::error::ApiError;

/// A password of 8 to 128 characters.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub fn parse(typed: &str) -> Result<Password, ApiError> {
        if (8..=128).contains(&typed.chars().count()) {
            Ok(Password(typed.to_string()))
        } else {
            Err(ApiError::bad_request("a password has 8 to 128 characters"))
        }
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

// Never printed, not even in a debug log.
impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_checked() {
        assert!(Password::parse("short").is_err());
        assert!(Password::parse("long enough").is_ok());
        assert!(Password::parse(&"x".repeat(129)).is_err());
    }
}
