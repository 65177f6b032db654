//! Tournaments (docs/tournaments.md): the list, one tournament with a page of its standings
//! (a round robin's cross table), creating an arena or a round robin, and a player's join,
//! withdraw, pause and resume. The live standings
//! come over the socket (`tournament.subscribe`, docs/protocol.md).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::identity::UserView;
use crate::state::AppState;
use crate::tournaments::Request;
use crate::tournaments::create::ArenaRequest;
use crate::tournaments::round_robin::create::RoundRobinRequest;
use crate::tournaments::views::Summary;

/// Tournaments listed per status, at most.
const LISTED: i64 = 50;

#[derive(Serialize)]
struct List {
    upcoming: Vec<Summary>,
    running: Vec<Summary>,
    finished: Vec<Summary>,
    /// The server's clock (unix ms), for countdowns.
    now: i64,
}

/// The upcoming and running tournaments (soonest first) and the latest finished ones.
#[utoipa::path(
    get,
    path = "/api/tournaments",
    tag = "tournaments",
    responses(
        (status = 200, description = "`upcoming`, `running` and `finished` tournaments, each a list of summaries (docs/protocol.md), and the server's `now`", body = Object),
    ),
)]
pub(crate) async fn list(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let store = &state.store;
    let mut lists = Vec::new();
    for status in ["upcoming", "running", "finished"] {
        let rows = store.tournaments_with_status(status, LISTED).await?;
        lists.push(
            rows.iter()
                .map(|row| Summary::of(row, row.players.max(0) as usize, false))
                .collect(),
        );
    }
    let [upcoming, running, finished]: [Vec<Summary>; 3] =
        lists.try_into().expect("three statuses");
    Ok(HttpResponse::Ok().json(List {
        upcoming,
        running,
        finished,
        now: crate::unix_time::unix_ms(),
    }))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct StandingsPage {
    /// The page of standings, from 1 (20 lines a page; 1 by default).
    #[param(minimum = 1, maximum = 100_000)]
    page: Option<usize>,
}

/// One tournament: its summary, a page of its standings, the games in progress and the
/// caller's part in it; for a round robin, its cross table and all its games instead.
#[utoipa::path(
    get,
    path = "/api/tournaments/{id}",
    tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"), StandingsPage),
    responses(
        (status = 200, description = "The tournament's page (docs/protocol.md, `tournament`; a round robin's: `cross_table` and `games`)", body = Object),
        (status = 400, description = "A page out of range", body = ErrorBody),
        (status = 401, description = "A token that no longer works", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
    ),
)]
pub(crate) async fn one(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<StandingsPage>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page.unwrap_or(1);
    if !(1..=100_000).contains(&page) {
        return Err(ApiError::bad_request("page must be from 1 to 100000"));
    }
    let viewer = state.identity(&req).await?.map(|identity| identity.user);
    let viewer = viewer.filter(|user| !user.guest).map(|user| user.id);
    let tournaments = &state.tournaments;
    if let Some(view) = tournaments.round_robin_page(&id, viewer.as_deref()).await? {
        return Ok(HttpResponse::Ok().json(view));
    }
    let view = state.tournaments.page(&id, page, viewer.as_deref()).await?;
    Ok(HttpResponse::Ok().json(view))
}

/// A new arena.
#[derive(Deserialize, ToSchema)]
pub(crate) struct CreateArena {
    /// `arena` (the default).
    #[allow(dead_code)]
    kind: Option<ArenaKind>,
    /// The game's id (a game for two players).
    game: String,
    /// The game's default variant when absent.
    variant: Option<String>,
    /// The clock's initial time, in seconds.
    #[schema(minimum = 15, maximum = 3600)]
    initial: u64,
    /// The clock's increment, in seconds.
    #[schema(minimum = 0, maximum = 60)]
    increment: u64,
    /// How long the arena lasts, in minutes.
    #[schema(minimum = 5, maximum = 720)]
    minutes: u64,
    /// How many minutes from now it starts (0: at once).
    #[schema(minimum = 0, maximum = 10080)]
    starts_in: u64,
    /// The games change ratings.
    #[serde(default)]
    rated: bool,
    /// Players may go berserk (half the clock, no increment, an extra point for a win that
    /// lasted); on when absent.
    #[serde(default = "berserk_by_default")]
    berserk: bool,
    /// House bots: a player who has waited this many seconds with nobody to play plays the
    /// house bot nearest their rating. Absent: no house bots.
    #[schema(minimum = 5, maximum = 600)]
    house_bots_after: Option<u64>,
}

