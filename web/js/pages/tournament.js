// One tournament (#/tournament/ID): its countdown, the caller's buttons (join, pause, come
// back, leave), "your next game", the standings a page at a time (a flame on a streak, each
// game's points), and the games in progress to watch. The standings move live: the page
// follows the page shown over the socket (`tournament.subscribe` with the page) and applies
// the changed lines (`tournament.changes`: that page's, and the player's own; a line the page
// has comes as its change, `applyChange`). When the server pairs the player (`tournament.game`) the page
// takes them to the table. A finished tournament shows its winners above the final standings.
// Below them, the tournament's chat room (tournament_chat.js). A round robin is handed over
// to round_robin.js once the first answer says it is one.

import { h, clear, icon, toast } from '../ui.js';
import { t, botName } from '../i18n.js';
import { api } from '../api.js';
import { socket } from '../socket.js';
import { session } from '../session.js';
import { navigate } from '../router.js';
import { playerLink } from '../players.js';
import { clockSkew, countdownText, tournamentTitle } from './tournaments.js';
import { mountRoundRobin } from './round_robin.js';
import { tournamentChat } from './tournament_chat.js';
import { podium } from './podium.js';

/** Lines on one page of standings (the server's `views::PER_PAGE`). */
const PER_PAGE = 20;

/**
 * `line` with a change of `tournament.changes` applied: the fields it names, its score marks
 * kept up to `scores_from` and the new ones after them. Null when the line is unknown or has
 * fewer marks than the change keeps (it is older than the change assumes).
 */
export function applyChange(line, change) {
  const { scores_from: from, scores = [], ...fields } = change;
  if (!line || line.scores.length < from) return null;
  return { ...line, ...fields, scores: line.scores.slice(0, from).concat(scores) };
}

