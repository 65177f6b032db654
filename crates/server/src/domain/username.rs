//! A username that may be registered: the checks of [`crate::names`], in one constructor.

use crate::error::{ApiError, ErrorCode};
use crate::names::{is_reserved, is_single_script, is_well_formed, normal_form, skeleton_of};

/// A username that may be registered, with the forms it is compared in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Username {
    name: String,
    skeleton: String,
}

impl Username {
    /// Checks a name for registration: 3–20 letters, digits, `_` or `-`, of one script, not
    /// reserved.
    pub fn parse(typed: &str) -> Result<Username, ApiError> {
        let name = normal_form(typed);
        if !is_well_formed(&name) {
            return Err(ApiError::bad_request(
                "a username has 3 to 20 letters, digits, '_' or '-'",
            ));
        }
        if !is_single_script(&name) {
            return Err(ApiError::bad_request(
                "a username is written in one script (not Latin and Cyrillic mixed, say)",
            ));
        }
        if is_reserved(&name) {
            return Err(ApiError::new(
                ErrorCode::NameTaken,
                "that username is reserved",
            ));
        }
        let skeleton = skeleton_of(&name);
        Ok(Username { name, skeleton })
    }

    /// As shown: NFKC of what was typed.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The confusable skeleton of its lower case: unique among accounts.
    pub fn skeleton(&self) -> &str {
        &self.skeleton
    }

    /// The name as shown, owned.
    pub fn into_name(self) -> String {
        self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookalikes_share_a_skeleton() {
        let latin = Username::parse("admin1").unwrap();
        let cyrillic = Username::parse("аdmin1");
        // Mixed Latin and Cyrillic is refused outright.
        assert!(cyrillic.is_err());
        let wide = Username::parse("ＡＤＭＩＮ1").unwrap();
        assert_eq!(wide.name, "ADMIN1");
        assert_eq!(wide.skeleton, latin.skeleton);
    }

    #[test]
    fn reserved_and_malformed_names_are_refused() {
        for name in [
            "admin",
            "ADMIN",
            "ＡＤＭＩＮ",
            "Stolik",
            "stolik",
            "moderator",
        ] {
            let refused = Username::parse(name).unwrap_err();
            assert_eq!(refused.code, ErrorCode::NameTaken, "{name}");
        }
        for name in ["ab", "a b c", "x".repeat(21).as_str(), "tab\tname"] {
            assert!(Username::parse(name).is_err(), "{name}");
        }
        assert!(Username::parse("ёжик_42").is_ok());
        assert!(Username::parse("Hedgehog-7").is_ok());
    }
}
