//! Every block of the shared test vectors (`tests/data/vectors/`), checked through the referee
//! protocol in-process: the engines and the referee are tested together, exactly as an outside
//! tool would drive them.

use stolik::referee::Referee;

/// One block of a vector file: the commands to send and the replies expected.
struct Block {
    title: String,
    steps: Vec<(String, Expect)>,
}

enum Expect {
    /// The reply must equal this line.
    Exactly(String),
    /// The reply must start with `ok ` (setting up a position).
    Ok,
}

fn parse_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    for chunk in text.split("\n\n") {
        let lines: Vec<&str> = chunk
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if lines.is_empty() {
            continue;
        }
        let field = |name: &str| {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(name).map(|rest| rest.trim().to_string()))
        };
        let game = field("game ").expect("block without game");
        let variant = field("variant ").expect("block without variant");
        let position = field("position ").expect("block without position");
        let setup = if position == "start" {
            format!("new {game} {variant}")
        } else {
            format!("position {game} {variant} {position}")
        };
        let mut steps = vec![(setup, Expect::Ok)];
        for line in &lines {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "game" | "variant" | "position" => {}
                "perft" => {
                    let (depth, count) = rest.split_once(' ').expect("perft D N");
                    steps.push((
                        format!("perft {depth}"),
                        Expect::Exactly(format!("perft {count}")),
                    ));
                }
                "legal" => steps.push(("legal".into(), Expect::Exactly(line.to_string()))),
                "play" => steps.push((line.to_string(), Expect::Ok)),
                "position-after" => {
                    // Checks the position reached by the preceding `play`.
                    let (cmd, _) = steps.pop().expect("position-after follows play");
                    steps.push((cmd, Expect::Exactly(format!("ok {rest}"))));
                }
                "status" => steps.push(("status".into(), Expect::Exactly(rest.to_string()))),
                other => panic!("unknown vector line {other:?}"),
            }
        }
        blocks.push(Block {
            title: format!("{game} {variant} {position}"),
            steps,
        });
    }
    blocks
}

fn check_file(text: &str) -> usize {
    let blocks = parse_blocks(text);
    assert!(!blocks.is_empty());
    let mut checked = 0;
    for block in blocks {
        let mut referee = Referee::default();
        for (command, expect) in &block.steps {
            let reply = referee.answer(command).expect("a reply");
            match expect {
                Expect::Ok => assert!(
                    reply.starts_with("ok "),
                    "{}: `{command}` answered `{reply}`",
                    block.title
                ),
                Expect::Exactly(want) => assert_eq!(&reply, want, "{}: `{command}`", block.title),
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn cephalopod_perft_vectors_match() {
    check_file(include_str!("data/vectors/cephalopod.perft"));
}

#[test]
fn mill_perft_vectors_match() {
    check_file(include_str!("data/vectors/mill.perft"));
}

#[test]
fn perekati_perft_vectors_match() {
    check_file(include_str!("data/vectors/perekati.perft"));
}

#[test]
fn tumbleweed_perft_vectors_match() {
    check_file(include_str!("data/vectors/tumbleweed.perft"));
}

#[test]
fn white_rabbit_legal_vectors_match() {
    check_file(include_str!("data/vectors/white-rabbit.legal"));
}