fn berserk_by_default() -> bool {
    true
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ArenaKind {
    Arena,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RoundRobinKind {
    RoundRobin,
}

/// A new round robin: days a move (correspondence) or a live clock, one of the two.
#[derive(Deserialize, ToSchema)]
pub(crate) struct CreateRoundRobin {
    #[allow(dead_code)]
    kind: RoundRobinKind,
    /// The game's id (a game for two players).
    game: String,
    /// The game's default variant when absent.
    variant: Option<String>,
    /// Correspondence: days for each move (1, 2, 3, 5, 7 or 14); then no `initial`.
    days: Option<u64>,
    /// A live clock's initial time, in seconds; then no `days`.
    #[schema(minimum = 15, maximum = 3600)]
    initial: Option<u64>,
    /// A live clock's increment, in seconds (0 when absent).
    #[schema(minimum = 0, maximum = 60)]
    increment: Option<u64>,
    /// The most players it takes (at most 10 with a live clock).
    #[schema(minimum = 3, maximum = 16)]
    max_players: u64,
    /// How many minutes from now entries close and the games start (0: at once).
    #[schema(minimum = 0, maximum = 10080)]
    starts_in: u64,
    /// The games change ratings.
    #[serde(default)]
    rated: bool,
    /// Its correspondence games may take vacation days (true when absent).
    #[serde(default = "yes")]
    vacation: bool,
}

fn yes() -> bool {
    true
}

/// What `POST /api/tournaments` takes: an arena, or a round robin (`kind`). Read by its
/// `kind` (so that an error names the right fields); untagged for the API document.
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub(crate) enum CreateTournament {
    Arena(CreateArena),
    RoundRobin(CreateRoundRobin),
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Created {
    id: String,
}

/// Creates an arena or a round robin (accounts only, five a day).
#[utoipa::path(
    post,
    path = "/api/tournaments",
    tag = "tournaments",
    request_body = CreateTournament,
    responses(
        (status = 201, description = "The new tournament's id", body = Created),
        (status = 400, description = "A game without tournaments, or settings out of bounds", body = ErrorBody),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A guest", body = ErrorBody),
        (status = 429, description = "The account created its five tournaments today", body = ErrorBody),
    ),
)]
pub(crate) async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: serde_json::Value = super::json_body(&req, &body)?;
    let read = |e: serde_json::Error| ApiError::bad_request(e.to_string());
    let body = match body.get("kind").and_then(serde_json::Value::as_str) {
        Some("round_robin") => {
            CreateTournament::RoundRobin(serde_json::from_value(body).map_err(read)?)
        }
        _ => CreateTournament::Arena(serde_json::from_value(body).map_err(read)?),
    };
    let user = caller(&state, &req).await?;
    let id = match body {
        CreateTournament::RoundRobin(body) => {
            let request = RoundRobinRequest {
                game: &body.game,
                variant: body.variant.as_deref(),
                days: body.days,
                initial_seconds: body.initial,
                increment_seconds: body.increment,
                max_players: body.max_players,
                starts_in_minutes: body.starts_in,
                rated: body.rated,
                vacation: body.vacation,
            };
            state
                .tournaments
                .create_round_robin(&user, &request)
                .await?
        }
        CreateTournament::Arena(body) => {
            let request = ArenaRequest {
                game: &body.game,
                variant: body.variant.as_deref(),
                initial_seconds: body.initial,
                increment_seconds: body.increment,
                minutes: body.minutes,
                starts_in_minutes: body.starts_in,
                rated: body.rated,
                berserk: body.berserk,
                house_bots_after_seconds: body.house_bots_after,
            };
            state.tournaments.create(&user, &request).await?
        }
    };
    Ok(HttpResponse::Created().json(Created { id }))
}

