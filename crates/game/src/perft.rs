//! Generic `perft` and `perft_divide` over any `Game`, for the perft vectors of
//! `tests/data/vectors/` and the engines' benchmarks.

use crate::{Error, Game};

/// The number of move sequences of exactly `depth` moves from `game`; a game that ends earlier
/// contributes nothing. Games with dice have no perft.
pub fn perft<G: Game>(game: &G, depth: u32) -> Result<u64, Error> {
    if G::INFO.has_dice {
        return Err(Error::Chance);
    }
    let mut game = game.clone();
    let mut buffers = vec![Vec::new(); depth as usize];
    Ok(perft_rec(&mut game, depth, &mut buffers))
}

/// Perft split by first move, in ascending order of the move text: the tool for finding the
/// first sequence where two implementations disagree.
pub fn perft_divide<G: Game>(game: &G, depth: u32) -> Result<Vec<(String, u64)>, Error> {
    if G::INFO.has_dice {
        return Err(Error::Chance);
    }
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut game = game.clone();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut buffers = vec![Vec::new(); depth as usize - 1];
    let mut out: Vec<(String, u64)> = moves
        .into_iter()
        .map(|mv| {
            let text = game.format_move(mv);
            let undo = game.make(mv);
            let n = perft_rec(&mut game, depth - 1, &mut buffers);
            game.unmake(mv, undo);
            (text, n)
        })
        .collect();
    out.sort();
    Ok(out)
}

/// `buffers[d - 1]` is the move list for remaining depth `d`, reused across siblings so the
/// recursion allocates nothing once warmed up.
fn perft_rec<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_legal() as u64,
        _ => {
            let (rest, mine) = buffers.split_at_mut(depth as usize - 1);
            let moves = &mut mine[0];
            game.legal_moves(moves);
            let mut total = 0;
            for &mv in moves.iter() {
                let undo = game.make(mv);
                total += perft_rec(game, depth - 1, rest);
                game.unmake(mv, undo);
            }
            total
        }
    }
}
