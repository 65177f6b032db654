//! The bot ladder over HTTP (docs/bot-api.md, "The ladder"): a bot account joins or leaves
//! it, and anyone reads who is on it, their ratings and its last games (the bots page).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::bot::{caller, count_request};
use super::players::{RatingView, RatingsByGame, ratings_by_game};
use crate::domain::bots::{BOT_LEVELS, bot_of, parse_bot_level};
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use crate::table::bot_user;
use crate::unix_time::unix_ms;

/// How many of the ladder's last games the page is given.
const RECENT: u32 = 60;

/// Whether the caller's bot account is on the ladder.
#[derive(Serialize, ToSchema)]
pub(crate) struct Membership {
    user_id: String,
    on_ladder: bool,
}

/// A bot of the ladder: one of the site's own, or a bot account that joined it.
#[derive(Serialize, ToSchema)]
pub(crate) struct LadderBot {
    /// `bot:easy` for the site's bots, the account's id otherwise.
    id: String,
    name: String,
    /// The level, for the site's own bots.
    level: Option<&'static str>,
    /// A bot account (someone's program).
    account: bool,
    /// When the account joined (unix ms); none for the site's bots, always on it.
    joined_at: Option<i64>,
    #[schema(value_type = std::collections::BTreeMap<String, std::collections::BTreeMap<String, RatingView>>)]
    ratings: RatingsByGame,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct LadderView {
    bots: Vec<LadderBot>,
    /// Its last games, newest first: `{"id", "game", "variant", "players": [first, second],
    /// "result", "reason", "ended_at"}` (the table's id opens its replay).
    #[schema(value_type = Vec<Object>)]
    recent: Vec<Value>,
}

/// Puts the caller's bot account on the ladder: from now on the ladder challenges it to
/// rated games against the other bots (its program answers as it answers any challenge).
#[utoipa::path(
    post,
    path = "/api/bot/ladder",
    tag = "bot",
    responses(
        (status = 200, description = "On the ladder (again is no change)", body = Membership),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Not a bot account, or a token without the bot scope", body = ErrorBody),
        (status = 429, description = "Too many requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn join(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (identity, _) = ladder_caller(&state, &req).await?;
    state
        .store
        .join_ladder(&identity.user.id, unix_ms())
        .await?;
    Ok(HttpResponse::Ok().json(Membership {
        user_id: identity.user.id,
        on_ladder: true,
    }))
}

/// Takes the caller's bot account off the ladder: no new ladder challenge comes; a ladder
/// game going on is played to its end.
#[utoipa::path(
    delete,
    path = "/api/bot/ladder",
    tag = "bot",
    responses(
        (status = 200, description = "Off the ladder (again is no change)", body = Membership),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 403, description = "Not a bot account, or a token without the bot scope", body = ErrorBody),
        (status = 429, description = "Too many requests of this token", body = ErrorBody),
    ),
)]
pub(crate) async fn leave(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (identity, _) = ladder_caller(&state, &req).await?;
    state.store.leave_ladder(&identity.user.id).await?;
    Ok(HttpResponse::Ok().json(Membership {
        user_id: identity.user.id,
        on_ladder: false,
    }))
}

/// The caller, a bot account: the ladder is for programs, never for a person's account.
async fn ladder_caller(
    state: &AppState,
    req: &HttpRequest,
) -> Result<(crate::identity::Identity, String), ApiError> {
    let (identity, token) = caller(state, req).await?;
    if !identity.user.bot {
        return Err(ApiError::forbidden(
            "the bot ladder is for bot accounts: a person's account cannot join it (an \
             account that has never played may become a bot: POST /api/bot/account/upgrade)",
        ));
    }
    count_request(state, req, &identity).await?;
    Ok((identity, token))
}

/// The ladder: its bots (the site's three and the bot accounts on it) with their ratings,
/// and its last games.
#[utoipa::path(
    get,
    path = "/api/ladder",
    tag = "players",
    responses((status = 200, description = "The ladder", body = LadderView)),
)]
pub(crate) async fn ladder(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let mut bots = Vec::new();
    for level in BOT_LEVELS {
        let level = parse_bot_level(level)?;
        let user = bot_user(level);
        bots.push(LadderBot {
            ratings: ratings_by_game(&state, &user.id).await?,
            id: user.id,
            name: user.name,
            level: Some(level.name()),
            account: false,
            joined_at: None,
        });
    }
    let mut names = std::collections::HashMap::new();
    for entrant in state.store.ladder_entrants().await? {
        names.insert(entrant.user_id.clone(), entrant.name.clone());
        bots.push(LadderBot {
            ratings: ratings_by_game(&state, &entrant.user_id).await?,
            id: entrant.user_id,
            name: entrant.name,
            level: None,
            account: true,
            joined_at: Some(entrant.joined_at),
        });
    }
    let mut recent = Vec::new();
    for row in state.store.recent_ladder_games(RECENT).await? {
        let game = &row.game;
        let second = if game.first == game.player_lo {
            &game.player_hi
        } else {
            &game.player_lo
        };
        let mut players = Vec::new();
        for id in [&game.first, second] {
            players.push(player(&state, &mut names, id).await?);
        }
        recent.push(json!({
            "id": game.game_id,
            "game": game.game,
            "variant": game.variant,
            "players": players,
            "result": row.result,
            "reason": row.reason,
            "ended_at": game.ended_at,
        }));
    }
    Ok(HttpResponse::Ok().json(LadderView { bots, recent }))
}

/// A ladder game's player as the lists show one: `{"id", "name", "bot"}`, `bot` the level of
/// the site's bots and `true` for a bot account.
async fn player(
    state: &AppState,
    names: &mut std::collections::HashMap<String, String>,
    id: &str,
) -> Result<Value, ApiError> {
    if let Some(level) = bot_of(id) {
        return Ok(json!({"id": id, "name": bot_user(level).name, "bot": level.name()}));
    }
    if !names.contains_key(id) {
        // An account that has left the ladder since.
        let name = state
            .store
            .user(id)
            .await?
            .map(|u| u.display_name)
            .unwrap_or_default();
        names.insert(id.to_string(), name);
    }
    Ok(json!({"id": id, "name": names[id], "bot": true}))
}
