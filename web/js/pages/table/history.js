// The move list and looking back at earlier positions of the game going on.

import { h, clear, fill, toast } from '../../ui.js';
import { t, sideName, moveText } from '../../i18n.js';
import { moveRows, columnSeats } from '../../movelist.js';
import { api } from '../../api.js';
import { boards } from '../../registry/index.js';
import { playerLink } from '../../players.js';

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function history(page) {
  const { id, token, el } = page;

  // The board can show any earlier position of the game going on (buttons under the board,
  // or the arrow keys); the game itself goes on, and the move list marks the move shown.

  function looking() {
    return page.view !== null && !!page.positions && !!page.positions[page.view] && page.view < page.tbl.ply;
  }

  async function look(target) {
    if (!page.tbl) return;
    const ply = Math.max(0, Math.min(page.tbl.ply, target));
    if (ply >= page.tbl.ply) {
      page.view = null;
    } else {
      if (!page.positions || page.positions.length < page.tbl.ply + 1) {
        try {
          const reply = await api.recordPositions(id, token || undefined);
          const list = Array.isArray(reply) ? reply : reply?.positions;
          if (!Array.isArray(list)) return;
          page.positions = list;
        } catch (err) {
          toast(page.errorText(err), 'error');
          return;
        }
      }
      if (page.disposed || !page.positions[ply]) return;
      page.view = ply;
    }
    page.renderBoard();
    renderHistory();
    renderMoves();
    if (window.__stolik) window.__stolik.view = page.view;
  }

  function renderHistory() {
    clear(el.history);
    if (!page.tbl.moves.length) return;
    const add = (...nodes) => fill(el.history, ...nodes);
    const back = looking();
    const at = back ? page.view : page.tbl.ply;
    const btn = (cls, label, text, target, disabled) =>
      h('button', { class: ['btn', cls], 'aria-label': label, title: label, disabled, onClick: () => look(target) }, text);
    add(
      back ? h('p', { class: 'history-note', role: 'status' }, page.view === 0 ? t('history.start') : t('history.viewing', { move: (boards[page.tbl.game]?.moveWords || moveText)(page.tbl.moves[page.view - 1]), n: page.solo() ? page.view : Math.ceil(page.view / 2) })) : null,
      h('div', { class: 'history-controls', role: 'toolbar', 'aria-label': t('moves.title') },
        btn('history-first', t('replay.first'), '«', 0, at === 0),
        btn('history-back', t('history.back'), '‹', at - 1, at === 0),
        btn('history-forward', t('history.forward'), '›', at + 1, !back),
        btn('history-live', t('history.live'), '»', page.tbl.ply, !back),
      ),
    );
  }

  function onKey(e) {
    if (!page.tbl || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest('input, textarea, select, [contenteditable]')) return;
    const at = looking() ? page.view : page.tbl.ply;
    if (e.key === 'ArrowLeft') look(at - 1);
    else if (e.key === 'ArrowRight') look(at + 1);
    else if (e.key === 'Home') look(0);
    else if (e.key === 'End') look(page.tbl.ply);
    else return;
    e.preventDefault();
  }

  function renderMoves() {
    fill(el.movesHead, page.solo() ? null : columnSeats(page.tbl.game, page.tbl.seats).map((x, i) => [i ? ' — ' : null, `${sideName(page.tbl.game, x.label)}: `, x.user ? playerLink(x.user) : '—']));
    clear(el.moves);
    const list = page.tbl.moves;
    if (!list.length) {
      el.moves.append(h('li', { class: 'empty' }, t('moves.none')));
      return;
    }
    // The move shown on the board: the last one, or the one looked back at.
    const shown = looking() ? page.view - 1 : list.length - 1;
    // Numbers are text, not list markers: a marker of two or three digits does not fit.
    const num = (n) => h('span', { class: 'num' }, `${n}.`);
    if (page.solo()) {
      const words = boards[page.tbl.game]?.moveWords || moveText;
      list.forEach((m, i) => el.moves.append(h('li', { class: [page.missed.has(i + 1) && 'missed'] }, num(i + 1), h('span', { class: ['mv', i === shown && 'current'] }, words(m)))));
    } else {
      for (const row of moveRows(page.tbl.game, list.length, false)) {
        el.moves.append(h('li', {}, num(row.num), ...row.plies.map((i) =>
          h('span', { class: ['mv', page.missed.has(i + 1) && 'missed', i === shown && 'current'] }, moveText(list[i])))));
      }
    }
    const current = looking() ? el.moves.querySelector('.mv.current') : null;
    if (current) {
      const item = current.closest('li');
      el.moves.scrollTop = Math.max(0, item.offsetTop - el.moves.offsetTop - (el.moves.clientHeight - item.offsetHeight) / 2);
    } else {
      el.moves.scrollTop = el.moves.scrollHeight;
    }
  }

  return { look, looking, onKey, renderHistory, renderMoves };
}
