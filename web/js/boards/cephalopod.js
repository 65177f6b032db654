// Cephalopod: dice placed on a square board; a placement next to dice summing to 6 or less
// must capture. Position: rows from the top, '.' or side+pips (a3, b6), then the side to move.
// Moves: 'c3' or 'c3:b3,c4' (each capturing set is a separate move).

import { s, h, clickable } from '../ui.js';
import { t, sideName } from '../i18n.js';
import { LETTERS, cellName, parseCell, svgRoot, uiState, mount, die, bestMark, paletteIcon } from './common.js';

const C = 70;
const M = 26;

export function parse(position) {
  const [rowsText, side] = position.trim().split(/\s+/);
  const rowsTop = rowsText.split('/');
  const rows = rowsTop.length;
  const cells = {};
  let cols = 0;
  rowsTop.forEach((line, i) => {
    const row = rows - 1 - i;
    const tokens = line.match(/\.|[ab]\d/g) || [];
    cols = Math.max(cols, tokens.length);
    tokens.forEach((tok, col) => {
      if (tok !== '.') cells[cellName(col, row)] = { side: tok[0], pips: parseInt(tok[1], 10) };
    });
  });
  return { rows, cols, cells, side };
}

export function diceCounts(position) {
  const n = { a: 0, b: 0 };
  for (const d of Object.values(parse(position).cells)) n[d.side] += 1;
  return n;
}

/** What the table says under seat `seat` ('a' or 'b'): its dice on the board. */
export function seatNote(position, seat) {
  return t('cephalopod.count', { n: diceCounts(position)[seat] });
}

/** A capture takes dice off the board (the sound says so). */
export function isCapture(move) {
  return move.includes(':');
}

/** Why the game ended by the rules, read from the final position (see perekati's). */
export function endByRules(position, { winner, won, side }) {
  if (!winner) return null;
  const n = diceCounts(position);
  return t('end.cephalopod.full', { side: side(winner), n: n[won], m: n[won === 'a' ? 'b' : 'a'] });
}

/** Why the game ended by the rules when the final position is not at hand (the games list). */
export function endWithoutPosition() {
  return t('end.cephalopod.fullshort');
}

function splitMove(m) {
  const [cell, caps] = m.split(':');
  return { cell, caps: caps ? caps.split(',') : [] };
}

