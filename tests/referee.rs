//! `stolik referee` driven as a separate process through its line protocol, the way an outside
//! tool uses it: one reply line per command, garbage answered with `error …`, and the process
//! keeps going until `quit`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct RefereeProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl RefereeProcess {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stolik"))
            .arg("referee")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start stolik referee");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        RefereeProcess {
            child,
            stdin,
            stdout,
        }
    }

    fn ask(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).unwrap();
        assert!(reply.ends_with('\n'), "no reply line to {line:?}");
        reply.trim_end_matches('\n').to_string()
    }

    fn quit(mut self) {
        writeln!(self.stdin, "quit").unwrap();
        let status = self.child.wait().unwrap();
        assert!(status.success());
        let mut rest = String::new();
        self.stdout.read_line(&mut rest).unwrap();
        assert_eq!(rest, "", "quit must not reply");
    }
}

#[test]
fn the_example_session_from_the_protocol_document_replays() {
    let mut r = RefereeProcess::start();
    assert_eq!(r.ask("new cephalopod 3x3"), "ok .../.../... a");
    assert_eq!(r.ask("play b2 a1"), "ok .../.a1./b1.. a");
    assert_eq!(r.ask("legal"), "legal a2:a1,b2 a3 b1:a1,b2 b3 c1 c2 c3");
    assert_eq!(r.ask("play b2"), "error b2: the cell is occupied");
    r.quit();
}

#[test]
fn every_command_answers_for_every_game_and_variant() {
    let mut r = RefereeProcess::start();
    for info in catalog::GAMES {
        for v in info.variants {
            let start = r.ask(&format!("new {} {} seed=3", info.id, v.id));
            assert!(start.starts_with("ok "), "{start}");
            let position = start.strip_prefix("ok ").unwrap().to_string();
            let again = r.ask(&format!("position {} {} {position}", info.id, v.id));
            assert_eq!(again, start);
            let status = r.ask("status");
            assert!(status.starts_with("ongoing"), "{status}");
            let legal = r.ask("legal");
            let first = legal.split(' ').nth(1).expect("a legal move").to_string();
            let played = r.ask(&format!("play {first}"));
            assert!(played.starts_with("ok "), "{played}");
            let perft = r.ask("perft 1");
            if info.has_dice {
                assert!(perft.starts_with("error "), "{perft}");
            } else {
                assert!(perft.starts_with("perft "), "{perft}");
                assert_eq!(r.ask("perft 0"), "perft 1");
            }
        }
    }
    r.quit();
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_process_goes_on() {
    let mut r = RefereeProcess::start();
    r.stdin.write_all(b"new \xff\xfe mill\n").unwrap();
    r.stdin.flush().unwrap();
    let mut reply = String::new();
    r.stdout.read_line(&mut reply).unwrap();
    assert!(reply.starts_with("error "), "{reply:?}");
    assert!(r.ask("new mill").starts_with("ok "));
    r.quit();
}

#[test]
fn garbage_lines_are_answered_with_errors_and_change_nothing() {
    let mut r = RefereeProcess::start();
    // Before any game.
    for line in ["", "   ", "legal", "play a1", "perft 1", "status"] {
        assert!(r.ask(line).starts_with("error "), "{line:?}");
    }
    let start = r.ask("new mill");
    assert_eq!(start, "ok .../.../.../....../.../.../... a 9 9 0000 0000 0");
    let garbage = [
        "hello",
        "new",
        "new chess",
        "new mill nine",
        "new mill troika seed=x",
        "position mill troika",
        "position mill troika ././. a",
        "position perekati malysh UUUUU a",
        "play",
        "play z9",
        "play d2 d2",
        "play a1-a4",
        "perft",
        "perft -1",
        "perft x",
        "legal now",
        "status please",
        "quit now",
        "\u{0}\u{1}\u{2}",
        "плей a1",
    ];
    for line in garbage {
        let reply = r.ask(line);
        assert!(reply.starts_with("error "), "{line:?} answered {reply:?}");
        assert!(!reply.contains('\n'));
    }
    // Still the same game, still at its start.
    assert_eq!(r.ask("status"), "ongoing a");
    assert_eq!(r.ask("perft 1"), "perft 24");
    r.quit();
}

#[test]
fn a_refused_play_plays_none_of_its_moves() {
    let mut r = RefereeProcess::start();
    r.ask("new cephalopod 3x3");
    let reply = r.ask("play b2 a1 a1");
    assert_eq!(reply, "error a1: the cell is occupied");
    assert_eq!(r.ask("play b2"), "ok .../.a1./... b");
    r.quit();
}

#[test]
fn a_finished_game_has_no_moves_and_refuses_play() {
    let mut r = RefereeProcess::start();
    let over = "k1=4,k2=4,k3=4,r1=4,r2=4,r3=4 k4=1,k5=6,r4=1,r5=5,w=2 2 - -";
    assert_eq!(
        r.ask(&format!("position white-rabbit classic {over}")),
        format!("ok {over}")
    );
    assert_eq!(r.ask("status"), "over won 2");
    assert_eq!(r.ask("legal"), "legal");
    assert!(r.ask("play end").starts_with("error "));
    r.quit();
}

#[test]
fn end_of_input_ends_the_process_cleanly() {
    let mut r = RefereeProcess::start();
    assert!(r.ask("new perekati").starts_with("ok "));
    drop(r.stdin);
    assert!(r.child.wait().unwrap().success());
}

/// `go movetime` answers the Hard bot's move, which `play` then takes: a whole game of each
/// two-player game is played by `go` alone to its end.
#[test]
fn go_answers_a_legal_move_until_the_game_is_over() {
    let mut r = RefereeProcess::start();
    for start in [
        "new mill troika",
        "new cephalopod 5x5",
        "new tumbleweed hex6",
    ] {
        assert!(r.ask(start).starts_with("ok "), "{start}");
        let mut plies = 0;
        while r.ask("status").starts_with("ongoing") {
            let reply = r.ask("go movetime 5");
            let mv = reply
                .strip_prefix("move ")
                .unwrap_or_else(|| panic!("{start}: {reply}"));
            let legal = r.ask("legal");
            assert!(legal.split(' ').skip(1).any(|m| m == mv), "{mv} in {legal}");
            assert!(r.ask(&format!("play {mv}")).starts_with("ok "));
            plies += 1;
            assert!(plies < 2_000, "{start} does not end");
        }
        assert!(r.ask("status").starts_with("over "));
        assert_eq!(r.ask("go movetime 5"), "error the game is over");
    }
    r.quit();
}

#[test]
fn go_refuses_what_it_cannot_do() {
    let mut r = RefereeProcess::start();
    assert!(r.ask("go movetime 10").starts_with("error no game"));
    r.ask("new mill troika");
    for bad in [
        "go",
        "go movetime",
        "go movetime 0",
        "go movetime x",
        "go nodes 5",
    ] {
        assert!(r.ask(bad).starts_with("error "), "{bad}");
    }
    assert!(r.ask("go movetime 60001").starts_with("error bad movetime"));
    // White Rabbit's dice are in its state: no bot plays it.
    r.ask("new white-rabbit");
    assert_eq!(r.ask("go movetime 10"), "error no bot plays white-rabbit");
    r.quit();
}
