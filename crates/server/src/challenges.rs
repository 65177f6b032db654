//! Challenges (docs/bot-api.md): one player asks another for a game of given settings; the
//! other accepts (a table starts with both seated), declines with a reason from a closed
//! list, or lets it expire; the challenger may cancel it. Challenges live in the database, so
//! any node answers any of them; each change is told to both players' sockets and Bot API
//! event streams on every node, as a `challenge` message. A person challenged is pushed too
//! (docs/protocol.md, "Web Push"), unless they switched `challenge` pushes off; a bot account
//! is not (its event stream is how it hears). A push not sent yet goes when the challenge is
//! answered, canceled or expires.

use std::time::Duration;

use record::NoteKind;
use serde_json::{Value, json};

use crate::error::{ApiError, ErrorCode};
use crate::hub::Hub;
use crate::table::TableSettings;
use crate::unix_time::unix_ms;
use crate::ws::protocol::{ClockSpec, Message, UserView};

/// Why a challenge was declined: the closed list a decline chooses from.
pub const DECLINE_REASONS: [&str; 11] = [
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "time_control",
    "rated",
    "casual",
    "game",
    "variant",
    "no_bot",
    "only_bot",
];

/// The challenger's side: the first seat, the second, or drawn when accepted.
pub const SIDES: [&str; 3] = ["a", "b", "random"];

/// Unanswered challenges one player may have sent at once.
pub const OPEN_PER_CHALLENGER: usize = 20;

/// How often every node looks for challenges past their time.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// A challenge as asked for, before it is checked.
pub struct Ask<'a> {
    pub game: &'a str,
    pub variant: Option<&'a str>,
    pub clock: Option<ClockSpec>,
    pub side: Option<&'a str>,
    pub rated: bool,
}

/// The table settings a challenge's values describe (checked again when it is accepted:
/// the catalogue is the same, so they pass).
fn settings_of(challenge: &store::Challenge) -> Result<TableSettings, ApiError> {
    let clock = match (
        challenge.clock_initial_ms,
        challenge.clock_increment_ms,
        challenge.move_days,
    ) {
        (Some(initial), Some(increment), _) => Some(ClockSpec {
            initial: Some(initial as u64 / 1000),
            increment: Some(increment as u64 / 1000),
            days: None,
        }),
        (_, _, Some(days)) => Some(ClockSpec {
            initial: None,
            increment: None,
            days: Some(days as u64),
        }),
        _ => None,
    };
    TableSettings::parse(&challenge.game, Some(&challenge.variant), false, clock)
}

/// The challenge as the API and the messages show it, with both players' names.
pub async fn view(store: &store::Store, c: &store::Challenge) -> Result<Value, ApiError> {
    let player = |user: Option<store::User>, id: &str| match user {
        Some(u) => json!({"id": u.id, "name": u.display_name, "bot": u.bot}),
        None => json!({"id": id, "name": "", "bot": false}),
    };
    let challenger = player(store.user(&c.challenger_id).await?, &c.challenger_id);
    let dest = player(store.user(&c.dest_id).await?, &c.dest_id);
    let clock = match (c.clock_initial_ms, c.clock_increment_ms, c.move_days) {
        (Some(initial), Some(increment), _) => {
            json!({"initial": initial / 1000, "increment": increment / 1000})
        }
        (_, _, Some(days)) => json!({"days": days}),
        _ => Value::Null,
    };
    Ok(json!({
        "id": c.id,
        "challenger": challenger,
        "dest": dest,
        "game": c.game,
        "variant": c.variant,
        "clock": clock,
        "side": c.side,
        "rated": c.rated,
        "status": c.status,
        "decline_reason": c.decline_reason,
        "game_id": c.game_id,
        "created_at": c.created_at,
        "expires_at": c.expires_at,
    }))
}

/// Tells both players (every socket and event stream of theirs, on every node).
async fn tell(hub: &Hub, c: &store::Challenge, event: &'static str) -> Result<Value, ApiError> {
    let challenge = view(hub.store(), c).await?;
    let message = Message::Challenge {
        event,
        challenge: challenge.clone(),
    };
    hub.send_to(c.challenger_id.clone(), &message);
    hub.send_to(c.dest_id.clone(), &message);
    if event != "created" {
        // No longer news: a push not sent yet would ask for an answer that cannot be given.
        if let Err(error) = hub
            .store()
            .drop_pushes_of(&c.dest_id, &c.id, Some(NoteKind::Challenge))
            .await
        {
            tracing::warn!(challenge = %c.id, %error, "cannot drop a challenge's push");
        }
    }
    Ok(challenge)
}

