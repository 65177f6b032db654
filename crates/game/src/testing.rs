//! Property checks that every engine must pass, written once against the [`Game`] trait.
//!
//! Each game crate drives these from its own proptest suite with random seeds and variants;
//! they panic with a readable message (the position and the move) on the first violation.
//! The checks of one position are public one by one (`checks.rs`): the fuzz targets run them
//! too, on the positions their inputs reach. [`vectors`] reads the shared test vectors and
//! checks an engine against them.

mod checks;
pub mod vectors;

pub use checks::{
    check_distinct, check_listed_move, check_position_round_trip, check_turn, check_unmake,
};

use crate::{Error, Game, GameRng, Outcome, Variant, perft};

/// What a checked random game did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayoutReport {
    pub plies: usize,
    pub outcome: Option<Outcome>,
}

/// Plays uniformly random legal moves from `start` for at most `max_plies`, checking at every
/// ply that:
/// - every listed move passes `check_move`, round-trips through notation and applies;
/// - `make` then `unmake` restores the position, its hash and its legal moves;
/// - perft(1) (bulk count) equals the number of listed moves (games without dice);
/// - the position notation round-trips through `from_position`;
/// - a handful of mangled move texts are refused and change nothing;
/// - the side to move, the legal moves and the outcome agree (moves exist iff not over).
pub fn check_random_game<G: Game>(start: G, seed: u64, max_plies: usize) -> PlayoutReport {
    let mut rng = GameRng::seeded(seed);
    let mut game = start;
    let mut moves = Vec::new();
    for ply in 0..max_plies {
        game.legal_moves(&mut moves);
        check_position(&game, &moves, &mut rng);
        if moves.is_empty() {
            return PlayoutReport {
                plies: ply,
                outcome: game.outcome(),
            };
        }
        let mv = moves[rng.below(moves.len() as u32) as usize];
        let text = game.format_move(mv);
        let before = game.position();
        let played = game
            .play_text(&text)
            .unwrap_or_else(|e| panic!("legal move {text} refused at {before}: {e}"));
        assert_eq!(played, mv, "{text} parsed to a different move at {before}");
    }
    game.legal_moves(&mut moves);
    PlayoutReport {
        plies: max_plies,
        outcome: game.outcome(),
    }
}

fn check_position<G: Game>(game: &G, moves: &[G::Move], rng: &mut GameRng) {
    let position = game.position();
    check_turn(game, moves);
    if !G::INFO.has_dice {
        assert_eq!(
            perft(game, 1).expect("perft"),
            moves.len() as u64,
            "perft(1) at {position}"
        );
    }
    check_position_round_trip(game);
    check_distinct(game, moves);
    for &mv in moves {
        check_listed_move(game, mv);
    }

    // make / unmake restores everything, for a sample of the moves (all of them when few).
    let sample = moves.len().min(12);
    for _ in 0..sample {
        let mv = moves[rng.below(moves.len() as u32) as usize];
        check_unmake(game, &mut game.clone(), mv, Some(moves));
    }

    // Mangled texts are refused with the state unchanged, unless the mangling happened to
    // produce another legal move's canonical text.
    let legal: std::collections::HashSet<String> =
        moves.iter().map(|&m| game.format_move(m)).collect();
    let base = moves
        .first()
        .map(|&m| game.format_move(m))
        .unwrap_or_else(|| "a1".to_string());
    for garbage in mangled(&base, rng) {
        if legal.contains(&garbage) {
            continue;
        }
        let mut copy = game.clone();
        let result = copy.play_text(&garbage);
        assert!(
            result.is_err(),
            "garbage {garbage:?} accepted at {position}"
        );
        assert_eq!(
            copy.position(),
            position,
            "refused {garbage:?} changed the state"
        );
        assert_eq!(copy.hash_key(), game.hash_key());
    }
}

/// Texts near a real move that are usually not legal.
fn mangled(base: &str, rng: &mut GameRng) -> Vec<String> {
    let mut out = vec![
        String::new(),
        " ".to_string(),
        format!("{base} "),
        format!(" {base}"),
        format!("{base}{base}"),
        base.to_uppercase(),
        "z99".to_string(),
        "a0".to_string(),
        "\u{44f}1".to_string(),
        "pass pass".to_string(),
        "-".to_string(),
        ":".to_string(),
        "~".to_string(),
        "x".to_string(),
    ];
    let chars: Vec<char> = base.chars().collect();
    if !chars.is_empty() {
        let i = rng.below(chars.len() as u32) as usize;
        let mut dropped = chars.clone();
        dropped.remove(i);
        out.push(dropped.into_iter().collect());
        let mut swapped = chars.clone();
        swapped[i] = match swapped[i] {
            'a'..='y' | 'A'..='Y' | '0'..='8' => (swapped[i] as u8 + 1) as char,
            _ => '9',
        };
        out.push(swapped.into_iter().collect());
    }
    out
}

/// Checks that every variant's start position is what its notation says and that
/// `Variant::ALL` matches the catalogue entry.
pub fn check_catalogue_entry<G: Game>() {
    let info = G::INFO;
    assert_eq!(info.variants.len(), G::Variant::ALL.len());
    for (v, vi) in G::Variant::ALL.iter().zip(info.variants) {
        assert_eq!(v.id(), vi.id, "variant order differs from INFO");
        assert_eq!(G::Variant::from_id(vi.id), Some(*v));
        let g = G::new(*v, 0);
        assert_eq!(g.variant(), *v);
        let again = G::from_position(*v, &g.position(), 0).expect("start parses");
        assert_eq!(again.position(), g.position());
    }
    assert!(G::Variant::from_id("no-such-variant").is_none());
    assert!(matches!(
        G::from_position(G::Variant::default_variant(), "", 0),
        Err(Error::BadPosition(_))
    ));
}
