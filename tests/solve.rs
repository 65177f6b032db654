//! `stolik solve white-rabbit` run as a separate process, the way an operator runs it.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Finished positions of every kind, both variants: lost at green 0 (also with six equal
/// values but the white die among them), won at green 1 and at green 6.
const FINISHED: [(&str, &str); 4] = [
    (
        "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 0 - -",
        "the game is over: lost",
    ),
    (
        "k1=3,k2=3,k3=3,r1=3,r2=3,w=3 k4=4,k5=6,r3=1,r4=5,r5=2 0 - -",
        "the game is over: lost",
    ),
    (
        "k1=3,k2=3,k3=3,r1=3,r2=3,r3=3 k4=4,k5=6,r4=1,r5=5,w=2 1 - -",
        "the game is over: won, score 1",
    ),
    (
        "k1=6,k4=6,k3=6,r1=6,r5=6,r3=6 k2=1,k5=2,r2=5,r4=5,w=1 6 - -",
        "the game is over: won, score 6",
    ),
];

fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stolik-solve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `stolik solve white-rabbit ARGS…`, killing it if it is still going after `limit`
/// (before the fix, `--exact` at green 0 solved level after level for hours).
fn solve(args: &[&str], limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stolik"))
        .args(["solve", "white-rabbit"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start stolik solve");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "stolik solve {args:?} still running after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_finished_position_is_answered_at_once_in_exact_and_hint_mode() {
    let data = empty_dir("over");
    for variant in ["classic", "no-wrap"] {
        for (position, answer) in FINISHED {
            for exact in [true, false] {
                let mut args = vec!["--variant", variant, "--data", data.to_str().unwrap()];
                if exact {
                    args.push("--exact");
                }
                args.push(position);
                let (ok, out, err) = solve(&args, Duration::from_secs(20));
                assert!(ok, "{args:?}: {err}");
                assert_eq!(out.trim(), answer, "{args:?}");
                assert!(!data.exists(), "{args:?} wrote tables: {err}");
            }
        }
    }
}

#[test]
fn a_position_that_is_not_one_is_refused_with_a_reason() {
    let data = empty_dir("bad");
    let (ok, _, err) = solve(
        &[
            "--exact",
            "--data",
            data.to_str().unwrap(),
            "k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 9 - -",
        ],
        Duration::from_secs(20),
    );
    assert!(!ok);
    assert!(err.contains("green"), "{err}");
    assert!(!data.exists());
}
