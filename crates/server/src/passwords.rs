//! Password hashing: argon2id, on the blocking pool, with the work in flight bounded.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngExt;

use crate::error::{ApiError, ErrorCode};

/// Argon2id with the crate's recommended parameters. Slow on purpose: call it on a blocking
/// thread.
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    rand::rng().fill(&mut salt);
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a valid salt");
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 with default parameters cannot fail")
        .to_string()
}

pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|hash| {
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &hash)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Argon2 work in flight is bounded: each hash takes ~19 MiB and a core for tens of
/// milliseconds, so a flood of logins queues here (and past a point is refused) instead of
/// taking the server's memory and every core.
pub struct PasswordWork {
    slots: tokio::sync::Semaphore,
    waiting: std::sync::atomic::AtomicUsize,
    max_waiting: usize,
    /// Checked against when the username does not exist, so that the answer takes as long as
    /// for a wrong password and does not tell which usernames exist.
    decoy: String,
}

impl PasswordWork {
    pub fn new() -> PasswordWork {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        PasswordWork {
            slots: tokio::sync::Semaphore::new(cores.div_ceil(2).max(1)),
            waiting: std::sync::atomic::AtomicUsize::new(0),
            max_waiting: 32,
            decoy: hash_password("a password nobody has"),
        }
    }

    /// Runs `work` on the blocking pool when a slot is free; `busy` (503) when too many are
    /// already waiting.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::new(
                ErrorCode::Busy,
                "too many password checks at once: try again in a moment",
            )
            .retry_after(1));
        }
        let slot = self.slots.acquire().await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let _slot = slot.map_err(|e| ApiError::internal("password work stopped", e))?;
        actix_web::web::block(work)
            .await
            .map_err(|e| ApiError::internal("password hashing failed", e))
    }

    /// Checks `password` against `stored`, or against the decoy when there is no account.
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<bool, ApiError> {
        let real = stored.is_some();
        let hash = stored.unwrap_or_else(|| self.decoy.clone());
        let ok = self.run(move || verify_password(&password, &hash)).await?;
        Ok(ok && real)
    }

    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.run(move || hash_password(&password)).await
    }
}

impl Default for PasswordWork {
    fn default() -> PasswordWork {
        PasswordWork::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
        assert!(!verify_password("correct horse", "garbage"));
    }
}
