// The leaderboards (#/leaderboard/GAME?class=blitz, &bots=1 for the bot accounts'): the best
// established ratings of one game and class, people's accounts or bot accounts. Switchers for
// the board (people or bots), the game (two-player games) and the class.

import { h, clear } from '../ui.js';
import { t, gameName } from '../i18n.js';
import { api } from '../api.js';
import { session } from '../session.js';
import { navigate } from '../router.js';
import { CLASSES, className, playerLink } from '../players.js';

export function mount(root, params) {
  const game = params.parts[1] || null;
  const cls = CLASSES.includes(params.query.get('class')) ? params.query.get('class') : 'blitz';
  const bots = params.query.get('bots') === '1';
  let games = null;
  let board = null;
  let problem = null;
  // The player search: what is typed, what was asked, and what came back (null before any
  // search). The draft survives a redraw (the board arriving while someone types).
  let draft = '';
  let query = '';
  let found = null;

  async function search(e) {
    e.preventDefault();
    draft = e.target.elements.q.value;
    query = draft.trim();
    if (!query) return;
    try {
      found = (await api.searchUsers(query)).players;
    } catch (err) {
      found = [];
      problem = err.message;
    }
    render();
    root.querySelector('.player-search input')?.focus();
  }

  function searchBox() {
    const box = h('section', { class: 'panel player-search' },
      h('form', { role: 'search', onSubmit: search },
        h('label', { class: 'field' }, h('span', {}, t('players.search')),
          h('input', { type: 'search', name: 'q', value: draft, maxlength: 32, autocomplete: 'off', onInput: (e) => { draft = e.target.value; } })),
        h('button', { class: 'btn', type: 'submit' }, t('players.search.go'))));
    if (found) {
      box.append(found.length
        ? h('ul', { class: 'found-players' }, ...found.map((p) => h('li', {}, playerLink(p))))
        : h('p', { class: 'empty' }, t('players.search.none', { q: query })));
    }
    return box;
  }

  const href = (g, c, b = bots) => `#/leaderboard/${g}?class=${c}${b ? '&bots=1' : ''}`;

  function switcher(label, items) {
    return h('nav', { class: 'switcher', 'aria-label': label },
      ...items.map(([text, link, on, data]) => h('a', { href: link, class: on ? 'active' : '', 'aria-current': on ? 'page' : null, dataset: data }, text)));
  }

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    const typing = document.activeElement === root.querySelector('.player-search input');
    clear(root);
    const page = h('section', { class: 'page leaderboard-page' }, h('h1', {}, t('leaderboard.title')), searchBox());
    root.append(page);
    if (typing) {
      const box = root.querySelector('.player-search input');
      box.focus();
      box.setSelectionRange(draft.length, draft.length);
    }
    if (!games) {
      page.append(h('p', { class: problem ? 'error' : 'loading' }, problem || t('loading')));
      return;
    }
    const info = games.find((g) => g.id === game);
    document.title = `${t('leaderboard.title')}: ${info ? gameName(info) : game} — ${t('app.name')}`;
    page.append(
      switcher(t('leaderboard.board'), [[t('leaderboard.people'), href(game, cls, false), !bots, { board: 'people' }], [t('leaderboard.bots'), href(game, cls, true), bots, { board: 'bots' }]]),
      switcher(t('lobby.game'), games.map((g) => [gameName(g), href(g.id, cls), g.id === game, { game: g.id }])),
      switcher(t('leaderboard.class'), CLASSES.map((c) => [className(c), href(game, c), c === cls, { class: c }])),
    );
    const panel = h('section', { class: 'panel' });
    page.append(panel);
    // Who is listed, and when a newcomer will be.
    page.append(h('p', { class: 'note leaderboard-rule' }, t('leaderboard.rule')));
    if (problem) panel.append(h('p', { class: 'error' }, problem));
    else if (!board) panel.append(h('p', { class: 'loading' }, t('loading')));
    else if (!board.players.length) {
      panel.append(h('p', { class: 'empty' }, t('leaderboard.empty')));
      // People are invited to play; a bot's owner is not sent to the game list.
      if (!bots) panel.append(h('p', {}, h('a', { class: 'btn primary', href: '#/' }, t('leaderboard.play'))));
    }
    else {
      const me = session.user?.id;
      panel.append(h('table', { class: 'leaderboard' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('leaderboard.player')), h('th', {}, t('leaderboard.rating')), h('th', {}, t('leaderboard.games')))),
        h('tbody', {}, ...board.players.map((p) => h('tr', { class: p.user_id === me ? 'me' : '', 'data-user': p.user_id },
          h('td', {}, String(p.rank)),
          h('td', {}, playerLink(p)),
          h('td', { class: 'rating' }, String(p.rating)),
          h('td', {}, String(p.games)))))));
    }
    panel.append(h('p', { class: 'small' }, t(bots ? 'leaderboard.note.bots' : 'leaderboard.note'), ' ',
      h('a', { class: 'bots-link', href: '#/bots' }, t('leaderboard.bots.page'))));
  }

  async function load() {
    render();
    try {
      // Solo games have no ratings: only games for two are ranked.
      games = (await api.games()).filter((g) => g.seats > 1);
    } catch (err) {
      problem = err.message;
      render();
      return;
    }
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    if (!games.some((g) => g.id === game)) {
      navigate(href(games[0].id, cls).slice(1));
      return;
    }
    render();
    try {
      board = await api.leaderboard(game, cls, bots);
    } catch (err) {
      problem = err.status === 404 ? t('leaderboard.nogame') : err.message;
    }
    render();
  }

  load();
  return { relabel: render };
}
