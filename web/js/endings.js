// Why a game ended, said in the game's own terms. The server sends only the kind of end
// (rules, blocked, repetition, resign, time, agreement, noprogress, abandoned, abort, expired,
// cancelled, empty);
// for an end by the rules the client reads
// what happened from the final position, when it has one.

import { t, sideName } from './i18n.js';
import { boards } from './registry/index.js';

/**
 * The reason text for a finished or aborted game, or null when there is nothing to add to
 * the result (an abort says it all). `game` has: game, status, result, reason, seats
 * ([{seat, label}]) and, when known, position (the final one).
 */
export function endReason(game) {
  const { reason, result, status } = game;
  if (!reason) return null;
  if (reason === 'abandoned' && status === 'aborted') return t('end.abandoned.aborted');
  // A table that closed before its game began says why.
  if (reason === 'expired' || reason === 'cancelled' || reason === 'empty') return t('reason.' + reason);
  if (reason === 'abort' || status === 'aborted') return null;
  const seats = game.seats || [];
  const solo = seats.length === 1;
  const seatOf = (r) => seats.find((s) => s.seat === r);
  const winner = seatOf(result);
  const loser = winner ? seats.find((s) => s !== winner) : null;
  const side = (s) => sideName(game.game, s ? s.label : '');
  if (reason === 'resign') return solo ? t('end.giveup') : loser ? t('end.resign', { side: side(loser) }) : t('reason.resign');
  if (reason === 'time') return loser ? t('end.time', { side: side(loser) }) : t('reason.time');
  if (reason === 'agreement') return t('end.agreement');
  // Perekati-pole's adjudication of a game without progress: the counts, when known (a
  // level game is drawn, and said like the rules' other stalled ends).
  if (reason === 'noprogress' && winner) {
    const counts = game.position ? boards[game.game]?.homeCounts?.(game.position) : null;
    if (!counts) return t('reason.noprogress');
    const won = winner.seat === 'a' ? 'a' : 'b';
    return t('end.perekati.quiet', { side: side(winner), n: counts[won], m: counts[won === 'a' ? 'b' : 'a'] });
  }
  // A player left a live game and the opponent claimed it: a win, or a draw.
  if (reason === 'abandoned') return loser ? t('end.abandoned', { side: side(loser) }) : t('end.abandoned.draw');
  // Perekati-pole's rules 2 and 3 score alike (more cubes home wins): the reason says which.
  if (reason === 'blocked' || reason === 'repetition' || reason === 'noprogress') {
    let score = null;
    try {
      if (game.position) score = byRules(game, winner, loser, side);
    } catch {
      score = null;
    }
    return score ? t('end.because.' + reason, { score }) : t('reason.' + reason);
  }
  if (reason !== 'rules') return t('reason.' + reason);
  if (solo) return null; // "Solved! Score …" or "Not solved" says it.
  let text = null;
  try {
    if (game.position) text = byRules(game, winner, loser, side);
  } catch {
    text = null; // an unexpected position: fall back to the generic words
  }
  return text || withoutPosition(game.game);
}

/** What can be said of an end by the rules without the final position (the games list). */
function withoutPosition(game) {
  return boards[game]?.endWithoutPosition?.() ?? t('reason.rules');
}

/** The game's own words for an end by the rules (its board's `endByRules`), or null. */
function byRules(game, winner, loser, side) {
  const letter = (s) => (s ? (s.seat === 'a' ? 'a' : 'b') : null);
  const words = boards[game.game]?.endByRules;
  return words ? words(game.position, { winner, loser, won: letter(winner), lost: letter(loser), side }) : null;
}
