// Tumbleweed: a hexagon of hex cells on a skewed grid (Havannah convention), stacks of red,
// white or neutral checkers. Position: columns a, b, … separated by '/', each column's cells
// in ascending number ('.' or colour+height), then the phase (setup, choose, r, w) and the
// passes in a row. Moves: 'e4,f6' (setup, red then white), 'red'/'white' (choice), 'e5', 'pass'.

import { s, h, clickable } from '../ui.js';
import { t, sideName } from '../i18n.js';
import { LETTERS, svgRoot, uiState, mount, bestMark, paletteIcon } from './common.js';

const D = 40; // distance between neighbouring centres
const R = D / Math.sqrt(3); // hexagon circumradius
const DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1]];

export function parse(position) {
  const [colsText, phase, passes] = position.trim().split(/\s+/);
  const cols = colsText.split('/');
  const n = (cols.length + 1) / 2;
  const cells = new Map(); // 'i,j' -> {name, i, j, stack: null | {colour, height}}
  cols.forEach((col, i) => {
    const tokens = col.match(/\.|[rwn]\d+/g) || [];
    // Column i holds numbers j with |i - (j-1)| <= n-1, ascending.
    const jMin = Math.max(1, i - (n - 1) + 1);
    tokens.forEach((tok, k) => {
      const j = jMin + k;
      const stack = tok === '.' ? null : { colour: tok[0], height: parseInt(tok.slice(1), 10) };
      cells.set(`${i},${j}`, { name: LETTERS[i] + j, i, j, stack });
    });
  });
  return { n, cells, phase, passes: parseInt(passes || '0', 10) };
}

/** Stacks of each colour seen from (i, j): the first stack along each of the six lines. */
export function sight(board, i, j) {
  const seen = { r: 0, w: 0, n: 0 };
  for (const [di, dj] of DIRS) {
    let a = i + di;
    let b = j + dj;
    for (;;) {
      const c = board.cells.get(`${a},${b}`);
      if (!c) break;
      if (c.stack) {
        seen[c.stack.colour] += 1;
        break;
      }
      a += di;
      b += dj;
    }
  }
  return seen;
}

/** Owned cells plus controlled empty cells, per colour; and who controls each empty cell. */
export function territory(board) {
  const score = { r: 0, w: 0 };
  const control = new Map();
  for (const [key, c] of board.cells) {
    if (c.stack) {
      if (c.stack.colour !== 'n') score[c.stack.colour] += 1;
      continue;
    }
    const seen = sight(board, c.i, c.j);
    if (seen.r > seen.w) {
      score.r += 1;
      control.set(key, 'r');
    } else if (seen.w > seen.r) {
      score.w += 1;
      control.set(key, 'w');
    }
  }
  return { score, control };
}

/**
 * What the table says under seat `seat` ('a' or 'b'): its colour's score, once the colours
 * are chosen (`seats` tells which seat has which).
 */
export function seatNote(position, seat, seats) {
  const b = parse(position);
  if (b.phase === 'setup' || b.phase === 'choose') return '';
  const label = seats[seat === 'a' ? 0 : 1].label;
  const score = territory(b).score[label];
  return score === undefined ? '' : t('tumbleweed.scorecount', { n: score });
}

/** Why the game ended by the rules, read from the final position (see perekati's). */
export function endByRules(position, { winner, side }) {
  const score = territory(parse(position)).score;
  if (winner) {
    const w = winner.label === 'r' || winner.label === 'w' ? winner.label : null;
    if (!w) return null;
    return t('end.tumbleweed.more', { side: side(winner), n: score[w], m: score[w === 'r' ? 'w' : 'r'] });
  }
  return t('end.tumbleweed.equal', { n: score.r });
}

/** Why the game ended by the rules when the final position is not at hand (the games list). */
export function endWithoutPosition() {
  return t('end.tumbleweed.passed');
}

function centre(i, j) {
  // Letters run down-right, numbers straight up: neighbours (1,0), (0,1) and (1,1) are all at
  // distance D.
  return [i * D * 0.8660254, -(j - 1) * D + i * D * 0.5];
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k; // flat-topped
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
}