/// Queues the push to a person challenged (a failure is only logged: the challenge stands).
async fn push_to_challenged(hub: &Hub, c: &store::Challenge, challenger: &UserView) {
    if let Err(error) = hub
        .store()
        .enqueue_challenge_push(
            &c.dest_id,
            NoteKind::Challenge,
            &c.id,
            &c.game,
            &challenger.name,
            c.created_at,
        )
        .await
    {
        tracing::warn!(challenge = %c.id, %error, "cannot queue a challenge's push");
    }
}

/// `challenger` challenges the account `dest_id`: stored, told to both, and returned.
pub async fn create(
    hub: &Hub,
    challenger: &UserView,
    dest_id: &str,
    ask: Ask<'_>,
    ttl: Duration,
) -> Result<Value, ApiError> {
    let store = hub.store();
    let settings = TableSettings::parse(ask.game, ask.variant, false, ask.clock)?
        .with_rating(challenger, ask.rated, None)?;
    if settings.variant().game().is_solo() {
        return Err(ApiError::bad_request(
            "a challenge is for a two-player game: a solo puzzle starts from its own table",
        ));
    }
    let side = ask.side.unwrap_or("random");
    if !SIDES.contains(&side) {
        return Err(ApiError::bad_request("the side is a, b or random"));
    }
    let dest = store
        .user(dest_id)
        .await?
        .filter(|u| !u.is_guest())
        .ok_or_else(|| ApiError::not_found("player to challenge"))?;
    if dest.id == challenger.id {
        return Err(ApiError::bad_request("you cannot challenge yourself"));
    }
    let now = unix_ms();
    let open = store.open_challenges_of(&challenger.id, now).await?;
    let sent = open
        .iter()
        .filter(|c| c.challenger_id == challenger.id)
        .count();
    if sent >= OPEN_PER_CHALLENGER {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "you have {sent} challenges waiting for an answer: cancel one or wait for them"
            ),
        ));
    }
    let dest_is_bot = dest.bot;
    let challenge = store::Challenge {
        id: store::new_id(),
        challenger_id: challenger.id.clone(),
        dest_id: dest.id,
        game: settings.variant().game().as_str().to_string(),
        variant: settings.variant().as_str().to_string(),
        clock_initial_ms: settings.control().map(|c| c.initial_ms as i64),
        clock_increment_ms: settings.control().map(|c| c.increment_ms as i64),
        move_days: settings.days().map(i64::from),
        side: side.to_string(),
        rated: settings.rated(),
        status: "created".to_string(),
        decline_reason: None,
        game_id: None,
        created_at: now,
        expires_at: now + ttl.as_millis() as i64,
    };
    store.add_challenge(&challenge).await?;
    if !dest_is_bot {
        push_to_challenged(hub, &challenge, challenger).await;
    }
    tell(hub, &challenge, "created").await
}

/// The challenge `id` if `user` is one of its players (`NotFound` otherwise: a stranger
/// learns nothing of it).
async fn of_player(hub: &Hub, id: &str, user: &UserView) -> Result<store::Challenge, ApiError> {
    hub.store()
        .challenge(id)
        .await?
        .filter(|c| c.challenger_id == user.id || c.dest_id == user.id)
        .ok_or_else(|| ApiError::not_found("challenge"))
}

/// The refusal of an answer to a challenge that is no longer waiting.
fn answered(c: &store::Challenge) -> ApiError {
    let status = if c.status == "created" {
        "expired"
    } else {
        c.status.as_str()
    };
    ApiError::new(
        ErrorCode::WrongState,
        format!("this challenge is {status}: it waits for no answer"),
    )
}

/// Moves `c` from `created` to `status`, or says why it cannot.
async fn answer(
    hub: &Hub,
    c: &store::Challenge,
    status: &str,
    reason: Option<&str>,
) -> Result<store::Challenge, ApiError> {
    match hub
        .store()
        .answer_challenge(&c.id, status, reason, unix_ms())
        .await?
    {
        Some(changed) => Ok(changed),
        None => {
            let now = hub
                .store()
                .challenge(&c.id)
                .await?
                .unwrap_or_else(|| c.clone());
            Err(answered(&now))
        }
    }
}

