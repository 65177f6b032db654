//! `stolik serve` refuses to start with a schedule it cannot use, saying which file, line and
//! field are at fault (docs/tournaments.md, "Scheduled events"): a real process, whose exit
//! and standard error are read.

use std::process::Command;
use std::time::Duration;

/// Runs `stolik serve --schedule FILE` with `text` in FILE; its exit status and what it wrote.
fn serve_with_schedule(text: &str) -> (std::process::ExitStatus, String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "stolik-bad-schedule-{}-{}",
        std::process::id(),
        text.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("events.json");
    std::fs::write(&file, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_stolik"))
        .arg("serve")
        .args(["--bind", "127.0.0.1:0", "--metrics-bind", "off"])
        .arg("--database")
        .arg(format!("sqlite://{}", dir.join("stolik.db").display()))
        .arg("--schedule")
        .arg(&file)
        .env("STOLIK_RABBIT_TABLES", "off")
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("stolik starts");
    // It must stop by itself, at once: a server that started would run until killed.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the server started with a bad schedule");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr).to_string()
        + &String::from_utf8_lossy(&output.stdout);
    let _ = std::fs::remove_dir_all(&dir);
    (status, said, file)
}

#[test]
fn a_bound_broken_in_the_schedule_stops_the_start_naming_the_line_and_field() {
    let text = r#"{
  "events": [
    { "id": "evening", "kind": "arena", "game": "mill", "initial": 180,
      "minutes": 900, "hours": [18] }
  ]
}"#;
    let (status, said, file) = serve_with_schedule(text);
    assert!(!status.success(), "{said}");
    assert!(said.contains(&file.display().to_string()), "{said}");
    assert!(said.contains("line 3, event `evening`"), "{said}");
    assert!(
        said.contains("length in minutes must be from 5 to 720"),
        "{said}"
    );
}

#[test]
fn a_misspelt_field_stops_the_start_naming_it_and_its_line() {
    let text = "{\n  \"events\": [\n    { \"id\": \"evening\", \"kind\": \"arena\", \"game\": \"mill\",\n      \"initial\": 180, \"minutes\": 30, \"hour\": [18] }\n  ]\n}";
    let (status, said, _) = serve_with_schedule(text);
    assert!(!status.success(), "{said}");
    assert!(
        said.contains("unknown field `hour`") && said.contains("line 4"),
        "{said}"
    );
}
