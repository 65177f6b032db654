//! The HTTP API: health, the catalogue, identity, tables and game records.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ErrorCode, WsError};
use crate::identity::{Keys, UserView, parse_password};
use crate::limits::Action;
use crate::names::Username;
use crate::startup::AppState;
use crate::table::TableSettings;
use crate::table::clock::TimeControl;
use crate::ws::protocol::ClockSpec;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(health))
        .route("/api/games", web::get().to(catalogue))
        .route("/api/games/{id}", web::get().to(catalogue_entry))
        .route("/api/me", web::get().to(me))
        .route("/api/me/games", web::get().to(my_games))
        .route("/api/me/playing", web::get().to(my_playing))
        .route("/api/register", web::post().to(register))
        .route("/api/login", web::post().to(login))
        .route("/api/logout", web::post().to(logout))
        .route("/api/logout/everywhere", web::post().to(logout_everywhere))
        .route("/api/password", web::post().to(change_password))
        .route("/api/tables", web::get().to(lobby))
        .route("/api/tables", web::post().to(create_table))
        .route("/api/tables/{id}", web::get().to(table))
        .route("/api/records/{id}", web::get().to(record))
        .route(
            "/api/records/{id}/positions",
            web::get().to(record_positions),
        )
        .route("/api/users/{id}/games", web::get().to(user_games))
        .route("/ws", web::get().to(crate::ws::session::route))
        .configure(crate::rabbit::routes)
        .configure(crate::moderation::routes)
        .configure(crate::notifications::routes)
        .configure(crate::ratings::routes)
        .configure(crate::live::routes)
        // Last: any other API path is a JSON 404, not the web client's index page.
        .route("/api/{tail:.*}", web::to(api_not_found));
}

async fn api_not_found() -> Result<HttpResponse, ApiError> {
    Err(WsError::new(ErrorCode::NotFound, "no such API endpoint"))
}

/// 200 when the server can do its work: every unfinished table is back and the database
/// accepts a write (checked at most every [`crate::health::PROBE_EVERY`]); 503 naming what is
/// missing otherwise.
async fn health(state: web::Data<AppState>) -> HttpResponse {
    match state.health.check(&state.store).await {
        Ok(()) => HttpResponse::Ok().json(serde_json::json!({"status": "ok"})),
        Err(failure) => HttpResponse::ServiceUnavailable().json(serde_json::json!({
            "status": "unavailable",
            "failed": failure.part,
            "error": failure.detail,
        })),
    }
}

#[derive(Serialize)]
struct NamesView {
    ru: &'static str,
    uk: &'static str,
    en: &'static str,
}

impl From<catalog::Names> for NamesView {
    fn from(n: catalog::Names) -> Self {
        NamesView {
            ru: n.ru,
            uk: n.uk,
            en: n.en,
        }
    }
}

#[derive(Serialize)]
struct VariantView {
    id: &'static str,
    names: NamesView,
}

#[derive(Serialize)]
struct GameView {
    id: &'static str,
    names: NamesView,
    summary: NamesView,
    seats: u8,
    dice: bool,
    default_variant: &'static str,
    variants: Vec<VariantView>,
    /// Bot levels one can play against (none for the solo puzzle).
    bots: &'static [&'static str],
}

fn game_view(info: &catalog::GameInfo) -> GameView {
    GameView {
        id: info.id,
        names: info.names.into(),
        summary: info.summary.into(),
        seats: info.seats,
        dice: info.has_dice,
        default_variant: info.default_variant().id,
        bots: if info.seats == 2 { &BOT_LEVELS } else { &[] },
        variants: info
            .variants
            .iter()
            .map(|v| VariantView {
                id: v.id,
                names: v.names.into(),
            })
            .collect(),
    }
}

async fn catalogue() -> HttpResponse {
    let games: Vec<GameView> = catalog::GAMES.iter().map(|g| game_view(g)).collect();
    HttpResponse::Ok().json(games)
}

async fn catalogue_entry(id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let info = catalog::game_info(&id).ok_or_else(|| WsError::not_found("game"))?;
    Ok(HttpResponse::Ok().json(game_view(info)))
}

