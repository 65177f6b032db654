// White Rabbit's review of a finished game: each decision with the action taken, the best
// one, and what the choice cost in win probability, expected score and expected actions.
// Choosing a decision shows its position on the board, the best action's dice marked, with
// the taken and the best action side by side in words. The review is computed once and kept
// by the server: every view shows the same verdicts.

import { h, clear } from '../ui.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { boards } from '../registry/index.js';
import { actionWords, numbers } from '../rabbit-words.js';

function lossText(loss) {
  return [
    loss.win > 0 ? `−${numbers.win(loss.win)}` : null,
    loss.score > 0 ? t('review.loss.score', { n: numbers.score(loss.score) }) : null,
    loss.actions > 0 ? t('review.loss.actions', { n: numbers.actions(loss.actions) }) : null,
  ].filter(Boolean).join(', ') || '—';
}

function valuesText(x) {
  return t('review.values', { win: numbers.win(x.win), score: numbers.score(x.score), actions: numbers.actions(x.actions) });
}

export function mount(root, params) {
  const id = params.parts[1];
  const token = params.query.get('token') || undefined;
  let review = null;
  let problem = null;
  let chosen = null; // the ply whose position is on the board
  let boardBox = null;
  let wordsBox = null;

  function modeText(s) {
    if (s.exact === s.decisions) return t('review.allexact');
    return s.exact ? t('review.someexact', { n: s.exact }) : t('review.noexact');
  }

  function showDecision(ply, focusRow) {
    chosen = ply;
    const d = review.decisions[ply];
    clear(boardBox);
    clear(wordsBox);
    boards['white-rabbit'].render(boardBox, {
      game: 'white-rabbit',
      variant: review.variant,
      position: d.position,
      legal: [],
      last: null,
      hinted: d.best.action,
      interactive: false,
      over: true,
    }, { interactive: false });
    wordsBox.append(
      h('h2', {}, t('review.position', { n: d.ply + 1 })),
      h('p', { class: 'review-words taken' }, t('review.played', { action: actionWords(d.taken.action, d.position) }), ' — ', valuesText(d.taken)),
      h('p', { class: 'review-words best' }, t('review.bestwas', { action: actionWords(d.best.action, d.position) }), ' — ', valuesText(d.best)),
      h('p', { class: 'review-words cost' }, t('review.loss'), ': ', d.forced ? t('review.forced') : d.optimal ? '✓' : lossText(d.loss)),
    );
    for (const row of root.querySelectorAll('tr.decision')) {
      row.classList.toggle('chosen', Number(row.dataset.ply) === ply);
      row.querySelector('button.show')?.setAttribute('aria-pressed', Number(row.dataset.ply) === ply ? 'true' : 'false');
    }
    if (focusRow) root.querySelector(`tr.decision[data-ply="${ply}"] button.show`)?.focus();
  }

  function render() {
    clear(root);
    document.title = `${t('review.title')} — ${t('app.name')}`;
    const page = h('section', { class: 'page review' }, h('h1', {}, t('review.title')));
    root.append(page);
    if (problem) {
      page.append(h('p', { class: 'error' }, problem));
      return;
    }
    if (!review) {
      page.append(h('p', { class: 'loading' }, t('review.loading')));
      return;
    }
    const s = review.summary;
    page.append(
      h('p', { class: 'lead review-summary' },
        t('review.summary', { optimal: s.optimal, choices: s.choices, decisions: s.decisions }), ' ', modeText(s)),
      h('p', { class: 'review-total' }, t('review.total'), ' ', lossText(s.loss)),
      h('p', {}, h('a', { class: 'btn', href: `#/replay/${id}${token ? '?token=' + encodeURIComponent(token) : ''}` }, t('table.replay'))),
    );
    const body = h('tbody');
    for (const d of review.decisions) {
      const words = (a) => actionWords(a, d.position);
      body.append(h('tr', { class: ['decision', d.optimal ? 'optimal' : 'mistake', d.forced ? 'forced' : ''], 'data-ply': d.ply, onClick: () => showDecision(d.ply) },
        h('td', { class: 'num' },
          h('button', { class: 'btn small show', 'aria-pressed': 'false', 'aria-label': `${t('review.show')}: ${d.ply + 1}`, onClick: (e) => { e.stopPropagation(); showDecision(d.ply); } }, String(d.ply + 1))),
        h('td', { class: 'num' }, String(d.green)),
        h('td', {}, words(d.taken.action), h('div', { class: 'small' }, numbers.win(d.taken.win))),
        h('td', {}, d.optimal ? t('review.same') : words(d.best.action), d.optimal ? null : h('div', { class: 'small' }, numbers.win(d.best.win))),
        h('td', {}, d.forced ? t('review.forced') : d.optimal ? '✓' : lossText(d.loss)),
        h('td', { class: 'small' }, d.exact ? t('review.exact') : t('review.estimate')),
      ));
    }
    boardBox = h('div', { class: 'review-board-svg' });
    wordsBox = h('div', { class: 'review-decision', 'aria-live': 'polite' }, h('p', { class: 'muted' }, t('review.pick')));
    page.append(h('div', { class: 'review-layout' },
      h('div', { class: 'panel review-board' }, boardBox, wordsBox),
      h('div', { class: 'panel' }, h('table', { class: 'list review-list' },
        h('thead', {}, h('tr', {}, ['review.ply', 'review.green', 'review.taken', 'review.best', 'review.loss'].map((k) => h('th', { scope: 'col' }, t(k))), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('review.how'))))),
        body)),
    ));
    // The first decision that cost something, or the first one: the board is never empty.
    const first = review.decisions.find((d) => !d.optimal && !d.forced) || review.decisions[0];
    if (first) showDecision(chosen ?? first.ply);
  }

  api.review(id, token)
    .then((r) => { review = r; render(); })
    .catch((err) => { problem = err.message || String(err); render(); });
  render();
  return { relabel: render };
}
