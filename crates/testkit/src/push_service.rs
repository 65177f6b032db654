//! A stand-in push service on loopback (the real ones are third parties these machines cannot
//! reach): it receives what a server sends to a subscription's endpoint, checks the VAPID
//! signature against the server's public key (RFC 8292), and decrypts the message with the
//! subscription's private key and authentication secret (RFC 8291), as a browser's push
//! service and the browser do. The API tests check what a push says with it; the load
//! generator counts how fast pushes arrive.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// What the service accepted at one subscription's endpoint, decrypted, and when.
#[derive(Debug)]
pub struct Received {
    pub device: String,
    pub payload: Value,
    pub at: Instant,
}

/// The stand-in push service: answers each device's endpoint with the status set for it
/// (201 by default; a failure for the next few deliveries, if asked), keeps when each
/// delivery came, and passes on every message it accepted, verified and decrypted, or why it
/// refused one (a signature that does not verify, a message that does not decrypt).
pub struct PushService {
    origin: String,
    devices: Arc<Mutex<HashMap<String, Device>>>,
    received: mpsc::UnboundedReceiver<Result<Received, String>>,
    server: actix_web::dev::ServerHandle,
}

struct Device {
    keys: ece::EcKeyComponents,
    auth: Vec<u8>,
    status: u16,
    /// The next this many deliveries are answered `failing.1` (a push service's passing
    /// trouble) and accept nothing; then `status` again.
    failing: (u32, u16),
    /// When each delivery to it came, whatever it was answered.
    attempts: Vec<Instant>,
}

struct Shared {
    devices: Arc<Mutex<HashMap<String, Device>>>,
    /// The server's VAPID public key, base64url.
    vapid: String,
    /// The key as the signature's verifier takes it.
    key: jsonwebtoken::DecodingKey,
    /// The `sub` claim the server must send (its `--push-contact`).
    contact: String,
    origin: String,
    sent: mpsc::UnboundedSender<Result<Received, String>>,
}

async fn deliver(
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Bytes,
    shared: web::Data<Shared>,
) -> HttpResponse {
    let device = path.into_inner();
    let (keys, secret, status) = {
        let mut devices = shared.devices.lock().expect("devices");
        let Some(found) = devices.get_mut(&device) else {
            return HttpResponse::NotFound().finish();
        };
        found.attempts.push(Instant::now());
        let status = match found.failing {
            (0, _) => found.status,
            (left, failure) => {
                found.failing = (left - 1, failure);
                failure
            }
        };
        (found.keys.clone(), found.auth.clone(), status)
    };
    if status != 201 {
        return HttpResponse::build(
            actix_web::http::StatusCode::from_u16(status).expect("a status"),
        )
        .finish();
    }
    match check(&req, &body, &keys, &secret, &shared) {
        Ok(payload) => {
            let at = Instant::now();
            let _ = shared.sent.send(Ok(Received {
                device,
                payload,
                at,
            }));
            HttpResponse::Created().finish()
        }
        Err(why) => {
            let _ = shared.sent.send(Err(format!("{device}: {why}")));
            HttpResponse::BadRequest().body(why)
        }
    }
}

/// The payload of one message, once its signature and encryption check out.
fn check(
    req: &HttpRequest,
    body: &[u8],
    keys: &ece::EcKeyComponents,
    secret: &[u8],
    shared: &Shared,
) -> Result<Value, String> {
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| format!("no {name} header"))
    };
    // RFC 8292: `vapid t=JWT, k=KEY`, the key the server's, the JWT signed with it (ES256)
    // for this push service's origin.
    let auth = header("authorization")?;
    let (t, k) = auth
        .strip_prefix("vapid t=")
        .and_then(|rest| rest.split_once(", k="))
        .ok_or_else(|| format!("not a VAPID authorization: {auth}"))?;
    if k != shared.vapid {
        return Err(format!("the key {k} is not the server's"));
    }
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&[shared.origin.as_str()]);
    validation.set_required_spec_claims(&["exp", "aud", "sub"]);
    let claims = jsonwebtoken::decode::<Value>(t, &shared.key, &validation)
        .map_err(|e| format!("the VAPID signature does not verify: {e}"))?;
    if claims.claims["sub"] != shared.contact.as_str() {
        return Err(format!("the contact is {}", claims.claims["sub"]));
    }
    if header("content-encoding")? != "aes128gcm" {
        return Err("not aes128gcm".to_string());
    }
    header("ttl")?;
    let plain = ece::decrypt(keys, secret, body)
        .map_err(|e| format!("the message does not decrypt: {e}"))?;
    serde_json::from_slice(&plain).map_err(|e| format!("the message is not JSON: {e}"))
}

