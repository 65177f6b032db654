//! The round robin's director: the whole event as a value, changed only by events.
//!
//! Players join until the start; then the schedule is drawn (players seeded by rating) and
//! games are started — all at once, or a round at a time. A game aborted before it counted
//! is started again: every scheduled game is played. Round robins have no pause (a
//! correspondence clock gives days per move) and no berserk.
//!
//! **Withdrawals.** Before the start, a withdrawal takes the player off the list. After it:
//! - a player with results in fewer than half of their games (games played out, or won by
//!   an opponent's forfeit) is struck out: all their games are annulled, the finished ones
//!   too, as if they had never entered;
//! - a player with results in half or more keeps them, and each of their games not yet
//!   finished (running or to come) is forfeited: a win for the opponent.

use std::collections::BTreeMap;

use game::{Outcome, Seat};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::event::{Decision, Event};
use crate::ids::{PairingId, PlayerId, numbered, numbered_mut};
use crate::page::Page;
use crate::result::check_finished;
use crate::round_robin::schedule;
use crate::round_robin::settings::{Pace, RoundRobinSettings};
use crate::round_robin::standings::{self, Counted, Standing};

const KIND: &str = "round robin";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobin {
    settings: RoundRobinSettings,
    phase: Phase,
    /// The latest time an accepted event carried.
    now: u64,
    entrants: BTreeMap<PlayerId, Entrant>,
    /// The schedule, by id (ids count from 0), drawn at the start.
    games: Vec<RoundRobinGame>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Upcoming,
    Running,
    Finished,
    /// Too few players at the start.
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entrant {
    rating: i32,
    withdrawn: Option<Withdrawal>,
}

/// What a withdrawal after the start did to a player's games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Withdrawal {
    /// Fewer than half were finished: all are annulled.
    Annulled,
    /// Half or more were finished: those stand, the rest are forfeited.
    Forfeited,
}

/// One game of the schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinGame {
    /// From 0.
    pub round: u32,
    /// Seat A, seat B.
    pub seats: [PlayerId; 2],
    /// The server's game id, once started.
    pub game: Option<String>,
    pub status: GameStatus,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum GameStatus {
    /// Its round has not come.
    Scheduled,
    /// Asked for; the table is not started yet.
    Created,
    Playing,
    Finished {
        outcome: Outcome,
        plies: u32,
    },
    /// Lost by `loser`, who withdrew.
    Forfeited {
        loser: PlayerId,
    },
    /// Counts for nothing: a player withdrew early.
    Annulled,
}

impl GameStatus {
    /// Nothing more will happen to the game.
    pub fn is_settled(&self) -> bool {
        matches!(
            self,
            GameStatus::Finished { .. } | GameStatus::Forfeited { .. } | GameStatus::Annulled
        )
    }
}

impl RoundRobin {
    pub fn new(settings: RoundRobinSettings) -> Result<RoundRobin, Error> {
        settings.check()?;
        Ok(RoundRobin {
            settings,
            phase: Phase::Upcoming,
            now: 0,
            entrants: BTreeMap::new(),
            games: Vec::new(),
        })
    }

