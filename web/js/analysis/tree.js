// The analysis board's moves as a tree: the root is the start, each node a move and the
// position after it. A node's first child continues its line; the others are variations. The
// game's own moves (when the board was opened from a finished game) are the main line, marked
// `game`, and never removed. Positions and legal moves come from the server; the tree only
// keeps them.

let ids = 0;

function node(parent, move, position) {
  return { id: ++ids, parent, move, position, children: [], game: false, legal: null, toMove: undefined, result: null, truncated: false };
}

/** A tree whose root is `start` (a position in the game's notation). */
export function newTree(start) {
  return { root: node(null, null, start) };
}

/** The moves from the root to `n`. */
export function path(n) {
  const moves = [];
  for (let at = n; at.parent; at = at.parent) moves.push(at.move);
  return moves.reverse();
}

/** The child of `n` reached by `move`, made (with `position`) if it is not there yet. */
export function child(n, move, position) {
  let next = n.children.find((c) => c.move === move);
  if (!next) {
    next = node(n, move, position);
    n.children.push(next);
  }
  return next;
}

/** Follows `moves` from `n` with their `positions` (one per move); the last node reached. */
export function extend(n, moves, positions) {
  let at = n;
  moves.forEach((m, i) => { at = child(at, m, positions[i]); });
  return at;
}

/** Removes `n` and everything after it (a game's own move stays); its parent, or `n` kept. */
export function remove(n) {
  if (!n.parent || n.game) return n;
  n.parent.children = n.parent.children.filter((c) => c !== n);
  return n.parent;
}

/** The nearest node of `n`'s ancestry on the game's line (the root if there is none). */
export function backToGame(n) {
  let at = n;
  while (at.parent && !at.game) at = at.parent;
  return at;
}

/** The line continuing `n`: its first child, its first child's, and so on. */
export function mainLine(n) {
  const line = [];
  for (let at = n.children[0]; at; at = at.children[0]) line.push(at);
  return line;
}

/** How many moves from the root `n` is. */
export function depth(n) {
  let d = 0;
  for (let at = n; at.parent; at = at.parent) d += 1;
  return d;
}