impl PushService {
    /// Starts the service on a free loopback port, for a server whose VAPID public key is
    /// `vapid` (base64url, as `GET /api/push/key` gives it) and whose contact is `contact`.
    pub async fn start(vapid: &str, contact: &str) -> anyhow::Result<PushService> {
        let point = URL_SAFE_NO_PAD.decode(vapid)?;
        anyhow::ensure!(
            point.len() == 65,
            "a VAPID key is an uncompressed P-256 point"
        );
        let key = jsonwebtoken::DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(&point[1..33]),
            &URL_SAFE_NO_PAD.encode(&point[33..65]),
        )?;
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        let origin = format!("http://127.0.0.1:{}", listener.local_addr()?.port());
        let devices = Arc::new(Mutex::new(HashMap::new()));
        let (sent, received) = mpsc::unbounded_channel();
        let shared = web::Data::new(Shared {
            devices: devices.clone(),
            vapid: vapid.to_string(),
            key,
            contact: contact.to_string(),
            origin: origin.clone(),
            sent,
        });
        let server = HttpServer::new(move || {
            App::new()
                .app_data(shared.clone())
                .route("/push/{device}", web::post().to(deliver))
        })
        .workers(1)
        .listen(listener)?
        .disable_signals()
        .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Ok(PushService {
            origin,
            devices,
            received,
            server: handle,
        })
    }

    /// Makes a device (a browser's key pair and secret) named `device`: the subscription a
    /// page would send (`POST /api/me/push`), with `lang`.
    pub fn device(&self, device: &str, lang: &str) -> Value {
        let (pair, auth) = ece::generate_keypair_and_auth_secret().expect("a P-256 key pair");
        let keys = pair.raw_components().expect("the pair's components");
        self.devices.lock().expect("devices").insert(
            device.to_string(),
            Device {
                keys,
                auth: auth.to_vec(),
                status: 201,
                failing: (0, 0),
                attempts: Vec::new(),
            },
        );
        json!({
            "endpoint": format!("{}/push/{device}", self.origin),
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(pair.pub_as_raw().expect("the public key")),
                "auth": URL_SAFE_NO_PAD.encode(auth),
            },
            "lang": lang,
        })
    }

    /// From now on `device`'s endpoint answers `status` (and accepts nothing unless 201).
    pub fn answer(&self, device: &str, status: u16) {
        if let Some(found) = self.devices.lock().expect("devices").get_mut(device) {
            found.status = status;
        }
    }

    /// The next `times` deliveries to `device` are answered `status` (a 5xx or 429: trouble
    /// that passes) and accept nothing; the ones after, as before.
    pub fn fail_next(&self, device: &str, times: u32, status: u16) {
        if let Some(found) = self.devices.lock().expect("devices").get_mut(device) {
            found.failing = (times, status);
        }
    }

    /// When each delivery to `device` came so far, accepted or not.
    pub fn attempts(&self, device: &str) -> Vec<Instant> {
        self.devices
            .lock()
            .expect("devices")
            .get(device)
            .map(|d| d.attempts.clone())
            .unwrap_or_default()
    }

    /// The next message accepted (waiting up to 20 s for the server's sender); panics on a
    /// message refused, with the reason.
    pub async fn next(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(20), self.received.recv())
            .await
            .expect("a push arrives")
            .expect("the service runs")
            .unwrap_or_else(|why| panic!("a push was refused: {why}"))
    }

    /// A message that has arrived already, if any (accepted, or refused with the reason).
    pub fn try_next(&mut self) -> Option<Result<Received, String>> {
        self.received.try_recv().ok()
    }

    /// The next message, accepted or refused, within `patience`.
    pub async fn next_within(&mut self, patience: Duration) -> Option<Result<Received, String>> {
        tokio::time::timeout(patience, self.received.recv())
            .await
            .ok()
            .flatten()
    }

    pub async fn stop(self) {
        self.server.stop(false).await;
    }
}
