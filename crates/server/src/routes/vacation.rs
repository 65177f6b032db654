//! An account's vacation days for correspondence games: how many are left this year, and
//! whether a passed deadline takes one by itself (docs/rules-decisions.md, "Vacation").

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::identity::UserView;
use crate::state::AppState;
use crate::table::vacation::{DAYS_A_YEAR, days_left, year_of};
use crate::unix_time::unix_ms;

/// The caller's vacation days.
#[derive(Serialize, ToSchema)]
pub(crate) struct VacationSettings {
    /// A passed correspondence deadline takes a day (and moves a day later) rather than lose
    /// the game on time.
    auto: bool,
    /// Days left this calendar year (UTC).
    days_left: i64,
    /// Days each account has a year.
    days_a_year: i64,
}

#[derive(Deserialize, ToSchema)]
pub(crate) struct VacationChange {
    auto: bool,
}

/// Guests have no vacation days: their clock runs out as the clock of a live game does.
fn account(user: &UserView) -> Result<(), ApiError> {
    if user.guest {
        return Err(ApiError::new(
            ErrorCode::WrongState,
            "guests have no vacation days: sign up to have them",
        ));
    }
    Ok(())
}

async fn settings_of(state: &AppState, user: &UserView) -> Result<HttpResponse, ApiError> {
    let vacation = state
        .store
        .vacation(&user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    Ok(HttpResponse::Ok().json(VacationSettings {
        auto: vacation.auto,
        days_left: days_left(&vacation, year_of(unix_ms())),
        days_a_year: DAYS_A_YEAR,
    }))
}

#[utoipa::path(
    get,
    path = "/api/me/vacation",
    tag = "accounts",
    responses(
        (status = 200, description = "The caller's vacation days", body = VacationSettings),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 409, description = "Guests have no vacation days", body = ErrorBody),
    ),
)]
pub(crate) async fn vacation(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let user = state.require_identity(&req).await?;
    account(&user)?;
    settings_of(&state, &user).await
}

/// Turns the automatic use of vacation days on or off; the days left stay.
#[utoipa::path(
    put,
    path = "/api/me/vacation",
    tag = "accounts",
    request_body = VacationChange,
    responses(
        (status = 200, description = "The caller's vacation days, as changed", body = VacationSettings),
        (status = 401, description = "No identity", body = ErrorBody),
        (status = 409, description = "Guests have no vacation days", body = ErrorBody),
    ),
)]
pub(crate) async fn set_vacation(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let body: VacationChange = super::json_body(&req, &body)?;
    let user = state.require_identity(&req).await?;
    account(&user)?;
    state.store.set_vacation_auto(&user.id, body.auto).await?;
    settings_of(&state, &user).await
}
