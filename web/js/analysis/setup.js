// Setting up a position on the analysis board: by hand (a piece chosen from the game's
// palette, put on a cell with a tap; the eraser empties one; the side to move; a clear board)
// or pasted in the game's notation. The game's board module says what its pieces are and how a
// position is written (`editor` in js/boards/GAME.js); the server says whether the result can
// occur, and the page shows its reason when it cannot.

import { h, clickable } from '../ui.js';
import { t } from '../i18n.js';

/**
 * The setup panel. `state` is {position, piece, error}; `change(next)` redraws with a new
 * state; `done(position)` asks the server to take the position; `cancel()` leaves setup.
 */
export function setupPanel(editor, variant, state, { change, done, cancel }) {
  const panel = h('section', { class: 'panel setup-panel', 'aria-label': t('analysis.setup.title') }, h('h2', {}, t('analysis.setup.title')));
  panel.append(h('p', { class: 'hint' }, t('analysis.setup.about')));
  const palette = h('div', { class: 'setup-palette', role: 'radiogroup', 'aria-label': t('analysis.setup.pieces') });
  // A piece with a drawing shows it and its short name; its full name is what is read out.
  const choice = ({ key, label, short, icon }) => h('button', {
    class: ['btn', 'small', 'setup-piece', state.piece === key && 'primary', icon && 'drawn'],
    role: 'radio',
    'aria-checked': state.piece === key ? 'true' : 'false',
    'aria-label': icon ? label : null,
    'data-piece': key ?? '',
    onClick: () => change({ ...state, piece: key }),
  }, icon ? [icon(), short] : label);
  palette.append(choice({ key: null, label: t('analysis.setup.erase') }));
  // Pieces in groups (a side's cubes) under the group's name; the others in one row.
  const groups = new Map();
  for (const p of editor.pieces()) {
    if (!groups.has(p.group)) groups.set(p.group, []);
    groups.get(p.group).push(p);
  }
  for (const [name, pieces] of groups) {
    if (name === undefined) palette.append(...pieces.map(choice));
    else palette.append(h('div', { class: 'setup-group', role: 'group', 'aria-label': name }, h('span', { class: 'setup-group-name' }, name), ...pieces.map(choice)));
  }
  const side = h('select', {
    class: 'setup-side',
    'aria-label': t('analysis.setup.tomove'),
    onChange: (e) => change({ ...state, position: editor.toMove(state.position, e.target.value, variant), error: null }),
  }, ...editor.sides().map((s) => h('option', { value: s.key, selected: sideOf(state.position) === s.key }, s.label)));
  panel.append(
    palette,
    h('label', { class: 'setup-extra' }, `${t('analysis.setup.tomove')} `, side),
    ...(editor.extras ? editor.extras(state.position, variant, (position) => change({ ...state, position, error: null })) : []),
  );
  if (state.error) panel.append(h('p', { class: 'error setup-error', role: 'alert' }, state.error));
  panel.append(h('div', { class: 'setup-actions' },
    h('button', { class: 'btn primary setup-done', onClick: () => done(state.position) }, t('analysis.setup.done')),
    h('button', { class: 'btn setup-clear', onClick: () => change({ ...state, position: editor.clear(state.position, variant), error: null }) }, t('analysis.setup.clear')),
    h('button', { class: 'btn setup-cancel', onClick: cancel }, t('cancel')),
  ));
  return panel;
}

/** The side-to-move field of a position: the first field after the board. */
function sideOf(position) {
  return position.trim().split(/\s+/)[1];
}

/**
 * Makes every cell of the drawn board a target for the chosen piece: a tap (or Enter) puts it
 * there, or empties the cell with the eraser.
 */
export function editableCells(container, editor, variant, state, change) {
  for (const cell of container.querySelectorAll('[data-cell]')) {
    const name = cell.getAttribute('data-cell');
    clickable(cell, t('analysis.setup.cell', { cell: name }), () => {
      change({ ...state, position: editor.put(state.position, name, state.piece, variant), error: null });
    });
  }
}

/** The box to paste a position into, with the button that loads it. */
export function pasteBox(load) {
  const area = h('textarea', { class: 'paste-position', rows: 2, spellcheck: 'false', 'aria-label': t('analysis.paste.label') });
  return h('details', { class: 'panel paste-panel' },
    h('summary', {}, t('analysis.paste.title')),
    h('p', { class: 'hint' }, t('analysis.paste.about')),
    area,
    h('button', { class: 'btn paste-load', onClick: () => load(area.value.trim()) }, t('analysis.paste.load')));
}
