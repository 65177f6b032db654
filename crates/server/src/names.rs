//! Usernames: what may be registered, and when two names are "the same".
//!
//! A name is stored in NFKC form (so `ＡＤＭＩＮ` is `ADMIN`), compared without case, and
//! refused when its confusable skeleton (Unicode TS #39: `аdmin` with a Cyrillic `а` looks like
//! `admin`) is another account's, when it mixes scripts that look alike, or when it is
//! reserved for the site itself.

use unicode_normalization::UnicodeNormalization;
use unicode_security::{MixedScript, skeleton};

use crate::error::WsError;

/// Names no player may take, compared by skeleton so that look-alikes are refused too.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "moderator",
    "mod",
    "root",
    "system",
    "stolik",
    "столик",
    "support",
    "staff",
    "official",
    "bot",
    "guest",
    "anonymous",
    "null",
    "undefined",
    "server",
    "help",
];

/// A username that may be registered, with the forms it is compared in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Username {
    /// As shown: NFKC of what was typed.
    pub name: String,
    /// The confusable skeleton of its lower case: unique among accounts.
    pub skeleton: String,
}

impl Username {
    /// Checks a name for registration: 3–20 letters, digits, `_` or `-`, of one script, not
    /// reserved.
    pub fn parse(typed: &str) -> Result<Username, WsError> {
        let name: String = typed.trim().nfkc().collect();
        let valid = (3..=20).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if !valid {
            return Err(WsError::bad_request(
                "a username has 3 to 20 letters, digits, '_' or '-'",
            ));
        }
        if !name.is_single_script() {
            return Err(WsError::bad_request(
                "a username is written in one script (not Latin and Cyrillic mixed, say)",
            ));
        }
        let skeleton = skeleton_of(&name);
        if RESERVED.iter().any(|r| skeleton_of(r) == skeleton) {
            return Err(WsError::new(
                crate::error::ErrorCode::NameTaken,
                "that username is reserved",
            ));
        }
        Ok(Username { name, skeleton })
    }
}

/// The form a typed username is looked up in at login (NFKC; the store folds the case).
pub fn login_form(typed: &str) -> String {
    typed.trim().nfkc().collect()
}

/// The confusable skeleton of a name, case folded before and after (the skeleton maps some
/// letters to capitals).
pub fn skeleton_of(name: &str) -> String {
    let lower = name.to_lowercase();
    skeleton(&lower).collect::<String>().to_lowercase()
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
        // All-Cyrillic "асе" looks like Latin "ace".
        assert_eq!(skeleton_of("асе"), skeleton_of("ace"));
        assert_ne!(skeleton_of("ёжик"), skeleton_of("ежик_2"));
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
            assert_eq!(refused.code, crate::error::ErrorCode::NameTaken, "{name}");
        }
        for name in ["ab", "a b c", "x".repeat(21).as_str(), "tab\tname"] {
            assert!(Username::parse(name).is_err(), "{name}");
        }
        assert!(Username::parse("ёжик_42").is_ok());
        assert!(Username::parse("Hedgehog-7").is_ok());
    }
}
