// A player's public page (#/player/ID), for people and bots alike: who they are, their
// ratings per game and class, wins, draws and losses, a rating-history chart for each game and
// class they have played rated, the tournaments they took part in (player_tournaments.js) and
// their latest finished games.

import { h, clear, formatDate, toast } from '../ui.js';
import { t, lang, gameName } from '../i18n.js';
import { api } from '../api.js';
import { session } from '../session.js';
import { ratingChart } from '../chart.js';
import { gamesTable } from '../gamelist.js';
import { CLASSES, who, ratingNode, ratingText, className, changeText } from '../players.js';
import { challengePanel } from '../challenge_form.js';
import { tournamentRecord } from './player_tournaments.js';

/** How many of the latest games the page lists. */
const RECENT = 20;

export function mount(root, params) {
  const id = params.parts[1];
  let user = null;
  let history = null;
  let list = null;
  let games = [];
  let problem = null;
  /** The tournaments read so far ({ tournaments, more, page }); none for a bot. */
  let record = null;

  function gameTitle(gameId) {
    const info = games.find((g) => g.id === gameId);
    return info ? gameName(info) : gameId;
  }

  function kind() {
    if (user.bot) return t('player.bot');
    if (user.bot_account) return t('bot.badge');
    return user.guest ? t('player.guest') : t('player.account');
  }

  function ratingsPanel() {
    const rows = Object.entries(user.ratings || {}).filter(([, byClass]) => Object.keys(byClass || {}).length);
    if (!rows.length) return h('p', { class: 'empty' }, t('player.unrated'));
    return h('table', { class: 'list ratings-table' },
      h('thead', {}, h('tr', {}, h('th', {}, t('lobby.game')), ...CLASSES.map((c) => h('th', {}, className(c))))),
      h('tbody', {}, ...rows.map(([game, byClass]) => h('tr', { 'data-game': game },
        h('td', {}, h('a', { href: `#/leaderboard/${game}` }, gameTitle(game))),
        ...CLASSES.map((c) => h('td', { 'data-class': c }, byClass[c]
          ? [ratingNode(byClass[c]), h('div', { class: 'small' }, t('player.games', { n: byClass[c].games }))]
          : '—'))))));
  }

  function resultsLine() {
    const r = user.results || { wins: 0, draws: 0, losses: 0 };
    return h('p', { class: 'results-line' },
      h('span', { class: 'wins' }, t('player.wins', { n: r.wins })), ' · ',
      h('span', { class: 'draws' }, t('player.draws', { n: r.draws })), ' · ',
      h('span', { class: 'losses' }, t('player.losses', { n: r.losses })));
  }

  function charts() {
    if (!history) return h('p', { class: 'loading' }, t('loading'));
    if (!history.length) return h('p', { class: 'empty' }, t('player.nohistory'));
    // One chart per game and class, in the order of the first game played in each.
    const groups = new Map();
    for (const p of history) {
      const key = `${p.game}/${p.class}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    // Side by side on a wide screen, one under another on a narrow one (see app.css).
    const width = window.innerWidth > 1000 ? 540 : Math.min(640, window.innerWidth - 60);
    const locale = { ru: 'ru-RU', uk: 'uk-UA', en: 'en-GB' }[lang()];
    const day = (ms) => new Date(ms).toLocaleDateString(locale, { day: 'numeric', month: 'short' });
    const hour = (ms) => new Date(ms).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
    return [...groups.values()].map((points) => {
      const title = `${gameTitle(points[0].game)} · ${className(points[0].class)}`;
      const last = points[points.length - 1];
      return h('figure', { class: 'rating-history', 'data-game': points[0].game, 'data-class': points[0].class },
        h('figcaption', {}, h('strong', {}, title), ' ', h('span', { class: 'small' }, t('player.now', { rating: ratingText(last), n: points.length }))),
        ratingChart(points.map((p) => ({
          at: p.at,
          rating: p.rating,
          change: p.change,
          href: `#/replay/${p.game_id}`,
          title: `${ratingText(p)} (${changeText(p.change)}) — ${t('player.vs', { name: who(p.opponent).name || '—' })}, ${formatDate(p.at, lang())}`,
        })), { label: t('player.chart', { title }), dateLabel: last.at - points[0].at < 86400000 ? hour : day, width }));
    });
  }

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    clear(root);
    const page = h('section', { class: 'page player-page' });
    root.append(page);
    if (problem) {
      page.append(h('h1', {}, t('player.title')), h('p', { class: 'error' }, problem));
      return;
    }
    if (!user) {
      page.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    const name = who(user).name;
    document.title = `${name} — ${t('app.name')}`;
    const self = session.user && session.user.id === user.id;
    page.append(
      h('h1', {}, name),
      h('p', { class: 'lead' },
        h('span', { class: ['badge', 'kind', user.bot || user.bot_account ? 'bot' : user.guest ? 'guest' : 'account'], title: user.bot_account ? t('bot.badge.title') : null }, kind()),
        user.created_at ? ` ${t('player.since', { date: formatDate(user.created_at, lang()) })}` : '',
        self ? [' · ', h('a', { href: '#/profile' }, t('player.yours'))] : null,
        user.bot || user.bot_account ? [' · ', h('a', { class: 'bots-link', href: `#/bots?bot=${encodeURIComponent(user.id)}` }, t('bots.link'))] : null),
      resultsLine(),
      challengePanel(user, games),
      h('section', { class: 'panel' }, h('h2', {}, t('player.ratings')), ratingsPanel()),
      h('section', { class: 'panel' }, h('h2', {}, t('player.history')), h('div', { class: 'charts' }, charts())),
      user.bot ? null : h('section', { class: 'panel', 'aria-labelledby': 'player-tournaments' },
        h('h2', { id: 'player-tournaments' }, t('player.tournaments')), tournamentRecord(record, games, moreTournaments)),
      h('section', { class: 'panel' }, h('h2', {}, t('player.recent')),
        list ? gamesTable(list.slice(0, RECENT), games, user.id) : h('p', { class: 'loading' }, t('loading'))),
    );
  }

  async function load() {
    render();
    try {
      user = await api.user(id);
    } catch (err) {
      problem = err.status === 404 ? t('player.notfound') : err.message;
      render();
      return;
    }
    render();
    const [h1, g1, c1, r1] = await Promise.allSettled([api.ratingHistory(id), api.userGames(id), api.games(),
      user.bot ? Promise.resolve(null) : api.userTournaments(id, 1)]);
    history = h1.status === 'fulfilled' ? h1.value.points : [];
    list = g1.status === 'fulfilled' ? g1.value : [];
    games = c1.status === 'fulfilled' ? c1.value : [];
    record = r1.status === 'fulfilled' && r1.value ? r1.value : { tournaments: [], more: false, page: 1 };
    render();
  }

  async function moreTournaments() {
    try {
      const next = await api.userTournaments(id, record.page + 1);
      record = { tournaments: [...record.tournaments, ...next.tournaments], more: next.more, page: next.page };
    } catch (err) {
      toast(err.message, 'error');
    }
    render();
  }

  load();
  return { relabel: render };
}
