//! The HTTP routes, one file per resource, all registered by [`configure`].
//!
//! [`API`] is the one list of the `/api/…` endpoints: the same table registers them and
//! lists them in the OpenAPI document (`GET /api/openapi.json`), so neither can name an
//! endpoint the other lacks.

use std::sync::OnceLock;

use actix_web::{HttpResponse, web};
use utoipa::OpenApi;

use crate::error::{ApiError, ErrorCode};

pub mod accounts;
pub mod analysis;
pub mod bot;
pub mod bot_play;
pub mod catalog;
pub mod challenges;
pub mod evaluation;
pub mod health;
pub mod ladder;
pub mod live;
pub mod moderation;
pub mod notifications;
pub mod pages;
pub mod player_tournaments;
pub mod players;
pub mod playing;
pub mod positions;
pub mod push;
pub mod rabbit;
pub mod records;
pub mod socket;
mod socket_body;
pub mod tables;
pub mod tokens;
pub mod tournaments;
pub mod vacation;

/// One `/api/…` endpoint as registered: its method (`get`, `post`, …) and its path in the
/// `{name}` form actix and OpenAPI share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    pub method: &'static str,
    pub path: &'static str,
}

/// Declares the endpoints once: the [`API`] table, their registration and the document's
/// list of operations all come from the same lines.
macro_rules! api {
    ($($method:ident $path:literal => $module:ident :: $handler:ident,)*) => {
        /// Every `/api/…` endpoint, in the order it is registered.
        pub const API: &[Endpoint] = &[$(Endpoint { method: stringify!($method), path: $path },)*];

        fn register_api(cfg: &mut web::ServiceConfig) {
            $(cfg.route($path, web::$method().to($module::$handler));)*
        }

        #[derive(OpenApi)]
        #[openapi(
            info(
                title = "Stolik HTTP API",
                description = "The HTTP half of Stolik's protocol; the WebSocket half is in docs/protocol.md.",
            ),
            paths($($module::$handler),*),
        )]
        struct ApiDoc;
    };
}