/// Who am I? A browser's first visit becomes a guest here (and gets its cookie); nothing is
/// written until the guest does something.
async fn me(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let (identity, fresh) = state.identify_or_mint_guest(&req).await?;
    Ok(with_identity(
        &state,
        &req,
        HttpResponse::Ok(),
        &identity.user,
        fresh.as_deref(),
    ))
}

fn with_identity(
    state: &AppState,
    req: &HttpRequest,
    mut response: actix_web::HttpResponseBuilder,
    user: &UserView,
    token: Option<&str>,
) -> HttpResponse {
    if let Some(token) = token {
        response.cookie(state.cookie_for(req, token, user.guest));
    }
    response.json(serde_json::json!({ "user": user, "token": token }))
}

#[derive(Deserialize)]
struct Credentials {
    username: String,
    password: String,
}

/// Turns the caller (a guest, or a new visitor) into an account; a guest keeps its games. The
/// guest's token stops working: the answer carries the account's.
async fn register(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let address = state.security.client_ip(&req);
    state.limits.check(Action::Register, address, None)?;
    let username = Username::parse(&body.username)?;
    let password = parse_password(&body.password)?.to_string();
    let user = match state.identify(&req).await? {
        Some(user) if !user.guest => {
            return Err(WsError::new(
                ErrorCode::WrongState,
                "you already have an account",
            ));
        }
        Some(user) => user,
        None => state.mint_guest(&req)?.0,
    };
    state.sessions.ensure_row(&user).await?;
    let hash = state.passwords.hash(password).await?;
    let version = state
        .store
        .register(
            &user.id,
            &store::Registration {
                username: &username.name,
                skeleton: &username.skeleton,
                password_hash: &hash,
            },
        )
        .await
        .map_err(|e| match e {
            store::StoreError::NameTaken => {
                WsError::new(ErrorCode::NameTaken, "that username is taken")
            }
            store::StoreError::Conflict => {
                WsError::new(ErrorCode::WrongState, "this guest is already registered")
            }
            other => other.into(),
        })?;
    state.sessions.version_changed(&user.id, version);
    // From now on the player is known by the chosen name, in old games too.
    state
        .store
        .set_display_name(&user.id, &username.name)
        .await?;
    let account = UserView {
        id: user.id,
        name: username.name,
        guest: false,
    };
    let token = state.sessions.issue(&account, version);
    Ok(with_identity(
        &state,
        &req,
        HttpResponse::Ok(),
        &account,
        Some(&token),
    ))
}

async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let wrong = || WsError::unauthorized("wrong username or password");
    let typed = crate::names::login_form(&body.username);
    let account_key = typed.to_lowercase();
    let address = state.security.client_ip(&req);
    state
        .limits
        .check(Action::Login, address, Some(&account_key))?;
    state.limits.login_allowed(&account_key)?;
    let user = state.store.user_by_username(&typed).await?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    // An unknown name costs the same argon2 check as a wrong password: the time of the
    // answer does not tell which names exist.
    let ok = state
        .passwords
        .verify(body.password.clone(), stored)
        .await?;
    let Some(user) = user.filter(|_| ok) else {
        state.limits.login_failed(&account_key);
        return Err(wrong());
    };
    state.limits.login_succeeded(&account_key);
    let account = UserView {
        id: user.id,
        name: user.username.unwrap_or(user.display_name),
        guest: false,
    };
    let token = state.sessions.issue(&account, user.token_version);
    Ok(with_identity(
        &state,
        &req,
        HttpResponse::Ok(),
        &account,
        Some(&token),
    ))
}

/// Forgets this browser's identity (its cookie). Other devices stay logged in: see
/// [`logout_everywhere`].
async fn logout() -> HttpResponse {
    HttpResponse::Ok()
        .cookie(Keys::removal_cookie())
        .json(serde_json::json!({"type": "ok"}))
}

