//! The table's rules, order by order and state by state, without a runtime, a database or a
//! socket: each refused order gets its error code and leaves the state as it was.
//!
//! Over 600 lines because it is one test or two per order and state, in the order of the
//! rules in `core.rs`; splitting it would scatter the table of cases.

use record::GameStatus;
use record::NoteKind;
use std::time::Duration;

use catalog::{EndReason, Seat};
use std::time::Instant;

use super::clock::Clock;
use super::effects::{Effect, Step};
use super::state::{Orderer, Played, TableState};
use super::{Action, NewTable, TableSettings, bot_user};
use crate::error::ErrorCode;
use crate::ws::protocol::TableId;
use crate::ws::protocol::{ClaimOutcome, ClockSpec, Message, OfferKind, UserView};

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

pub(in crate::table) fn user(id: &str) -> UserView {
    UserView {
        id: id.to_string(),
        name: format!("{id}'s name"),
        guest: false,
        bot: false,
    }
}

pub(in crate::table) fn settings(game: &'static str, variant: &'static str) -> TableSettings {
    TableSettings::parse(game, Some(variant), false, None).expect("a catalogue variant")
}

/// A Cephalopod 3×3 table with a clock of `clock` (seconds, `None` for none), private or
/// not, as a request would ask for it.
fn cephalopod(private: bool, clock: Option<ClockSpec>) -> TableSettings {
    TableSettings::parse("cephalopod", Some("3x3"), private, clock).expect("a Cephalopod table")
}

/// Cephalopod 3×3 by correspondence, `days` a move.
pub(in crate::table) fn by_correspondence(days: u64) -> TableSettings {
    let clock = ClockSpec {
        initial: None,
        increment: None,
        days: Some(days),
    };
    cephalopod(false, Some(clock))
}

/// Cephalopod 3×3 with a live clock: `initial` seconds and `increment` a move.
fn timed(initial: u64, increment: u64) -> TableSettings {
    let clock = ClockSpec {
        initial: Some(initial),
        increment: Some(increment),
        days: None,
    };
    cephalopod(false, Some(clock))
}

/// A private Cephalopod 3×3 table.
fn private() -> TableSettings {
    cephalopod(true, None)
}

pub(in crate::table) fn table_with(
    settings: TableSettings,
    seats: Vec<Option<UserView>>,
) -> TableState {
    TableState::new(
        NewTable {
            id: TableId::parse("t1").unwrap(),
            settings,
            seed: 7,
            token: "secret".to_string(),
            host: seats.first().cloned().flatten(),
            seats,
            created_at: 1_000,
        },
        DAY,
    )
}

/// A cephalopod 3×3 table with alice waiting at seat A.
fn open_table() -> TableState {
    table_with(
        settings("cephalopod", "3x3"),
        vec![Some(user("alice")), None],
    )
}

/// Alice (A) against `opponent` (B), the game begun.
fn playing_against(opponent: UserView) -> TableState {
    let mut t = table_with(
        settings("cephalopod", "3x3"),
        vec![Some(user("alice")), Some(opponent)],
    );
    t.status = GameStatus::Playing;
    t
}

fn playing() -> TableState {
    playing_against(user("bob"))
}

fn check_as(t: &TableState, who: &str, action: Action) -> Result<Step, ErrorCode> {
    check_at(t, who, action, Instant::now())
}

fn check_at(t: &TableState, who: &str, action: Action, now: Instant) -> Result<Step, ErrorCode> {
    let user = user(who);
    let by = Orderer {
        user: &user,
        subscribed: true,
    };
    t.check(&by, &action, now).map_err(|e| e.code)
}

/// Refused with `code`, and nothing about the table changed.
fn refused(t: &TableState, who: &str, action: Action, code: ErrorCode) {
    let before = fingerprint(t);
    assert_eq!(check_as(t, who, action).map(|_| ()), Err(code));
    assert_eq!(fingerprint(t), before);
}

fn fingerprint(t: &TableState) -> String {
    serde_json::to_string(&t.view(None, Instant::now())).unwrap()
}

fn mv(m: &str) -> Action {
    Action::Move {
        mv: m.to_string(),
        ply: None,
    }
}

