//! The catalogue: the games, their variants and the bots one can play them against.

use actix_web::{HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::bots::BOT_LEVELS;
use crate::error::ApiError;

/// A text in the site's three languages.
#[derive(Serialize, ToSchema)]
pub(crate) struct NamesView {
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

#[derive(Serialize, ToSchema)]
pub(crate) struct VariantView {
    id: &'static str,
    names: NamesView,
}

/// A game of the catalogue.
#[derive(Serialize, ToSchema)]
pub(crate) struct GameView {
    id: &'static str,
    names: NamesView,
    summary: NamesView,
    seats: u8,
    dice: bool,
    default_variant: &'static str,
    variants: Vec<VariantView>,
    /// Bot levels one can play against (none for the solo puzzle).
    #[schema(value_type = Vec<String>)]
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

/// Every game of the catalogue.
#[utoipa::path(
    get,
    path = "/api/games",
    tag = "catalogue",
    responses((status = 200, description = "The games", body = Vec<GameView>)),
)]
pub(crate) async fn catalogue() -> HttpResponse {
    let games: Vec<GameView> = catalog::GAMES.iter().map(|g| game_view(g)).collect();
    HttpResponse::Ok().json(games)
}

/// One game of the catalogue.
#[utoipa::path(
    get,
    path = "/api/games/{id}",
    tag = "catalogue",
    params(("id" = String, Path, description = "The game's id (`perekati`, …)")),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 404, description = "No such game", body = crate::error::ErrorBody),
    ),
)]
pub(crate) async fn catalogue_entry(id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let game: catalog::GameId = id.parse().map_err(|_| ApiError::not_found("game"))?;
    Ok(HttpResponse::Ok().json(game_view(game.info())))
}
