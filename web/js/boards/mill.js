// Mill (Troika): 24 points of three nested squares. Position: the points row by row from the
// top ('.', 'a', 'b'), then side to move, tokens in hand of a and b, paid lines of a and b
// (hex) and the quiet-move count. Moves: 'd2', 'a1-a4', with removals 'xb6' appended.

import { s, h, clickable } from '../ui.js';
import { t, sideName } from '../i18n.js';
import { svgRoot, uiState, mount, parseCell, bestMark } from './common.js';

export const POINT_ROWS = [
  ['a7', 'd7', 'g7'],
  ['b6', 'd6', 'f6'],
  ['c5', 'd5', 'e5'],
  ['a4', 'b4', 'c4', 'e4', 'f4', 'g4'],
  ['c3', 'd3', 'e3'],
  ['b2', 'd2', 'f2'],
  ['a1', 'd1', 'g1'],
];
const LINES = [
  ['a7', 'd7', 'g7'], ['b6', 'd6', 'f6'], ['c5', 'd5', 'e5'], ['a4', 'b4', 'c4'],
  ['e4', 'f4', 'g4'], ['c3', 'd3', 'e3'], ['b2', 'd2', 'f2'], ['a1', 'd1', 'g1'],
  ['a1', 'a4', 'a7'], ['b2', 'b4', 'b6'], ['c3', 'c4', 'c5'], ['d1', 'd2', 'd3'],
  ['d5', 'd6', 'd7'], ['e3', 'e4', 'e5'], ['f2', 'f4', 'f6'], ['g1', 'g4', 'g7'],
];
const DIAGONALS = [['a1', 'b2', 'c3'], ['g1', 'f2', 'e3'], ['a7', 'b6', 'c5'], ['g7', 'f6', 'e5']];

const G = 56; // grid step
const M = 34;
const HAND = 44; // strip for the tokens in hand, above and below

export function parse(position) {
  const parts = position.trim().split(/\s+/);
  const rows = parts[0].split('/');
  const points = {};
  POINT_ROWS.forEach((names, r) => {
    names.forEach((name, k) => {
      points[name] = rows[r][k] === '.' ? null : rows[r][k];
    });
  });
  return {
    points,
    side: parts[1],
    hand: { a: parseInt(parts[2], 10), b: parseInt(parts[3], 10) },
    paid: { a: parts[4], b: parts[5] },
    quiet: parseInt(parts[6] || '0', 10),
  };
}

export function parseMove(m) {
  const [base, ...x] = m.split('x');
  const [a, b] = base.split('-');
  return b ? { m, from: a, to: b, x } : { m, from: null, to: a, x };
}

export function tokenCounts(position) {
  const p = parse(position);
  const n = { a: 0, b: 0 };
  for (const v of Object.values(p.points)) if (v) n[v] += 1;
  return { board: n, hand: p.hand };
}

/** What the table says under seat `seat` ('a' or 'b'): its tokens on the board and in hand. */
export function seatNote(position, seat) {
  const c = tokenCounts(position);
  return t('mill.count', { board: c.board[seat], hand: c.hand[seat] });
}

/** A move that closes a mill removes a token (the sound says so). */
export function isCapture(move) {
  return move.includes('x');
}

/** Why the game ended by the rules, read from the final position (see perekati's). */
export function endByRules(position, { loser, lost, side }) {
  const c = tokenCounts(position);
  const total = (x) => c.board[x] + c.hand[x];
  if (loser) return total(lost) <= 2 ? t('end.mill.reduced', { side: side(loser) }) : t('end.mill.blocked', { side: side(loser) });
  if (total('a') === 3 && total('b') === 3) return t('end.mill.three');
  return parse(position).quiet >= 100 ? t('end.mill.quiet') : t('end.mill.repetition');
}