/// What validation accepts of a round robin's clock, for the API document: days a move, or
/// a live clock for at most 10 players (`create.rs` of the round robin).
pub(crate) fn round_robin_schema(schema: &mut serde_json::Value) {
    use crate::tournaments::round_robin::create::MAX_LIVE_PLAYERS;
    use serde_json::json;
    super::two_player_game_schema(schema);
    let none = json!({"type": "null"});
    schema["allOf"] = json!([{"oneOf": [
        {
            "required": ["days"],
            "properties": {
                "days": {"enum": crate::table::CORRESPONDENCE_DAYS},
                "initial": none,
                "increment": none,
            },
        },
        {
            "required": ["initial"],
            "properties": {
                "initial": {"type": "integer"},
                "days": none,
                "max_players": {"maximum": MAX_LIVE_PLAYERS},
            },
        },
    ]}]);
}

async fn caller(state: &AppState, req: &HttpRequest) -> Result<UserView, ApiError> {
    let identity = state
        .identity(req)
        .await?
        .ok_or_else(|| ApiError::unauthorized("no identity: log in to take part"))?;
    Ok(identity.user)
}

async fn ask(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: &str,
    request: Request,
) -> Result<HttpResponse, ApiError> {
    let user = caller(&state, &req).await?;
    state.tournaments.ask(id, &user, request).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Enters the caller (an account) in the tournament.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/join",
    tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 204, description = "Entered"),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A guest, or a bot account", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "Entered already, withdrew, or the tournament is over", body = ErrorBody),
    ),
)]
pub(crate) async fn join(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = caller(&state, &req).await?;
    // Arenas are for people: a bot account plays challenges and the bots' ladder.
    if user.bot {
        return Err(ApiError::forbidden(
            "a bot account cannot enter a tournament",
        ));
    }
    state.tournaments.ask(&id, &user, Request::Join).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Leaves the tournament: before the start the name comes off the list; after it, for good.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/withdraw",
    tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 204, description = "Withdrawn"),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A guest", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "Not entered, or the tournament is over", body = ErrorBody),
    ),
)]
pub(crate) async fn withdraw(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    ask(req, state, &id, Request::Withdraw).await
}

/// Stops being paired (after the game in progress) until `resume`.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/pause",
    tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 204, description = "Paused"),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A guest", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "Not entered, paused already, or the tournament is over", body = ErrorBody),
    ),
)]
pub(crate) async fn pause(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    ask(req, state, &id, Request::Pause).await
}

/// Comes back from a pause: paired again when free.
#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/resume",
    tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 204, description = "Back in the pairing"),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "A guest", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "Not entered, not paused, or the tournament is over", body = ErrorBody),
    ),
)]
pub(crate) async fn resume(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    ask(req, state, &id, Request::Resume).await
}

#[cfg(test)]
mod tests {
    use crate::tournaments::create;

    #[test]
    fn the_documented_bounds_are_the_checked_ones() {
        assert_eq!(create::INITIAL_SECONDS, (15, 3600));
        assert_eq!(create::INCREMENT_SECONDS, (0, 60));
        assert_eq!(create::LENGTH_MINUTES, (5, 720));
        assert_eq!(create::STARTS_IN_MINUTES, (0, 10080));
        assert_eq!(create::HOUSE_BOT_AFTER_SECONDS, (5, 600));
        use crate::tournaments::round_robin::create as round_robin;
        assert_eq!(round_robin::MIN_PLAYERS, 3);
        assert_eq!(round_robin::MAX_PLAYERS, 16);
        assert_eq!(round_robin::MAX_LIVE_PLAYERS, 10);
    }
}
