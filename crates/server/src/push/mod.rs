//! Web Push (docs/protocol.md, "Web Push"): what a player hears of while no page of the site
//! is open. A notification made for an account with subscriptions puts a push in the outbox
//! (`hub/notes.rs`, on the node whose table made it); [`sender`] drains the outbox in the
//! background, encrypting each push for its browser (RFC 8291) and signing it with the site's
//! VAPID key, which the first node to start makes and every node reads from the database.

pub mod digest;
pub mod sender;
pub mod text;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use store::VapidKeys;
use web_push::VapidSignatureBuilder;

/// The languages a push can be written in.
pub const LANGUAGES: &[&str] = &["en", "ru", "uk"];

/// How pushes leave this node.
#[derive(Debug, Clone)]
pub struct PushConfig {
    /// Who the push services may write to about this site's pushes (the VAPID `sub` claim,
    /// `mailto:…` or `https://…`; `--push-contact`).
    pub contact: Option<String>,
    /// Accept `http://` subscription endpoints, not only `https://` ones: for a push service
    /// on loopback in tests, never on a public site (the server would post wherever a
    /// caller's endpoint points).
    pub allow_http: bool,
    /// The wait after a push's first temporary failure, doubled after each further one:
    /// [`sender::FIRST_RETRY`]; tests shorten it.
    pub first_retry: std::time::Duration,
}

impl Default for PushConfig {
    fn default() -> PushConfig {
        PushConfig {
            contact: None,
            allow_http: false,
            first_retry: sender::FIRST_RETRY,
        }
    }
}

/// The site's VAPID keys and how pushes leave.
#[derive(Debug, Clone)]
pub struct Push {
    pub keys: VapidKeys,
    pub config: PushConfig,
}

impl Push {
    /// The stored VAPID keys, made and stored now when this is the site's first start.
    pub async fn start(store: &store::Store, config: PushConfig) -> anyhow::Result<Push> {
        let keys = store.vapid_keys(new_keys()).await?;
        // The stored private key must still be one the signer takes.
        VapidSignatureBuilder::from_base64_no_sub(&keys.private_key)
            .map_err(|e| anyhow::anyhow!("the stored VAPID key is not usable: {e}"))?;
        Ok(Push { keys, config })
    }

    /// Whether the server may send to `endpoint`.
    pub fn endpoint_allowed(&self, endpoint: &str) -> bool {
        endpoint.starts_with("https://")
            || (self.config.allow_http && endpoint.starts_with("http://"))
    }
}

/// A fresh P-256 key pair, raw and base64url: 32 random bytes are a private key unless they
/// are zero or not below the group's order, which the signer refuses (then: other bytes).
fn new_keys() -> VapidKeys {
    loop {
        let bytes: [u8; 32] = rand::random();
        let private_key = URL_SAFE_NO_PAD.encode(bytes);
        if let Ok(builder) = VapidSignatureBuilder::from_base64_no_sub(&private_key) {
            return VapidKeys {
                public_key: URL_SAFE_NO_PAD.encode(builder.get_public_key()),
                private_key,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_keys_are_a_p256_pair() {
        let keys = new_keys();
        let public = URL_SAFE_NO_PAD.decode(&keys.public_key).unwrap();
        assert_eq!(public.len(), 65);
        assert_eq!(public[0], 4, "an uncompressed point");
        assert_ne!(new_keys(), keys);
    }
}