/// Ends every session of the account, on every device, and closes their sockets; the caller
/// gets a fresh token for this one.
async fn logout_everywhere(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    if user.guest {
        return Err(WsError::new(
            ErrorCode::WrongState,
            "a guest has only this session: log out instead",
        ));
    }
    let version = state.sessions.end_all(&user.id).await?;
    Ok(fresh_session(&state, &req, &user, version))
}

/// The answer that hands the caller a token of the account's new version (and its cookie).
fn fresh_session(
    state: &AppState,
    req: &HttpRequest,
    user: &UserView,
    version: i64,
) -> HttpResponse {
    let token = state.sessions.issue(user, version);
    with_identity(state, req, HttpResponse::Ok(), user, Some(&token))
}

#[derive(Deserialize)]
struct PasswordChange {
    old: String,
    new: String,
}

/// Changes the password: every other session of the account ends; the caller gets a fresh
/// token.
async fn change_password(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<PasswordChange>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let new = parse_password(&body.new)?.to_string();
    let record = state
        .store
        .user(&user.id)
        .await?
        .ok_or_else(|| WsError::not_found("user"))?;
    let stored = record
        .password_hash
        .ok_or_else(|| WsError::new(ErrorCode::WrongState, "guests have no password"))?;
    if !state
        .passwords
        .verify(body.old.clone(), Some(stored))
        .await?
    {
        return Err(WsError::unauthorized("wrong password"));
    }
    let hash = state.passwords.hash(new).await?;
    let version = state.store.set_password(&user.id, &hash).await?;
    state.sessions.version_changed(&user.id, version);
    Ok(fresh_session(&state, &req, &user, version))
}

async fn lobby(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(state.hub.lobby_view())
}

#[derive(Deserialize)]
struct CreateTable {
    game: String,
    variant: Option<String>,
    #[serde(default)]
    private: bool,
    clock: Option<ClockSpec>,
    /// The seat the creator takes (0 or 1; 0 by default).
    seat: Option<u8>,
    /// Play against a bot of this level (`easy`, `medium`, `hard`), seated opposite.
    bot: Option<String>,
    /// The result moves both players' ratings (accounts only).
    #[serde(default)]
    rated: bool,
    /// Only opponents rated within `[lowest, highest]` may sit.
    rating_range: Option<[i64; 2]>,
}

/// The days a correspondence game may give each move.
pub const CORRESPONDENCE_DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// Checks a game, variant and clock against the catalogue.
pub fn table_settings(
    game: &str,
    variant: Option<&str>,
    private: bool,
    clock: Option<ClockSpec>,
) -> Result<TableSettings, WsError> {
    let info = catalog::game_info(game)
        .ok_or_else(|| WsError::bad_request(format!("unknown game {game:?}")))?;
    let variant = match variant {
        None => info.default_variant(),
        Some(v) => info
            .variant(v)
            .ok_or_else(|| WsError::bad_request(format!("{game} has no variant {v:?}")))?,
    };
    let (control, days) = match clock {
        None => (None, None),
        Some(ClockSpec {
            initial: None,
            increment: None,
            days: Some(days),
        }) => {
            let days = u8::try_from(days)
                .ok()
                .filter(|d| CORRESPONDENCE_DAYS.contains(d))
                .ok_or_else(|| {
                    WsError::bad_request(
                        "a correspondence clock has 1, 2, 3, 5, 7 or 14 days a move",
                    )
                })?;
            (None, Some(days))
        }
        Some(ClockSpec {
            initial: Some(initial),
            increment: Some(increment),
            days: None,
        }) => {
            let control =
                TimeControl::new(initial.saturating_mul(1000), increment.saturating_mul(1000))
                    .map_err(WsError::bad_request)?;
            (Some(control), None)
        }
        Some(_) => {
            return Err(WsError::bad_request(
                "a clock is {\"initial\": seconds, \"increment\": seconds} or {\"days\": N}",
            ));
        }
    };
    if (control.is_some() || days.is_some()) && info.seats < 2 {
        return Err(WsError::bad_request("a solo puzzle has no clock"));
    }
    Ok(TableSettings {
        game: info.id,
        variant: variant.id,
        private,
        control,
        days,
        daily: None,
        practice: None,
        rated: false,
        rating_range: None,
    })
}

