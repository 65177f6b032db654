//! A server's output: copied into its log file, each line marked with the start it came
//! from, and what a test asks about counted on the way.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::sync::Mutex;
use std::time::Instant;

/// What the server printed, as far as the tests and tools care.
#[derive(Default)]
pub struct Watch {
    /// When each start's "unfinished games resumed" line arrived (the tables' clocks were
    /// restarted just before it).
    pub resumed: Vec<Option<Instant>>,
    pub error_lines: u64,
    pub warn_lines: u64,
    pub panics: u64,
    /// The last lines, for an error message when a start fails.
    tail: VecDeque<String>,
    /// The first few ERROR and panic lines, for a report.
    pub first_errors: Vec<String>,
}

/// How many of the last lines are kept for an error message.
const TAIL: usize = 30;

impl Watch {
    /// The last lines printed.
    pub fn tail(&self) -> String {
        self.tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Makes room for start number `life`.
    pub(crate) fn expect_life(&mut self, life: usize) {
        while self.resumed.len() <= life {
            self.resumed.push(None);
        }
    }

    fn note(&mut self, life: usize, line: &str, now: Instant) {
        if line.contains("unfinished games resumed")
            && let Some(slot) = self.resumed.get_mut(life)
        {
            *slot = Some(now);
        }
        let error = line.contains(" ERROR ");
        let panic = line.contains("panicked");
        self.error_lines += u64::from(error);
        self.warn_lines += u64::from(line.contains(" WARN "));
        self.panics += u64::from(panic);
        if (error || panic) && self.first_errors.len() < 10 {
            self.first_errors.push(format!("[life {life}] {line}"));
        }
        self.tail.push_back(line.to_string());
        if self.tail.len() > TAIL {
            self.tail.pop_front();
        }
    }
}

/// Copies one output stream of the child into the log and notes what matters, until the
/// stream ends.
pub(crate) fn follow(
    stream: Box<dyn std::io::Read + Send>,
    life: usize,
    log: &Mutex<File>,
    watch: &Mutex<Watch>,
) {
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { break };
        let now = Instant::now();
        watch.lock().expect("watch lock").note(life, &line, now);
        let _ = writeln!(log.lock().expect("log lock"), "[life {life}] {line}");
    }
}
