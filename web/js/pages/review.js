// White Rabbit's review of a finished game: each decision with the action taken, the best
// one, and what the choice cost in win probability, expected score and expected actions.

import { h, clear, formatPercent } from '../ui.js';
import { t, moveText } from '../i18n.js';
import { api } from '../api.js';

function lossText(loss) {
  return [
    loss.win > 0 ? `−${(100 * loss.win).toFixed(2)}%` : null,
    loss.score > 0 ? t('review.loss.score', { n: loss.score.toFixed(2) }) : null,
    loss.actions > 0 ? t('review.loss.actions', { n: loss.actions.toFixed(1) }) : null,
  ].filter(Boolean).join(', ') || '—';
}

export function mount(root, params) {
  const id = params.parts[1];
  const token = params.query.get('token') || undefined;
  let review = null;
  let problem = null;

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
        t('review.summary', { optimal: s.optimal, choices: s.choices, decisions: s.decisions }), ' ',
        s.exact === s.decisions ? t('review.allexact') : s.exact ? t('review.someexact', { n: s.exact }) : t('review.noexact')),
      h('p', { class: 'review-total' }, t('review.total'), ' ', lossText(s.loss)),
      h('p', {}, h('a', { class: 'btn', href: `#/replay/${id}${token ? '?token=' + encodeURIComponent(token) : ''}` }, t('table.replay'))),
    );
    const body = h('tbody');
    for (const d of review.decisions) {
      body.append(h('tr', { class: ['decision', d.optimal ? 'optimal' : 'mistake', d.forced ? 'forced' : ''], 'data-ply': d.ply },
        h('td', {}, String(d.ply + 1)),
        h('td', {}, String(d.green)),
        h('td', {}, moveText(d.taken.action), h('div', { class: 'small' }, formatPercent(d.taken.win))),
        h('td', {}, d.optimal ? t('review.same') : moveText(d.best.action), d.optimal ? null : h('div', { class: 'small' }, formatPercent(d.best.win))),
        h('td', {}, d.forced ? t('review.forced') : d.optimal ? '✓' : lossText(d.loss)),
        h('td', { class: 'small' }, d.exact ? t('review.exact') : t('review.estimate')),
      ));
    }
    page.append(h('div', { class: 'panel' }, h('table', { class: 'list review-list' },
      h('thead', {}, h('tr', {}, ['review.ply', 'review.green', 'review.taken', 'review.best', 'review.loss', ''].map((k) => h('th', {}, k ? t(k) : '')))),
      body)));
  }

  api.review(id, token)
    .then((r) => { review = r; render(); })
    .catch((err) => { problem = err.message || String(err); render(); });
  render();
  return { relabel: render };
}
