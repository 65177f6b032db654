// The engine's review on the replay page: the button that asks for it, its place or progress
// while it is computed, then an evaluation graph over the plies (seat A's expected score, the
// first player's, named by its side), a label per move and the engine's move for the position on the board.

import { h, s } from './ui.js';
import { t } from './i18n.js';

const H = 120;
const PAD = { left: 8, right: 8, top: 8, bottom: 8 };

/** The graph: one point per position, 0 to 1 upwards; the current ply marked. */
export function evalChart(review, step, go, width = 640, side = (x) => x) {
  const W = Math.max(260, Math.round(width));
  const n = review.positions.length;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (n === 1 ? innerW / 2 : (i * innerW) / (n - 1));
  const y = (v) => PAD.top + innerH * (1 - v);
  const svg = s('svg', { class: 'eval-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('analysis.graph', { side: side('a') }), preserveAspectRatio: 'none' });
  svg.append(s('line', { class: 'grid', x1: PAD.left, x2: W - PAD.right, y1: y(0.5), y2: y(0.5) }));
  const pts = review.positions.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`);
  svg.append(s('polygon', { class: 'area', points: `${x(0)},${y(0)} ${pts.join(' ')} ${x(n - 1)},${y(0)}` }));
  svg.append(s('polyline', { class: 'line', points: pts.join(' ') }));
  review.moves.forEach((m, i) => {
    if (m.label === 'mistake' || m.label === 'blunder' || m.label === 'inaccuracy') {
      const dot = s('circle', { class: `point ${m.label}`, cx: x(i + 1), cy: y(review.positions[i + 1].value), r: 4 });
      dot.append(s('title', {}, `${m.ply}. ${m.move}: ${t('analysis.label.' + m.label)}`));
      svg.append(dot);
    }
  });
  svg.append(s('line', { class: 'cursor', x1: x(step), x2: x(step), y1: PAD.top, y2: H - PAD.bottom }));
  svg.addEventListener('click', (e) => {
    const box = svg.getBoundingClientRect();
    const at = ((e.clientX - box.left) / box.width) * W;
    go(Math.round(((at - PAD.left) / innerW) * (n - 1)));
  });
  return svg;
}

/** The value of a position in words: exact results say so, estimates give a percentage. */
export function valueText(p, side) {
  if (p.exact) {
    const who = p.exact.result === 'draw' ? t('analysis.exact.draw') : t('analysis.exact.win', { side: side(p.exact.result) });
    const plies = p.exact.plies != null && p.exact.plies > 0 ? ` ${t('analysis.exact.plies', { n: p.exact.plies })}` : '';
    const margin = p.exact.margin != null ? ` ${t('analysis.exact.margin', { n: Math.abs(p.exact.margin) })}` : '';
    return `${t('analysis.exact')}: ${who}${plies}${margin}`;
  }
  return `${t('analysis.estimate')}: ${t('analysis.chance', { side: side('a'), n: Math.round(p.value * 100) })}`;
}

/**
 * The panel for the state `state` ({status, place, done, total, review} or null while not
 * known), `ask` asking for the review. `step` is the ply shown; `words(move, position)` writes
 * a move as the move list does.
 */
export function analysisPanel(state, { step, go, ask, words, positions, side }) {
  const panel = h('section', { class: 'panel analysis-panel' }, h('h2', {}, t('analysis.title')));
  if (!state) return panel;
  if (state.status === 'none') {
    panel.append(h('p', {}, t('analysis.about')), h('button', { class: 'btn primary analysis-ask', onClick: ask }, t('analysis.ask')));
  } else if (state.status === 'queued') {
    panel.append(h('p', { class: 'analysis-progress', role: 'status' }, t('analysis.queued', { place: state.place })));
  } else if (state.status === 'running') {
    panel.append(
      h('p', { class: 'analysis-progress', role: 'status' }, t('analysis.running', { done: state.done, total: state.total })),
      h('progress', { max: state.total || 1, value: state.done || 0, 'aria-label': t('analysis.title') }),
    );
  } else if (state.status === 'done' && state.review) {
    const review = state.review;
    const here = review.positions[step];
    panel.append(evalChart(review, step, go, Math.min(640, window.innerWidth - 48), side));
    if (here) {
      panel.append(h('p', { class: 'analysis-value' }, valueText(here, side)));
      if (here.best) {
        panel.append(h('p', { class: 'analysis-best' }, `${t('analysis.best')}: `, h('strong', {}, words(here.best, positions?.[step]))));
      }
    }
    const counts = {};
    for (const m of review.moves) counts[`${m.seat}.${m.label}`] = (counts[`${m.seat}.${m.label}`] || 0) + 1;
    const line = (seat) => ['inaccuracy', 'mistake', 'blunder']
      .map((l) => `${t('analysis.count.' + l)}: ${counts[`${seat}.${l}`] || 0}`).join(' · ');
    panel.append(
      h('p', { class: 'analysis-summary' }, `${side('a')} — ${line('a')}`, h('br', {}), `${side('b')} — ${line('b')}`),
      h('p', { class: 'hint' }, t('analysis.thresholds', {
        good: review.thresholds.good, inaccuracy: review.thresholds.inaccuracy,
        mistake: review.thresholds.mistake, blunder: review.thresholds.blunder,
      })),
    );
  }
  return panel;
}

/** A move's mark in the move list (`?!`, `?`, `??`), with its label for screen readers. */
export function moveMark(review, i) {
  const m = review?.moves?.[i];
  if (!m) return null;
  const sign = { inaccuracy: '?!', mistake: '?', blunder: '??' }[m.label];
  const name = t('analysis.label.' + m.label);
  return h('span', { class: `mv-label ${m.label}`, title: name, 'aria-label': name }, sign || (m.label === 'best' ? '★' : '✓'));
}
