//! The outbox's sender: every [`ROUND`] it claims the pushes that are due (a claim keeps the
//! other nodes' senders off them for [`CLAIM_FOR`]), sends them, [`IN_FLIGHT`] at a time, and
//! at once claims more while a round was full (a backlog drains as fast as the push services
//! answer, not [`BATCH`] a second). It forgets a push sent
//! or refused for good, deletes a subscription its push service no longer knows (404, 410),
//! and puts a push back for later after a temporary failure (429, 5xx, no answer), waiting
//! twice as long each time, at most [`ATTEMPTS`] times. It runs beside the tables: a move
//! never waits for a push.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;

use metrics::{counter, gauge};
use web_push::{ContentEncoding, SubscriptionInfo, VapidSignatureBuilder, WebPushMessageBuilder};

use super::Push;
use super::digest::{Outgoing, plan};
use super::text::payload;
use crate::unix_time::unix_ms;

/// How often the sender looks for due pushes.
pub const ROUND: Duration = Duration::from_secs(1);
/// How long a claim keeps other nodes off a push: longer than a send can take.
pub const CLAIM_FOR: Duration = Duration::from_secs(60);
/// How long one send may take.
const SEND_TIMEOUT: Duration = Duration::from_secs(15);
/// How many subscriptions' pushes one round claims.
const BATCH: u32 = 50;
/// How many sends one node has waiting on push services at once.
const IN_FLIGHT: usize = 16;
/// Sends of one push before it is given up.
pub const ATTEMPTS: i64 = 6;
/// The wait after the first temporary failure; it doubles with each further one (the
/// site's [`super::PushConfig::first_retry`], this unless a test shortens it).
pub const FIRST_RETRY: Duration = Duration::from_secs(30);
/// How long a push service keeps a push for a device that is offline: a day.
const TTL: u32 = 24 * 60 * 60;

/// What became of one send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    Delivered,
    /// The subscription is gone (404, 410): it is deleted.
    Gone,
    /// Try again later (429, 5xx, no answer).
    Later,
    /// Refused for good (another 4xx, or a subscription that cannot be encrypted for).
    Refused,
}

/// What a push service's status means.
pub fn classify(status: u16) -> Sent {
    match status {
        200..=299 => Sent::Delivered,
        404 | 410 => Sent::Gone,
        429 | 500..=599 => Sent::Later,
        _ => Sent::Refused,
    }
}

/// When a push that failed `attempts` times before (and once more now) is tried again, the
/// first retry waiting `first`.
pub fn retry_after(first: Duration, attempts: i64) -> Duration {
    first * 2u32.pow(attempts.clamp(0, 10) as u32)
}

/// Runs the sender until the task is dropped. Needs an actix runtime (its HTTP client).
pub async fn run(store: store::Store, push: Arc<Push>) {
    let client = client();
    loop {
        let full = match round(&store, &push, &client).await {
            Ok(full) => full,
            Err(e) => {
                tracing::warn!(error = %e, "the push sender could not read its outbox");
                false
            }
        };
        // What is left after the round: the backlog an operator (and the load generator)
        // watches.
        if let Ok(waiting) = store.pushes_waiting().await {
            gauge!("stolik_push_waiting").set(waiting as f64);
        }
        if !full {
            tokio::time::sleep(ROUND).await;
        }
    }
}

fn client() -> awc::Client {
    let tls = openssl::ssl::SslConnector::builder(openssl::ssl::SslMethod::tls())
        .map(|b| b.build())
        .expect("OpenSSL makes a TLS connector");
    awc::Client::builder()
        .connector(awc::Connector::new().openssl(tls))
        .timeout(SEND_TIMEOUT)
        .finish()
}

/// One round: claims, sends and settles what is due now; whether it claimed a full batch
/// (more may be waiting).
async fn round(
    store: &store::Store,
    push: &Push,
    client: &awc::Client,
) -> Result<bool, store::StoreError> {
    let now = unix_ms();
    let claimed = store
        .claim_pushes(now, now + CLAIM_FOR.as_millis() as i64, BATCH)
        .await?;
    let subscriptions: HashSet<i64> = claimed.iter().map(|row| row.subscription_id).collect();
    let full = subscriptions.len() >= BATCH as usize;
    let mut waiting = plan(claimed).into_iter();
    let mut sending = FuturesUnordered::new();
    loop {
        while sending.len() < IN_FLIGHT {
            let Some(outgoing) = waiting.next() else {
                break;
            };
            sending.push(async move {
                let sent = send(push, client, &outgoing).await;
                (outgoing, sent)
            });
        }
        let Some((outgoing, sent)) = sending.next().await else {
            return Ok(full);
        };
        settle(store, &outgoing, sent, push.config.first_retry).await?;
    }
}

