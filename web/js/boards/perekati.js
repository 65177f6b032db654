// Perekati-pole: a grid of cubes, each with one marked face (the hat).
// Position: rows from the top, '/' between, one char per cell ('.', UDNSEW for side a,
// udnsew for side b), then the side to move. Moves: from-cell + to-cell, e.g. c1c2.

import { s, h } from '../ui.js';
import { t, sideName } from '../i18n.js';
import { LETTERS, cellName, parseCell, svgRoot, uiState, mount, bestMark, paletteIcon } from './common.js';
import { clickable } from '../ui.js';

const C = 60; // cell size
const M = 26; // margin for the coordinates

export function parse(position) {
  const [rowsText, side] = position.trim().split(/\s+/);
  const rowsTop = rowsText.split('/');
  const rows = rowsTop.length;
  const cols = rowsTop[0].length;
  const cells = {}; // name -> {side, hat}
  rowsTop.forEach((line, i) => {
    const row = rows - 1 - i;
    [...line].forEach((ch, col) => {
      if (ch === '.') return;
      const side = ch === ch.toUpperCase() ? 'a' : 'b';
      cells[cellName(col, row)] = { side, hat: ch.toUpperCase() };
    });
  });
  return { rows, cols, cells, side };
}

function isHome(piece, row, rows) {
  return piece.hat === 'U' && ((piece.side === 'a' && row === rows - 1) || (piece.side === 'b' && row === 0));
}

/** Counts home cubes per side (shown in the side panel). */
export function homeCounts(position) {
  const p = parse(position);
  const n = { a: 0, b: 0 };
  for (const [name, piece] of Object.entries(p.cells)) {
    const row = parseInt(name.slice(1), 10) - 1;
    if (isHome(piece, row, p.rows)) n[piece.side] += 1;
  }
  return n;
}

/** What the table says under seat `seat` ('a' or 'b'): its cubes home. */
export function seatNote(position, seat) {
  return t('perekati.homecount', { n: homeCounts(position)[seat] });
}

/**
 * Why the game ended by the rules, read from the final position: `winner` and `loser` are
 * seats (null in a draw), `won` the winner's side ('a' or 'b'), `side(seat)` names a seat.
 */
export function endByRules(position, { winner, won, side }) {
  const home = homeCounts(position);
  if (winner) {
    const lost = won === 'a' ? 'b' : 'a';
    const cubes = Object.values(parse(position).cells).filter((x) => x.side === won).length;
    if (cubes > 0 && home[won] === cubes) return t('end.perekati.allhome', { side: side(winner) });
    return t('end.perekati.more', { side: side(winner), n: home[won], m: home[lost] });
  }
  return t('end.perekati.equal', { n: home.a });
}