api! {
    get "/api/games" => catalog::catalogue,
    get "/api/games/{id}" => catalog::catalogue_entry,
    get "/api/me" => accounts::me,
    get "/api/me/games" => records::my_games,
    get "/api/me/playing" => playing::my_playing,
    get "/api/me/vacation" => vacation::vacation,
    put "/api/me/vacation" => vacation::set_vacation,
    get "/api/me/tokens" => tokens::list,
    post "/api/me/tokens" => tokens::make,
    delete "/api/me/tokens/{id}" => tokens::revoke,
    get "/api/me/push" => push::settings,
    post "/api/me/push" => push::subscribe,
    put "/api/me/push" => push::change,
    delete "/api/me/push" => push::unsubscribe,
    get "/api/push/key" => push::key,
    post "/api/register" => accounts::register,
    post "/api/login" => accounts::login,
    post "/api/logout" => accounts::logout,
    post "/api/logout/everywhere" => accounts::logout_everywhere,
    post "/api/password" => accounts::change_password,
    get "/api/tables" => tables::lobby,
    post "/api/tables" => tables::create_table,
    get "/api/tables/{id}" => tables::table,
    get "/api/records/{id}" => records::record,
    get "/api/records/{id}/positions" => records::record_positions,
    get "/api/users/{id}/games" => records::user_games,
    get "/api/tables/{id}/hints" => rabbit::hints,
    get "/api/records/{id}/review" => rabbit::review,
    get "/api/records/{id}/analysis" => analysis::status,
    post "/api/records/{id}/analysis" => analysis::ask,
    post "/api/positions/check" => positions::check,
    post "/api/positions/evaluate" => evaluation::evaluate,
    post "/api/positions/think" => evaluation::think,
    get "/api/daily" => rabbit::daily,
    post "/api/daily" => rabbit::play_daily,
    get "/api/mutes" => moderation::mutes,
    put "/api/mutes/{user}" => moderation::mute,
    delete "/api/mutes/{user}" => moderation::unmute,
    post "/api/reports" => moderation::report,
    get "/api/notifications" => notifications::list,
    post "/api/notifications/read" => notifications::mark_read,
    get "/api/users" => players::search,
    get "/api/users/{id}" => players::profile,
    get "/api/users/{id}/rating-history" => players::history,
    get "/api/users/{id}/tournaments" => player_tournaments::record,
    get "/api/leaderboard/{game}" => players::leaderboard,
    get "/api/bots" => players::bots,
    get "/api/ladder" => ladder::ladder,
    get "/api/live" => live::live_games,
    get "/api/tournaments" => tournaments::list,
    post "/api/tournaments" => tournaments::create,
    get "/api/tournaments/{id}" => tournaments::one,
    post "/api/tournaments/{id}/join" => tournaments::join,
    post "/api/tournaments/{id}/withdraw" => tournaments::withdraw,
    post "/api/tournaments/{id}/pause" => tournaments::pause,
    post "/api/tournaments/{id}/resume" => tournaments::resume,
    get "/api/challenge" => challenges::list,
    post "/api/challenge/{user}" => challenges::create,
    post "/api/challenge/{id}/accept" => challenges::accept,
    post "/api/challenge/{id}/decline" => challenges::decline,
    post "/api/challenge/{id}/cancel" => challenges::cancel,
    post "/api/bot/account/upgrade" => bot::upgrade,
    post "/api/bot/ladder" => ladder::join,
    delete "/api/bot/ladder" => ladder::leave,
    get "/api/stream/event" => bot::event_stream,
    get "/api/bot/game/stream/{id}" => bot::game_stream,
    post "/api/bot/game/{id}/move/{move}" => bot_play::play,
    post "/api/bot/game/{id}/chat" => bot_play::chat,
    post "/api/bot/game/{id}/resign" => bot_play::resign,
    post "/api/bot/game/{id}/abort" => bot_play::abort,
    post "/api/bot/game/{id}/draw/{answer}" => bot_play::draw,
    post "/api/bot/game/{id}/takeback/{answer}" => bot_play::takeback,
    post "/api/bot/game/{id}/claim" => bot_play::claim,
    get "/api/openapi.json" => self::openapi,
}

/// Every route of the server but `/metrics` and the web client's files, with the client's
/// `index.html` as the template of the game pages.
pub fn configure(client: crate::web_client::WebClient) -> impl Fn(&mut web::ServiceConfig) + Clone {
    move |cfg| {
        cfg.route("/healthz", web::get().to(health::healthz))
            .route("/ws", web::get().to(socket::route))
            .configure(register_api)
            // Last of the API: any other API path is a JSON 404, not the web client's index.
            .route("/api/{tail:.*}", web::to(api_not_found))
            .configure(pages::routes(client.clone()));
    }
}

/// This document: every `/api/…` endpoint with its parameters, bodies and answers.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "meta",
    responses((status = 200, description = "The OpenAPI document of this API", body = Object)),
)]
pub(crate) async fn openapi() -> HttpResponse {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    let json = DOCUMENT.get_or_init(|| document().to_string());
    HttpResponse::Ok()
        .content_type("application/json")
        .body(json.clone())
}

