//! Stolik's load generator: real clients over the public HTTP and WebSocket protocol against a
//! real `stolik serve` child process on a loopback port. Every loop is bounded in count and
//! time, and every connection goes to 127.0.0.1 only.

pub mod arena;
pub mod bot_streams;
pub mod bots;
pub mod closed;
pub mod compare;
pub mod crossnode;
pub mod echo;
pub mod failover;
pub mod flood;
pub mod idle;
pub mod lobby;
pub mod ndjson;
pub mod nodes;
pub mod open;
pub mod pair;
pub mod push;
pub mod reviewers;
pub mod reviews;
pub mod server;
pub mod site;
pub mod spectators;
pub mod startup;
pub mod thinkers;

/// Percentiles of a sample of durations, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub n: usize,
    pub p50: f64,
    pub p99: f64,
}

/// The nearest-rank sample at quantile `q` of sorted durations, in milliseconds (`None` when
/// there is none).
pub fn quantile_ms(sorted: &[std::time::Duration], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    Some(sorted[(last as f64 * q).round() as usize].as_secs_f64() * 1000.0)
}

impl Spread {
    pub fn of(samples: &mut [std::time::Duration]) -> Option<Spread> {
        samples.sort();
        Some(Spread {
            n: samples.len(),
            p50: quantile_ms(samples, 0.5)?,
            p99: quantile_ms(samples, 0.99)?,
        })
    }
}

/// Counts one client's error, printing the first of them; true once there have been too many
/// for the client to go on.
pub fn too_many_errors(errors: &mut u64, name: &str, e: &anyhow::Error) -> bool {
    if *errors == 0 {
        eprintln!("stolik-load: {name}: {e:#}");
    }
    *errors += 1;
    *errors > 10
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn percentiles_pick_the_nearest_rank() {
        let mut samples: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        let spread = Spread::of(&mut samples).unwrap();
        assert_eq!(spread.n, 100);
        assert_eq!(spread.p50, 51.0);
        assert_eq!(spread.p99, 99.0);
        assert!(Spread::of(&mut []).is_none());
    }
}
