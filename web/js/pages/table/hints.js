// White Rabbit's hints: the solver's values for the position on the board.

import { h, clear, toast } from '../../ui.js';
import { t } from '../../i18n.js';
import { api } from '../../api.js';
import { actionWords, numbers } from '../../rabbit-words.js';
import { button } from './actions.js';

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function hints(page) {
  const { id, el } = page;

  /** The solver's best action for the position on the board, once it has answered. */
  function currentHint() {
    return page.hint && page.hint.ply === page.tbl.ply && page.hint.hints ? page.hint.hints[0] : null;
  }

  async function askHint() {
    const ply = page.tbl.ply;
    page.hint = { ply, loading: true };
    renderHint();
    try {
      const answer = await api.hints(id);
      if (answer.ply !== page.tbl.ply) return; // the position moved on meanwhile
      page.hint = { ply: answer.ply, hints: answer.hints, exact: answer.exact };
    } catch (err) {
      page.hint = null;
      toast(page.errorText(err), 'error');
    }
    renderHint();
    page.renderBoard();
  }

  function renderHint() {
    clear(el.hint);
    if (!page.hint || page.hint.ply !== page.tbl.ply || page.tbl.status !== 'playing') return;
    if (page.hint.loading) {
      el.hint.append(h('p', { class: 'loading' }, t('hint.thinking')));
      return;
    }
    // Dice of one colour and value are alike: their swaps read the same and are worth the
    // same, so each is listed once.
    const seen = new Set();
    const [best, ...rest] = page.hint.hints.filter((x) => {
      const words = actionWords(x.action, page.tbl.position);
      return !seen.has(words) && seen.add(words);
    });
    if (!best) return;
    // One group of two rows a hint: the action in words, then its three values (a row of
    // four columns did not fit the side column once the dice were named in words).
    const row = (x, cls) => h('tbody', { class: ['hint-row', cls] },
      h('tr', {}, h('th', { class: 'hint-action', scope: 'rowgroup', colspan: 3 }, actionWords(x.action, page.tbl.position))),
      h('tr', { class: 'hint-values' },
        h('td', {}, numbers.win(x.win)),
        h('td', {}, numbers.score(x.score)),
        h('td', {}, numbers.actions(x.actions))),
    );
    el.hint.append(
      h('h2', {}, t('hint.title')),
      h('p', { class: 'hint-best' }, t('hint.best', { action: actionWords(best.action, page.tbl.position) }), ' ',
        page.myTurn() ? button(t('hint.play'), () => page.sendMove(best.action), 'primary play-hint') : null),
      h('table', { class: 'hint-table rabbit-values' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('hint.win')), h('th', { scope: 'col' }, t('hint.score')), h('th', { scope: 'col' }, t('hint.actions')))),
        row(best, 'best'), ...rest.slice(0, 4).map((x) => row(x, '')),
      ),
      h('p', { class: 'small muted hint-mode' }, t(page.hint.exact ? 'hint.exact' : 'hint.estimate'), ' ', t('hint.explain')),
    );
  }

  return { askHint, currentHint, renderHint };
}