/// Checks and applies `who`'s move as the actor does once the store has it.
pub(in crate::table) fn play(t: &mut TableState, who: &str, m: &str) -> Vec<Effect> {
    let Ok(Step::Move { seat, mv, next }) = check_as(t, who, self::mv(m)) else {
        panic!("{who} may play {m}");
    };
    let now = Instant::now();
    let mut clock = t.clock.clone();
    let remaining = clock.as_mut().map(|c| c.finish_turn(now));
    t.apply_move(
        Played {
            seat,
            mv,
            next: *next,
            clock,
            remaining,
            played_at: 0,
        },
        now,
    )
}

// Sitting and standing.

#[test]
fn sitting_takes_the_first_free_seat_or_the_one_asked_for() {
    let t = open_table();
    let sit = |seat| Action::Sit { seat, token: None };
    assert!(matches!(
        check_as(&t, "bob", sit(None)),
        Ok(Step::Sit { index: 1 })
    ));
    assert!(matches!(
        check_as(&t, "bob", sit(Some(1))),
        Ok(Step::Sit { index: 1 })
    ));
    refused(&t, "bob", sit(Some(0)), ErrorCode::SeatTaken);
    refused(&t, "bob", sit(Some(2)), ErrorCode::BadRequest);
    refused(&t, "alice", sit(None), ErrorCode::SeatTaken);
}

#[test]
fn a_stored_seat_tells_the_host_and_the_last_one_starts_the_game() {
    let mut t = open_table();
    let rating = rating::Rating::default();
    let (effects, full) = t.apply_sit(&user("bob"), 1, Some(rating));
    assert!(full, "both seats are taken");
    assert_eq!(t.seats[1].as_ref().map(|u| u.id.as_str()), Some("bob"));
    assert_eq!(t.ratings[1], Some(rating));
    assert!(matches!(
        effects.as_slice(),
        [Effect::Notify { user, kind: NoteKind::Joined }, Effect::Snapshots, Effect::Lobby] if user == "alice"
    ));
    // The host taking a seat tells nobody, and a half-full table does not start.
    let mut t = table_with(settings("cephalopod", "3x3"), vec![None, None]);
    t.host = Some("alice".to_string());
    let (effects, full) = t.apply_sit(&user("alice"), 0, None);
    assert!(!full);
    assert!(matches!(
        effects.as_slice(),
        [Effect::Snapshots, Effect::Lobby]
    ));

    let effects = t.apply_stand(Seat::A);
    assert!(t.seats.iter().all(Option::is_none));
    assert!(matches!(
        effects.as_slice(),
        [Effect::Snapshots, Effect::Lobby]
    ));
}

#[test]
fn a_stored_start_puts_the_game_under_way() {
    let mut t = table_with(
        settings("cephalopod", "3x3"),
        vec![Some(user("alice")), Some(user("bob"))],
    );
    let effects = t.apply_start(1_000, Instant::now());
    assert_eq!(t.status, GameStatus::Playing);
    assert_eq!(t.started_at, Some(1_000));
    assert!(matches!(effects.as_slice(), [Effect::Turn, Effect::Live]));
    // Correspondence: the first move is due the table's days after the start.
    let days = by_correspondence(2);
    let mut t = table_with(days, vec![Some(user("alice")), Some(user("bob"))]);
    t.apply_start(1_000, Instant::now());
    assert_eq!(t.deadline, Some(1_000 + 2 * DAY.as_millis() as i64));
}

#[test]
fn the_snapshots_keep_the_last_chat_lines_only() {
    let mut t = playing();
    for n in 0..super::CHAT_TAIL as i64 + 5 {
        t.keep_chat_line(crate::ws::protocol::ChatView {
            id: n,
            author: "Bob".to_string(),
            user: Some("bob".to_string()),
            text: format!("line {n}"),
            at: n,
            room: record::ChatRoom::Players,
        });
    }
    assert_eq!(t.chat.len(), super::CHAT_TAIL);
    assert_eq!(t.chat.front().map(|l| l.id), Some(5));
}

#[test]
fn a_full_or_running_table_takes_nobody() {
    let mut t = table_with(
        settings("cephalopod", "3x3"),
        vec![Some(user("alice")), Some(user("bob"))],
    );
    let sit = Action::Sit {
        seat: None,
        token: None,
    };
    refused(&t, "carol", sit.clone(), ErrorCode::SeatTaken);
    t.status = GameStatus::Playing;
    refused(&t, "carol", sit.clone(), ErrorCode::WrongState);
    t.status = GameStatus::Finished;
    refused(&t, "carol", sit, ErrorCode::WrongState);
}