export function render(container, state, opts = {}) {
  const p = parse(state.position);
  const ui = uiState(container, state);
  const flip = !!state.flip;
  const interactive = !!opts.interactive;
  const legal = interactive ? state.legal || [] : [];
  const W = p.cols * C + 2 * M;
  const H = p.rows * C + 2 * M;

  const xy = (col, row) =>
    flip ? [M + (p.cols - 1 - col) * C, M + row * C] : [M + col * C, M + (p.rows - 1 - row) * C];
  // Screen direction of a board direction: the board may be turned for side b.
  const dir = (d) => {
    const v = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] }[d];
    return flip ? [-v[0], -v[1]] : v;
  };

  const fromCells = new Set(legal.map((m) => m.slice(0, 2)));
  const targets = new Map(); // to-cell -> move, for the selected cube
  if (ui.sel) for (const m of legal) if (m.startsWith(ui.sel)) targets.set(m.slice(2), m);
  const last = state.last && state.last.length === 4 ? [state.last.slice(0, 2), state.last.slice(2)] : null;

  const svg = svgRoot(W, H, 'perekati', t('board.label'));
  // The frame is drawn inside the SVG so that it hugs the board at any aspect ratio.
  svg.append(s('rect', { class: 'frame', x: 0, y: 0, width: W, height: H, rx: 10 }));
  // Goal rows: side a heads for the top row, side b for row 1.
  for (let col = 0; col < p.cols; col++) {
    for (let row = 0; row < p.rows; row++) {
      const [x, y] = xy(col, row);
      const name = cellName(col, row);
      const goal = row === p.rows - 1 ? 'goal-a' : row === 0 ? 'goal-b' : '';
      svg.append(
        s('rect', {
          class: ['cell', (col + row) % 2 ? 'light' : 'dark', goal, last && last[0] === name && 'last-from', last && last[1] === name && 'last-to'],
          x,
          y,
          width: C,
          height: C,
        }),
      );
    }
  }
  // Coordinates.
  for (let col = 0; col < p.cols; col++) {
    const [x] = xy(col, 0);
    svg.append(s('text', { class: 'coord', x: x + C / 2, y: H - M / 2 + 4 }, LETTERS[col]));
  }
  for (let row = 0; row < p.rows; row++) {
    const [, y] = xy(0, row);
    svg.append(s('text', { class: 'coord', x: M / 2, y: y + C / 2 + 4 }, String(row + 1)));
  }

  for (let col = 0; col < p.cols; col++) {
    for (let row = 0; row < p.rows; row++) {
      const name = cellName(col, row);
      const piece = p.cells[name];
      const [x, y] = xy(col, row);
      if (piece) {
        const home = isHome(piece, row, p.rows);
        const g = s('g', { class: ['cube', `side-${piece.side}`, home && 'home', ui.sel === name && 'selected'], 'data-cell': name });
        const inset = 7;
        g.append(s('rect', { class: 'cube-body', x: x + inset, y: y + inset, width: C - 2 * inset, height: C - 2 * inset, rx: 9 }));
        g.append(hatMark(piece.hat, x, y, dir));
        if (home) g.append(s('text', { class: 'home-star', x: x + C - 15, y: y + 19 }, '★'));
        g.append(s('title', {}, `${name}: ${t('perekati.hat.' + piece.hat)}${home ? ' — ' + t('perekati.home') : ''}`));
        if (fromCells.has(name)) {
          g.classList.add('movable');
          clickable(g, `${name} ${t('perekati.hat.' + piece.hat)}`, () => {
            ui.sel = ui.sel === name ? null : name;
            render(container, state, opts);
            container.querySelector(`[data-cell="${name}"]`)?.focus();
          });
        }
        svg.append(g);
      } else {
        const g = s('g', { class: 'empty', 'data-cell': name });
        g.append(s('rect', { class: 'cell-hit', x, y, width: C, height: C }));
        if (targets.has(name)) {
          g.classList.add('target');
          g.append(s('circle', { class: 'target-dot', cx: x + C / 2, cy: y + C / 2, r: 9 }));
          clickable(g, `${ui.sel} → ${name}`, () => {
            const mv = targets.get(name);
            ui.sel = null;
            opts.onMove?.(mv);
          });
        }
        svg.append(g);
      }
    }
  }
  if (state.best && state.best.length === 4) {
    const at = (name) => {
      const { col, row } = parseCell(name);
      const [x, y] = xy(col, row);
      return [x + C / 2, y + C / 2];
    };
    bestMark(svg, { arrows: [[at(state.best.slice(0, 2)), at(state.best.slice(2))]], r: C * 0.45 });
  }
  const nodes = [svg];
  if (interactive && legal.length && opts.controls !== false) {
    nodes.push(h('div', { class: 'board-controls' },
      h('p', { class: 'hint' }, ui.sel ? t('perekati.tohint', { cell: ui.sel }) : t('perekati.pickhint'))));
  }
  mount(container, ...nodes);
}

function hatMark(hat, x, y, dir) {
  const cx = x + C / 2;
  const cy = y + C / 2;
  if (hat === 'U') return s('circle', { class: 'hat', cx, cy, r: 10 });
  // Underneath: a hollow ghost ring, the hat cannot be seen from above.
  if (hat === 'D') return s('circle', { class: 'hat-under', cx, cy, r: 10 });
  const [dx, dy] = dir(hat);
  const long = 26;
  const thick = 8;
  const off = 17; // from the centre towards the edge
  const w = dx ? thick : long;
  const h = dx ? long : thick;
  return s('rect', { class: 'hat', x: cx + dx * off - w / 2, y: cy + dy * off - h / 2, width: w, height: h, rx: 3 });
}

/** The position `p` (as `parse` reads it) written in the notation again. */
function write(p) {
  const rows = [];
  for (let row = p.rows - 1; row >= 0; row--) {
    let line = '';
    for (let col = 0; col < p.cols; col++) {
      const c = p.cells[cellName(col, row)];
      line += c ? (c.side === 'a' ? c.hat : c.hat.toLowerCase()) : '.';
    }
    rows.push(line);
  }
  return `${rows.join('/')} ${p.side}`;
}

/** A cube of the setup palette, drawn as on the board (the far row up). */
function cubeIcon(side, hat) {
  return paletteIcon('perekati', C, s('g', { class: `side-${side}` },
    s('rect', { class: 'cube-body', x: 4, y: 4, width: C - 8, height: C - 8, rx: 9 }),
    hatMark(hat, 0, 0, (d) => ({ N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] })[d])));
}

/**
 * Setting up a position by hand (the analysis board): a cube of either side with its hat on
 * any face, chosen from a palette of drawn cubes grouped by side. The engine wants each side's full set of cubes, and says so.
 */
export const editor = {
  pieces: () => ['a', 'b'].flatMap((side) => ['U', 'N', 'S', 'E', 'W', 'D'].map((hat) => ({
    key: side + hat,
    label: `${sideName('perekati', side)}: ${t('perekati.hat.' + hat)}`,
    group: sideName('perekati', side),
    short: t('perekati.hat.short.' + hat),
    icon: () => cubeIcon(side, hat),
  }))),
  sides: () => ['a', 'b'].map((key) => ({ key, label: sideName('perekati', key) })),
  put(position, cell, key) {
    const p = parse(position);
    if (key) p.cells[cell] = { side: key[0], hat: key[1] };
    else delete p.cells[cell];
    return write(p);
  },
  toMove: (position, side) => write({ ...parse(position), side }),
  clear: (position) => write({ ...parse(position), cells: {} }),
};