export function render(container, state, opts = {}) {
  const board = parse(state.position);
  const ui = uiState(container, state);
  const persist = ui.persist;
  const interactive = !!opts.interactive;
  const legal = interactive ? state.legal || [] : [];
  const phase = board.phase;

  // Bounds of the board in pixels.
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const c of board.cells.values()) {
    const [x, y] = centre(c.i, c.j);
    minX = Math.min(minX, x); maxX = Math.max(maxX, x);
    minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  const pad = R + 16;
  const ox = -minX + pad;
  const oy = -minY + pad;
  const W = maxX - minX + 2 * pad;
  const H = maxY - minY + 2 * pad;

  // In setup the server sends no list (legal_truncated): any two different empty cells.
  const setup = interactive && phase === 'setup';
  const placeable = new Set(legal.filter((m) => m !== 'pass' && m !== 'red' && m !== 'white' && !m.includes(',')));
  const showTerritory = !!persist.territory && phase !== 'setup';
  const terr = territory(board);
  const lastCells = new Set(
    state.last && !['pass', 'red', 'white'].includes(state.last) ? state.last.split(',') : [],
  );

  // Phones confirm a placement on the larger boards (hex8 and up) with a second tap.
  const confirmTaps = interactive && board.n >= 8 && phase !== 'setup' && phase !== 'choose' && coarsePointer();
  if (ui.pick && !placeable.has(ui.pick)) ui.pick = null;
  const svg = svgRoot(W, H, 'tumbleweed', t('board.label'));
  for (const c of board.cells.values()) {
    const [x0, y0] = centre(c.i, c.j);
    const x = x0 + ox;
    const y = y0 + oy;
    const key = `${c.i},${c.j}`;
    const owner = showTerritory && !c.stack ? terr.control.get(key) : null;
    const g = s('g', { class: ['hex', owner && `terr-${owner}`, lastCells.has(c.name) && 'last-to'], 'data-cell': c.name });
    g.append(s('polygon', { class: 'hex-cell', points: hexPoints(x, y, R - 1) }));
    let title = c.name;
    if (c.stack) {
      g.append(s('circle', { class: ['stack', `stack-${c.stack.colour}`], cx: x, cy: y, r: R * 0.72 }));
      g.append(s('text', { class: ['stack-h', `stack-h-${c.stack.colour}`], x, y: y + 1 }, String(c.stack.height)));
      title += `: ${t('tumbleweed.colour.' + c.stack.colour)} ${c.stack.height}`;
    }
    const pending = setup && ui.red === c.name;
    if (pending) {
      g.append(s('circle', { class: ['stack', 'stack-r', 'pending'], cx: x, cy: y, r: R * 0.72 }));
      g.append(s('text', { class: 'stack-h stack-h-r', x, y: y + 1 }, '1'));
    }
    if (setup && !c.stack && !pending) {
      g.classList.add('target');
      clickable(g, `${c.name} ${ui.red ? t('tumbleweed.colour.w') : t('tumbleweed.colour.r')}`, () => {
        if (!ui.red) {
          ui.red = c.name;
          render(container, state, opts);
          container.querySelector(`[data-cell="${c.name}"]`)?.focus();
        } else {
          const mv = `${ui.red},${c.name}`;
          ui.red = null;
          opts.onMove?.(mv);
        }
      });
    } else if (pending) {
      clickable(g, `${c.name}: ${t('tumbleweed.cancel')}`, () => {
        ui.red = null;
        render(container, state, opts);
      });
    } else if (placeable.has(c.name)) {
      const colour = colourToMove(phase);
      const h2 = sight(board, c.i, c.j)[colour] || 0;
      const picked = confirmTaps && ui.pick === c.name;
      g.classList.add('target');
      if (picked) g.classList.add('picked');
      // The marker never covers a stack's height: on a stack it is a ring around it, on an
      // empty cell a dot in the middle.
      if (c.stack) g.insertBefore(s('circle', { class: 'target-ring', cx: x, cy: y, r: R * 0.86 }), g.firstChild.nextSibling);
      else g.append(s('circle', { class: 'target-dot', cx: x, cy: y, r: 5 }));
      // A preview of the stack that would be placed, shown on hover or focus (and while a
      // phone's first tap waits for the second).
      g.append(s('circle', { class: ['ghost', `stack-${colour}`], cx: x, cy: y, r: R * 0.72 }));
      g.append(s('text', { class: ['ghost', 'stack-h', `stack-h-${colour}`], x, y: y + 1 }, String(h2)));
      title += ` → ${h2}`;
      clickable(g, title, () => {
        // On a phone the big boards' cells are small: the first tap picks, the second (or the
        // Place button) plays.
        if (confirmTaps && ui.pick !== c.name) {
          ui.pick = c.name;
          render(container, state, opts);
          return;
        }
        ui.pick = null;
        opts.onMove?.(c.name);
      });
    }
    g.append(s('title', {}, title));
    svg.append(g);
  }
  if (state.best && !['pass', 'red', 'white'].includes(state.best)) {
    // A placement (or the setup's two) is ringed; passing and choosing a colour are in words.
    const at = (name) => {
      const c = [...board.cells.values()].find((x) => x.name === name);
      if (!c) return null;
      const [x, y] = centre(c.i, c.j);
      return [x + ox, y + oy];
    };
    bestMark(svg, { rings: state.best.split(',').map(at).filter(Boolean), r: R * 0.9 });
  }
  // Edge coordinates: letters along the lower-left edge, numbers along the left.
  for (let i = 0; i < 2 * board.n - 1; i++) {
    const j = Math.max(1, i - (board.n - 1) + 1);
    const [x, y] = centre(i, j);
    svg.append(s('text', { class: 'coord', x: x + ox, y: y + oy + R + 9 }, LETTERS[i]));
  }
  // Numbers to the left of each row's first cell (the left and upper-left edges).
  for (let j = 1; j <= 2 * board.n - 1; j++) {
    // Where the missing neighbour (i-1, j) would be: just off the edge, on the row's line.
    const [x, y] = centre(Math.max(0, j - board.n) - 1, j);
    svg.append(s('text', { class: 'coord', x: x + ox + 6, y: y + oy + 8 }, String(j)));
  }

  const controls = h('div', { class: 'board-controls' });
  if (interactive && phase === 'setup') {
    controls.append(h('p', { class: 'hint' }, ui.red ? t('tumbleweed.setup.white') : t('tumbleweed.setup.red')));
  }
  if (interactive && phase === 'choose') {
    controls.append(
      h('p', { class: 'hint' }, t('tumbleweed.choose.hint')),
      h('button', { class: 'btn choose-red', onClick: () => opts.onMove?.('red') }, t('tumbleweed.play.red')),
      h('button', { class: 'btn choose-white', onClick: () => opts.onMove?.('white') }, t('tumbleweed.play.white')),
    );
  }
  if (confirmTaps && ui.pick) {
    const picked = [...board.cells.values()].find((c) => c.name === ui.pick);
    const height = picked ? sight(board, picked.i, picked.j)[colourToMove(phase)] || 0 : 0;
    controls.append(
      h('button', { class: 'btn primary confirm-place', onClick: () => { const mv = ui.pick; ui.pick = null; opts.onMove?.(mv); } },
        t('tumbleweed.place', { cell: ui.pick, n: height })),
      h('button', { class: 'btn cancel-place', onClick: () => { ui.pick = null; render(container, state, opts); } }, t('cancel')),
    );
  }
  if (interactive && legal.includes('pass')) {
    controls.append(h('button', { class: 'btn pass', onClick: () => opts.onMove?.('pass') }, t('tumbleweed.pass')));
  }
  if (phase !== 'setup' && opts.controls !== false) {
    controls.append(
      h(
        'label',
        { class: 'toggle' },
        h('input', {
          type: 'checkbox',
          class: 'territory-toggle',
          checked: !!persist.territory,
          onChange: (e) => {
            persist.territory = e.target.checked;
            render(container, state, opts);
          },
        }),
        ' ',
        t('tumbleweed.territory'),
      ),
      h(
        'span',
        { class: 'score' },
        h('span', { class: 'swatch stack-r' }),
        ` ${terr.score.r}  `,
        h('span', { class: 'swatch stack-w' }),
        ` ${terr.score.w}`,
      ),
    );
  }
  if (opts.controls === false) mount(container, svg);
  else mount(container, svg, controls);
}