/// The endpoints that read the caller's token (a cookie or a bearer token), and so answer
/// `401` for a forged, expired or ended one.
const READS_TOKEN: &[(&str, &str)] = &[
    ("get", "/api/me"),
    ("get", "/api/me/games"),
    ("get", "/api/me/playing"),
    ("get", "/api/me/vacation"),
    ("put", "/api/me/vacation"),
    ("get", "/api/me/tokens"),
    ("post", "/api/me/tokens"),
    ("delete", "/api/me/tokens/{id}"),
    ("get", "/api/me/push"),
    ("post", "/api/me/push"),
    ("put", "/api/me/push"),
    ("delete", "/api/me/push"),
    ("post", "/api/register"),
    ("post", "/api/logout/everywhere"),
    ("post", "/api/password"),
    ("post", "/api/tables"),
    ("get", "/api/tables/{id}"),
    ("get", "/api/records/{id}"),
    ("get", "/api/records/{id}/positions"),
    ("get", "/api/tables/{id}/hints"),
    ("get", "/api/records/{id}/review"),
    ("get", "/api/records/{id}/analysis"),
    ("post", "/api/records/{id}/analysis"),
    ("post", "/api/positions/evaluate"),
    ("post", "/api/positions/think"),
    ("get", "/api/daily"),
    ("post", "/api/daily"),
    ("get", "/api/mutes"),
    ("put", "/api/mutes/{user}"),
    ("delete", "/api/mutes/{user}"),
    ("post", "/api/reports"),
    ("get", "/api/notifications"),
    ("post", "/api/notifications/read"),
    ("get", "/api/challenge"),
    ("post", "/api/challenge/{user}"),
    ("post", "/api/challenge/{id}/accept"),
    ("post", "/api/challenge/{id}/decline"),
    ("post", "/api/challenge/{id}/cancel"),
    ("post", "/api/bot/account/upgrade"),
    ("post", "/api/bot/ladder"),
    ("delete", "/api/bot/ladder"),
    ("get", "/api/stream/event"),
    ("get", "/api/bot/game/stream/{id}"),
    ("post", "/api/bot/game/{id}/move/{move}"),
    ("post", "/api/bot/game/{id}/chat"),
    ("post", "/api/bot/game/{id}/resign"),
    ("post", "/api/bot/game/{id}/abort"),
    ("post", "/api/bot/game/{id}/draw/{answer}"),
    ("post", "/api/bot/game/{id}/takeback/{answer}"),
    ("post", "/api/bot/game/{id}/claim"),
];

/// The OpenAPI document: what the handlers declare, completed with what every endpoint of a
/// kind can answer (a body that is not JSON, a token that no longer works) and the games the
/// catalogue has, so that it lists every status and every limit.
pub fn document() -> serde_json::Value {
    use serde_json::{Value, json};
    let mut doc = serde_json::to_value(ApiDoc::openapi()).expect("the OpenAPI document serializes");
    let error = |description: &str| {
        json!({
            "description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
        })
    };
    let games: Vec<Value> = ::catalog::GameId::ALL
        .iter()
        .map(|g| Value::from(g.as_str()))
        .collect();
    let rated: Vec<Value> = ::catalog::GameId::ALL
        .iter()
        .filter(|g| g.info().seats > 1)
        .map(|g| Value::from(g.as_str()))
        .collect();
    let paths = doc["paths"]
        .as_object_mut()
        .expect("the document has paths");
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in item.iter_mut() {
            let takes_body = operation.get("requestBody").is_some();
            let responses = operation["responses"]
                .as_object_mut()
                .expect("every operation has responses");
            if takes_body && !responses.contains_key("400") {
                responses.insert(
                    "400".into(),
                    error("A body that is not JSON (`bad_json`) or not of this shape (`bad_request`), or over 16 KiB (`too_long`)"),
                );
            }
            if takes_body {
                responses.insert(
                    "413".into(),
                    json!({"description": "A body over 256 KiB, refused before it is read"}),
                );
            }
            if READS_TOKEN.contains(&(method.as_str(), path.as_str()))
                && !responses.contains_key("401")
            {
                responses.insert(
                    "401".into(),
                    error("A forged or expired token, or one whose session has ended"),
                );
            }
            let parameters = operation
                .get_mut("parameters")
                .and_then(Value::as_array_mut);
            let Some(parameters) = parameters else {
                continue;
            };
            // The game named by a parameter is one of the catalogue's (with a rating ladder,
            // for a leaderboard).
            let mut query = false;
            for parameter in parameters.iter_mut() {
                query |= parameter["in"] == "query";
                let name = parameter["name"].as_str().unwrap_or_default();
                if path == "/api/leaderboard/{game}" && name == "game" {
                    parameter["schema"]["enum"] = Value::from(rated.clone());
                } else if name == "game" || (name == "id" && path == "/api/games/{id}") {
                    parameter["schema"]["enum"] = Value::from(games.clone());
                }
            }
            let responses = operation["responses"]
                .as_object_mut()
                .expect("every operation has responses");
            if query && !responses.contains_key("400") {
                responses.insert(
                    "400".into(),
                    error("A query string that cannot be read (`bad_request`): a field twice, a number that is not one"),
                );
            }
        }
    }
    create_table_schema(&mut doc["components"]["schemas"]["CreateTable"]);
    positions::body_schema(&mut doc["components"]["schemas"]["PositionBody"]);
    challenge_schema(&mut doc["components"]["schemas"]["NewChallenge"]);
    two_player_game_schema(&mut doc["components"]["schemas"]["CreateArena"]);
    tournaments::round_robin_schema(&mut doc["components"]["schemas"]["CreateRoundRobin"]);
    doc
}

