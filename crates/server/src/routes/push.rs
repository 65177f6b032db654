//! Web Push: the site's VAPID public key, the caller's devices (push subscriptions) and which
//! kinds of notification they want pushed (docs/protocol.md, "Web Push").

use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::identity::UserView;
use crate::push::LANGUAGES;
use crate::state::AppState;
use crate::unix_time::unix_ms;
use record::NoteKind;

/// The longest endpoint taken (push services' are some 200 characters).
const MAX_ENDPOINT: usize = 1000;

/// The key a browser subscribes with (`applicationServerKey`).
#[derive(Serialize, ToSchema)]
pub(crate) struct PushKey {
    /// The site's VAPID public key: an uncompressed P-256 point, base64url without padding.
    key: String,
}

/// The caller's push settings.
#[derive(Serialize, ToSchema)]
pub(crate) struct PushSettings {
    /// How many devices (subscriptions) the account has.
    devices: i64,
    /// Every kind of notification that can be pushed.
    #[schema(value_type = Vec<PushKind>)]
    kinds: Vec<NoteKind>,
    /// The kinds the caller switched off.
    #[schema(value_type = Vec<PushKind>)]
    off: Vec<NoteKind>,
}

/// The keys of a subscription, as `PushSubscription.toJSON()` gives them.
#[derive(Deserialize, ToSchema)]
pub(crate) struct SubscriptionKeys {
    /// The browser's P-256 public key, base64url (65 bytes).
    // The pattern: 87 characters for 65 bytes, the first `B` (an uncompressed point), the
    // last one carrying two bits and four zero bits.
    #[schema(pattern = r"^B[A-Za-z0-9_-]{85}[AQgw]=*$")]
    p256dh: String,
    /// The authentication secret, base64url (16 bytes).
    #[schema(pattern = r"^[A-Za-z0-9_-]{21}[AQgw]=*$")]
    auth: String,
}

/// A browser's push subscription (`PushSubscription.toJSON()`), and the language its pushes
/// are written in.
#[derive(Deserialize, ToSchema)]
pub(crate) struct NewSubscription {
    /// The push service's URL for this browser (`https://…`).
    #[schema(max_length = 1000, pattern = r"^https://")]
    endpoint: String,
    keys: SubscriptionKeys,
    /// `en`, `ru` or `uk`; English when left out.
    #[serde(default)]
    #[schema(pattern = r"^(en|ru|uk)$")]
    lang: Option<String>,
}

/// Which subscription to delete.
#[derive(Deserialize, ToSchema)]
pub(crate) struct OldSubscription {
    endpoint: String,
}

/// Which kinds to switch off (every other kind is on).
#[derive(Deserialize, ToSchema)]
pub(crate) struct PushChange {
    #[schema(value_type = Vec<PushKind>)]
    off: Vec<String>,
}

/// A kind of notification that can be pushed (`NoteKind`, as the API document names them).
#[derive(ToSchema)]
#[schema(rename_all = "snake_case")]
#[allow(dead_code)] // only the API document reads it
pub(crate) enum PushKind {
    YourTurn,
    DrawOffer,
    RematchOffer,
    Challenge,
    Joined,
    Deadline,
    Vacation,
    GameOver,
    TournamentStart,
}

async fn settings_of(state: &AppState, user: &UserView) -> Result<PushSettings, ApiError> {
    let off = match state.store.push_off(&user.id).await {
        Ok(off) => off,
        // A guest that never played has no row yet: nothing is off.
        Err(store::StoreError::NotFound) => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    Ok(PushSettings {
        devices: state.store.push_subscriptions_of(&user.id).await?,
        kinds: NoteKind::ALL.to_vec(),
        off,
    })
}

fn decoded_len(text: &str, what: &str) -> Result<usize, ApiError> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .map(|b| b.len())
        .map_err(|_| ApiError::bad_request(format!("keys.{what} is not base64url")))
}

#[utoipa::path(
    get,
    path = "/api/push/key",
    tag = "accounts",
    responses((status = 200, description = "The site's VAPID public key", body = PushKey)),
)]
pub(crate) async fn key(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(PushKey {
        key: state.push.keys.public_key.clone(),
    })
}

