//! The pool's waiting jobs, one queue per [`Priority`], and the rule that picks the next: the
//! highest priority first, except that a waiting job passed over its priority's patience
//! ([`Priority::patience`]) goes next, so that a stream of bots' moves cannot keep a review waiting for ever. Pure: no
//! threads, no clock, so that the order is tested exactly.

use std::collections::VecDeque;

/// What a job is for, highest first: the order in which the pool takes waiting jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// A bot's move in a game being played: someone is waiting across the board.
    Bot,
    /// A solver hint, or the engine's evaluation on the analysis board, that a player asked
    /// for and waits on.
    Hint,
    /// A review of a finished game (the engine's, or a solo game's).
    Review,
    /// A house bot's move in a game of the bot ladder (`ladder/`): nobody waits across the
    /// board, so it comes after everything a person waits for. Only the background build,
    /// which yields to it between its sweeps, is lower: a ladder game stopped for the hours a
    /// build takes would leave the bots' ratings stale for no one's benefit.
    Ladder,
    /// A piece of a long background build (the solver's exact tables): the lowest, and it
    /// yields to the others between its pieces (`CpuPool::yield_to_others`).
    Background,
}

impl Priority {
    /// Every priority, highest first.
    pub const ALL: [Priority; 5] = [
        Priority::Bot,
        Priority::Hint,
        Priority::Review,
        Priority::Ladder,
        Priority::Background,
    ];

    /// The label of `/metrics`.
    pub fn name(self) -> &'static str {
        match self {
            Priority::Bot => "bot",
            Priority::Hint => "hint",
            Priority::Review => "review",
            Priority::Ladder => "ladder",
            Priority::Background => "background",
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// How many jobs of higher priority may start while the first job of this priority waits
    /// before it goes next: [`PATIENCE`] for hints, twice that for reviews, three times for the
    /// ladder, four times for the background, so that under a load that never lets up each priority still gets a share,
    /// a smaller one the lower it is.
    pub fn patience(self) -> u32 {
        match self {
            Priority::Bot => 0,
            Priority::Hint => PATIENCE,
            Priority::Review => 2 * PATIENCE,
            Priority::Ladder => 3 * PATIENCE,
            Priority::Background => 4 * PATIENCE,
        }
    }
}

/// How many jobs of higher priority may start while a hint waits before it goes next.
pub const PATIENCE: u32 = 8;

/// The waiting jobs of each priority, and how often each queue's head was passed over.
pub struct Queues<J> {
    waiting: [VecDeque<J>; 5],
    passed: [u32; 5],
}

impl<J> Default for Queues<J> {
    fn default() -> Self {
        Queues {
            waiting: Default::default(),
            passed: [0; 5],
        }
    }
}

impl<J> Queues<J> {
    pub fn push(&mut self, priority: Priority, job: J) {
        self.waiting[priority.index()].push_back(job);
    }

    /// How many jobs of `priority` wait.
    pub fn len(&self, priority: Priority) -> usize {
        self.waiting[priority.index()].len()
    }

    /// The next job to run, of a priority above `below` (any priority when `None`): the
    /// highest waiting, unless a lower one has been passed over as often as its patience.
    pub fn take(&mut self, below: Option<Priority>) -> Option<(Priority, J)> {
        let allowed = Priority::ALL
            .into_iter()
            .filter(|p| below.is_none_or(|b| *p < b))
            .filter(|p| !self.waiting[p.index()].is_empty());
        let candidates: Vec<Priority> = allowed.collect();
        let first = *candidates.first()?;
        let chosen = candidates
            .iter()
            .copied()
            .find(|p| *p != first && self.passed[p.index()] >= p.patience())
            .unwrap_or(first);
        for p in &candidates {
            if *p != chosen {
                self.passed[p.index()] += 1;
            }
        }
        let queue = &mut self.waiting[chosen.index()];
        let job = queue.pop_front()?;
        // The count is of the head of the queue: the next job waits from nothing.
        self.passed[chosen.index()] = 0;
        Some((chosen, job))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(q: &mut Queues<&'static str>, below: Option<Priority>) -> Vec<&'static str> {
        std::iter::from_fn(|| q.take(below).map(|(_, j)| j)).collect()
    }

    #[test]
    fn the_highest_priority_goes_first_whatever_the_order_of_arrival() {
        let mut q = Queues::default();
        q.push(Priority::Background, "build");
        q.push(Priority::Ladder, "ladder");
        q.push(Priority::Review, "review");
        q.push(Priority::Hint, "hint");
        q.push(Priority::Bot, "bot");
        q.push(Priority::Bot, "second bot");
        assert_eq!(
            drain(&mut q, None),
            ["bot", "second bot", "hint", "review", "ladder", "build"]
        );
    }

    #[test]
    fn a_waiting_job_goes_next_once_passed_over_patience_times() {
        let mut q = Queues::default();
        q.push(Priority::Review, "review");
        for _ in 0..3 * PATIENCE {
            q.push(Priority::Bot, "bot");
        }
        let order = drain(&mut q, None);
        let at = order.iter().position(|j| *j == "review").unwrap();
        assert_eq!(at, Priority::Review.patience() as usize, "{order:?}");
    }

    /// Under a steady stream of every priority, each priority keeps getting its turn.
    #[test]
    fn nothing_starves_under_a_stream_of_higher_jobs() {
        let mut q = Queues::default();
        let mut ran = [0usize; 5];
        for p in Priority::ALL {
            q.push(p, p);
        }
        for _ in 0..4000 {
            let (p, _) = q.take(None).unwrap();
            ran[p.index()] += 1;
            // The job is replaced at once, as a busy site would: every queue always waits.
            q.push(p, p);
        }
        for p in Priority::ALL {
            assert!(ran[p.index()] > 0, "{p:?} never ran: {ran:?}");
        }
        assert!(ran.windows(2).all(|pair| pair[0] > pair[1]), "{ran:?}");
    }

    #[test]
    fn taking_above_a_priority_leaves_it_and_those_below() {
        let mut q = Queues::default();
        q.push(Priority::Background, "build");
        q.push(Priority::Review, "review");
        q.push(Priority::Hint, "hint");
        assert_eq!(drain(&mut q, Some(Priority::Review)), ["hint"]);
        assert_eq!(q.len(Priority::Review), 1);
        assert_eq!(drain(&mut q, Some(Priority::Background)), ["review"]);
        assert_eq!(drain(&mut q, Some(Priority::Bot)), Vec::<&str>::new());
        assert_eq!(q.len(Priority::Background), 1);
    }
}
