//! The HTTP routes, one file per resource, all registered by [`configure`].
//!
//! [`API`] is the one list of the `/api/…` endpoints: the same table registers them and
//! lists them in the OpenAPI document (`GET /api/openapi.json`), so neither can name an
//! endpoint the other lacks.

use std::path::PathBuf;
use std::sync::OnceLock;

use actix_web::{HttpResponse, web};
use utoipa::OpenApi;

use crate::error::{ApiError, ErrorCode};

pub mod accounts;
pub mod catalog;
pub mod health;
pub mod live;
pub mod moderation;
pub mod notifications;
pub mod pages;
pub mod players;
pub mod playing;
pub mod rabbit;
pub mod records;
pub mod socket;
mod socket_body;
pub mod tables;

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
    get "/api/daily" => rabbit::daily,
    post "/api/daily" => rabbit::play_daily,
    get "/api/mutes" => moderation::mutes,
    put "/api/mutes/{user}" => moderation::mute,
    delete "/api/mutes/{user}" => moderation::unmute,
    post "/api/reports" => moderation::report,
    get "/api/notifications" => notifications::list,
    post "/api/notifications/read" => notifications::mark_read,
    get "/api/users/{id}" => players::profile,
    get "/api/users/{id}/rating-history" => players::history,
    get "/api/leaderboard/{game}" => players::leaderboard,
    get "/api/bots" => players::bots,
    get "/api/live" => live::live_games,
    get "/api/openapi.json" => self::openapi,
}

/// Every route of the server but `/metrics` and the static files, with the web client's
/// `index.html` as the template of the game pages.
pub fn configure(index: PathBuf) -> impl Fn(&mut web::ServiceConfig) + Clone {
    move |cfg| {
        cfg.route("/healthz", web::get().to(health::healthz))
            .route("/ws", web::get().to(socket::route))
            .configure(register_api)
            // Last of the API: any other API path is a JSON 404, not the web client's index.
            .route("/api/{tail:.*}", web::to(api_not_found))
            .configure(pages::routes(index.clone()));
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
    let json = DOCUMENT.get_or_init(|| {
        ApiDoc::openapi()
            .to_json()
            .expect("the OpenAPI document serializes")
    });
    HttpResponse::Ok()
        .content_type("application/json")
        .body(json.clone())
}

async fn api_not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(ErrorCode::NotFound, "no such API endpoint"))
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
