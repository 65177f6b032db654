// Shared pieces of the board renderers: SVG roots, per-container interaction state, dice pips.

import { s, clear } from '../ui.js';
import { focusedCell, keyboard } from './keyboard.js';

export const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function cellName(col, row) {
  return LETTERS[col] + (row + 1);
}

export function parseCell(name) {
  return { col: LETTERS.indexOf(name[0]), row: parseInt(name.slice(1), 10) - 1 };
}

/** An SVG root that scales to its container (the viewBox does the work on small screens). */
export function svgRoot(width, height, cls, label) {
  return s('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: ['board', cls],
    role: 'group',
    'aria-label': label,
    preserveAspectRatio: 'xMidYMid meet',
  });
}

/**
 * Interaction state kept on the container between renders (a selected piece, a pending
 * choice). It is reset whenever the position or the legal moves change, so a stale selection
 * can never send a move against a new position.
 */
export function uiState(container, state) {
  const key = `${state.position}|${(state.legal || []).length}|${state.interactive ? 1 : 0}`;
  if (!container.__ui || container.__ui.key !== key) {
    const keep = container.__ui?.persist || {};
    container.__ui = { key, persist: keep };
  }
  return container.__ui;
}

/** Replaces the board: the focus, if a cell had it, moves to the same cell of the new one. */
export function mount(container, ...nodes) {
  const focused = focusedCell(container);
  clear(container);
  container.append(...nodes);
  const svg = nodes.find((n) => n instanceof SVGElement);
  if (svg) keyboard(svg, focused);
}

/** Pip offsets on a die of size 1 centred at the origin, for values 1–6. */
const P = 0.26;
export const PIPS = {
  1: [[0, 0]],
  2: [[-P, -P], [P, P]],
  3: [[-P, -P], [0, 0], [P, P]],
  4: [[-P, -P], [P, -P], [-P, P], [P, P]],
  5: [[-P, -P], [P, -P], [0, 0], [-P, P], [P, P]],
  6: [[-P, -P], [P, -P], [-P, 0], [P, 0], [-P, P], [P, P]],
};

/** A die: rounded square with pips; classes decide the colours (see boards.css). */
/** A piece of the setup palette (js/analysis/setup.js): `shapes` drawn in a `size` square, styled as on `game`'s board. */
export function paletteIcon(game, size, ...shapes) {
  return s('svg', { class: [game, 'palette-icon'], viewBox: `0 0 ${size} ${size}`, 'aria-hidden': 'true' }, ...shapes);
}

export function die(cx, cy, size, value, cls, extra = {}) {
  const g = s('g', { class: ['die', cls], ...extra });
  g.append(
    s('rect', {
      class: 'die-body',
      x: cx - size / 2,
      y: cy - size / 2,
      width: size,
      height: size,
      rx: size * 0.18,
    }),
  );
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(s('circle', { class: 'pip', cx: cx + dx * size, cy: cy + dy * size, r: size * 0.085 }));
  }
  if (!PIPS[value]) {
    g.append(s('text', { class: 'die-num', x: cx, y: cy, 'font-size': size * 0.5 }, String(value)));
  }
  return g;
}

/**
 * The engine's suggested move drawn over a board (`state.best` in the renderers): an arrow for
 * each [from, to] pair of centres and a dashed ring of radius `r` around each centre in `rings`.
 * It is drawn last and ignores the pointer, so the board under it stays playable.
 */
export function bestMark(svg, { arrows = [], rings = [], r = 20 }) {
  const g = s('g', { class: 'best-move', 'aria-hidden': 'true' });
  for (const [[x1, y1], [x2, y2]] of arrows) {
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    // The head ends a little short of the target's centre so that the piece stays visible.
    const tipX = x2 - ux * r * 0.4;
    const tipY = y2 - uy * r * 0.4;
    const baseX = tipX - ux * 16;
    const baseY = tipY - uy * 16;
    g.append(
      s('line', { class: 'best-shaft', x1, y1, x2: baseX, y2: baseY }),
      s('polygon', { class: 'best-head', points: `${tipX},${tipY} ${baseX - uy * 9},${baseY + ux * 9} ${baseX + uy * 9},${baseY - ux * 9}` }),
    );
  }
  for (const [cx, cy] of rings) g.append(s('circle', { class: 'best-ring', cx, cy, r }));
  svg.append(g);
}
