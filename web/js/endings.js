// Why a game ended, said in the game's own terms. The server sends only the kind of end
// (rules, resign, time, agreement, abandoned, abort, expired); for an end by the rules the client reads
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
  if (reason === 'abort' || (status === 'aborted' && reason !== 'expired')) return null;
  if (reason === 'expired') return t('reason.expired');
  const seats = game.seats || [];
  const solo = seats.length === 1;
  const seatOf = (r) => seats.find((s) => s.seat === r || s.label === r);
  const winner = seatOf(result);
  const loser = winner ? seats.find((s) => s !== winner) : null;
  const side = (s) => sideName(game.game, s ? s.label : '');
  if (reason === 'resign') return solo ? t('end.giveup') : loser ? t('end.resign', { side: side(loser) }) : t('reason.resign');
  if (reason === 'time') return loser ? t('end.time', { side: side(loser) }) : t('reason.time');
  if (reason === 'agreement') return t('end.agreement');
  // A player left a live game and the opponent claimed it: a win, or a draw.
  if (reason === 'abandoned') return loser ? t('end.abandoned', { side: side(loser) }) : t('end.abandoned.draw');
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
  if (game === 'cephalopod') return t('end.cephalopod.fullshort');
  if (game === 'tumbleweed') return t('end.tumbleweed.passed');
  return t('reason.rules');
}

function byRules(game, winner, loser, side) {
  const pos = game.position;
  const seatIndex = (s) => (s.seat === 'a' ? 'a' : 'b');
  switch (game.game) {
    case 'mill': {
      const c = boards.mill.tokenCounts(pos);
      const total = (x) => c.board[x] + c.hand[x];
      if (loser) {
        const l = seatIndex(loser);
        return total(l) <= 2 ? t('end.mill.reduced', { side: side(loser) }) : t('end.mill.blocked', { side: side(loser) });
      }
      if (total('a') === 3 && total('b') === 3) return t('end.mill.three');
      return boards.mill.parse(pos).quiet >= 100 ? t('end.mill.quiet') : t('end.mill.repetition');
    }
    case 'perekati': {
      const home = boards.perekati.homeCounts(pos);
      const p = boards.perekati.parse(pos);
      if (winner) {
        const w = seatIndex(winner);
        const l = w === 'a' ? 'b' : 'a';
        const cubes = Object.values(p.cells).filter((x) => x.side === w).length;
        if (cubes > 0 && home[w] === cubes) return t('end.perekati.allhome', { side: side(winner) });
        return t('end.perekati.more', { side: side(winner), n: home[w], m: home[l] });
      }
      return t('end.perekati.equal', { n: home.a });
    }
    case 'cephalopod': {
      if (!winner) return null;
      const n = boards.cephalopod.diceCounts(pos);
      const w = seatIndex(winner);
      return t('end.cephalopod.full', { side: side(winner), n: n[w], m: n[w === 'a' ? 'b' : 'a'] });
    }
    case 'tumbleweed': {
      const score = boards.tumbleweed.territory(boards.tumbleweed.parse(pos)).score;
      if (winner) {
        const w = winner.label === 'r' || winner.label === 'w' ? winner.label : null;
        if (!w) return null;
        return t('end.tumbleweed.more', { side: side(winner), n: score[w], m: score[w === 'r' ? 'w' : 'r'] });
      }
      return t('end.tumbleweed.equal', { n: score.r });
    }
    default:
      return null;
  }
}