/** The points next to each point along the lines (and the diagonals, in variants with them). */
function neighbours(diagonals) {
  const next = new Map();
  const link = (a, b) => {
    if (!next.has(a)) next.set(a, new Set());
    next.get(a).add(b);
  };
  for (const l of diagonals ? [...LINES, ...DIAGONALS] : LINES) {
    for (let k = 0; k + 1 < l.length; k++) {
      link(l[k], l[k + 1]);
      link(l[k + 1], l[k]);
    }
  }
  return next;
}

/** Why the side to move's token on `name` has no move. */
function blockedReason(name, p, diagonals, noneMoves) {
  if (p.hand[p.side] > 0 && noneMoves) return t('mill.handfirst', { cell: name });
  const around = [...(neighbours(diagonals).get(name) || [])];
  if (around.every((c) => p.points[c])) return t('mill.blocked', { cell: name });
  return t('mill.notnow', { cell: name });
}

export function render(container, state, opts = {}) {
  const p = parse(state.position);
  const ui = uiState(container, state);
  const interactive = !!opts.interactive;
  const legal = (interactive ? state.legal || [] : []).map(parseMove);
  const diagonals = state.variant === 'troika-long' || state.variant === 'troika-diagonal';
  const me = p.side;

  // Stage 1: choose a token to move (or an empty point to place on).
  // Stage 2: the target of the selected token.
  // Stage 3: the opponent tokens to remove, when the move makes a row.
  const base = (mv) => (mv.from ? `${mv.from}-${mv.to}` : mv.to);
  const removal = ui.base ? legal.filter((mv) => base(mv) === ui.base) : [];
  ui.taken = ui.taken || [];
  const removable = new Set(removal.filter((mv) => ui.taken.every((c) => mv.x.includes(c))).flatMap((mv) => mv.x));
  for (const c of ui.taken) removable.delete(c);
  const movers = new Set(legal.filter((mv) => mv.from).map((mv) => mv.from));
  const targets = new Map(); // point -> moves with that base
  if (!ui.base) {
    for (const mv of legal) {
      if ((mv.from || null) !== (ui.sel || null)) continue;
      if (!targets.has(mv.to)) targets.set(mv.to, []);
      targets.get(mv.to).push(mv);
    }
  }
  const last = state.last ? parseMove(state.last) : null;

  const W = 6 * G + 2 * M;
  const H = 6 * G + 2 * M + 2 * HAND;
  const xy = (name) => {
    const { col, row } = parseCell(name);
    return [M + col * G, HAND + M + (6 - row) * G];
  };
  const svg = svgRoot(W, H, 'mill', t('board.label'));
  svg.append(s('rect', { class: 'mill-bg', x: M - 22, y: HAND + M - 22, width: 6 * G + 44, height: 6 * G + 44, rx: 14 }));
  const line = (a, b, cls) => {
    const [x1, y1] = xy(a);
    const [x2, y2] = xy(b);
    return s('line', { class: cls, x1, y1, x2, y2 });
  };
  for (const l of LINES) svg.append(line(l[0], l[2], 'mill-line'));
  if (diagonals) for (const l of DIAGONALS) svg.append(line(l[0], l[2], 'mill-line diagonal'));

  // Tokens in hand: side b above the board, side a below, as rows of small discs.
  const handRow = (side, y) => {
    const g = s('g', { class: 'hand', role: 'img', 'aria-label': t('mill.inhand', { side: sideName('mill', side), n: p.hand[side] }) });
    for (let k = 0; k < p.hand[side]; k++) {
      g.append(s('circle', { class: ['token', `side-${side}`], cx: M + 12 + k * 26, cy: y, r: 10 }));
    }
    g.append(s('text', { class: 'hand-label', x: W - M, y: y + 5 }, p.hand[side] ? `× ${p.hand[side]}` : ''));
    return g;
  };
  svg.append(handRow('b', HAND / 2 + 4), handRow('a', H - HAND / 2 - 4));

  for (const name of POINT_ROWS.flat()) {
    const [x, y] = xy(name);
    const v = p.points[name];
    const g = s('g', {
      class: [
        'pt',
        last && (last.to === name) && 'last-to',
        last && (last.from === name) && 'last-from',
        last && last.x.includes(name) && 'last-captured',
      ],
      'data-cell': name,
    });
    g.append(s('circle', { class: 'pt-hit', cx: x, cy: y, r: 22 }));
    g.append(s('circle', { class: 'pt-dot', cx: x, cy: y, r: 5 }));
    if (last && last.x.includes(name) && !v) g.append(s('text', { class: 'removed-mark', x, y: y + 6 }, '×'));
    const pending = ui.base && parseMove(ui.base).to === name;
    const shown = pending ? me : v;
    const vacated = ui.base ? parseMove(ui.base).from === name : false;
    if (shown && !vacated) {
      g.append(s('circle', { class: ['token', `side-${shown}`, ui.sel === name && 'selected', pending && 'pending', ui.taken.includes(name) && 'taken'], cx: x, cy: y, r: 19 }));
    }
    let label = name;
    if (ui.base) {
      if (removable.has(name)) {
        g.classList.add('removable');
        clickable(g, `${t('mill.remove')} ${name}`, () => {
          ui.taken = [...ui.taken, name];
          const need = removal[0].x.length;
          if (ui.taken.length >= need) {
            const chosen = removal.find((mv) => mv.x.length === ui.taken.length && ui.taken.every((c) => mv.x.includes(c)));
            ui.base = null;
            ui.taken = [];
            if (chosen) opts.onMove?.(chosen.m);
          } else {
            render(container, state, opts);
          }
        });
      }
    } else if (targets.has(name)) {
      g.classList.add('target');
      g.append(s('circle', { class: 'target-dot', cx: x, cy: y, r: 9 }));
      clickable(g, ui.sel ? `${ui.sel} → ${name}` : `${t('mill.place')} ${name}`, () => {
        const moves = targets.get(name);
        if (moves.length === 1 && moves[0].x.length === 0) {
          ui.sel = null;
          opts.onMove?.(moves[0].m);
          return;
        }
        ui.base = base(moves[0]);
        ui.taken = [];
        render(container, state, opts);
      });
    } else if (v === me && movers.has(name)) {
      g.classList.add('movable');
      clickable(g, `${label} ${t('mill.select')}`, () => {
        ui.sel = ui.sel === name ? null : name;
        ui.why = null;
        render(container, state, opts);
        container.querySelector(`[data-cell="${name}"]`)?.focus();
      });
    } else if (v === me && interactive && legal.length) {
      // A token of yours that cannot move: a tap says why instead of doing nothing.
      g.classList.add('stuck');
      const why = () => blockedReason(name, p, diagonals, movers.size === 0);
      clickable(g, `${label}: ${why()}`, () => {
        ui.sel = null;
        ui.why = why();
        render(container, state, opts);
        container.querySelector(`[data-cell="${name}"]`)?.focus();
      });
    }
    g.append(s('title', {}, label));
    svg.append(g);
  }
  // Coordinates along the bottom and the left.
  for (let col = 0; col < 7; col++) svg.append(s('text', { class: 'coord', x: M + col * G, y: HAND + M + 6 * G + 30 }, 'abcdefg'[col]));
  for (let row = 0; row < 7; row++) svg.append(s('text', { class: 'coord', x: M - 26, y: HAND + M + (6 - row) * G + 4 }, String(row + 1)));

  if (state.best) {
    // A placement is a ring, a step an arrow; the tokens it would remove are ringed too.
    const best = parseMove(state.best);
    bestMark(svg, {
      arrows: best.from ? [[xy(best.from), xy(best.to)]] : [],
      rings: [...(best.from ? [] : [xy(best.to)]), ...best.x.map(xy)],
      r: 24,
    });
  }

  const controls = h('div', { class: 'board-controls' });
  if (ui.why && !ui.base) controls.append(h('p', { class: 'hint why', role: 'status' }, ui.why));
  if (ui.base) {
    const need = removal[0]?.x.length || 0;
    controls.append(
      h('p', { class: 'hint' }, t('mill.removehint', { n: need - ui.taken.length })),
      h('button', { class: 'btn', onClick: () => { ui.base = null; ui.sel = null; ui.taken = []; render(container, state, opts); } }, t('cancel')),
    );
  } else if (interactive && ui.sel) {
    controls.append(h('p', { class: 'hint' }, t('mill.movehint')));
  } else if (interactive && legal.length) {
    controls.append(h('p', { class: 'hint' }, p.hand[me] > 0 && !movers.size ? t('mill.placehint') : movers.size && p.hand[me] > 0 ? t('mill.freehint') : t('mill.selecthint')));
  }
  mount(container, svg, controls);
}

