// How a game's moves are numbered, one way for the table and the replay: a number per round,
// the first seat's move then the second's. In Tumbleweed the first round is the opening (the
// first player's setup, the second's choice of colour), and after it each round is Red's move
// then White's, whichever seat took which colour.

/**
 * The rows of a move list of `count` plies: `[{ num, plies: [index, index?] }]`, indices into
 * the list of moves. A solo game numbers every move.
 */
export function moveRows(game, count, solo) {
  const rows = [];
  if (solo) {
    for (let i = 0; i < count; i++) rows.push({ num: i + 1, plies: [i] });
    return rows;
  }
  for (let i = 0; i < count; i += 2) {
    rows.push({ num: rows.length + 1, plies: i + 1 < count ? [i, i + 1] : [i] });
  }
  return rows;
}

/**
 * The seats in the order of the list's columns: seat order, or in Tumbleweed once the
 * colours are chosen, Red's seat first.
 */
export function columnSeats(game, seats) {
  if (game === 'tumbleweed' && seats.some((s) => s.label === 'r')) {
    return [...seats].sort((x, y) => (x.label === 'r' ? -1 : 0) - (y.label === 'r' ? -1 : 0));
  }
  return seats;
}