/// The rated/casual choice and the rating range of a new table, checked for `user`.
pub fn with_rating(
    settings: TableSettings,
    user: &UserView,
    rated: bool,
    rating_range: Option<[i64; 2]>,
) -> Result<TableSettings, WsError> {
    let two_players = settings.rating_class().is_some();
    if rated && !two_players {
        return Err(WsError::bad_request(
            "a solo puzzle is not rated: only two-player games are",
        ));
    }
    if rated && user.guest {
        return Err(WsError::forbidden(crate::table::RATED_FOR_ACCOUNTS));
    }
    if let Some([low, high]) = rating_range {
        if !two_players {
            return Err(WsError::bad_request(
                "a solo puzzle has no opponents to choose",
            ));
        }
        if !(0..=4000).contains(&low) || !(0..=4000).contains(&high) || low > high {
            return Err(WsError::bad_request(
                "a rating range is [lowest, highest], both between 0 and 4000",
            ));
        }
    }
    Ok(TableSettings {
        rated,
        rating_range,
        ..settings
    })
}

async fn create_table(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<CreateTable>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let settings = with_rating(
        table_settings(
            &body.game,
            body.variant.as_deref(),
            body.private,
            body.clock,
        )?,
        &user,
        body.rated,
        body.rating_range,
    )?;
    let info = catalog::game_info(settings.game).expect("checked above");
    let seat = body.seat.unwrap_or(0) as usize;
    if seat >= info.seats as usize {
        return Err(WsError::bad_request(format!(
            "{} has no seat {seat}",
            info.id
        )));
    }
    let mut seats = vec![None; info.seats as usize];
    seats[seat] = Some(user.clone());
    if let Some(level) = &body.bot {
        let level = parse_bot_level(level)?;
        if info.seats != 2 {
            return Err(WsError::bad_request("bots play the two-player games"));
        }
        seats[1 - seat] = Some(crate::table::bot_user(level));
    }
    let listed = !body.private && body.bot.is_none() && info.seats > 1;
    state
        .may_create_table(&req, &user, listed, body.bot.is_some())
        .await?;
    let handle = state
        .hub
        .create_table(settings, Some(user.clone()), seats, None)
        .await?;
    let view = handle.view(Some(user), None).await?;
    Ok(HttpResponse::Created().json(view))
}

#[derive(Deserialize)]
pub(crate) struct TokenQuery {
    pub(crate) token: Option<String>,
}

/// The levels a person can choose to play against.
pub(crate) const BOT_LEVELS: [&str; 3] = ["easy", "medium", "hard"];

pub(crate) fn parse_bot_level(level: &str) -> Result<ai::Level, WsError> {
    BOT_LEVELS
        .contains(&level)
        .then(|| level.parse().ok())
        .flatten()
        .ok_or_else(|| {
            WsError::bad_request(format!(
                "no bot level {level:?}: choose easy, medium or hard"
            ))
        })
}

async fn table(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let user = state.identify(&req).await?;
    let handle = state.hub.table(&id).await?;
    let view = handle.view(user, query.token.clone()).await?;
    Ok(HttpResponse::Ok().json(view))
}

/// The stored record of a game the caller may see: the same visibility as its table (a
/// private one needs its token unless the caller sits there).
pub(crate) async fn visible_record(
    req: &HttpRequest,
    state: &AppState,
    id: &str,
    token: Option<String>,
) -> Result<store::GameRecord, WsError> {
    let user = state.identify(req).await?;
    state.hub.table(id).await?.view(user, token).await?;
    state
        .store
        .game(id)
        .await?
        .ok_or_else(|| WsError::not_found("game"))
}