#[test]
fn a_private_table_seats_only_those_with_its_link() {
    let s = private();
    let t = table_with(s, vec![Some(user("alice")), None]);
    let sit = |token: Option<&str>| Action::Sit {
        seat: None,
        token: token.map(str::to_string),
    };
    refused(&t, "bob", sit(None), ErrorCode::Forbidden);
    refused(&t, "bob", sit(Some("wrong")), ErrorCode::Forbidden);
    assert!(check_as(&t, "bob", sit(Some("secret"))).is_ok());
}

#[test]
fn rated_tables_admit_accounts_within_their_range() {
    let s = settings("cephalopod", "3x3")
        .with_rating(&user("alice"), true, Some([1400, 1600]))
        .unwrap();
    let t = table_with(s, vec![Some(user("alice")), None]);
    let guest = UserView {
        guest: true,
        ..user("guest")
    };
    assert_eq!(
        t.admit(&guest, None).unwrap_err().code,
        ErrorCode::Forbidden
    );
    // A newcomer is rated 1500.
    assert!(t.admit(&user("bob"), None).is_ok());
    let strong = rating::Rating {
        rating: 2000.0,
        ..rating::Rating::default()
    };
    assert_eq!(
        t.admit(&user("bob"), Some(&strong)).unwrap_err().code,
        ErrorCode::Forbidden
    );
}

#[test]
fn only_a_seated_player_stands_and_only_before_the_start() {
    let t = open_table();
    assert!(matches!(
        check_as(&t, "alice", Action::Stand),
        Ok(Step::Stand { seat: Seat::A })
    ));
    refused(&t, "bob", Action::Stand, ErrorCode::NotSeated);
    refused(&playing(), "alice", Action::Stand, ErrorCode::WrongState);
}

// Moves.

#[test]
fn a_legal_move_on_your_turn_is_accepted_and_applied_once_stored() {
    let mut t = playing();
    let effects = play(&mut t, "alice", "b2");
    assert_eq!(t.plies.len(), 1);
    assert_eq!(t.game.to_move(), Some(Seat::B));
    assert!(matches!(effects[0], Effect::Turn));
    assert!(
        effects.iter().any(
            |e| matches!(e, Effect::Broadcast(Message::Move(m)) if m.mv == "b2" && m.ply == 1)
        )
    );
    assert!(effects.iter().any(|e| matches!(e, Effect::LivePly(1))));
}

#[test]
fn checking_a_move_does_not_play_it() {
    let t = playing();
    let before = fingerprint(&t);
    assert!(check_as(&t, "alice", mv("b2")).is_ok());
    assert_eq!(fingerprint(&t), before);
    assert!(t.plies.is_empty());
}

#[test]
fn illegal_out_of_turn_and_stranger_moves_are_refused() {
    let t = playing();
    refused(&t, "alice", mv("z9"), ErrorCode::IllegalMove);
    refused(&t, "bob", mv("b2"), ErrorCode::NotYourTurn);
    refused(&t, "carol", mv("b2"), ErrorCode::NotSeated);
}

#[test]
fn a_move_against_an_old_ply_is_stale() {
    let mut t = playing();
    play(&mut t, "alice", "b2");
    let stale = Action::Move {
        mv: "a1".to_string(),
        ply: Some(0),
    };
    refused(&t, "bob", stale, ErrorCode::StalePly);
    let current = Action::Move {
        mv: "a1".to_string(),
        ply: Some(1),
    };
    assert!(check_as(&t, "bob", current).is_ok());
}

#[test]
fn no_move_before_the_start_or_after_the_end() {
    let mut t = table_with(
        settings("cephalopod", "3x3"),
        vec![Some(user("alice")), Some(user("bob"))],
    );
    refused(&t, "alice", mv("b2"), ErrorCode::WrongState);
    t.status = GameStatus::Finished;
    refused(&t, "alice", mv("b2"), ErrorCode::WrongState);
    t.status = GameStatus::Aborted;
    refused(&t, "alice", mv("b2"), ErrorCode::WrongState);
}

