//! The arena's director: the whole arena as a value, changed only by events.
//!
//! Players join (before or during the arena), pause and come back, or withdraw: before the
//! start a withdrawal takes them off the list; during the arena it is for good — their games
//! stay in the standings (a player who never finished a game is dropped) and they are not
//! paired again. After every accepted event the waiting players are offered to
//! [`pairing::pair`]; the pairs it makes come back as [`Decision::Pair`]. At the end, games
//! still running do not count and the standings are frozen.

use game::Outcome;
use serde::{Deserialize, Serialize};

use crate::arena::pairing::{self, Waiting};
use crate::arena::scoring::{GameResult, Played, Score, Sheet};
use crate::arena::settings::ArenaSettings;
use crate::arena::standings::{self, Standing};
use crate::error::Error;
use crate::event::{Decision, Event};
use crate::ids::{PairingId, PlayerId, numbered, numbered_mut};
use crate::page::Page;
use crate::result::check_finished;

/// Recent opponents remembered per player (pairing avoids them, fading with each game).
const RECENT_KEPT: usize = 6;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arena {
    settings: ArenaSettings,
    phase: Phase,
    /// The latest time an accepted event carried.
    now: u64,
    players: std::collections::BTreeMap<PlayerId, Entry>,
    /// Every pairing made, by id (ids count from 0).
    pairings: Vec<PairingRecord>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Upcoming,
    Running,
    Finished,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Presence {
    Present,
    Paused,
    Withdrawn,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    rating: i32,
    presence: Presence,
    /// The pairing the player is in now.
    game: Option<PairingId>,
    /// When the player became free to play (meaningful while present and not in a game).
    free_since: u64,
    sheet: Sheet,
    games: Vec<ArenaGame>,
    /// Games in seat A minus games in seat B, and the last seat.
    seat_balance: i32,
    last_seat: Option<u8>,
    /// The most recent first.
    recent: Vec<PlayerId>,
    /// When the player reached their points.
    reached_at: u64,
}

/// One finished game of a player, as the standings show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    pub pairing: PairingId,
    pub opponent: PlayerId,
    pub opponent_rating: i32,
    pub score: Score,
}

/// A pairing the director made, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingRecord {
    /// Seat A, seat B.
    pub seats: [PlayerId; 2],
    pub house_bot: Option<PlayerId>,
    /// The server's game id, once started.
    pub game: Option<String>,
    pub status: PairingStatus,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum PairingStatus {
    /// Asked for; the table is not started yet.
    Created,
    Playing,
    Finished {
        outcome: Outcome,
        plies: u32,
    },
    Aborted,
    /// Still running (or not yet started) when the arena ended: it does not count.
    Uncounted,
}

impl Arena {
    pub fn new(settings: ArenaSettings) -> Result<Arena, Error> {
        settings.check()?;
        Ok(Arena {
            settings,
            phase: Phase::Upcoming,
            now: 0,
            players: Default::default(),
            pairings: Vec::new(),
        })
    }

