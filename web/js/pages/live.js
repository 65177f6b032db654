// Games being played now (#/live?game=mill): the server sends the list on `live.subscribe` and
// again whenever it changes, most-watched first; each row opens the table as a spectator.

import { h, clear, icon } from '../ui.js';
import { t, gameName, variantName } from '../i18n.js';
import { api } from '../api.js';
import { socket } from '../socket.js';
import { navigate } from '../router.js';
import { playerWithRating, ratedLabel, ratingClass } from '../players.js';
import { clockLabel } from '../clocks.js';

export function mount(root, params) {
  const filter = params.query.get('game') || '';
  let games = [];
  let live = null;
  const offs = [];
  const el = {};

  function info(id) {
    return games.find((g) => g.id === id);
  }

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    clear(root);
    document.title = `${t('nav.live')} — ${t('app.name')}`;
    const select = h('select', { class: 'live-filter', name: 'game', 'aria-label': t('live.filter'),
      onChange: (e) => navigate(e.target.value ? `/live?game=${e.target.value}` : '/live') },
    h('option', { value: '' }, t('live.all')),
    ...games.filter((g) => g.seats > 1).map((g) => h('option', { value: g.id, selected: g.id === filter }, gameName(g))));
    el.list = h('div', { class: 'live-list' });
    root.append(h('section', { class: 'page live' },
      h('div', { class: 'page-head' }, h('h1', {}, t('nav.live')), h('label', { class: 'field inline' }, h('span', {}, t('live.filter')), select)),
      h('section', { class: 'panel' }, el.list)));
    renderList();
  }

  function renderList() {
    if (!el.list) return;
    clear(el.list);
    if (!live) {
      el.list.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    const shown = live.filter((g) => !filter || g.game === filter);
    if (!shown.length) {
      el.list.append(h('p', { class: 'empty' }, t('live.none')));
      return;
    }
    const body = h('tbody');
    for (const g of shown) {
      const gi = info(g.game);
      const clock = g.clock ? { initial: g.clock.initial_ms / 1000, increment: g.clock.increment_ms / 1000 } : g.days ? { days: g.days } : null;
      body.append(h('tr', { class: 'live-row', 'data-table': g.id },
        h('td', {}, h('a', { href: `#/table/${g.id}` }, gi ? gameName(gi) : g.game), h('div', { class: 'small' }, gi ? variantName(gi, g.variant) : g.variant)),
        h('td', { class: 'live-players' }, ...g.players.map((p, i) => [i ? h('span', { class: 'vs' }, ' — ') : null, playerWithRating(p, p.rating)])),
        h('td', {}, icon('clock'), ' ', clockLabel(g.clock?.initial_ms, g.clock?.increment_ms, g.days) || '∞',
          h('div', { class: 'small' }, ratedLabel(g.rated, g.rated ? ratingClass(clock) : null))),
        h('td', { class: 'small' }, t('live.moves', { n: g.ply }), h('div', {}, t('live.watchers', { n: g.watchers }))),
        h('td', { class: 'row-actions' }, h('a', { class: 'btn small watch', href: `#/table/${g.id}` }, t('live.watch'))),
      ));
    }
    el.list.append(h('table', { class: 'list live-table' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('lobby.game')), h('th', {}, t('lobby.players')), h('th', {}, t('lobby.clock')),
        h('th', {}, h('span', { class: 'sr-only' }, t('live.activity'))), h('th', {}, h('span', { class: 'sr-only' }, t('list.actions'))))),
      body));
  }

  offs.push(socket.on('live', (msg) => {
    live = msg.games;
    renderList();
  }));
  // The server forgets subscriptions with the connection: ask again on every (re)connection.
  offs.push(socket.onOpen(() => {
    socket.request({ type: 'live.subscribe' }).then((msg) => {
      if (msg.games) live = msg.games;
      renderList();
    }).catch(() => {});
  }));

  render();
  api.games().then((list) => {
    games = list;
    render();
  }).catch(() => {});

  return {
    unmount() {
      for (const off of offs) off();
      if (socket.state === 'open') socket.request({ type: 'live.unsubscribe' }).catch(() => {});
    },
    relabel: render,
  };
}