#[test]
fn a_correspondence_move_sets_the_next_deadline_and_tells_the_mover() {
    let s = by_correspondence(2);
    let mut t = table_with(s, vec![Some(user("alice")), Some(user("bob"))]);
    t.status = GameStatus::Playing;
    let effects = play(&mut t, "alice", "b2");
    assert_eq!(t.deadline, Some(2 * DAY.as_millis() as i64));
    assert!(
        effects.iter().any(
            |e| matches!(e, Effect::Notify { user, kind: NoteKind::YourTurn } if user == "bob")
        )
    );
}

// Time.

#[test]
fn a_flag_falls_for_the_side_to_move() {
    let s = timed(1, 0);
    let mut t = table_with(s, vec![Some(user("alice")), Some(user("bob"))]);
    t.status = GameStatus::Playing;
    play(&mut t, "alice", "b2");
    play(&mut t, "bob", "a1");
    let now = Instant::now();
    assert!(t.timeout(now, 0).is_none());
    let Some(Step::Finish {
        status,
        result,
        reason,
    }) = t.timeout(now + Duration::from_secs(2), 0)
    else {
        panic!("alice's flag falls");
    };
    assert_eq!(
        (status, result.map(|r| r.to_string()), reason),
        (GameStatus::Finished, Some("b".to_string()), EndReason::Time)
    );
}

#[test]
fn a_missed_deadline_loses_the_game_or_calls_it_off_before_both_moved() {
    let s = by_correspondence(1);
    let mut t = table_with(s, vec![Some(user("alice")), Some(user("bob"))]);
    t.status = GameStatus::Playing;
    t.set_deadline(0);
    let late = DAY.as_millis() as i64;
    assert!(t.timeout(Instant::now(), late - 1).is_none());
    assert!(matches!(
        t.timeout(Instant::now(), late),
        Some(Step::Finish {
            status: GameStatus::Aborted,
            reason: EndReason::Expired,
            ..
        })
    ));
    play(&mut t, "alice", "b2");
    play(&mut t, "bob", "a1");
    assert!(matches!(
        t.timeout(Instant::now(), 10 * late),
        Some(Step::Finish { status: GameStatus::Finished, result: Some(r), reason: EndReason::Time }) if r.to_string() == "b"
    ));
    t.status = GameStatus::Finished;
    assert!(t.timeout(Instant::now(), 10 * late).is_none());
}

// Draws.

#[test]
fn a_draw_offer_is_made_repeated_and_agreed() {
    let mut t = playing();
    play(&mut t, "alice", "b2");
    play(&mut t, "bob", "a1");
    let Ok(Step::Offer { kind, by }) = check_as(&t, "alice", Action::DrawOffer) else {
        panic!("alice may offer a draw");
    };
    assert_eq!((kind, by), (OfferKind::Draw, Seat::A));
    let effects = t.offer(kind, by);
    assert_eq!(t.draw_offer, Some(Seat::A));
    assert!(matches!(
        &effects[..],
        [Effect::Broadcast(Message::Offer {
            kind: OfferKind::Draw,
            by: Some("a"),
            ..
        })]
    ));
    // Offering twice is the same offer again.
    assert!(matches!(
        check_as(&t, "alice", Action::DrawOffer),
        Ok(Step::Offer { by: Seat::A, .. })
    ));
    // The other side offering too is agreeing.
    for answer in [Action::DrawOffer, Action::DrawAccept] {
        assert!(matches!(
            check_as(&t, "bob", answer),
            Ok(Step::Finish { status: GameStatus::Finished, result: Some(r), reason: EndReason::Agreement }) if r.to_string() == "draw"
        ));
    }
}

#[test]
fn no_draw_can_be_accepted_or_declined_when_none_was_offered() {
    let mut t = playing();
    refused(&t, "bob", Action::DrawAccept, ErrorCode::WrongState);
    refused(&t, "bob", Action::DrawDecline, ErrorCode::WrongState);
    t.offer(OfferKind::Draw, Seat::A);
    // Not your own.
    refused(&t, "alice", Action::DrawAccept, ErrorCode::WrongState);
    refused(&t, "carol", Action::DrawAccept, ErrorCode::NotSeated);
    assert!(matches!(
        check_as(&t, "bob", Action::DrawDecline),
        Ok(Step::Clear {
            kind: OfferKind::Draw
        })
    ));
    t.clear_offer(OfferKind::Draw);
    assert_eq!(t.draw_offer, None);
}

