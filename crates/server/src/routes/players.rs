//! Players and ratings over HTTP: a player's public profile and rating history, each game's
//! leaderboard, and the bots with their ratings.

use std::collections::BTreeMap;

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::domain::bots::{BOT_LEVELS, bot_of, parse_bot_level};
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;
use crate::table::bot_user;

/// Leaderboards list this many players.
const LEADERBOARD_SIZE: u32 = 100;

/// A rating as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingView {
    pub rating: i32,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub provisional: bool,
}

impl From<&rating::Rating> for RatingView {
    fn from(r: &rating::Rating) -> RatingView {
        RatingView {
            rating: r.shown(),
            // One decimal is all a person reads; the rest is noise in the JSON.
            deviation: (r.deviation * 10.0).round() / 10.0,
            volatility: r.volatility,
            games: r.games,
            provisional: r.provisional(),
        }
    }
}

/// Ratings by game, then class.
pub(crate) type RatingsByGame = BTreeMap<String, BTreeMap<&'static str, RatingView>>;

pub(crate) async fn ratings_by_game(
    state: &AppState,
    player: &str,
) -> Result<RatingsByGame, ApiError> {
    let mut by_game = RatingsByGame::new();
    for entry in state.store.ratings_of(player).await? {
        by_game
            .entry(entry.game)
            .or_default()
            .insert(entry.class.as_str(), RatingView::from(&entry.rating));
    }
    Ok(by_game)
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Profile {
    id: String,
    name: String,
    guest: bool,
    /// The level, when this player is one of our own bots.
    bot: Option<String>,
    /// A bot account: someone's program, playing through the Bot API.
    bot_account: bool,
    created_at: Option<i64>,
    /// By game, then rating class (`blitz`, `rapid`, `correspondence`).
    #[schema(value_type = std::collections::BTreeMap<String, std::collections::BTreeMap<String, RatingView>>)]
    ratings: RatingsByGame,
    /// Wins, draws and losses.
    #[schema(value_type = Object)]
    results: ResultsView,
}

/// Finished two-player games by result, from the player's side.
#[derive(Serialize)]
struct ResultsView {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl From<store::Results> for ResultsView {
    fn from(results: store::Results) -> ResultsView {
        ResultsView {
            wins: results.wins,
            draws: results.draws,
            losses: results.losses,
        }
    }
}

/// A player's public profile (a person's, or one of the bots').
#[utoipa::path(
    get,
    path = "/api/users/{id}",
    tag = "players",
    params(("id" = String, Path, description = "The player's id (`bot:easy` for a bot)")),
    responses(
        (status = 200, description = "The profile", body = Profile),
        (status = 404, description = "No such player", body = ErrorBody),
    ),
)]
pub(crate) async fn profile(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let mut bot_account = false;
    let (name, guest, bot, created_at, occupant) = match bot_of(&id) {
        Some(level) => {
            let bot = bot_user(level);
            (
                bot.name,
                false,
                Some(level.to_string()),
                None,
                store::Occupant::Bot(level.to_string()),
            )
        }
        None => {
            let user = state
                .store
                .user(&id)
                .await?
                .ok_or_else(|| ApiError::not_found("player"))?;
            bot_account = user.bot;
            (
                user.display_name.clone(),
                user.is_guest(),
                None,
                Some(user.created_at),
                store::Occupant::User(user.id),
            )
        }
    };
    let profile = Profile {
        id: id.to_string(),
        name,
        guest,
        bot,
        bot_account,
        created_at,
        ratings: ratings_by_game(&state, &id).await?,
        results: ResultsView::from(state.store.results_of(&occupant).await?),
    };
    Ok(HttpResponse::Ok().json(profile))
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Opponent {
    id: Option<String>,
    name: String,
}

/// One rated game in a rating history.
#[derive(Serialize, ToSchema)]
pub(crate) struct Point {
    game: String,
    class: String,
    game_id: String,
    at: i64,
    rating: i32,
    change: i32,
    /// The rating after the game was still provisional (shown `1500?`).
    provisional: bool,
    opponent: Opponent,
}

/// A player's rating after each rated game, oldest first.
#[utoipa::path(
    get,
    path = "/api/users/{id}/rating-history",
    tag = "players",
    params(("id" = String, Path, description = "The player's id")),
    responses(
        (status = 200, description = "`points`: one a rated game", body = History),
        (status = 404, description = "No such player", body = ErrorBody),
    ),
)]
pub(crate) async fn history(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    if bot_of(&id).is_none() && state.store.user(&id).await?.is_none() {
        return Err(ApiError::not_found("player"));
    }
    let points: Vec<Point> = state
        .store
        .rating_history(&id)
        .await?
        .into_iter()
        .map(|p| {
            let name = p
                .opponent_name
                .or_else(|| {
                    p.opponent_id
                        .as_deref()
                        .and_then(bot_of)
                        .map(|l| bot_user(l).name)
                })
                .unwrap_or_default();
            Point {
                game: p.game,
                class: p.class,
                game_id: p.game_id,
                at: p.at,
                rating: p.rating,
                change: p.change,
                provisional: p.provisional,
                opponent: Opponent {
                    id: p.opponent_id,
                    name,
                },
            }
        })
        .collect();
    Ok(HttpResponse::Ok().json(History { points }))
}

