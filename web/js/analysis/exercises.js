// Learning from one's mistakes on the analysis board: the positions of a reviewed game where
// the viewer (a seated player) made a mistake or a blunder, offered one by one. The viewer
// tries a move; the engine values the position it leads to exactly as the review valued the
// game's (POST /api/positions/evaluate: same search, same budget), and the move keeps the
// evaluation when it loses less than the review's inaccuracy threshold. Then the engine's line
// from the position is added to the board as a variation to step through.

import { h } from '../ui.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { session } from '../session.js';
import { path, extend, depth } from './tree.js';

const MISTAKES = ['mistake', 'blunder'];

/** The plies (0-based move numbers) of the viewer's mistakes and blunders in `review`. */
function mistakes(review, players) {
  const mine = (players || []).filter((p) => p.user && p.user === session.user?.id).map((p) => p.seat);
  return review.moves.map((m, i) => (mine.includes(m.seat) && MISTAKES.includes(m.label) ? i : -1)).filter((i) => i >= 0);
}

/** The game's node before move `ply`. */
function gameNode(tree, ply) {
  let at = tree.root;
  for (let i = 0; i < ply && at; i++) at = at.children.find((c) => c.game);
  return at;
}

function at(ex, index) {
  const ply = ex.items[index];
  return { ...ex, index, ply, node: gameNode(ex.tree, ply), phase: 'ask', verdict: null, line: null, tried: null };
}

export const exerciseState = {
  /** A button that starts the exercises, or null when the viewer made no mistake. */
  offer(tree, review, players) {
    const n = mistakes(review, players).length;
    if (!n) return null;
    return (begin) => h('section', { class: 'panel exercise-offer' }, h('h2', {}, t('analysis.learn.title')),
      h('p', {}, t('analysis.learn.offer', { n })),
      h('button', { class: 'btn primary learn-start', onClick: begin }, t('analysis.learn.start')));
  },

  /** The first exercise of `review` for the viewer; `ctx` is {game, variant}. */
  start(tree, review, players, ctx) {
    const items = mistakes(review, players);
    return items.length ? at({ tree, review, items, ctx }, 0) : null;
  },

  /** The next exercise, or null after the last. */
  next(ex) {
    return ex && ex.index + 1 < ex.items.length ? at(ex, ex.index + 1) : null;
  },

  /** The same position again. */
  again(ex) {
    return at(ex, ex.index);
  },

  /** Whether the board must not show the engine's move (the answer) yet. */
  hidesBest(ex) {
    return !!ex && ex.phase === 'ask';
  },

  /**
   * The viewer played `mv` from `from` to the node `next`: when it answers the exercise, judge
   * it against the review and add the engine's line to the tree.
   */
  async tried(ex, from, mv, next) {
    if (!ex || ex.phase !== 'ask' || from !== ex.node) return ex;
    const { review, ctx } = ex;
    const before = review.positions[ex.ply];
    const seat = review.moves[ex.ply].seat;
    const body = (moves) => ({ game: ctx.game, variant: ctx.variant, position: ex.tree.root.position, moves });
    let verdict;
    if (mv === review.moves[ex.ply].move) verdict = { kind: 'same' };
    else if (mv === before.best) verdict = { kind: 'keeps', drop: 0 };
    else {
      const after = (await api.evaluatePosition(body(path(next)))).evaluation.value;
      const mine = (v) => (seat === 'a' ? v : 1 - v);
      const drop = Math.max(0, mine(before.value) - mine(after));
      verdict = { kind: drop < review.thresholds.inaccuracy ? 'keeps' : 'loses', drop };
    }
    let line = [];
    try {
      line = (await api.evaluatePosition(body(path(from)))).line;
      const checked = await api.checkPosition(body([...path(from), ...line]));
      extend(from, line, checked.positions.slice(depth(from) + 1));
    } catch {
      line = [];
    }
    return { ...ex, phase: 'judged', verdict, line, tried: mv };
  },
};

/** The exercise's panel: the task, then the verdict and the engine's line. */
export function exercisePanel(ex, { go, words, side, next, again, stop }) {
  const panel = h('section', { class: 'panel exercise', 'aria-live': 'polite' },
    h('h2', {}, t('analysis.learn.title')),
    h('p', { class: 'exercise-count' }, t('analysis.learn.count', { k: ex.index + 1, n: ex.items.length })));
  const played = ex.review.moves[ex.ply];
  const task = t('analysis.learn.task', { move: words(played.move, ex.node.position), label: t('analysis.label.' + played.label), side: side(played.seat) });
  panel.append(h('p', { class: 'exercise-task' }, task));
  if (ex.phase === 'ask') {
    panel.append(h('button', { class: 'btn small exercise-goto', onClick: () => go(ex.node) }, t('analysis.learn.goto')));
  } else {
    const drop = ex.verdict.drop != null ? Math.round(ex.verdict.drop * 100) : null;
    const text = ex.verdict.kind === 'same' ? t('analysis.learn.same')
      : ex.verdict.kind === 'keeps' ? t('analysis.learn.keeps') : t('analysis.learn.loses', { n: drop });
    panel.append(h('p', { class: ['exercise-verdict', ex.verdict.kind], role: 'status' }, text));
    if (ex.line.length) {
      let n = ex.node;
      const moves = ex.line.map((m) => {
        n = n.children.find((c) => c.move === m) || n;
        const target = n;
        return h('button', { class: 'mv linklike', onClick: () => go(target) }, words(m, target.parent?.position));
      });
      panel.append(h('p', { class: 'exercise-line' }, `${t('analysis.learn.line')}: `, ...moves.flatMap((b) => [b, ' '])));
    }
  }
  panel.append(h('div', { class: 'exercise-actions' },
    ex.phase === 'judged' ? h('button', { class: 'btn exercise-again', onClick: again }, t('analysis.learn.again')) : null,
    ex.index + 1 < ex.items.length ? h('button', { class: 'btn primary exercise-next', onClick: next }, t('analysis.learn.next')) : null,
    h('button', { class: 'btn exercise-stop', onClick: stop }, t('analysis.learn.stop'))));
  return panel;
}