#[test]
fn moving_on_declines_the_opponents_draw_offer() {
    let mut t = playing();
    t.offer(OfferKind::Draw, Seat::B);
    play(&mut t, "alice", "b2");
    assert_eq!(t.draw_offer, None);
}

#[test]
fn bots_and_finished_games_take_no_draws() {
    let bot = bot_user(ai::Level::Easy);
    refused(
        &playing_against(bot),
        "alice",
        Action::DrawOffer,
        ErrorCode::WrongState,
    );
    let mut t = playing();
    t.status = GameStatus::Finished;
    refused(&t, "alice", Action::DrawOffer, ErrorCode::WrongState);
}

#[test]
fn a_correspondence_draw_offer_notifies_the_opponent() {
    let s = by_correspondence(3);
    let mut t = table_with(s, vec![Some(user("alice")), Some(user("bob"))]);
    t.status = GameStatus::Playing;
    let effects = t.offer(OfferKind::Draw, Seat::A);
    assert!(
        effects.iter().any(
            |e| matches!(e, Effect::Notify { user, kind: NoteKind::DrawOffer } if user == "bob")
        )
    );
}

// Resigning, aborting, claiming.

#[test]
fn resigning_gives_the_game_to_the_other_side() {
    let mut t = playing();
    play(&mut t, "alice", "b2");
    play(&mut t, "bob", "a1");
    assert!(matches!(
        check_as(&t, "alice", Action::Resign),
        Ok(Step::Finish { status: GameStatus::Finished, result: Some(r), reason: EndReason::Resign }) if r.to_string() == "b"
    ));
    refused(&t, "carol", Action::Resign, ErrorCode::NotSeated);
    refused(
        &open_table(),
        "alice",
        Action::Resign,
        ErrorCode::WrongState,
    );
}

#[test]
fn a_game_can_be_aborted_only_before_both_sides_moved() {
    let mut t = playing();
    assert!(matches!(
        check_as(&t, "bob", Action::Abort),
        Ok(Step::Finish {
            status: GameStatus::Aborted,
            result: None,
            reason: EndReason::Abort
        })
    ));
    play(&mut t, "alice", "b2");
    assert!(check_as(&t, "alice", Action::Abort).is_ok());
    play(&mut t, "bob", "a1");
    refused(&t, "alice", Action::Abort, ErrorCode::WrongState);
}

#[test]
fn any_ending_before_both_sides_moved_is_an_abort() {
    let mut t = playing();
    for step in 0..2 {
        assert!(matches!(
            check_as(&t, "bob", Action::Resign),
            Ok(Step::Finish {
                status: GameStatus::Aborted,
                result: None,
                reason: EndReason::Resign
            })
        ));
        t.offer(OfferKind::Draw, Seat::A);
        assert!(matches!(
            check_as(&t, "bob", Action::DrawAccept),
            Ok(Step::Finish {
                status: GameStatus::Aborted,
                result: None,
                reason: EndReason::Agreement
            })
        ));
        t.clear_offer(OfferKind::Draw);
        assert!(
            t.rated_end(GameStatus::Finished, Some(catalog::Outcome::Draw))
                .is_none()
        );
        // One side's move is not enough.
        if step == 0 {
            play(&mut t, "alice", "b2");
        }
    }
    play(&mut t, "bob", "a1");
    assert!(matches!(
        check_as(&t, "bob", Action::Resign),
        Ok(Step::Finish {
            status: GameStatus::Finished,
            result: Some(_),
            reason: EndReason::Resign
        })
    ));
}

#[test]
fn a_claim_needs_the_opponent_gone_long_enough() {
    let t = playing();
    refused(
        &t,
        "alice",
        Action::Claim {
            outcome: ClaimOutcome::Win,
        },
        ErrorCode::WrongState,
    );
}

#[test]
fn an_ending_stops_everything_and_is_announced() {
    let mut t = playing();
    t.offer(OfferKind::Draw, Seat::A);
    let effects = t.apply_end(
        GameStatus::Finished,
        Some(catalog::Outcome::Win(catalog::Seat::A)),
        EndReason::Resign,
        None,
        Instant::now(),
    );
    assert_eq!(t.status, GameStatus::Finished);
    assert_eq!(t.draw_offer, None);
    assert!(effects.iter().any(|e| matches!(
        e,
        Effect::Broadcast(Message::End {
            reason: EndReason::Resign,
            ..
        })
    )));
    assert!(effects.iter().any(|e| matches!(e, Effect::Lobby)));
    refused(&t, "alice", mv("b2"), ErrorCode::WrongState);
}

