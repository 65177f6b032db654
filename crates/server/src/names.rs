//! Usernames: what may be registered, and when two names are "the same".
//!
//! A name is stored in NFKC form (so `ＡＤＭＩＮ` is `ADMIN`), compared without case, and
//! refused when its confusable skeleton (Unicode TS #39: `аdmin` with a Cyrillic `а` looks like
//! `admin`) is another account's, when it mixes scripts that look alike, or when it is
//! reserved for the site itself.

use unicode_normalization::UnicodeNormalization;
use unicode_security::{MixedScript, skeleton};

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

/// Whether a name (as shown) is one of the reserved ones or looks like one.
pub fn is_reserved(name: &str) -> bool {
    let skeleton = skeleton_of(name);
    RESERVED.iter().any(|r| skeleton_of(r) == skeleton)
}

/// NFKC of what was typed, without the white space around it: the form a name is shown and
/// looked up in (the store folds the case).
pub fn normal_form(typed: &str) -> String {
    typed.trim().nfkc().collect()
}

/// Letters, digits, `_` or `-` only, 3 to 20 of them, in one script.
pub fn is_well_formed(name: &str) -> bool {
    (3..=20).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Written in one script (not Latin and Cyrillic mixed).
pub fn is_single_script(name: &str) -> bool {
    name.is_single_script()
}

/// The form a typed username is looked up in at login (NFKC; the store folds the case).
pub fn login_form(typed: &str) -> String {
    normal_form(typed)
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
        // All-Cyrillic "асе" looks like Latin "ace".
        assert_eq!(skeleton_of("асе"), skeleton_of("ace"));
        assert_ne!(skeleton_of("ёжик"), skeleton_of("ежик_2"));
        assert!(!is_single_script("аdmin1"));
        assert_eq!(normal_form(" ＡＤＭＩＮ1 "), "ADMIN1");
        assert!(is_reserved("ＡＤＭＩＮ") && is_reserved("Stolik"));
    }
}