/// A game record to export and replay: game, variant, seed, players, moves, result. The seed
/// of a game still in progress is withheld (for a dice game it would reveal the next rolls),
/// and so is a daily deal's until its day is over (everyone else is playing the same dice).
async fn record(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let record = visible_record(&req, &state, &id, query.token.clone()).await?;
    let today = crate::rabbit::day_text(crate::rabbit::today());
    let over = record.status.is_over()
        && record
            .daily
            .as_deref()
            .is_none_or(|day| day < today.as_str());
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "id": record.id,
        "game": record.game,
        "variant": record.variant,
        "seed": over.then_some(record.seed),
        "status": record.status.as_str(),
        "result": record.result,
        "reason": record.end_reason,
        "clock": record.clock_initial_ms.zip(record.clock_increment_ms)
            .map(|(initial_ms, increment_ms)| serde_json::json!({"initial_ms": initial_ms, "increment_ms": increment_ms})),
        "players": record.seats.iter().map(|s| serde_json::json!({
            "seat": catalog::Seat::from_index(s.seat as usize).map(catalog::Seat::letter),
            "user": s.user_id,
            "name": s.display_name,
            "bot": s.bot,
        })).collect::<Vec<_>>(),
        "moves": record.moves.iter().map(|m| &m.mv).collect::<Vec<_>>(),
        "created_at": record.created_at,
        "finished_at": record.finished_at,
    })))
}

/// Every position of a game, from the start to after its last move (one more than the
/// moves), for the replay viewer: the client has no engine.
async fn record_positions(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let record = visible_record(&req, &state, &id, query.token.clone()).await?;
    let mut game = catalog::AnyGame::new(&record.game, Some(&record.variant), record.seed)
        .map_err(|e| WsError::internal("a stored game does not start", e))?;
    let mut positions = vec![game.position()];
    for row in &record.moves {
        game.play(&row.mv)
            .map_err(|e| WsError::internal("a stored game does not replay", e))?;
        positions.push(game.position());
    }
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "game": record.game,
        "variant": record.variant,
        "moves": record.moves.iter().map(|m| &m.mv).collect::<Vec<_>>(),
        "positions": positions,
    })))
}

async fn my_games(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let games = state.store.games_of_user(&user.id, 100).await?;
    Ok(HttpResponse::Ok().json(games))
}

/// The caller's games that have not ended, those waiting for their move first, then the
/// ones where their own clock is lowest, then the newest.
async fn my_playing(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    let mut games = Vec::new();
    for id in state.store.unfinished_game_ids_of(&user.id).await? {
        let table = match state.hub.table(&id).await {
            Ok(table) => table,
            // A game that does not replay is logged by the hub; the list goes on without it.
            Err(_) => continue,
        };
        games.extend(table.playing(&user.id).await);
    }
    games.sort_by_key(|g| (!g.your_turn, g.time_left_ms.unwrap_or(i64::MAX)));
    Ok(HttpResponse::Ok().json(serde_json::json!({ "games": games })))
}

async fn user_games(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let games = state.store.games_of_user(&id, 100).await?;
    Ok(HttpResponse::Ok().json(games))
}

impl AppState {
    /// Whether `user` may create one more table now: the rate per identity and address, the
    /// open tables and unfinished bot games they already have, and no listed (public, open to
    /// anyone) tables for a flagged account. Writes the guest's row when all is well.
    pub async fn may_create_table(
        &self,
        req: &HttpRequest,
        user: &UserView,
        listed: bool,
        bot: bool,
    ) -> Result<(), WsError> {
        let address = self.security.client_ip(req);
        self.limits
            .check(Action::CreateTable, address, Some(&user.id))?;
        if listed && self.sessions.flagged(&user.id).await? {
            return Err(WsError::forbidden(
                "a moderator has restricted this account: it cannot open public tables",
            ));
        }
        let config = self.limits.config();
        if config.enabled {
            let (open, bots) = self.store.active_tables_of(&user.id).await?;
            if listed && open >= config.open_tables_per_identity as i64 {
                return Err(WsError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "you already have {open} open tables waiting for players: \
                         start or close one first"
                    ),
                ));
            }
            if bot && bots >= config.bot_games_per_identity as i64 {
                return Err(WsError::new(
                    ErrorCode::RateLimited,
                    format!("you already have {bots} unfinished bot games: finish one first"),
                ));
            }
        }
        self.sessions.ensure_row(user).await
    }
}