export function render(container, state, opts = {}) {
  const p = parse(state.position);
  const ui = uiState(container, state);
  const interactive = !!opts.interactive;
  const legal = (interactive ? state.legal || [] : []).map((m) => ({ m, ...splitMove(m) }));
  const byCell = new Map();
  for (const mv of legal) {
    if (!byCell.has(mv.cell)) byCell.set(mv.cell, []);
    byCell.get(mv.cell).push(mv);
  }
  // A pending choice among several capturing sets on the chosen cell.
  const options = ui.cell ? byCell.get(ui.cell) || [] : [];
  const candidates = new Set(options.flatMap((o) => o.caps));
  ui.picked = ui.picked || new Set();
  const last = state.last ? splitMove(state.last) : null;

  const W = p.cols * C + 2 * M;
  const H = p.rows * C + 2 * M;
  const xy = (col, row) => [M + col * C, M + (p.rows - 1 - row) * C];
  const svg = svgRoot(W, H, 'cephalopod', t('board.label'));
  // The frame is drawn inside the SVG so that it hugs the board at any aspect ratio.
  svg.append(s('rect', { class: 'frame', x: 0, y: 0, width: W, height: H, rx: 10 }));

  for (let col = 0; col < p.cols; col++) {
    for (let row = 0; row < p.rows; row++) {
      const name = cellName(col, row);
      const [x, y] = xy(col, row);
      const d = p.cells[name];
      const g = s('g', {
        class: [
          'sq',
          last && last.cell === name && 'last-to',
          last && last.caps.includes(name) && 'last-captured',
          ui.cell === name && 'selected',
        ],
        'data-cell': name,
      });
      g.append(s('rect', { class: 'cell', x: x + 1, y: y + 1, width: C - 2, height: C - 2, rx: 6 }));
      if (d) {
        const cls = [`side-${d.side}`, candidates.has(name) && 'candidate', ui.picked.has(name) && 'picked'];
        g.append(die(x + C / 2, y + C / 2, C * 0.72, d.pips, cls));
        g.append(s('title', {}, `${name}: ${sideName('cephalopod', d.side)} ${d.pips}`));
        if (candidates.has(name)) {
          clickable(g, `${t('cephalopod.capture')} ${name} (${d.pips})`, () => {
            if (ui.picked.has(name)) ui.picked.delete(name);
            else ui.picked.add(name);
            render(container, state, opts);
            container.querySelector(`[data-cell="${name}"]`)?.focus();
          });
        }
      } else if (ui.cell === name) {
        // The die being placed, showing the sum of the set under the pointer or picked.
        const shown = matchPicked(options, ui.picked);
        const pips = shown ? shown.caps.reduce((acc, c) => acc + p.cells[c].pips, 0) : null;
        if (pips) g.append(die(x + C / 2, y + C / 2, C * 0.72, pips, [`side-${state.turnSide || p.side}`, 'ghost-die']));
        else g.append(s('circle', { class: 'target-dot', cx: x + C / 2, cy: y + C / 2, r: 10 }));
        clickable(g, t('cancel'), () => {
          ui.cell = null;
          ui.picked = new Set();
          render(container, state, opts);
        });
      } else if (byCell.has(name)) {
        g.classList.add('target');
        const caps = byCell.get(name).some((o) => o.caps.length);
        g.append(s('circle', { class: ['target-dot', caps && 'capture'], cx: x + C / 2, cy: y + C / 2, r: caps ? 13 : 6 }));
        clickable(g, name, () => {
          const opts2 = byCell.get(name);
          if (opts2.length === 1) {
            opts.onMove?.(opts2[0].m);
            return;
          }
          ui.cell = name;
          ui.picked = new Set();
          render(container, state, opts);
        });
      }
      svg.append(g);
    }
  }
  for (let col = 0; col < p.cols; col++) {
    svg.append(s('text', { class: 'coord', x: M + col * C + C / 2, y: H - M / 2 + 5 }, LETTERS[col]));
  }
  for (let row = 0; row < p.rows; row++) {
    svg.append(s('text', { class: 'coord', x: M / 2, y: M + (p.rows - 1 - row) * C + C / 2 + 5 }, String(row + 1)));
  }

  if (state.best) {
    const best = splitMove(state.best);
    const at = (name) => {
      const { col, row } = parseCell(name);
      const [x, y] = xy(col, row);
      return [x + C / 2, y + C / 2];
    };
    bestMark(svg, { rings: [at(best.cell)], arrows: best.caps.map((c) => [at(c), at(best.cell)]), r: C * 0.45 });
  }

  const controls = h('div', { class: 'board-controls' });
  if (ui.cell && options.length) {
    const exact = matchPicked(options, ui.picked);
    controls.append(h('p', { class: 'hint' }, t('cephalopod.choose', { cell: ui.cell })));
    const list = h('div', { class: 'capture-options', role: 'group', 'aria-label': t('cephalopod.choose', { cell: ui.cell }) });
    for (const o of options) {
      const sum = o.caps.reduce((acc, c) => acc + p.cells[c].pips, 0);
      const label = o.caps.length ? `${o.caps.join(' + ')} → ${sum}` : t('cephalopod.nocapture');
      list.append(
        h(
          'button',
          {
            class: ['btn', 'capture-option', exact && exact.m === o.m && 'primary'],
            'data-move': o.m,
            // Hovering or focusing an option lights up its dice without re-rendering.
            onMouseenter: () => light(svg, o.caps, true),
            onMouseleave: () => light(svg, o.caps, false),
            onFocus: () => light(svg, o.caps, true),
            onBlur: () => light(svg, o.caps, false),
            onClick: () => opts.onMove?.(o.m),
          },
          label,
        ),
      );
    }
    controls.append(
      list,
      h('button', { class: 'btn', onClick: () => { ui.cell = null; ui.picked = new Set(); render(container, state, opts); } }, t('cancel')),
    );
  }
  mount(container, svg, controls);
}

function matchPicked(options, picked) {
  if (!picked || !picked.size) return null;
  return options.find((o) => o.caps.length === picked.size && o.caps.every((c) => picked.has(c))) || null;
}

function light(svg, cells, on) {
  for (const c of cells) svg.querySelector(`[data-cell="${c}"] .die`)?.classList.toggle('hover', on);
}

/** The position `p` (as `parse` reads it) written in the notation again. */
function write(p) {
  const rows = [];
  for (let row = p.rows - 1; row >= 0; row--) {
    let line = '';
    for (let col = 0; col < p.cols; col++) {
      const d = p.cells[cellName(col, row)];
      line += d ? `${d.side}${d.pips}` : '.';
    }
    rows.push(line);
  }
  return `${rows.join('/')} ${p.side}`;
}

/** Setting up a position by hand (the analysis board): a die of either side, 1 to 6 pips. */
export const editor = {
  pieces: () => ['a', 'b'].flatMap((side) => [1, 2, 3, 4, 5, 6].map((pips) => ({
    key: `${side}${pips}`,
    label: `${sideName('cephalopod', side)} ${pips}`,
    group: sideName('cephalopod', side),
    // A die of the palette, drawn as on the board.
    icon: () => paletteIcon('cephalopod', 40, die(20, 20, 36, pips, `side-${side}`)),
  }))),
  sides: () => ['a', 'b'].map((key) => ({ key, label: sideName('cephalopod', key) })),
  put(position, cell, key) {
    const p = parse(position);
    if (key) p.cells[cell] = { side: key[0], pips: Number(key.slice(1)) };
    else delete p.cells[cell];
    return write(p);
  },
  toMove: (position, side) => write({ ...parse(position), side }),
  clear: (position) => write({ ...parse(position), cells: {} }),
};
