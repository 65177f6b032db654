//! The shared legal-action vectors (`tests/data/vectors/white-rabbit.legal`), every block.

use game::{Game, Outcome, Variant as _};
use white_rabbit::{Variant, WhiteRabbit};

const VECTORS: &str = include_str!("../../../tests/data/vectors/white-rabbit.legal");

fn status(game: &WhiteRabbit) -> String {
    match game.outcome() {
        None => format!("ongoing {}", game.turn_label())
            .trim_end()
            .to_string(),
        Some(Outcome::SoloWon { score }) => format!("over won {score}"),
        Some(Outcome::SoloLost) => "over lost".to_string(),
        Some(other) => panic!("a solo game ended with {other:?}"),
    }
}

#[test]
fn every_vector_block_holds() {
    let mut variant = Variant::Classic;
    let mut game: Option<WhiteRabbit> = None;
    let mut checks = 0;
    for (n, line) in VECTORS.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let at = format!("line {}: {line}", n + 1);
        match cmd {
            "game" => {
                assert_eq!(rest, "white-rabbit", "{at}");
                game = None;
            }
            "variant" => {
                variant = Variant::from_id(rest).unwrap_or_else(|| panic!("{at}: variant"));
            }
            "position" => {
                let g = WhiteRabbit::from_position(variant, rest, 0)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(g.position(), rest, "{at}: position round trip");
                game = Some(g);
            }
            "legal" => {
                let g = game.as_ref().expect("legal before position");
                assert_eq!(g.legal_texts().join(" "), rest, "{at}");
                assert_eq!(g.count_legal(), g.legal_texts().len(), "{at}");
                checks += 1;
            }
            "play" => {
                let g = game.as_mut().expect("play before position");
                for mv in rest.split(' ') {
                    g.play_text(mv).unwrap_or_else(|e| panic!("{at}: {e}"));
                }
            }
            "position-after" => {
                let g = game.as_ref().expect("position-after before position");
                assert_eq!(g.position(), rest, "{at}");
                checks += 1;
            }
            "status" => {
                let g = game.as_ref().expect("status before position");
                assert_eq!(status(g), rest, "{at}");
                checks += 1;
            }
            other => panic!("{at}: unknown vector command {other:?}"),
        }
    }
    assert!(checks >= 9, "only {checks} checks ran");
}