// Rematches.

#[test]
fn a_rematch_is_offered_after_the_end_and_accepted_by_the_other_side() {
    let mut t = playing();
    refused(&t, "alice", Action::RematchOffer, ErrorCode::WrongState);
    t.status = GameStatus::Finished;
    refused(&t, "bob", Action::RematchAccept, ErrorCode::WrongState);
    refused(&t, "bob", Action::RematchDecline, ErrorCode::WrongState);
    let Ok(Step::Offer { kind, by }) = check_as(&t, "alice", Action::RematchOffer) else {
        panic!("alice may offer a rematch");
    };
    let effects = t.offer(kind, by);
    assert_eq!(t.rematch_offer, Some(Seat::A));
    // Bob hears of it even away from the table (a notification, pushed when he is away).
    assert!(effects.iter().any(
        |e| matches!(e, Effect::Notify { user, kind: NoteKind::RematchOffer } if user == "bob")
    ));
    refused(&t, "alice", Action::RematchDecline, ErrorCode::WrongState);
    assert!(matches!(
        check_as(&t, "bob", Action::RematchAccept),
        Ok(Step::Rematch)
    ));
    assert!(matches!(
        check_as(&t, "bob", Action::RematchDecline),
        Ok(Step::Clear {
            kind: OfferKind::Rematch
        })
    ));
    t.rematch = Some("t2".to_string());
    refused(&t, "bob", Action::RematchAccept, ErrorCode::WrongState);
}

#[test]
fn a_bot_always_wants_a_rematch() {
    let mut t = playing_against(bot_user(ai::Level::Easy));
    t.status = GameStatus::Aborted;
    assert!(matches!(
        check_as(&t, "alice", Action::RematchOffer),
        Ok(Step::Rematch)
    ));
}

// Chat and voice.

#[test]
fn chat_lines_are_checked_and_rate_limited() {
    let mut t = playing();
    let say = |text: &str| Action::Chat {
        text: text.to_string(),
    };
    let alice = user("alice");
    let outsider = Orderer {
        user: &alice,
        subscribed: false,
    };
    assert_eq!(
        t.check(&outsider, &say("hi"), Instant::now())
            .unwrap_err()
            .code,
        ErrorCode::Forbidden
    );
    refused(&t, "alice", say("   "), ErrorCode::BadRequest);
    refused(&t, "alice", say(&"x".repeat(501)), ErrorCode::TooLong);
    assert!(matches!(
        check_as(&t, "alice", say(" hi ")),
        Ok(Step::Chat { text, room: record::ChatRoom::Players }) if text == "hi"
    ));
    assert!(matches!(
        check_as(&t, "carol", say("hi")),
        Ok(Step::Chat {
            room: record::ChatRoom::Spectators,
            ..
        })
    ));
    let now = Instant::now();
    for _ in 0..5 {
        t.chat_sent("alice", now);
    }
    assert_eq!(
        check_at(&t, "alice", say("again"), now).map(|_| ()),
        Err(ErrorCode::RateLimited)
    );
    // Others are not held back, and the burst passes.
    assert!(check_at(&t, "bob", say("hi"), now).is_ok());
    assert!(check_at(&t, "alice", say("later"), now + Duration::from_secs(11)).is_ok());
}

#[test]
fn voice_is_relayed_only_between_the_two_players() {
    let signal = || Action::Voice {
        signal: serde_json::from_value(serde_json::json!({"kind": "bye"})).unwrap(),
    };
    assert!(matches!(
        check_as(&playing(), "alice", signal()),
        Ok(Step::Voice { to, from: Seat::A }) if to == "bob"
    ));
    refused(&playing(), "carol", signal(), ErrorCode::NotSeated);
    refused(&open_table(), "alice", signal(), ErrorCode::WrongState);
}

// Bots.

#[test]
fn a_bot_is_asked_only_on_its_turn_in_a_running_game() {
    let bot = bot_user(ai::Level::Easy);
    let mut t = table_with(
        settings("cephalopod", "3x3"),
        vec![Some(bot), Some(user("bob"))],
    );
    assert_eq!(t.bot_turn(), None);
    t.status = GameStatus::Playing;
    assert_eq!(t.bot_turn(), Some((ai::Level::Easy, 0)));
    let mut t = playing_against(bot_user(ai::Level::Easy));
    assert_eq!(t.bot_turn(), None);
    play(&mut t, "alice", "b2");
    assert_eq!(t.bot_turn(), Some((ai::Level::Easy, 1)));
}