/// A clock as a table or a challenge takes it: none, minutes and an increment, or days a
/// move.
fn clock_schema(description: &serde_json::Value) -> serde_json::Value {
    use serde_json::json;
    let none = json!({"type": "null"});
    json!({
        "description": description,
        "oneOf": [
            none.clone(),
            {
                "type": "object",
                "required": ["initial", "increment"],
                "properties": {
                    "initial": {"type": "integer", "minimum": 1, "maximum": 10_800, "description": "Seconds on each clock"},
                    "increment": {"type": "integer", "minimum": 0, "maximum": 180, "description": "Seconds added after each move"},
                    "days": none.clone(),
                },
            },
            {
                "type": "object",
                "required": ["days"],
                "properties": {
                    "days": {"enum": crate::table::CORRESPONDENCE_DAYS, "description": "Days for each move"},
                    "initial": none.clone(),
                    "increment": none,
                },
            },
        ],
    })
}

/// What `POST /api/challenge/{user}` takes: a two-player game and its own variants, and a
/// clock as a table's.
fn challenge_schema(schema: &mut serde_json::Value) {
    two_player_game_schema(schema);
    schema["properties"]["clock"] = clock_schema(&schema["properties"]["clock"]["description"]);
}

/// A body's `game` and `variant` where only the two-player games are taken: the games listed,
/// and each game with its own variants (or none, for its default).
pub(crate) fn two_player_game_schema(schema: &mut serde_json::Value) {
    use serde_json::{Value, json};
    let two_player: Vec<_> = ::catalog::GameId::ALL
        .iter()
        .filter(|g| !g.is_solo())
        .collect();
    schema["properties"]["game"]["enum"] =
        two_player.iter().map(|g| Value::from(g.as_str())).collect();
    let games: Vec<Value> = two_player
        .iter()
        .map(|g| {
            let mut variants: Vec<Value> = g
                .info()
                .variants
                .iter()
                .map(|v| Value::from(v.id))
                .collect();
            variants.push(Value::Null);
            json!({"properties": {"game": {"enum": [g.as_str()]}, "variant": {"enum": variants}}})
        })
        .collect();
    schema["oneOf"] = Value::from(games);
}

/// What `POST /api/tables` takes, game by game: the game's own variants, and for a solo
/// puzzle no clock, bot, rating or rating range and only the first seat; a clock is either
/// minutes and an increment or days a move.
fn create_table_schema(schema: &mut serde_json::Value) {
    use serde_json::{Value, json};
    let none = json!({"type": "null"});
    schema["properties"]["game"]["enum"] = ::catalog::GameId::ALL
        .iter()
        .map(|g| Value::from(g.as_str()))
        .collect();
    schema["properties"]["clock"] = clock_schema(&schema["properties"]["clock"]["description"]);
    let games: Vec<Value> = ::catalog::GameId::ALL
        .iter()
        .map(|g| {
            let info = g.info();
            let mut variants: Vec<Value> =
                info.variants.iter().map(|v| Value::from(v.id)).collect();
            variants.push(Value::Null);
            let mut properties = json!({
                "game": {"enum": [g.as_str()]},
                "variant": {"enum": variants},
            });
            if g.is_solo() {
                properties["seat"] = json!({"enum": [0, null]});
                properties["rated"] = json!({"enum": [false]});
                for absent in ["clock", "bot", "rating_range"] {
                    properties[absent] = none.clone();
                }
            }
            json!({"properties": properties})
        })
        .collect();
    schema["oneOf"] = Value::from(games);
}

