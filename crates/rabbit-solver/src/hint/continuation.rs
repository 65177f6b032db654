//! What a turn lost (or cut short) in a rollout is worth: fresh turns of the rollout policy,
//! won with its measured share.

use super::dice::random_start;
use super::policy::{Look, play_turn};
use super::{Rng, Scratch};
use crate::exact::Vals;
use crate::model::Model;

/// The values after the turn is lost at a green level above 1: the policy's turns from
/// `green` on, each won with probability `q` (the turn-start tables are taken as typical).
#[derive(Debug, Clone, Copy)]
pub struct Continuation {
    /// The share of turns won.
    pub q: f64,
    /// Mean actions of a won turn and of a lost turn.
    pub won_actions: f64,
    pub lost_actions: f64,
}

impl Continuation {
    /// `[win, score, actions]` of the turns from a fresh roll at `green`.
    pub fn from_green(&self, green: u8) -> Vals {
        let (mut win, mut score, mut actions, mut alive) = (0.0, 0.0, 0.0, 1.0);
        for g in (1..=green).rev() {
            actions += alive * (self.q * self.won_actions + (1.0 - self.q) * self.lost_actions);
            win += alive * self.q;
            score += alive * self.q * g as f64;
            alive *= 1.0 - self.q;
        }
        [win, score, actions]
    }
}

/// The continuation figures of a model: measured once for the full game (see
/// `docs/white-rabbit.md`), estimated on first use for a reduced model (400 simulated turns).
pub fn continuation(m: &Model) -> Continuation {
    use std::sync::Mutex;
    static CACHE: Mutex<Vec<(Model, Continuation)>> = Mutex::new(Vec::new());
    if *m == Model::of(white_rabbit::Variant::Classic) {
        return CLASSIC;
    }
    if *m == Model::of(white_rabbit::Variant::NoWrap) {
        return NO_WRAP;
    }
    if let Some(c) = CACHE.lock().expect("cache").iter().find(|x| x.0 == *m) {
        return c.1;
    }
    let c = measure_turns(m, 400, Look::One, 0xC0DE);
    CACHE.lock().expect("cache").push((*m, c));
    c
}

/// The rollouts' policy ([`Look::One`]), measured by `measure_turns(m, 2000, Look::One,
/// 0xC0DE)` (`TURNS=2000` with the ignored test
/// `turn_figures`).
const CLASSIC: Continuation = Continuation {
    q: 0.781,
    won_actions: 119.5,
    lost_actions: 190.4,
};
const NO_WRAP: Continuation = Continuation {
    q: 0.5195,
    won_actions: 115.2,
    lost_actions: 272.0,
};

/// Plays `n` turns from random setups with the policy looking `look` past each reroll.
pub fn measure_turns(m: &Model, n: u32, look: Look, seed: u64) -> Continuation {
    let mut rng = Rng::new(seed);
    let mut sc = Scratch::default();
    let (mut wins, mut won_a, mut lost_a) = (0u32, 0u64, 0u64);
    for _ in 0..n {
        let s = random_start(m, &mut rng);
        let (w, a) = play_turn(m, &s, look, &mut rng, &mut sc);
        if w {
            wins += 1;
            won_a += a as u64;
        } else {
            lost_a += a as u64;
        }
    }
    Continuation {
        q: (wins as f64 / n as f64).max(1e-3),
        won_actions: won_a as f64 / wins.max(1) as f64,
        lost_actions: lost_a as f64 / (n - wins).max(1) as f64,
    }
}

#[cfg(test)]
mod experiments {
    use std::time::Instant;

    use super::*;

    /// `TURNS=4000 cargo test -p rabbit-solver --release turn_figures -- --ignored
    /// --nocapture`: the policy's share of single turns won from random setups, per variant,
    /// with the mean actions of won and lost turns (the [`Continuation`] constants).
    #[test]
    #[ignore]
    fn turn_figures() {
        let n: u32 = std::env::var("TURNS")
            .ok()
            .and_then(|x| x.parse().ok())
            .unwrap_or(1000);
        for variant in [
            white_rabbit::Variant::Classic,
            white_rabbit::Variant::NoWrap,
        ] {
            for look in [Look::One, Look::Two] {
                let m = Model::of(variant);
                let t = Instant::now();
                let c = measure_turns(&m, n, look, 0xC0DE);
                println!(
                    "{variant:?} {look:?}: {c:?} over {n} turns ({:.1} s)",
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
}