#[test]
fn a_bots_move_passes_the_same_checks() {
    let mut t = playing_against(bot_user(ai::Level::Easy));
    play(&mut t, "alice", "b2");
    assert!(check_as(&t, "bot:easy", mv("a1")).is_ok());
    refused(&t, "bot:easy", mv("b2"), ErrorCode::IllegalMove);
}

// Takebacks.

#[test]
fn a_takeback_is_asked_for_and_answered() {
    let mut t = playing();
    refused(&t, "alice", Action::TakebackOffer, ErrorCode::WrongState);
    play(&mut t, "alice", "b2");
    refused(&t, "bob", Action::TakebackAccept, ErrorCode::WrongState);
    let Ok(Step::Offer { kind, by }) = check_as(&t, "alice", Action::TakebackOffer) else {
        panic!("alice may ask for her move back");
    };
    t.offer(kind, by);
    refused(&t, "alice", Action::TakebackAccept, ErrorCode::WrongState);
    assert!(matches!(
        check_as(&t, "bob", Action::TakebackAccept),
        Ok(Step::TakeBack { keep: 0 })
    ));
    assert!(matches!(
        check_as(&t, "bob", Action::TakebackDecline),
        Ok(Step::Clear {
            kind: OfferKind::Takeback
        })
    ));
    // The next move ends the question.
    play(&mut t, "bob", "a1");
    assert_eq!(t.takeback_offer, None);
}

#[test]
fn a_stored_takeback_goes_back_to_the_position_and_clears_the_offers() {
    let mut t = playing();
    let start = t.game.position();
    play(&mut t, "alice", "b2");
    let after_one = t.game.position();
    play(&mut t, "bob", "a1");
    t.offer(OfferKind::Draw, Seat::B);
    let game = t.position_after(1).unwrap();
    assert_eq!(game.position(), after_one);
    let effects = t.apply_takeback(1, game, 0, Instant::now());
    assert_eq!((t.plies.len(), t.game.position()), (1, after_one));
    assert_eq!(t.draw_offer, None);
    assert!(matches!(
        effects.as_slice(),
        [
            Effect::Turn,
            Effect::Live,
            Effect::Broadcast(Message::Takeback { ply: 1, .. }),
            Effect::Snapshots
        ]
    ));
    assert_eq!(t.position_after(0).unwrap().position(), start);
    // Bob is to move again, from the same position.
    play(&mut t, "bob", "a1");
}

#[test]
fn a_bot_grants_takebacks_and_rated_games_have_none() {
    let mut t = playing_against(bot_user(ai::Level::Easy));
    play(&mut t, "alice", "b2");
    assert!(matches!(
        check_as(&t, "alice", Action::TakebackOffer),
        Ok(Step::TakeBack { keep: 0 })
    ));
    let s = settings("cephalopod", "3x3")
        .with_rating(&user("alice"), true, None)
        .unwrap();
    let mut t = table_with(s, vec![Some(user("alice")), Some(user("bob"))]);
    t.status = GameStatus::Playing;
    play(&mut t, "alice", "b2");
    refused(&t, "alice", Action::TakebackOffer, ErrorCode::WrongState);
}

// A solo puzzle.

fn rabbit() -> TableState {
    let mut t = table_with(
        settings("white-rabbit", "classic"),
        vec![Some(user("alice"))],
    );
    t.status = GameStatus::Playing;
    t
}

#[test]
fn a_solo_puzzle_is_given_up_as_lost_and_has_no_opponent_to_ask() {
    let t = rabbit();
    assert!(matches!(
        check_as(&t, "alice", Action::Resign),
        Ok(Step::Finish { result: Some(r), .. }) if r.to_string() == "lost"
    ));
    for action in [
        Action::DrawOffer,
        Action::TakebackOffer,
        Action::Claim {
            outcome: ClaimOutcome::Draw,
        },
    ] {
        refused(&t, "alice", action, ErrorCode::WrongState);
    }
    refused(&t, "bob", Action::Resign, ErrorCode::NotSeated);
}