export function mount(root, params) {
  const id = params.parts[1];
  let games = [];
  let view = null;
  let skew = 0;
  let page = Number(params.query.get('page')) || 1;
  /** Every standings line known, by player. */
  const lines = new Map();
  let total = 0;
  const offs = [];
  const el = {};
  /** The round robin's page, when this tournament is one. */
  let roundRobin = null;
  /** The chat room, kept across redraws and handed to the round robin's page. */
  const chat = tournamentChat(id);

  function me() {
    const user = session.user;
    if (!user || user.guest) return null;
    const line = lines.get(user.id);
    return { joined: !!line, paused: !!line?.paused, withdrawn: !!line?.withdrawn, playing: line?.playing || null };
  }

  function render() {
    if (!root.isConnected) return;
    clear(root);
    if (!view) {
      root.append(h('section', { class: 'page' }, h('p', { class: 'loading' }, t('loading'))));
      return;
    }
    const tour = view.tournament;
    const title = tournamentTitle(tour, games);
    document.title = `${title} — ${t('app.name')}`;
    el.countdown = h('p', { class: 'tour-countdown big' }, icon('clock'), ' ', h('span', {}, countdownText(tour, Date.now() + skew)));
    el.standings = h('div', { class: 'tour-standings' });
    el.games = h('div', { class: 'tour-games' });
    const section = h('section', { class: 'page tournament-page' },
      h('div', { class: 'page-head' }, h('h1', {}, title), h('a', { href: '#/tournaments', class: 'small' }, t('tour.back'))),
      h('section', { class: 'panel tour-head' },
        el.countdown,
        h('p', { class: 'small' }, tour.rated ? t('rated.rated') : t('rated.casual'), ' · ', t('tour.players', { n: total }),
          tour.site ? [' · ', h('span', { class: 'tour-site' }, t('tour.site.by'))] : null),
        actions()),
      tour.status === 'finished' ? podium(lines.values(), (line) => t('tour.points', { n: line.points })) : null,
      h('section', { class: 'panel', 'aria-labelledby': 'tour-standings' }, h('h2', { id: 'tour-standings' }, t('tour.standings')), el.standings),
      tour.status === 'running' ? h('section', { class: 'panel', 'aria-labelledby': 'tour-games' }, h('h2', { id: 'tour-games' }, t('tour.games')), el.games) : null);
    root.append(section);
    chat.attach(section);
    renderStandings();
    renderGames();
  }

  function actions() {
    const tour = view.tournament;
    const mine = me();
    const box = h('div', { class: 'tour-actions' });
    if (tour.status === 'finished' || tour.status === 'cancelled') return box;
    if (!mine) {
      box.append(h('p', { class: 'small' }, t('tour.accounts')));
      return box;
    }
    const button = (action, label, primary) => h('button', { class: ['btn', primary && 'primary', `tour-${action}`], onClick: () => act(action) }, label);
    if (mine.playing) box.append(h('a', { class: 'btn primary tour-next', href: `#/table/${mine.playing}` }, t('tour.next_game')));
    if (mine.withdrawn) box.append(h('p', { class: 'small' }, t('tour.withdrawn')));
    else if (!mine.joined) box.append(button('join', t('tour.join'), true));
    else {
      if (tour.status === 'running') {
        if (mine.paused) box.append(button('resume', t('tour.resume'), true));
        else box.append(button('pause', t('tour.pause')));
        if (!mine.playing && !mine.paused) box.append(h('p', { class: 'small tour-waiting', role: 'status' }, t('tour.waiting')));
      }
      box.append(button('withdraw', t('tour.withdraw')));
    }
    return box;
  }

  function scoreChips(line) {
    return h('span', { class: 'tour-scores' }, ...line.scores.map((s) => h('span', {
      class: ['chip', `r-${s.result}`, s.doubled && 'doubled', s.berserk_bonus && 'berserk'],
      title: t(`tour.score.${s.result}`) + (s.doubled ? ` · ${t('tour.score.doubled')}` : '') + (s.early_draw ? ` · ${t('tour.score.early')}` : '') + (s.berserk_bonus ? ` · ${t('tour.score.berserk')}` : ''),
    }, String(s.points))));
  }

  function renderStandings() {
    if (!el.standings) return;
    clear(el.standings);
    const start = (page - 1) * PER_PAGE;
    const shown = [...lines.values()].filter((l) => l.rank > start && l.rank <= start + PER_PAGE).sort((a, b) => a.rank - b.rank);
    if (!total) {
      el.standings.append(h('p', { class: 'empty' }, t('tour.nobody')));
      return;
    }
    const user = session.user;
    el.standings.append(h('table', { class: 'list tour-standings-table' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('lobby.players')), h('th', { class: 'tour-games-col' }, t('tour.results')), h('th', {}, t('tour.score')))),
      h('tbody', {}, ...shown.map((line) => h('tr', { class: ['tour-line', user && line.player === user.id && 'mine'], 'data-player': line.player },
        h('td', {}, String(line.rank)),
        h('td', {}, playerLink({ id: line.player, name: line.name }), ' ',
          h('span', { class: 'small' }, String(line.rating)),
          line.on_fire ? h('span', { class: 'fire', title: t('tour.on_fire') }, icon('flame'), h('span', { class: 'sr-only' }, t('tour.on_fire'))) : null,
          line.paused ? h('span', { class: 'small tag' }, t('tour.paused')) : null,
          line.withdrawn ? h('span', { class: 'small tag' }, t('tour.left')) : null,
          line.playing ? h('a', { class: 'small tag playing', href: `#/table/${line.playing}` }, t('tour.playing')) : null),
        h('td', { class: 'tour-games-col' }, scoreChips(line)),
        h('td', { class: 'tour-points' }, h('strong', {}, String(line.points))))))));
    const pages = Math.max(1, Math.ceil(total / PER_PAGE));
    if (pages > 1) {
      el.standings.append(h('nav', { class: 'pager', 'aria-label': t('tour.pages') },
        h('button', { class: 'btn small', disabled: page <= 1, onClick: () => turn(page - 1) }, '‹'),
        h('span', {}, `${page} / ${pages}`),
        h('button', { class: 'btn small', disabled: page >= pages, onClick: () => turn(page + 1) }, '›')));
    }
  }

  function renderGames() {
    if (!el.games || !view) return;
    clear(el.games);
    if (!view.games.length) {
      el.games.append(h('p', { class: 'empty' }, t('tour.no_games')));
      return;
    }
    el.games.append(h('ul', { class: 'tour-game-list' }, ...view.games.map((g) => h('li', {},
      h('a', { href: `#/table/${g.table}` }, `${shownName(g.players[0])} — ${shownName(g.players[1])}`)))));
  }

  /** A name as the games in progress give it: a house bot comes as its id (`bot:easy`). */
  function shownName(name) {
    return name.startsWith('bot:') ? botName(name.slice(4)) : name;
  }

  function take(fresh) {
    view = fresh;
    skew = clockSkew(fresh.now);
    total = fresh.standings.total;
    // Only the page shown and the player's own line come live: lines of other pages go stale.
    const mine = session.user && lines.get(session.user.id);
    lines.clear();
    if (mine) lines.set(mine.player, mine);
    for (const line of fresh.standings.items) lines.set(line.player, line);
  }

  /** Leaves the page to the round robin's own. */
  function handOver(fresh) {
    for (const off of offs.splice(0)) off();
    clearInterval(timer);
    roundRobin = mountRoundRobin(root, id, fresh, games, chat);
  }

  async function load() {
    if (roundRobin) return;
    try {
      const fresh = await api.tournament(id, page);
      if (fresh.tournament.kind === 'round_robin') {
        handOver(fresh);
        return;
      }
      take(fresh);
    } catch (err) {
      if (err.status === 404) {
        clear(root).append(h('section', { class: 'page narrow' }, h('h1', {}, '404'), h('p', {}, t('tour.unknown'))));
        return;
      }
      toast(err.message, 'error');
    }
    render();
  }

  function turn(next) {
    page = next;
    load();
    follow();
  }

  /** Follows the page of standings shown: its changes (and the player's own line) come live. */
  function follow() {
    if (socket.state !== 'open' || roundRobin) return;
    const asked = page;
    socket.request({ type: 'tournament.subscribe', tournament: id, page: asked }).then((msg) => {
      if (msg.tournament && page === asked) {
        take(msg.tournament);
        render();
      }
    }).catch(() => {});
  }

  async function act(action) {
    try {
      await api.tournamentAction(id, action);
      await load();
    } catch (err) {
      toast(err.message, 'error', 6000);
    }
  }

  function changes(msg) {
    if (msg.tournament !== id || !view) return;
    for (const entry of msg.changed) {
      if (entry.scores_from === undefined) lines.set(entry.player, entry);
      else {
        const line = applyChange(lines.get(entry.player), entry);
        // A change to a line this page does not have (or has older): the page is fetched.
        if (line) lines.set(entry.player, line);
        else lines.delete(entry.player);
      }
    }
    for (const player of msg.removed) lines.delete(player);
    const wasStatus = view.tournament.status;
    total = msg.total;
    view.tournament.status = msg.status;
    view.games = msg.games;
    // A page whose lines are not all known (a later page, after a join) is fetched whole.
    const start = (page - 1) * PER_PAGE;
    const expected = Math.max(0, Math.min(PER_PAGE, total - start));
    const known = [...lines.values()].filter((l) => l.rank > start && l.rank <= start + PER_PAGE).length;
    if (known < expected || wasStatus !== msg.status) load();
    else render();
  }

  offs.push(socket.on('tournament.changes', changes));
  offs.push(socket.on('tournament.game', (msg) => {
    if (msg.tournament === id) navigate(`/table/${msg.table}`);
  }));
  offs.push(socket.onOpen(follow));
  offs.push(session.onChange(render));
  const timer = setInterval(() => {
    if (!view || !el.countdown?.isConnected) return;
    el.countdown.lastChild.textContent = countdownText(view.tournament, Date.now() + skew);
  }, 1000);

  render();
  api.games().then((g) => {
    games = g;
    if (roundRobin) roundRobin.setGames(g);
    else render();
  }).catch(() => {});
  load();

  return {
    unmount() {
      roundRobin?.unmount();
      chat.unmount();
      clearInterval(timer);
      for (const off of offs) off();
      if (socket.state === 'open') socket.request({ type: 'tournament.unsubscribe', tournament: id }).catch(() => {});
    },
    relabel: () => {
      chat.relabel();
      if (roundRobin) roundRobin.relabel();
      else render();
    },
  };
}