#[utoipa::path(
    get,
    path = "/api/me/push",
    tag = "accounts",
    responses(
        (status = 200, description = "The caller's devices and switched off kinds", body = PushSettings),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn settings(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    Ok(HttpResponse::Ok().json(settings_of(&state, &user).await?))
}

/// Stores a device's subscription (the same endpoint again replaces it).
#[utoipa::path(
    post,
    path = "/api/me/push",
    tag = "accounts",
    request_body = NewSubscription,
    responses(
        (status = 201, description = "Stored; the caller's push settings", body = PushSettings),
        (status = 400, description = "Not a usable subscription", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn subscribe(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: NewSubscription = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    if body.endpoint.len() > MAX_ENDPOINT || !state.push.endpoint_allowed(&body.endpoint) {
        return Err(ApiError::bad_request(format!(
            "endpoint must be an https:// URL of at most {MAX_ENDPOINT} characters"
        )));
    }
    if decoded_len(&body.keys.p256dh, "p256dh")? != 65 || !body.keys.p256dh.starts_with('B') {
        return Err(ApiError::bad_request(
            "keys.p256dh must be an uncompressed P-256 point (65 bytes)",
        ));
    }
    if decoded_len(&body.keys.auth, "auth")? != 16 {
        return Err(ApiError::bad_request("keys.auth must be 16 bytes"));
    }
    let lang = body.lang.unwrap_or_else(|| "en".to_string());
    if !LANGUAGES.contains(&lang.as_str()) {
        return Err(ApiError::bad_request(format!(
            "lang must be one of {}",
            LANGUAGES.join(", ")
        )));
    }
    state.sessions.ensure_row(&user).await?;
    let sub = store::PushSubscription {
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh.trim_end_matches('=').to_string(),
        auth: body.keys.auth.trim_end_matches('=').to_string(),
        lang,
    };
    state
        .store
        .add_push_subscription(&user.id, &sub, unix_ms())
        .await?;
    Ok(HttpResponse::Created().json(settings_of(&state, &user).await?))
}

/// Deletes a device's subscription (the page turned "Notify me" off).
#[utoipa::path(
    delete,
    path = "/api/me/push",
    tag = "accounts",
    request_body = OldSubscription,
    responses(
        (status = 200, description = "Deleted; the caller's push settings", body = PushSettings),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 404, description = "The caller has no subscription at that endpoint", body = ErrorBody),
    ),
)]
pub(crate) async fn unsubscribe(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: OldSubscription = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    if !state
        .store
        .remove_push_subscription(&user.id, &body.endpoint)
        .await?
    {
        return Err(ApiError::not_found("subscription"));
    }
    Ok(HttpResponse::Ok().json(settings_of(&state, &user).await?))
}

/// Switches kinds of push off (and every other kind on).
#[utoipa::path(
    put,
    path = "/api/me/push",
    tag = "accounts",
    request_body = PushChange,
    responses(
        (status = 200, description = "The caller's push settings, as changed", body = PushSettings),
        (status = 400, description = "An unknown kind", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
    ),
)]
pub(crate) async fn change(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: PushChange = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    let mut off: Vec<NoteKind> = Vec::new();
    for name in &body.off {
        let kind = NoteKind::parse(name).ok_or_else(|| {
            let all: Vec<&str> = NoteKind::ALL.iter().map(|k| k.as_str()).collect();
            ApiError::bad_request(format!(
                "unknown kind {name:?}: the kinds are {}",
                all.join(", ")
            ))
        })?;
        if !off.contains(&kind) {
            off.push(kind);
        }
    }
    state.sessions.ensure_row(&user).await?;
    state.store.set_push_off(&user.id, &off).await?;
    Ok(HttpResponse::Ok().json(settings_of(&state, &user).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::PartialSchema;
    use utoipa::openapi::{RefOr, Schema};

    /// The API document's list of kinds is written out for the schema: it must name exactly the
    /// kinds the server has.
    #[test]
    fn the_documented_kinds_are_the_servers_kinds() {
        let schema = <PushKind as PartialSchema>::schema();
        let RefOr::T(Schema::Object(object)) = schema else {
            panic!("PushKind is documented as a string enum")
        };
        let documented: Vec<String> = object
            .enum_values
            .unwrap_or_default()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        let kinds: Vec<String> = NoteKind::ALL.iter().map(|k| k.to_string()).collect();
        assert_eq!(documented, kinds);
    }
}