/// The helpers get the game's record, from which they replay it (on another node too).
#[test]
fn a_solo_position_is_the_games_record() {
    let mut t = rabbit();
    let asked = t.solo_position(&user("alice")).unwrap();
    assert!(asked.moves.is_empty());
    if let Some(swap) = t.game.legal_texts().into_iter().find(|a| a.contains('~')) {
        play(&mut t, "alice", &swap);
    }
    if t.game.to_move().is_some() {
        play(&mut t, "alice", "end");
    }
    let asked = t.solo_position(&user("alice")).unwrap();
    let played: Vec<String> = t.plies.iter().map(|p| p.mv.clone()).collect();
    assert_eq!(asked.moves, played);
    assert_eq!((asked.variant, asked.seed), (t.settings.variant(), t.seed));
}

#[test]
fn a_solo_puzzle_gives_hints_except_on_the_daily_deal() {
    let mut t = rabbit();
    assert!(t.solo_position(&user("alice")).is_ok());
    assert_eq!(
        t.solo_position(&user("bob")).unwrap_err().code,
        ErrorCode::NotSeated
    );
    t.settings = t
        .settings
        .clone()
        .daily_attempt("2026-12-02".to_string(), true);
    assert_eq!(
        t.solo_position(&user("alice")).unwrap_err().code,
        ErrorCode::Forbidden
    );
    assert_eq!(
        playing().solo_position(&user("alice")).unwrap_err().code,
        ErrorCode::WrongState
    );
}

#[test]
fn a_finished_solo_puzzle_has_its_review_written_and_an_aborted_one_not() {
    let review = |effects: &[Effect]| effects.iter().any(|e| matches!(e, Effect::Review));
    let lost = Some(catalog::Outcome::SoloLost);
    let ended = rabbit().apply_end(
        GameStatus::Finished,
        lost,
        EndReason::Resign,
        None,
        Instant::now(),
    );
    assert!(review(&ended));
    let aborted = rabbit().apply_end(
        GameStatus::Aborted,
        None,
        EndReason::Abort,
        None,
        Instant::now(),
    );
    assert!(!review(&aborted));
    // Other games have no review.
    let won = Some(catalog::Outcome::Win(Seat::A));
    let other = playing().apply_end(
        GameStatus::Finished,
        won,
        EndReason::Resign,
        None,
        Instant::now(),
    );
    assert!(!review(&other));
}

#[test]
fn a_solo_puzzle_rematch_needs_nobody_to_agree() {
    let mut t = rabbit();
    t.status = GameStatus::Finished;
    assert!(matches!(
        check_as(&t, "alice", Action::RematchOffer),
        Ok(Step::Rematch)
    ));
}

#[test]
fn watching_a_private_table_needs_its_link() {
    let s = private();
    let t = table_with(s, vec![Some(user("alice")), None]);
    assert!(t.may_watch(Some(&user("alice")), None).is_ok());
    assert_eq!(
        t.may_watch(Some(&user("bob")), None).unwrap_err().code,
        ErrorCode::Forbidden
    );
    assert!(t.may_watch(None, Some("secret")).is_ok());
}

#[test]
fn the_clock_runs_only_once_both_sides_moved() {
    let s = timed(60, 0);
    let mut t = table_with(s, vec![Some(user("alice")), Some(user("bob"))]);
    t.status = GameStatus::Playing;
    play(&mut t, "alice", "b2");
    assert_eq!(t.clock.as_ref().and_then(Clock::running), None);
    play(&mut t, "bob", "a1");
    assert_eq!(t.clock.as_ref().and_then(Clock::running), Some(Seat::A));
}

/// A table on another node answers with its view as JSON: read back, it is the same view,
/// for a viewer and a player alike.
#[test]
fn a_view_read_back_from_its_json_is_the_same_view() {
    let mut t = playing();
    let now = Instant::now();
    t.draw_offer = Some(Seat::B);
    for viewer in [None, Some(user("alice"))] {
        let view = t.view(viewer.as_ref(), now);
        let json = serde_json::to_value(&view).unwrap();
        let back: crate::ws::protocol::TableView = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), json);
    }
    let entry = t.playing("alice", now, 0).expect("alice plays here");
    let json = serde_json::to_value(&entry).unwrap();
    let back: crate::ws::protocol::PlayingEntry = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), json);
    assert_eq!(back.you, "a");
}
