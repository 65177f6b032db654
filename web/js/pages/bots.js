// The bots (#/bots, #/bots?bot=ID): the site's own bots and the bot accounts on the ladder,
// with their rapid rating in each two-player game (the class the ladder's games count in),
// and the ladder's last games, all of them or one bot's, each a link to its replay.

import { h, clear, formatDate } from '../ui.js';
import { t, lang, gameName, variantName, resultText } from '../i18n.js';
import { api } from '../api.js';
import { playerLink, ratingNode } from '../players.js';

/** Ladder games shown at once. */
const SHOWN = 20;

export function mount(root, params) {
  const chosen = params.query.get('bot') || null;
  let games = null;
  let ladder = null;
  let problem = null;

  function ratingsTable() {
    const two = games.filter((g) => g.seats > 1);
    return h('table', { class: 'list bots-ratings' },
      h('thead', {}, h('tr', {}, h('th', {}, t('bots.bot')), ...two.map((g) => h('th', { 'data-game': g.id }, gameName(g))))),
      h('tbody', {}, ...ladder.bots.map((b) => h('tr', { 'data-bot': b.id },
        h('td', {}, playerLink({ id: b.id, name: b.name, bot: b.level || true })),
        ...two.map((g) => {
          const r = b.ratings?.[g.id]?.rapid;
          return h('td', { class: 'rating-cell' }, r ? [ratingNode(r), h('div', { class: 'small' }, t('bots.games', { n: r.games }))] : '—');
        })))));
  }

  function recentTable() {
    const list = ladder.recent.filter((g) => !chosen || g.players.some((p) => p.id === chosen)).slice(0, SHOWN);
    if (!list.length) return h('p', { class: 'empty' }, t('bots.recent.none'));
    return h('table', { class: 'list ladder-games' },
      h('thead', {}, h('tr', {}, ['profile.date', 'lobby.game', 'bots.players', 'profile.result'].map((k) => h('th', {}, t(k))), h('th', {}, h('span', { class: 'sr-only' }, t('list.actions'))))),
      h('tbody', {}, ...list.map((g) => {
        const info = games.find((x) => x.id === g.game);
        const seats = g.players.map((p, i) => ({ seat: 'ab'[i], label: 'ab'[i], user: { name: p.name } }));
        const snap = { game: g.game, status: 'finished', result: g.result, seats };
        return h('tr', { 'data-game': g.id },
          h('td', {}, g.ended_at ? formatDate(g.ended_at, lang()) : ''),
          h('td', {}, info ? gameName(info) : g.game, h('div', { class: 'small' }, info ? variantName(info, g.variant) : g.variant)),
          h('td', { class: 'ladder-players' }, ...g.players.map((p, i) => [i ? h('span', { class: 'vs' }, ' — ') : null, playerLink(p)])),
          h('td', {}, resultText(snap, games)),
          h('td', {}, g.id ? h('a', { class: 'btn small replay-link', href: `#/replay/${g.id}` }, t('profile.replay')) : null));
      })));
  }

  function filter() {
    const link = (id, text) => h('a', { href: id ? `#/bots?bot=${encodeURIComponent(id)}` : '#/bots', class: chosen === id ? 'active' : '', 'aria-current': chosen === id ? 'page' : null, dataset: { bot: id || '' } }, text);
    return h('nav', { class: 'switcher', 'aria-label': t('bots.filter') },
      link(null, t('bots.all')), ...ladder.bots.map((b) => link(b.id, b.level ? t('bot.' + b.level) : b.name)));
  }

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    clear(root);
    document.title = `${t('bots.title')} — ${t('app.name')}`;
    const page = h('section', { class: 'page bots-page' },
      h('h1', {}, t('bots.title')),
      h('p', { class: 'lead' }, t('bots.intro')),
      h('p', {}, h('a', { class: 'leaderboard-link', href: '#/leaderboard?bots=1' }, t('bots.leaderboard'))));
    root.append(page);
    if (problem) {
      page.append(h('p', { class: 'error' }, problem));
      return;
    }
    if (!games || !ladder) {
      page.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    page.append(
      h('section', { class: 'panel' }, h('h2', {}, t('bots.ratings')), ratingsTable(), h('p', { class: 'small' }, t('bots.ratings.note'))),
      h('section', { class: 'panel' }, h('h2', {}, t('bots.recent')), filter(), recentTable()),
    );
  }

  async function load() {
    render();
    try {
      [games, ladder] = await Promise.all([api.games(), api.ladder()]);
    } catch (err) {
      problem = err.message;
    }
    render();
  }

  load();
  return { relabel: render };
}