function coarsePointer() {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

function colourToMove(phase) {
  return phase === 'r' || phase === 'w' ? phase : 'r';
}

/** The position `b` (as `parse` reads it) written in the notation again. */
function write(b) {
  const columns = [];
  for (let i = 0; i < 2 * b.n - 1; i++) {
    const cells = [...b.cells.values()].filter((c) => c.i === i).sort((x, y) => x.j - y.j);
    columns.push(cells.map((c) => (c.stack ? `${c.stack.colour}${c.stack.height}` : '.')).join(''));
  }
  return `${columns.join('/')} ${b.phase} ${b.passes}`;
}

/** A stack of the setup palette, drawn as on the board. */
function stackIcon(colour, height) {
  return paletteIcon('tumbleweed', 40,
    s('circle', { class: ['stack', `stack-${colour}`], cx: 20, cy: 20, r: 18 }),
    s('text', { class: ['stack-h', `stack-h-${colour}`], x: 20, y: 21 }, String(height)));
}

/**
 * Setting up a position by hand (the analysis board): red and white stacks of 1 to 6, the
 * neutral stack (which belongs on the centre), and the phase: red or white to move, or the
 * setup or the choice of colours at the start.
 */
export const editor = {
  pieces: () => [
    ...['r', 'w'].flatMap((colour) => [1, 2, 3, 4, 5, 6].map((height) => ({
      key: `${colour}${height}`,
      label: `${t('tumbleweed.colour.' + colour)} ${height}`,
      group: sideName('tumbleweed', colour),
      icon: () => stackIcon(colour, height),
    }))),
    { key: 'n2', label: `${t('tumbleweed.colour.n')} 2`, icon: () => stackIcon('n', 2) },
  ],
  /** The phase, as the position writes it: the setup, the choice of colours, or a colour to move. */
  sides: () => ['setup', 'choose', 'r', 'w'].map((key) => ({ key, label: sideName('tumbleweed', key) })),
  put(position, cell, key) {
    const b = parse(position);
    const c = [...b.cells.values()].find((x) => x.name === cell);
    if (!c) return position;
    c.stack = key ? { colour: key[0], height: Number(key.slice(1)) } : null;
    return write(b);
  },
  toMove: (position, side) => write({ ...parse(position), phase: side, passes: 0 }),
  /** Only the neutral stack left, on the centre. */
  clear(position) {
    const b = parse(position);
    for (const c of b.cells.values()) c.stack = c.i === b.n - 1 && c.j === b.n ? { colour: 'n', height: 2 } : null;
    return write(b);
  },
};