/**
 * The position `p` (as `parse` reads it) written in the notation again, with the paid lines
 * and the counter made consistent with the board: every full line of a side paid (the engine's
 * line order is LINES, then DIAGONALS where they score), the counter at the placements made
 * while nothing was removed, else 0.
 */
function write(p, variant) {
  const rows = POINT_ROWS.map((names) => names.map((n) => p.points[n] || '.').join(''));
  const scoring = variant === 'troika-diagonal' ? [...LINES, ...DIAGONALS] : LINES;
  const paid = (side) => scoring.reduce((mask, l, i) => (l.every((n) => p.points[n] === side) ? mask | (1 << i) : mask), 0);
  const hex = (mask) => mask.toString(16).padStart(4, '0');
  const counts = { a: 0, b: 0 };
  for (const v of Object.values(p.points)) if (v) counts[v] += 1;
  const placed = 18 - p.hand.a - p.hand.b;
  const untouched = counts.a + p.hand.a === 9 && counts.b + p.hand.b === 9;
  return [rows.join('/'), p.side, p.hand.a, p.hand.b, hex(paid('a')), hex(paid('b')), untouched ? placed : 0].join(' ');
}

/** Setting up a position by hand (the analysis board): tokens on points, and tokens in hand. */
export const editor = {
  pieces: () => ['a', 'b'].map((side) => ({ key: side, label: sideName('mill', side) })),
  sides: () => ['a', 'b'].map((key) => ({ key, label: sideName('mill', key) })),
  put(position, cell, key, variant) {
    const p = parse(position);
    if (!(cell in p.points)) return position;
    p.points[cell] = key || null;
    return write(p, variant);
  },
  toMove: (position, side, variant) => write({ ...parse(position), side }, variant),
  clear(position, variant) {
    const p = parse(position);
    for (const n of Object.keys(p.points)) p.points[n] = null;
    return write(p, variant);
  },
  /**
   * The tokens in hand, a count for each side with a button for one fewer and one more: each
   * press redraws at once (a typed number took effect only when its field lost focus, and the
   * press on "Use this position" that took the focus away was lost in that redrawing).
   */
  extras(position, variant, change) {
    const p = parse(position);
    const set = (side, n) => change(write({ ...p, hand: { ...p.hand, [side]: n } }, variant));
    return ['a', 'b'].map((side) => {
      const name = t('analysis.setup.hand', { side: sideName('mill', side) });
      return h('div', { class: 'setup-extra setup-count', role: 'group', 'aria-label': name }, `${name} `,
        h('button', { class: `btn small hand-${side}-less`, 'aria-label': t('analysis.setup.less'), disabled: p.hand[side] <= 0, onClick: () => set(side, p.hand[side] - 1) }, '−'),
        h('output', { class: `hand-${side}`, 'aria-live': 'polite' }, String(p.hand[side])),
        h('button', { class: `btn small hand-${side}-more`, 'aria-label': t('analysis.setup.more'), disabled: p.hand[side] >= 9, onClick: () => set(side, p.hand[side] + 1) }, '+'));
    });
  },
};