#[derive(Serialize, ToSchema)]
pub(crate) struct History {
    points: Vec<Point>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ClassQuery {
    /// `blitz` (the default), `rapid` or `correspondence`.
    #[param(pattern = "^(blitz|rapid|correspondence)$")]
    class: Option<String>,
    /// The bot accounts' leaderboard instead of the people's.
    bots: Option<bool>,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct LeaderboardView {
    game: &'static str,
    class: &'static str,
    /// The bot accounts' board (`?bots=true`), or the people's.
    bots: bool,
    /// Best first, at most 100, provisional ratings left out.
    #[schema(value_type = Vec<Object>)]
    players: Vec<LeaderboardLine>,
}

/// A line of a leaderboard.
#[derive(Serialize)]
struct LeaderboardLine {
    rank: u32,
    user_id: String,
    name: String,
    rating: i32,
    games: u32,
    /// A bot account's line.
    bot: bool,
}

impl From<&store::LeaderboardEntry> for LeaderboardLine {
    fn from(entry: &store::LeaderboardEntry) -> LeaderboardLine {
        LeaderboardLine {
            rank: entry.rank,
            user_id: entry.user_id.clone(),
            name: entry.name.clone(),
            rating: entry.rating,
            games: entry.games,
            bot: entry.bot,
        }
    }
}

/// A game's best established players in one rating class.
#[utoipa::path(
    get,
    path = "/api/leaderboard/{game}",
    tag = "players",
    params(("game" = String, Path, description = "A two-player game's id"), ClassQuery),
    responses(
        (status = 200, description = "The leaderboard", body = LeaderboardView),
        (status = 400, description = "A solo puzzle, or no such class", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
)]
pub(crate) async fn leaderboard(
    state: web::Data<AppState>,
    game: web::Path<String>,
    query: web::Query<ClassQuery>,
) -> Result<HttpResponse, ApiError> {
    let id: catalog::GameId = game.parse().map_err(|_| ApiError::not_found("game"))?;
    let info = id.info();
    if id.is_solo() {
        return Err(ApiError::bad_request(format!(
            "{} is a solo puzzle: it has no rating ladder",
            info.id
        )));
    }
    let class: rating::Class = match &query.class {
        Some(class) => class
            .parse()
            .map_err(|e: rating::UnknownClass| ApiError::bad_request(e.to_string()))?,
        None => rating::Class::Blitz,
    };
    let players = state
        .store
        .leaderboard(
            info.id,
            class,
            rating::PROVISIONAL_DEVIATION,
            LEADERBOARD_SIZE,
            query.bots.unwrap_or(false),
        )
        .await?;
    Ok(HttpResponse::Ok().json(LeaderboardView {
        game: info.id,
        class: class.as_str(),
        bots: query.bots.unwrap_or(false),
        players: players.iter().map(LeaderboardLine::from).collect(),
    }))
}

#[derive(Serialize, ToSchema)]
pub(crate) struct BotView {
    level: &'static str,
    user_id: String,
    name: String,
    #[schema(value_type = std::collections::BTreeMap<String, std::collections::BTreeMap<String, RatingView>>)]
    ratings: RatingsByGame,
}

/// The bots one can play, with their ratings.
#[utoipa::path(
    get,
    path = "/api/bots",
    tag = "players",
    responses((status = 200, description = "The bots", body = Vec<BotView>)),
)]
pub(crate) async fn bots(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let mut bots = Vec::new();
    for level in BOT_LEVELS {
        let level = parse_bot_level(level)?;
        let user = bot_user(level);
        bots.push(BotView {
            level: level.name(),
            ratings: ratings_by_game(&state, &user.id).await?,
            user_id: user.id,
            name: user.name,
        });
    }
    Ok(HttpResponse::Ok().json(bots))
}

/// The longest name search asked for: no username is longer.
const SEARCH_MAX_CHARS: usize = 32;
/// The most players a search answers with.
const SEARCH_LIMIT: u32 = 20;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct SearchQuery {
    /// The start of a username (1–32 characters; letter case does not matter).
    // The pattern: a character that is not Unicode White_Space, what `str::trim` removes
    // (`\S` differs from it in ECMAScript, which counts U+FEFF and not U+0085).
    #[param(
        min_length = 1,
        max_length = 32,
        pattern = r"[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
    )]
    q: String,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Found {
    /// At most 20 accounts, in username order: each `{"id", "name"}`.
    #[schema(value_type = Vec<Object>)]
    players: Vec<FoundPlayer>,
}

#[derive(Serialize)]
struct FoundPlayer {
    id: String,
    name: String,
}

/// Accounts whose username starts with `q` (guests have no username and are not found).
#[utoipa::path(
    get,
    path = "/api/users",
    tag = "players",
    params(SearchQuery),
    responses(
        (status = 200, description = "The players found", body = Found),
        (status = 400, description = "An empty or overlong search", body = ErrorBody),
    ),
)]
pub(crate) async fn search(
    state: web::Data<AppState>,
    query: web::Query<SearchQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = query.q.trim();
    if q.is_empty() || q.chars().count() > SEARCH_MAX_CHARS {
        return Err(ApiError::bad_request(format!(
            "search for 1 to {SEARCH_MAX_CHARS} characters of a username"
        )));
    }
    let players = state
        .store
        .search_users(q, SEARCH_LIMIT)
        .await?
        .into_iter()
        .map(|(id, name)| FoundPlayer { id, name })
        .collect();
    Ok(HttpResponse::Ok().json(Found { players }))
}
