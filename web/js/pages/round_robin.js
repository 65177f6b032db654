// A round robin's page (#/tournament/ID, handed over by tournament.js once the tournament
// reads as one): its state, the caller's buttons (join before the start, leave), the cross
// table — each player's results against each other, points and Sonneborn–Berger — and every
// game of the schedule. Correspondence games move slowly, so the page reads the tournament
// again every half minute instead of following it over the socket.

import { h, clear, icon, toast } from '../ui.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { session } from '../session.js';
import { playerLink } from '../players.js';
import { clockSkew, countdownText, tournamentTitle } from './tournaments.js';
import { podium } from './podium.js';

const REFRESH_MS = 30000;

/** A game's result as its player scored it: 1, ½, 0; to come: a dot. */
function mark(game) {
  if (!game.result) return '·';
  return { win: '1', draw: '½', loss: '0' }[game.result];
}

/** "1½" → a number written with a half, the way cross tables do. */
export function halves(n) {
  const whole = Math.floor(n);
  const rest = n - whole;
  const half = rest === 0.5 ? '½' : rest === 0.25 ? '¼' : rest === 0.75 ? '¾' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
}

/** `chat` is the page's chat room (tournament_chat.js), shown below the games. */
export function mountRoundRobin(root, id, first, gamesCatalogue, chat) {
  let view = first;
  let games = gamesCatalogue;
  let skew = clockSkew(first.now);
  const el = {};
  /** The start has passed and the drawn schedule was asked for. */
  let asked = false;

  function render() {
    if (!root.isConnected) return;
    clear(root);
    const tour = view.tournament;
    const title = tournamentTitle(tour, games);
    document.title = `${title} — ${t('app.name')}`;
    el.countdown = h('p', { class: 'tour-countdown big' }, icon('clock'), ' ', h('span', {}, countdownText(tour, Date.now() + skew)));
    const section = h('section', { class: 'page tournament-page round-robin-page' },
      h('div', { class: 'page-head' }, h('h1', {}, title), h('a', { href: '#/tournaments', class: 'small' }, t('tour.back'))),
      h('section', { class: 'panel tour-head' },
        el.countdown,
        h('p', { class: 'small' }, tour.rated ? t('rated.rated') : t('rated.casual'), ' · ', t('tour.players', { n: view.cross_table.length }),
          tour.move_days && !tour.vacation ? [' · ', t('tour.rr.no_vacation')] : null,
          tour.site ? [' · ', h('span', { class: 'tour-site' }, t('tour.site.by'))] : null),
        actions()),
      tour.status === 'finished' ? podium(view.cross_table, (line) => t('tour.points', { n: halves(line.points) })) : null,
      h('section', { class: 'panel', 'aria-labelledby': 'rr-cross' }, h('h2', { id: 'rr-cross' }, t('tour.rr.cross_table')), crossTable()),
      view.games.length ? h('section', { class: 'panel', 'aria-labelledby': 'rr-games' }, h('h2', { id: 'rr-games' }, t('tour.rr.games')), gameList()) : null);
    root.append(section);
    chat.attach(section);
  }

  function actions() {
    const tour = view.tournament;
    const mine = view.me;
    const box = h('div', { class: 'tour-actions' });
    if (tour.status === 'finished' || tour.status === 'cancelled') return box;
    if (!mine) {
      box.append(h('p', { class: 'small' }, t('tour.accounts')));
      return box;
    }
    const button = (action, label, primary) => h('button', { class: ['btn', primary && 'primary', `tour-${action}`], onClick: () => act(action) }, label);
    if (mine.withdrawn) box.append(h('p', { class: 'small' }, t('tour.rr.withdrawn')));
    else if (!mine.joined && tour.status === 'upcoming') box.append(button('join', t('tour.join'), true));
    else if (mine.joined) {
      if (mine.playing.length) box.append(h('p', { class: 'small' }, t('tour.rr.to_play', { n: mine.playing.length })));
      box.append(button('withdraw', t('tour.withdraw')));
    }
    return box;
  }

  function crossTable() {
    const lines = view.cross_table;
    if (!lines.length) return h('p', { class: 'empty' }, t('tour.nobody'));
    const user = session.user;
    const cell = (line, index, j) => {
      if (index === j) return h('td', { class: 'rr-self', 'aria-label': '—' }, '×');
      const played = line.against[j];
      return h('td', { class: 'rr-cell' }, ...played.map((g) => {
        const text = mark(g);
        const label = `${t('tour.rr.seat.' + g.seat)}: ${g.result ? t('tour.score.' + g.result) : t('tour.rr.to_come')}${g.forfeit ? ' · ' + t('tour.rr.forfeit') : ''}`;
        return g.table
          ? h('a', { class: ['rr-mark', g.result && `r-${g.result}`], href: `#/table/${g.table}`, title: label, 'aria-label': label }, text)
          : h('span', { class: 'rr-mark', title: label }, text);
      }));
    };
    return h('div', { class: 'rr-scroll' }, h('table', { class: 'list rr-cross' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('lobby.players')),
        ...lines.map((_, j) => h('th', { class: 'rr-num' }, String(j + 1))),
        h('th', {}, t('tour.score')), h('th', {}, h('abbr', { title: t('tour.rr.sb.long') }, t('tour.rr.sb'))))),
      h('tbody', {}, ...lines.map((line, index) => h('tr', { class: ['tour-line', user && line.player === user.id && 'mine'], 'data-player': line.player },
        h('td', {}, String(line.rank)),
        h('td', { class: 'rr-name' }, `${index + 1}. `, playerLink({ id: line.player, name: line.name }), ' ',
          h('span', { class: 'small' }, String(line.rating)),
          line.withdrawn ? h('span', { class: 'small tag' }, t('tour.left')) : null),
        ...lines.map((_, j) => cell(line, index, j)),
        h('td', { class: 'tour-points' }, h('strong', {}, halves(line.points))),
        h('td', { class: 'rr-sb' }, halves(line.sonneborn_berger)))))));
  }

  function gameList() {
    return h('ul', { class: 'tour-game-list rr-games' }, ...view.games.map((g) => {
      const text = `${t('tour.rr.round', { n: g.round })}: ${g.players[0]} — ${g.players[1]}`;
      const state = g.result ? (g.result === 'draw' ? '½–½' : g.result === 'a' ? '1–0' : '0–1') : t('tour.rr.status.' + g.status);
      return h('li', { 'data-status': g.status },
        g.table ? h('a', { href: `#/table/${g.table}` }, text) : h('span', {}, text),
        ' ', h('span', { class: 'small' }, state));
    }));
  }

  async function load() {
    try {
      view = await api.tournament(id);
      skew = clockSkew(view.now);
    } catch (err) {
      toast(err.message, 'error');
    }
    render();
  }

  async function act(action) {
    try {
      await api.tournamentAction(id, action);
      await load();
    } catch (err) {
      toast(err.message, 'error', 6000);
    }
  }

  const offSession = session.onChange(load);
  const refresh = setInterval(load, REFRESH_MS);
  const timer = setInterval(() => {
    if (!el.countdown?.isConnected) return;
    el.countdown.lastChild.textContent = countdownText(view.tournament, Date.now() + skew);
    // The start passed: the schedule is drawn.
    if (!asked && view.tournament.status === 'upcoming' && view.tournament.starts_at <= Date.now() + skew - 1500) {
      asked = true;
      setTimeout(() => load().then(() => { asked = false; }), 1500);
    }
  }, 1000);
  render();

  return {
    unmount() {
      clearInterval(timer);
      clearInterval(refresh);
      offSession();
    },
    relabel: render,
    setGames(g) {
      games = g;
      render();
    },
  };
}