    pub fn settings(&self) -> &RoundRobinSettings {
        &self.settings
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn game(&self, id: PairingId) -> Option<&RoundRobinGame> {
        self.games.get(id.0 as usize)
    }

    /// What `player`'s withdrawal did, if they withdrew after the start.
    pub fn withdrawal(&self, player: &PlayerId) -> Option<Withdrawal> {
        self.entrants.get(player).and_then(|e| e.withdrawn)
    }

    pub fn games(&self) -> impl Iterator<Item = (PairingId, &RoundRobinGame)> {
        numbered(&self.games)
    }

    /// Takes one event that happened at `at` (unix milliseconds; an earlier time than the
    /// last event's counts as that time). A refused event changes nothing.
    pub fn apply(&mut self, at: u64, event: &Event) -> Result<Vec<Decision>, Error> {
        let at = at.max(self.now);
        let starting = self.phase == Phase::Upcoming && at >= self.settings.starts_at;
        self.check(starting, event)?;
        self.now = at;
        let mut decisions = Vec::new();
        if starting {
            self.start(&mut decisions);
        }
        self.take(event, &mut decisions);
        if self.phase == Phase::Running {
            self.go_on(&mut decisions);
        }
        Ok(decisions)
    }

    /// Whether [`RoundRobin::apply`] would take `event` at `at`, without taking it.
    pub fn accepts(&self, at: u64, event: &Event) -> Result<(), Error> {
        let at = at.max(self.now);
        let starting = self.phase == Phase::Upcoming && at >= self.settings.starts_at;
        self.check(starting, event)
    }

    /// Whether `event` can be taken (after the start, when `starting`).
    fn check(&self, starting: bool, event: &Event) -> Result<(), Error> {
        let running = starting || self.phase == Phase::Running;
        let over = matches!(self.phase, Phase::Finished | Phase::Cancelled)
            || (starting && self.entrants.len() < self.settings.min_players);
        let game = |pairing: &PairingId| {
            self.game(*pairing)
                .map(|g| &g.status)
                .ok_or(Error::UnknownPairing(*pairing))
        };
        match event {
            Event::Join { player, .. } => {
                if over {
                    Err(Error::Over)
                } else if running {
                    Err(Error::Started)
                } else if self.entrants.contains_key(player) {
                    Err(Error::AlreadyJoined(player.clone()))
                } else if self.entrants.len() >= self.settings.max_players {
                    Err(Error::Full(self.settings.max_players))
                } else {
                    Ok(())
                }
            }
            Event::Withdraw { player } => match self.entrants.get(player) {
                _ if over => Err(Error::Over),
                None => Err(Error::NotJoined(player.clone())),
                Some(entrant) if entrant.withdrawn.is_some() => {
                    Err(Error::Withdrew(player.clone()))
                }
                Some(_) => Ok(()),
            },
            Event::Pause { .. } | Event::Resume { .. } => Err(Error::NotHere(event.name(), KIND)),
            Event::GameStarted { pairing, .. } => match game(pairing)? {
                GameStatus::Created => Ok(()),
                GameStatus::Playing | GameStatus::Finished { .. } => {
                    Err(Error::GameStartedAlready(*pairing))
                }
                _ => Err(Error::GameNotRunning(*pairing)),
            },
            Event::GameFinished {
                pairing,
                outcome,
                berserk,
                ..
            } => {
                check_finished(*outcome, *berserk, false)?;
                match game(pairing)? {
                    GameStatus::Playing => Ok(()),
                    _ => Err(Error::GameNotRunning(*pairing)),
                }
            }
            Event::GameAborted { pairing } => match game(pairing)? {
                GameStatus::Created | GameStatus::Playing => Ok(()),
                _ => Err(Error::GameNotRunning(*pairing)),
            },
            Event::Tick => Ok(()),
        }
    }

    /// Draws the schedule, or calls the event off for want of players.
    fn start(&mut self, decisions: &mut Vec<Decision>) {
        if self.entrants.len() < self.settings.min_players {
            self.phase = Phase::Cancelled;
            decisions.push(Decision::Cancel);
            return;
        }
        self.phase = Phase::Running;
        decisions.push(Decision::Start);
        // Seeded by rating, the strongest first (then by id).
        let mut seeds: Vec<(&PlayerId, &Entrant)> = self.entrants.iter().collect();
        seeds.sort_by(|a, b| b.1.rating.cmp(&a.1.rating).then(a.0.cmp(b.0)));
        let seeds: Vec<PlayerId> = seeds.into_iter().map(|(id, _)| id.clone()).collect();
        for (round, pairs) in schedule::rounds(seeds.len(), self.settings.both_sides)
            .into_iter()
            .enumerate()
        {
            for [a, b] in pairs {
                self.games.push(RoundRobinGame {
                    round: round as u32,
                    seats: [seeds[a].clone(), seeds[b].clone()],
                    game: None,
                    status: GameStatus::Scheduled,
                });
            }
        }
    }

    /// Takes an event that `check` accepted.
    fn take(&mut self, event: &Event, decisions: &mut Vec<Decision>) {
        match event {
            Event::Join { player, rating } => {
                let entrant = Entrant {
                    rating: *rating,
                    withdrawn: None,
                };
                self.entrants.insert(player.clone(), entrant);
            }
            Event::Withdraw { player } => self.withdraw(player, decisions),
            Event::GameStarted { pairing, game } => {
                let record = &mut self.games[pairing.0 as usize];
                record.game = Some(game.clone());
                record.status = GameStatus::Playing;
            }
            Event::GameFinished {
                pairing,
                outcome,
                plies,
                ..
            } => {
                self.games[pairing.0 as usize].status = GameStatus::Finished {
                    outcome: *outcome,
                    plies: *plies,
                };
            }
            Event::GameAborted { pairing } => {
                // Every game of the schedule is played: this one is asked for again.
                let record = &mut self.games[pairing.0 as usize];
                record.game = None;
                record.status = GameStatus::Created;
                decisions.push(pair(*pairing, record));
            }
            Event::Pause { .. } | Event::Resume { .. } | Event::Tick => {}
        }
    }

    fn withdraw(&mut self, player: &PlayerId, decisions: &mut Vec<Decision>) {
        if self.phase == Phase::Upcoming {
            self.entrants.remove(player);
            return;
        }
        // Games annulled by another's strike-out were never theirs: "as if they had never
        // entered".
        let theirs = || {
            self.games
                .iter()
                .filter(|g| g.seats.contains(player) && g.status != GameStatus::Annulled)
        };
        let scheduled = theirs().count();
        // Results in hand: games played out, and forfeits won from others who withdrew.
        let finished = theirs()
            .filter(|g| {
                matches!(
                    g.status,
                    GameStatus::Finished { .. } | GameStatus::Forfeited { .. }
                )
            })
            .count();
        let withdrawal = if finished * 2 < scheduled {
            Withdrawal::Annulled
        } else {
            Withdrawal::Forfeited
        };
        for (id, game) in numbered_mut(&mut self.games) {
            if !game.seats.contains(player) {
                continue;
            }
            let running = matches!(game.status, GameStatus::Created | GameStatus::Playing);
            match withdrawal {
                Withdrawal::Annulled => {
                    if running {
                        decisions.push(Decision::Annul { pairing: id });
                    }
                    game.status = GameStatus::Annulled;
                }
                Withdrawal::Forfeited if !game.status.is_settled() => {
                    if running {
                        decisions.push(Decision::Forfeit {
                            pairing: id,
                            loser: player.clone(),
                        });
                    }
                    game.status = GameStatus::Forfeited {
                        loser: player.clone(),
                    };
                }
                Withdrawal::Forfeited => {}
            }
        }
        self.entrants.get_mut(player).expect("checked").withdrawn = Some(withdrawal);
    }

    /// Starts the games whose time has come, and finishes the event when all are settled.
    fn go_on(&mut self, decisions: &mut Vec<Decision>) {
        let unsettled = self.games.iter().filter(|g| !g.status.is_settled());
        let Some(round) = unsettled.map(|g| g.round).min() else {
            self.phase = Phase::Finished;
            decisions.push(Decision::Finish {
                uncounted: Vec::new(),
            });
            decisions.push(Decision::FreezeStandings);
            return;
        };
        for (id, game) in numbered_mut(&mut self.games) {
            let due = match self.settings.pace {
                Pace::AllAtOnce => true,
                Pace::ByRound => game.round == round,
            };
            if due && game.status == GameStatus::Scheduled {
                game.status = GameStatus::Created;
                decisions.push(pair(id, game));
            }
        }
    }

    /// The standings now. Players struck out by an early withdrawal are not in them.
    pub fn standings(&self) -> Vec<Standing> {
        let players = self
            .entrants
            .iter()
            .filter(|(_, e)| e.withdrawn != Some(Withdrawal::Annulled))
            .map(|(id, e)| (id.clone(), e.rating, e.withdrawn.is_some()))
            .collect();
        let counted: Vec<Counted> = self
            .games
            .iter()
            .filter_map(|game| {
                let outcome = match &game.status {
                    GameStatus::Finished { outcome, .. } => *outcome,
                    GameStatus::Forfeited { loser } => {
                        let loser = game.seats.iter().position(|p| p == loser)?;
                        Outcome::Win(Seat::from_index(1 - loser)?)
                    }
                    _ => return None,
                };
                Some(Counted {
                    seats: game.seats.clone(),
                    outcome,
                })
            })
            .collect();
        standings::standings(players, &counted)
    }

    /// Page `page` (from 1) of the standings.
    pub fn standings_page(&self, page: usize, per_page: usize) -> Page<Standing> {
        Page::of(&self.standings(), page, per_page)
    }
}

fn pair(pairing: PairingId, game: &RoundRobinGame) -> Decision {
    Decision::Pair {
        pairing,
        seats: game.seats.clone(),
        house_bot: None,
    }
}