/// The player challenged accepts: a table starts with both seated, told to both; returns
/// the challenge with its table's id.
pub async fn accept(hub: &Hub, user: &UserView, id: &str) -> Result<Value, ApiError> {
    let c = of_player(hub, id, user).await?;
    if c.dest_id != user.id {
        return Err(ApiError::forbidden(
            "only the player challenged may accept: cancel your own challenge instead",
        ));
    }
    let settings = settings_of(&c)?;
    let mut c = answer(hub, &c, "accepted", None).await?;
    let settings = settings.accepted_challenge(c.rated);
    let store = hub.store();
    // A house bot challenges only for the bot ladder (`ladder/`): it sits as the site's bot.
    let challenger = match crate::domain::bots::bot_of(&c.challenger_id) {
        Some(level) => crate::table::bot_user(level),
        None => store
            .user(&c.challenger_id)
            .await?
            .map(crate::identity::user_view)
            .ok_or_else(|| ApiError::not_found("challenger"))?,
    };
    let dest = store
        .user(&c.dest_id)
        .await?
        .map(crate::identity::user_view)
        .ok_or_else(|| ApiError::not_found("player challenged"))?;
    let challenger_first = match c.side.as_str() {
        "a" => true,
        "b" => false,
        _ => rand::random(),
    };
    let seats = if challenger_first {
        vec![Some(challenger.clone()), Some(dest)]
    } else {
        vec![Some(dest), Some(challenger.clone())]
    };
    let table = hub
        .create_table(settings, Some(challenger), seats, None)
        .await?;
    let game_id = table.id.to_string();
    store.set_challenge_game(&c.id, &game_id).await?;
    c.game_id = Some(game_id);
    tell(hub, &c, "accepted").await
}

/// The player challenged declines, with a reason from [`DECLINE_REASONS`].
pub async fn decline(
    hub: &Hub,
    user: &UserView,
    id: &str,
    reason: Option<&str>,
) -> Result<Value, ApiError> {
    let reason = reason.unwrap_or("generic");
    if !DECLINE_REASONS.contains(&reason) {
        return Err(ApiError::bad_request(format!(
            "a reason to decline is one of {}",
            DECLINE_REASONS.join(", ")
        )));
    }
    let c = of_player(hub, id, user).await?;
    if c.dest_id != user.id {
        return Err(ApiError::forbidden(
            "only the player challenged may decline: cancel your own challenge instead",
        ));
    }
    let c = answer(hub, &c, "declined", Some(reason)).await?;
    tell(hub, &c, "declined").await
}

/// The challenger takes the challenge back.
pub async fn cancel(hub: &Hub, user: &UserView, id: &str) -> Result<Value, ApiError> {
    let c = of_player(hub, id, user).await?;
    if c.challenger_id != user.id {
        return Err(ApiError::forbidden(
            "only the challenger may cancel: decline a challenge to you instead",
        ));
    }
    let c = answer(hub, &c, "canceled", None).await?;
    tell(hub, &c, "canceled").await
}

/// The challenges `user` sent and received that wait for an answer, oldest first.
pub async fn open_of(hub: &Hub, user: &UserView) -> Result<(Vec<Value>, Vec<Value>), ApiError> {
    let store = hub.store();
    let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
    for c in store.open_challenges_of(&user.id, unix_ms()).await? {
        let shown = view(store, &c).await?;
        if c.dest_id == user.id {
            incoming.push(shown);
        } else {
            outgoing.push(shown);
        }
    }
    Ok((incoming, outgoing))
}

/// Marks the challenges past their time expired and tells their players, every
/// [`SWEEP_EVERY`], for as long as the hub runs. Every node sweeps; the conditional update
/// hands each challenge to one of them.
pub async fn sweep(hub: Hub) {
    let mut closing = hub.closing();
    let mut every = tokio::time::interval(SWEEP_EVERY);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = closing.wait_for(|c| *c) => return,
        }
        let expired = match hub.store().expire_challenges(unix_ms()).await {
            Ok(expired) => expired,
            Err(e) => {
                tracing::warn!(%e, "cannot expire challenges");
                continue;
            }
        };
        for c in expired {
            if let Err(e) = tell(&hub, &c, "expired").await {
                tracing::warn!(message = %e.message, "cannot tell of an expired challenge");
            }
        }
    }
}