/// A method the path does not have is `405` with the methods it has in `Allow`; a path the
/// API does not have is `404`.
async fn api_not_found(req: actix_web::HttpRequest) -> Result<HttpResponse, ApiError> {
    let allowed = methods_of(req.path());
    if allowed.is_empty() {
        return Err(ApiError::new(ErrorCode::NotFound, "no such API endpoint"));
    }
    let allow = allowed.join(", ");
    let error = ApiError::new(
        ErrorCode::MethodNotAllowed,
        format!("{} is not a method of this endpoint: {allow}", req.method()),
    );
    let mut response = actix_web::ResponseError::error_response(&error);
    response.headers_mut().insert(
        actix_web::http::header::ALLOW,
        actix_web::http::header::HeaderValue::from_str(&allow).expect("method names are ASCII"),
    );
    Ok(response)
}

/// The methods (upper case) of the endpoints whose path template matches `path`.
pub fn methods_of(path: &str) -> Vec<String> {
    let segments: Vec<&str> = path.split('/').collect();
    let mut methods: Vec<String> = API
        .iter()
        .filter(|endpoint| {
            let template: Vec<&str> = endpoint.path.split('/').collect();
            template.len() == segments.len()
                && template.iter().zip(&segments).all(|(t, s)| {
                    (t.starts_with('{') && t.ends_with('}') && !s.is_empty()) || t == s
                })
        })
        .map(|endpoint| endpoint.method.to_ascii_uppercase())
        .collect();
    methods.dedup();
    methods
}

/// The largest request body the API reads.
const MAX_BODY_BYTES: usize = 16 * 1024;

/// A request's JSON body, read as the document describes it: a body that is not JSON (or not
/// sent as `application/json`) is `bad_json`, JSON of the wrong shape is `bad_request`, and a
/// number without a fraction counts as an integer whichever way it is written (`7` or `7.0`,
/// as JSON Schema's `integer` has it).
pub(crate) fn json_body<T: serde::de::DeserializeOwned>(
    req: &actix_web::HttpRequest,
    body: &[u8],
) -> Result<T, ApiError> {
    let json = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|t| t.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase())
        .is_some_and(|t| t == "application/json" || t.ends_with("+json"));
    if !json {
        return Err(ApiError::new(
            ErrorCode::BadJson,
            "send the body as application/json",
        ));
    }
    if body.len() > MAX_BODY_BYTES {
        return Err(ApiError::new(
            ErrorCode::TooLong,
            format!("a body has at most {MAX_BODY_BYTES} bytes"),
        ));
    }
    let mut value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::new(ErrorCode::BadJson, format!("not JSON: {e}")))?;
    whole_numbers(&mut value);
    serde_json::from_value(value).map_err(|e| ApiError::bad_request(e.to_string()))
}

/// `7.0` as `7`, everywhere in `value`.
fn whole_numbers(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && f.abs() < 9.0e15
            {
                *value = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// A private table's invitation token, for the routes that show a table or its record.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct TokenQuery {
    /// The invitation token of a private table (not needed by its players and host).
    pub(crate) token: Option<String>,
}

/// `{"type": "ok"}`: done, nothing more to say.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub(crate) struct Done {
    #[serde(rename = "type")]
    #[schema(example = "ok")]
    kind: &'static str,
}

pub(crate) const DONE: Done = Done { kind: "ok" };