    pub fn settings(&self) -> &ArenaSettings {
        &self.settings
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn pairing(&self, id: PairingId) -> Option<&PairingRecord> {
        self.pairings.get(id.0 as usize)
    }

    pub fn pairings(&self) -> impl Iterator<Item = (PairingId, &PairingRecord)> {
        numbered(&self.pairings)
    }

    /// Takes one event that happened at `at` (unix milliseconds; an earlier time than the
    /// last event's counts as that time). A refused event changes nothing.
    pub fn apply(&mut self, at: u64, event: &Event) -> Result<Vec<Decision>, Error> {
        let at = at.max(self.now);
        self.check(at, event)?;
        self.now = at;
        let mut decisions = self.advance(at);
        self.take(at, event);
        if self.phase == Phase::Running {
            self.pair_waiting(at, &mut decisions);
        }
        Ok(decisions)
    }

    /// Whether [`Arena::apply`] would take `event` at `at`, without taking it: a caller that
    /// logs an event before taking it asks this first, rather than taking it on a copy.
    pub fn accepts(&self, at: u64, event: &Event) -> Result<(), Error> {
        self.check(at.max(self.now), event)
    }

    /// The phase the arena is in at `at`.
    fn phase_at(&self, at: u64) -> Phase {
        if self.phase == Phase::Finished || at >= self.settings.ends_at {
            Phase::Finished
        } else if at >= self.settings.starts_at {
            Phase::Running
        } else {
            Phase::Upcoming
        }
    }

    /// Whether `event` can be taken at `at`, without changing anything.
    fn check(&self, at: u64, event: &Event) -> Result<(), Error> {
        let phase = self.phase_at(at);
        let entrant = |player: &PlayerId| -> Result<&Entry, Error> {
            if phase == Phase::Finished {
                return Err(Error::Over);
            }
            let entry = self
                .players
                .get(player)
                .ok_or_else(|| Error::NotJoined(player.clone()))?;
            match entry.presence {
                Presence::Withdrawn => Err(Error::Withdrew(player.clone())),
                _ => Ok(entry),
            }
        };
        match event {
            Event::Join { player, .. } => {
                if phase == Phase::Finished {
                    return Err(Error::Over);
                }
                if self.settings.house_bots.iter().any(|bot| &bot.id == player) {
                    return Err(Error::HouseBot(player.clone()));
                }
                match self.players.get(player).map(|e| e.presence) {
                    Some(Presence::Withdrawn) => Err(Error::Withdrew(player.clone())),
                    Some(_) => Err(Error::AlreadyJoined(player.clone())),
                    None => Ok(()),
                }
            }
            Event::Withdraw { player } => entrant(player).map(drop),
            Event::Pause { player } => match entrant(player)?.presence {
                Presence::Paused => Err(Error::AlreadyPaused(player.clone())),
                _ => Ok(()),
            },
            Event::Resume { player } => match entrant(player)?.presence {
                Presence::Paused => Ok(()),
                _ => Err(Error::NotPaused(player.clone())),
            },
            Event::GameStarted { pairing, .. } => match &self.record(*pairing)?.status {
                PairingStatus::Created | PairingStatus::Uncounted => Ok(()),
                PairingStatus::Aborted => Err(Error::GameNotRunning(*pairing)),
                _ => Err(Error::GameStartedAlready(*pairing)),
            },
            Event::GameFinished {
                pairing,
                outcome,
                berserk,
                ..
            } => {
                check_finished(*outcome, *berserk, self.settings.berserk)?;
                match &self.record(*pairing)?.status {
                    PairingStatus::Playing | PairingStatus::Uncounted => Ok(()),
                    _ => Err(Error::GameNotRunning(*pairing)),
                }
            }
            Event::GameAborted { pairing } => match &self.record(*pairing)?.status {
                PairingStatus::Created | PairingStatus::Playing | PairingStatus::Uncounted => {
                    Ok(())
                }
                _ => Err(Error::GameNotRunning(*pairing)),
            },
            Event::Tick => Ok(()),
        }
    }

    fn record(&self, pairing: PairingId) -> Result<&PairingRecord, Error> {
        self.pairing(pairing).ok_or(Error::UnknownPairing(pairing))
    }

    /// Starts or ends the arena when `at` has reached its time.
    fn advance(&mut self, at: u64) -> Vec<Decision> {
        let mut decisions = Vec::new();
        if self.phase == Phase::Upcoming && self.phase_at(at) != Phase::Upcoming {
            self.phase = Phase::Running;
            decisions.push(Decision::Start);
        }
        if self.phase == Phase::Running && self.phase_at(at) == Phase::Finished {
            self.phase = Phase::Finished;
            let mut uncounted = Vec::new();
            for (id, record) in numbered_mut(&mut self.pairings) {
                if matches!(
                    record.status,
                    PairingStatus::Created | PairingStatus::Playing
                ) {
                    record.status = PairingStatus::Uncounted;
                    uncounted.push(id);
                }
            }
            for entry in self.players.values_mut() {
                entry.game = None;
            }
            decisions.push(Decision::Finish { uncounted });
            decisions.push(Decision::FreezeStandings);
        }
        decisions
    }

    /// Takes an event that `check` accepted.
    fn take(&mut self, at: u64, event: &Event) {
        let free_from = at.max(self.settings.starts_at);
        match event {
            Event::Join { player, rating } => {
                self.players.insert(
                    player.clone(),
                    Entry {
                        rating: *rating,
                        presence: Presence::Present,
                        game: None,
                        free_since: free_from,
                        sheet: Sheet::default(),
                        games: Vec::new(),
                        seat_balance: 0,
                        last_seat: None,
                        recent: Vec::new(),
                        reached_at: at,
                    },
                );
            }
            Event::Withdraw { player } => {
                let entry = self.players.get_mut(player).expect("checked");
                if self.phase == Phase::Upcoming || (entry.games.is_empty() && entry.game.is_none())
                {
                    self.players.remove(player);
                } else {
                    entry.presence = Presence::Withdrawn;
                }
            }
            Event::Pause { player } => {
                self.players.get_mut(player).expect("checked").presence = Presence::Paused;
            }
            Event::Resume { player } => {
                let entry = self.players.get_mut(player).expect("checked");
                entry.presence = Presence::Present;
                entry.free_since = free_from;
            }
            Event::GameStarted { pairing, game } => {
                let record = &mut self.pairings[pairing.0 as usize];
                record.game = Some(game.clone());
                if record.status == PairingStatus::Created {
                    record.status = PairingStatus::Playing;
                }
            }
            Event::GameFinished {
                pairing,
                outcome,
                plies,
                berserk,
            } => self.finish_game(at, *pairing, *outcome, *plies, *berserk),
            Event::GameAborted { pairing } => {
                let record = &mut self.pairings[pairing.0 as usize];
                if record.status != PairingStatus::Uncounted {
                    record.status = PairingStatus::Aborted;
                    for player in record.seats.clone() {
                        self.free(&player, *pairing, at);
                    }
                }
            }
            Event::Tick => {}
        }
    }

    fn finish_game(
        &mut self,
        at: u64,
        pairing: PairingId,
        outcome: Outcome,
        plies: u32,
        berserk: [bool; 2],
    ) {
        let record = &mut self.pairings[pairing.0 as usize];
        if record.status == PairingStatus::Uncounted {
            return;
        }
        record.status = PairingStatus::Finished { outcome, plies };
        let record = record.clone();
        for (index, player) in record.seats.iter().enumerate() {
            let opponent = &record.seats[1 - index];
            let opponent_rating = self.rating_of(opponent);
            let Some(entry) = self.players.get_mut(player) else {
                continue; // the house bot
            };
            let played = Played {
                result: GameResult::of(outcome, index),
                plies,
                berserk: berserk[index],
            };
            let score = entry.sheet.add(played, self.settings.minimums);
            if score.points > 0 {
                entry.reached_at = at;
            }
            entry.games.push(ArenaGame {
                pairing,
                opponent: opponent.clone(),
                opponent_rating,
                score,
            });
            self.free(player, pairing, at);
        }
    }

    /// `player` is out of `pairing`'s game at `at`.
    fn free(&mut self, player: &PlayerId, pairing: PairingId, at: u64) {
        if let Some(entry) = self.players.get_mut(player)
            && entry.game == Some(pairing)
        {
            entry.game = None;
            entry.free_since = at;
        }
    }

    fn rating_of(&self, player: &PlayerId) -> i32 {
        match self.players.get(player) {
            Some(entry) => entry.rating,
            None => self
                .settings
                .house_bots
                .iter()
                .find(|bot| &bot.id == player)
                .map_or(0, |bot| bot.rating),
        }
    }

    /// Offers the waiting players to pairing, and makes the pairs it returns.
    fn pair_waiting(&mut self, at: u64, decisions: &mut Vec<Decision>) {
        let ranks: std::collections::HashMap<PlayerId, u32> = self
            .ranked(false)
            .into_iter()
            .map(|line| (line.player, line.rank))
            .collect();
        let mut waiting = Vec::new();
        let mut playing = 0;
        for (player, entry) in &self.players {
            if entry.presence != Presence::Present {
                continue;
            }
            if entry.game.is_some() {
                playing += 1;
                continue;
            }
            waiting.push(Waiting {
                player: player.clone(),
                rating: entry.rating,
                rank: ranks[player],
                since: entry.free_since,
                recent: entry.recent.clone(),
            });
        }
        let pool = pairing::Pool {
            waiting: &waiting,
            playing,
            now: at,
        };
        let plan = pairing::pair(pool, &self.settings.pairing, &self.settings.house_bots);
        for [a, b] in plan.pairs {
            decisions.push(self.make_pairing(a, b, None));
        }
        for (player, bot) in plan.bots {
            decisions.push(self.make_pairing(player, bot.clone(), Some(bot)));
        }
    }

    /// Seats two players, records the pairing and answers its decision. The seat A goes to
    /// whoever had it less often (then to whoever had B last; then by id).
    fn make_pairing(&mut self, a: PlayerId, b: PlayerId, house_bot: Option<PlayerId>) -> Decision {
        let seat_key = |player: &PlayerId| {
            self.players
                .get(player)
                .map_or((0, false), |e| (e.seat_balance, e.last_seat == Some(0)))
        };
        let seats = if (seat_key(&a), &a) <= (seat_key(&b), &b) {
            [a, b]
        } else {
            [b, a]
        };
        let id = PairingId(self.pairings.len() as u32);
        for (index, player) in seats.iter().enumerate() {
            if let Some(entry) = self.players.get_mut(player) {
                entry.game = Some(id);
                entry.seat_balance += if index == 0 { 1 } else { -1 };
                entry.last_seat = Some(index as u8);
                entry.recent.insert(0, seats[1 - index].clone());
                entry.recent.truncate(RECENT_KEPT);
            }
        }
        self.pairings.push(PairingRecord {
            seats: seats.clone(),
            house_bot: house_bot.clone(),
            game: None,
            status: PairingStatus::Created,
        });
        Decision::Pair {
            pairing: id,
            seats,
            house_bot,
        }
    }

    /// The standings now (frozen once the arena is over).
    pub fn standings(&self) -> Vec<Standing> {
        self.ranked(true)
    }

    /// The standings without each game's score: the order, the points and the tie-breaks,
    /// for a reader that wants the scores of a few lines only ([`Arena::games_of`]).
    pub fn standings_unmarked(&self) -> Vec<Standing> {
        self.ranked(false)
    }

    /// The standings, with each game's score or (for pairing, which needs only the order)
    /// without.
    fn ranked(&self, with_scores: bool) -> Vec<Standing> {
        let lines = self
            .players
            .iter()
            .map(|(player, entry)| Standing {
                rank: 0,
                player: player.clone(),
                rating: entry.rating,
                points: entry.sheet.points,
                performance: standings::performance(
                    entry.rating,
                    entry
                        .games
                        .iter()
                        .map(|g| (g.opponent_rating, g.score.played.result)),
                ),
                reached_at: entry.reached_at,
                on_fire: entry.sheet.on_fire(),
                paused: entry.presence == Presence::Paused,
                withdrawn: entry.presence == Presence::Withdrawn,
                scores: match with_scores {
                    true => entry.games.iter().map(|g| g.score).collect(),
                    false => Vec::new(),
                },
            })
            .collect();
        standings::rank(lines)
    }

    /// Page `page` (from 1) of the standings.
    pub fn standings_page(&self, page: usize, per_page: usize) -> Page<Standing> {
        Page::of(&self.standings(), page, per_page)
    }

    /// A player's finished games, in the order played.
    pub fn games_of(&self, player: &PlayerId) -> Option<&[ArenaGame]> {
        self.players.get(player).map(|entry| entry.games.as_slice())
    }
}