/// Forgets a push sent or refused for good, deletes a subscription that is gone, or puts a
/// push back for later.
async fn settle(
    store: &store::Store,
    outgoing: &Outgoing,
    sent: Sent,
    first_retry: Duration,
) -> Result<(), store::StoreError> {
    let first = outgoing.first();
    match sent {
        Sent::Delivered => counter!("stolik_push_sent_total").increment(1),
        Sent::Gone => {
            counter!("stolik_push_removed_total").increment(1);
            store.drop_push_subscription(first.subscription_id).await?;
            return Ok(());
        }
        Sent::Later if first.attempts + 1 < ATTEMPTS => {
            let due = unix_ms() + retry_after(first_retry, first.attempts).as_millis() as i64;
            for row in outgoing.rows() {
                store.retry_push(row.id, due).await?;
            }
            return Ok(());
        }
        Sent::Later | Sent::Refused => counter!("stolik_push_failed_total").increment(1),
    }
    for row in outgoing.rows() {
        store.finish_push(row.id).await?;
    }
    Ok(())
}

/// The origin of `url` (scheme, host and port).
fn origin(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => &url[..after_scheme + i],
        None => url,
    }
}

/// Encrypts, signs and posts one push.
async fn send(push: &Push, client: &awc::Client, outgoing: &Outgoing) -> Sent {
    let sub = &outgoing.first().subscription;
    let info = SubscriptionInfo::new(&sub.endpoint, &sub.p256dh, &sub.auth);
    let body = serde_json::to_vec(&payload(outgoing)).expect("a payload serializes");
    let message = (|| {
        let mut signature = VapidSignatureBuilder::from_base64(&push.keys.private_key, &info)?;
        // The push service's origin, its port included (the crate's own default leaves a
        // port out, which a service on a port of its own refuses).
        signature.add_claim("aud", origin(&sub.endpoint));
        if let Some(contact) = &push.config.contact {
            signature.add_claim("sub", contact.as_str());
        }
        let mut builder = WebPushMessageBuilder::new(&info);
        builder.set_payload(ContentEncoding::Aes128Gcm, &body);
        builder.set_ttl(TTL);
        builder.set_vapid_signature(signature.build()?);
        builder.build()
    })();
    let message = match message {
        Ok(message) => message,
        Err(e) => {
            tracing::warn!(endpoint = %sub.endpoint, error = %e, "cannot make a push");
            return Sent::Refused;
        }
    };
    let request = web_push::request_builder::build_request::<Vec<u8>>(message);
    let mut post = client.post(request.uri().to_string());
    for (name, value) in request.headers() {
        if let Ok(value) = value.to_str() {
            post = post.insert_header((name.as_str(), value));
        }
    }
    match post.send_body(request.into_body()).await {
        Ok(response) => {
            let status = response.status().as_u16();
            let sent = classify(status);
            if sent != Sent::Delivered {
                tracing::info!(endpoint = %sub.endpoint, status, "a push service refused a push");
            }
            sent
        }
        Err(e) => {
            tracing::info!(endpoint = %sub.endpoint, error = %e, "cannot reach a push service");
            Sent::Later
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        assert_eq!(
            origin("https://fcm.googleapis.com/fcm/send/x"),
            "https://fcm.googleapis.com"
        );
        assert_eq!(
            origin("http://127.0.0.1:8080/push/a"),
            "http://127.0.0.1:8080"
        );
        assert_eq!(origin("https://example.org"), "https://example.org");
    }

    #[test]
    fn statuses() {
        assert_eq!(classify(201), Sent::Delivered);
        assert_eq!(classify(410), Sent::Gone);
        assert_eq!(classify(404), Sent::Gone);
        assert_eq!(classify(429), Sent::Later);
        assert_eq!(classify(503), Sent::Later);
        assert_eq!(classify(413), Sent::Refused);
    }

    #[test]
    fn retries_wait_longer_each_time() {
        assert_eq!(retry_after(FIRST_RETRY, 0), Duration::from_secs(30));
        assert_eq!(retry_after(FIRST_RETRY, 1), Duration::from_secs(60));
        assert_eq!(retry_after(FIRST_RETRY, 4), Duration::from_secs(480));
        let short = Duration::from_millis(500);
        assert_eq!(retry_after(short, 2), Duration::from_secs(2));
    }
}
