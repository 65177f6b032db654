//! Seeded deals played through the rules engine, for comparing players.

use std::time::{Duration, Instant};

use game::{Game, Outcome};
use white_rabbit::{Move, Variant, WhiteRabbit};

use crate::hint::{self, Budget, mix};
use crate::model::{self, Act, Model};

/// Who chooses the actions.
#[derive(Debug, Clone, Copy)]
pub enum Player {
    /// Hint mode: the best-ranked action.
    Hint(Budget),
    /// The greedy baseline ([`hint::greedy`]).
    Greedy,
    /// Hint mode's playing policy alone ([`hint::policy`], no rollouts): fast, for many deals.
    Policy,
}

/// The totals over a set of deals.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub deals: u64,
    pub wins: u64,
    pub score: f64,
    pub actions: f64,
    /// Time of every decision.
    pub decision_times: Vec<Duration>,
}

impl Stats {
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.deals.max(1) as f64
    }
    pub fn mean_score(&self) -> f64 {
        self.score / self.deals.max(1) as f64
    }
    pub fn mean_actions(&self) -> f64 {
        self.actions / self.deals.max(1) as f64
    }
    /// The `q` quantile (0..=1) of the decision times.
    pub fn time_quantile(&self, q: f64) -> Duration {
        let mut t = self.decision_times.clone();
        if t.is_empty() {
            return Duration::ZERO;
        }
        t.sort_unstable();
        t[((t.len() - 1) as f64 * q).round() as usize]
    }
}

/// The engine seed of deal `i` of a run seeded `seed`.
pub fn deal_seed(seed: u64, i: u64) -> u64 {
    mix(seed ^ mix(i.wrapping_add(1)))
}

/// The most actions a deal may take before the player is made to end turns.
const GAME_CAP: u32 = 6000;
/// The most actions a turn may take before the player is made to end it (the rules set no
/// limit; long swap-and-reroll chains are how turns are won).
const TURN_CAP: u32 = 1000;

/// Plays one deal to its end with `choose(game, actions so far in the turn)` picking every
/// move (each choice timed into `times`): `(won, score, actions)`.
pub fn play_by(
    variant: Variant,
    seed: u64,
    times: &mut Vec<Duration>,
    mut choose: impl FnMut(&WhiteRabbit, u32) -> Move,
) -> (bool, u32, u32) {
    let mut g = WhiteRabbit::new(variant, seed);
    let mut in_turn = 0;
    let mut actions = 0;
    while !g.is_over() {
        let mv = if actions >= GAME_CAP || in_turn >= TURN_CAP {
            Move::End
        } else {
            let t = Instant::now();
            let mv = choose(&g, in_turn);
            times.push(t.elapsed());
            mv
        };
        g.play(mv).expect("players only choose legal moves");
        actions += 1;
        in_turn = if mv == Move::End { 0 } else { in_turn + 1 };
    }
    match g.outcome() {
        Some(Outcome::SoloWon { score }) => (true, score, actions),
        _ => (false, 0, actions),
    }
}

/// The chooser of a [`Player`] for [`play_by`].
fn chooser(variant: Variant, player: Player) -> impl FnMut(&WhiteRabbit, u32) -> Move {
    let m = Model::of(variant);
    let mut buf = Vec::new();
    let mut sc = hint::Scratch::default();
    move |g, in_turn| match player {
        Player::Hint(budget) => {
            let h = crate::hints_with(g, budget);
            g.parse_move(&h[0].action)
                .expect("hint mode names legal moves")
        }
        Player::Greedy => engine_move(g, hint::greedy(&m, &model::from_game(g), in_turn, &mut buf)),
        Player::Policy => engine_move(g, hint::policy(&m, &model::from_game(g), in_turn, &mut sc)),
    }
}

/// An engine move of a class action (the first legal one in die order).
pub fn engine_move(g: &WhiteRabbit, a: Act) -> Move {
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    legal
        .into_iter()
        .find(|&mv| model::act_of(g, mv) == a)
        .expect("a legal class action has a legal engine move")
}

/// Plays deals `0..n` of a run.
pub fn run(variant: Variant, n: u64, seed: u64, player: Player) -> Stats {
    run_by(variant, n, seed, chooser(variant, player))
}

/// Plays deals `0..n` of a run with `choose` picking the moves (see [`play_by`]).
pub fn run_by(
    variant: Variant,
    n: u64,
    seed: u64,
    mut choose: impl FnMut(&WhiteRabbit, u32) -> Move,
) -> Stats {
    let mut s = Stats::default();
    for i in 0..n {
        let (won, score, actions) = play_by(
            variant,
            deal_seed(seed, i),
            &mut s.decision_times,
            &mut choose,
        );
        s.deals += 1;
        s.wins += won as u64;
        s.score += score as f64;
        s.actions += actions as f64;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `DEALS=1000 cargo test -p rabbit-solver --release policy_deals -- --ignored
    /// --nocapture`: the playing policy alone over seeded deals (seed 1), both variants.
    #[test]
    #[ignore]
    fn policy_deals() {
        let n: u64 = std::env::var("DEALS")
            .ok()
            .and_then(|x| x.parse().ok())
            .unwrap_or(200);
        for variant in [Variant::Classic, Variant::NoWrap] {
            let t = Instant::now();
            let s = run(variant, n, 1, Player::Policy);
            println!(
                "{variant:?} policy deals {n}: win-rate {:.4} mean-score {:.4} mean-actions {:.2} \
                 decision-ms median {:.3} p99 {:.3} ({:.1} s)",
                s.win_rate(),
                s.mean_score(),
                s.mean_actions(),
                s.time_quantile(0.5).as_secs_f64() * 1e3,
                s.time_quantile(0.99).as_secs_f64() * 1e3,
                t.elapsed().as_secs_f64()
            );
        }
    }
}
