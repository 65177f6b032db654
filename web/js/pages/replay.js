// Replays a finished game: the record's moves, and the position after each ply (the client has
// no rules engine, so the positions come from GET /api/records/ID/positions).

import { h, clear, toast } from '../ui.js';
import { t, gameName, variantName, resultText, moveText, sideName } from '../i18n.js';
import { endReason } from '../endings.js';
import { moveRows } from '../movelist.js';
import { api } from '../api.js';
import { boards } from '../registry/index.js';
import { who, playerLink } from '../players.js';
import { analysisPanel, moveMark } from '../analysis.js';
import { analysisHref } from '../analysis/link.js';

/** Tumbleweed's seats become colours with the choice: read them from the final position. */
function labelOf(record, seat) {
  if (record.game !== 'tumbleweed') return seat;
  const choice = record.moves.find((m) => m === 'red' || m === 'white');
  if (!choice) return seat;
  const b = choice === 'red' ? 'r' : 'w';
  return seat === 'b' ? b : b === 'r' ? 'w' : 'r';
}

export function mount(root, params) {
  const id = params.parts[1];
  const token = params.query.get('token') || undefined;
  let record = null;
  let positions = null;
  let games = [];
  let step = 0;
  let problem = null;
  let review = null; // the engine's review: {status, place, done, total, review}
  let polling = null;
  const boardBox = h('div', { class: 'board-wrap' });

  function max() {
    return record ? record.moves.length : 0;
  }

  function go(n) {
    step = Math.max(0, Math.min(max(), n));
    render();
  }

  function onKey(e) {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') go(step - 1);
    else if (e.key === 'ArrowRight') go(step + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(max());
    else return;
    e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    clear(root);
    const page = h('section', { class: 'page replay' });
    root.append(page);
    if (problem) {
      page.append(h('h1', {}, t('replay.title')), h('p', { class: 'error' }, problem));
      return;
    }
    if (!record) {
      page.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    const info = games.find((g) => g.id === record.game);
    document.title = `${t('replay.title')}: ${info ? gameName(info) : record.game} — ${t('app.name')}`;
    const finalPosition = positions ? positions[positions.length - 1] : null;
    const snap = {
      game: record.game,
      status: record.status,
      result: record.result,
      reason: record.reason,
      position: finalPosition,
      // A bot's seat has no user but its level ('bot'); `who` names it all the same.
      seats: record.players.map((p) => ({ seat: p.seat, label: labelOf(record, p.seat), user: who(p) })),
    };
    const why = endReason(snap);
    page.append(
      h('h1', {}, `${t('replay.title')}: ${info ? gameName(info) : record.game}`),
      h('p', { class: 'lead' },
        info ? variantName(info, record.variant) : record.variant, ' · ',
        snap.seats.map((x, i) => [i ? ' — ' : null, `${sideName(record.game, x.label)}: `, playerLink(x.user)]), ' · ',
        resultText(snap, games), why ? ` — ${why}` : ''),
    );
    if (reviewable()) {
      page.append(h('p', {}, h('a', { class: 'btn analyse-link', href: analysisHref(record.game, record.variant, { record: id, token, line: record.moves.slice(0, step) }) }, t('analysis.board.open'))));
    }
    // (`append` would write a null out as the text "null".)
    if (record.game === 'white-rabbit' && record.status === 'finished') {
      page.append(h('p', {}, h('a', { class: 'btn review-link', href: `#/review/${id}${token ? '?token=' + encodeURIComponent(token) : ''}` }, t('review.open'))));
    }
    const main = h('div', { class: 'table-main' });
    const boardCol = h('div', { class: 'board-col' }, boardBox);
    if (positions && positions[step] && boards[record.game]) {
      boards[record.game].render(boardBox, {
        variant: record.variant,
        position: positions[step],
        legal: [],
        last: step > 0 ? record.moves[step - 1] : null,
        // The review's move for this position, drawn on the board.
        best: review?.status === 'done' ? review.review.positions[step]?.best : null,
      }, { interactive: false });
    } else {
      clear(boardBox).append(h('p', { class: 'notice' }, t('replay.nopositions')));
    }
    const controls = h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': t('replay.title') },
      h('button', { class: 'btn', onClick: () => go(0), disabled: step === 0, 'aria-label': t('replay.first') }, '«'),
      h('button', { class: 'btn replay-prev', onClick: () => go(step - 1), disabled: step === 0, 'aria-label': t('replay.prev') }, '‹'),
      h('span', { class: 'step' }, `${step} / ${max()}`),
      h('button', { class: 'btn replay-next', onClick: () => go(step + 1), disabled: step === max(), 'aria-label': t('replay.next') }, '›'),
      h('button', { class: 'btn', onClick: () => go(max()), disabled: step === max(), 'aria-label': t('replay.last') }, '»'),
    );
    boardCol.append(controls);
    const list = h('ol', { class: 'move-list replay-moves' });
    // Numbered as at the table: a number per round.
    const words = boards[record.game]?.moveWords || moveText;
    for (const row of moveRows(record.game, record.moves.length, (record.seats || []).length === 1)) {
      list.append(h('li', {}, h('span', { class: 'num' }, `${row.num}.`), ...row.plies.map((i) =>
        h('button', { class: ['mv', 'linklike', step === i + 1 && 'current'], onClick: () => go(i + 1) }, words(record.moves[i], positions?.[i]), review?.status === 'done' ? moveMark(review.review, i) : null))));
    }
    const side = h('aside', { class: 'side-col' });
    if (reviewable()) side.append(analysisPanel(review, { step, go, ask, words, positions, side: (seat) => sideName(record.game, labelOf(record, seat)) }));
    side.append(h('section', { class: 'panel' }, h('h2', {}, t('moves.title')), list));
    main.append(boardCol, side);
    page.append(main);
    // The list follows the move on the board (within the list only: the page stays put).
    const current = list.querySelector('.mv.current');
    if (current) {
      const item = current.closest('li');
      const top = item.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - (list.clientHeight - item.offsetHeight) / 2);
      }
    } else {
      list.scrollTop = 0;
    }
  }

  function reviewable() {
    return record && record.game !== 'white-rabbit' && record.status === 'finished' && (record.players || []).length === 2;
  }

  async function refresh() {
    try {
      review = await api.analysis(id, token);
    } catch (err) {
      review = null;
      if (err.status !== 409) toast(err.message, 'error');
    }
    follow();
  }

  /** While the review is queued or running, asks again every second. */
  function follow() {
    clearTimeout(polling);
    if (review && (review.status === 'queued' || review.status === 'running') && root.isConnected) {
      polling = setTimeout(refresh, 1000);
    }
    render();
  }

  async function ask() {
    try {
      review = await api.askAnalysis(id, token);
    } catch (err) {
      toast(err.message, 'error');
      return;
    }
    follow();
  }

  async function load() {
    render();
    try {
      [record, games] = await Promise.all([api.record(id, token), api.games()]);
    } catch (err) {
      problem = err.status === 404 ? t('table.notfound') : err.message;
      render();
      return;
    }
    try {
      const reply = await api.recordPositions(id, token);
      // Anything but a list of strings means the endpoint is not there (yet).
      const list = Array.isArray(reply) ? reply : reply?.positions;
      positions = Array.isArray(list) && list.length === record.moves.length + 1 ? list : null;
    } catch (err) {
      positions = null;
      if (err.status !== 404) toast(err.message, 'error');
    }
    step = max();
    render();
    if (reviewable()) refresh();
  }

  load();
  return {
    unmount() { document.removeEventListener('keydown', onKey); clearTimeout(polling); },
    relabel: render,
  };
}
