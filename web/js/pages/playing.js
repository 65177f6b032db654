// "My games": every game of this player that has not ended, those waiting for their move
// first, each a link back to its table. The list follows the moves while it is open.

import { h, clear, formatClock, formatDate, toast } from '../ui.js';
import { t, lang, gameName, variantName, sideName, timeLeft } from '../i18n.js';
import { playerLink } from '../players.js';
import { notifications, onNotifications, notificationText, markAllRead, desktopState, askDesktop } from '../notifications.js';
import { api } from '../api.js';
import { onTurns } from '../turns.js';

export function mount(root) {
  let games = [];
  let list = null;
  let failed = null;

  function opponent(g) {
    if (!g.opponent) return t('playing.solo');
    if (!g.opponent.bot && !g.opponent.user) return t('playing.nobody');
    return playerLink(g.opponent.user || { bot: g.opponent.bot });
  }

  function turnText(g) {
    if (g.status === 'open') return t('playing.waiting');
    if (g.your_turn) return t('playing.yours');
    return t('playing.theirs');
  }

  function row(g) {
    const info = games.find((x) => x.id === g.game);
    // The side as the game names it now (Tumbleweed's colour, once chosen).
    const side = g.opponent ? sideName(g.game, g.side || g.you) : null;
    // The whole row opens the table (the game's link covers it); the opponent's name, above
    // that, opens their page.
    return h('li', { class: ['playing-game', g.your_turn ? 'your-turn' : ''], 'data-game': g.id },
      h('div', { class: 'playing-row' },
        h('a', { class: 'playing-link playing-what', href: `#/table/${g.id}` },
          h('strong', {}, info ? gameName(info) : g.game),
          h('span', { class: 'small' }, info ? variantName(info, g.variant) : g.variant)),
        h('span', { class: 'playing-who' }, opponent(g),
          side ? h('span', { class: 'small' }, t('playing.as', { side })) : null),
        h('span', { class: 'playing-turn' }, turnText(g),
          g.time_left_ms != null ? h('span', { class: 'small clock-left' }, g.days
            ? t('table.deadline', { time: timeLeft(g.time_left_ms) })
            : t('playing.left', { time: formatClock(g.time_left_ms) })) : null),
      ));
  }

  function notificationPanel() {
    const { unread, latest } = notifications();
    const panel = h('section', { class: 'panel notifications', id: 'notifications' },
      h('h2', {}, t('notify.title'), unread ? h('span', { class: 'turn-count' }, String(unread)) : null));
    if (!latest.length) panel.append(h('p', { class: 'empty' }, t('notify.none')));
    else {
      panel.append(h('ul', { class: 'notification-list' }, ...latest.slice(0, 20).map((n) =>
        h('li', { class: ['notification', n.read ? '' : 'unread'], 'data-kind': n.kind },
          h('a', { href: `#/table/${n.game_id}` }, notificationText(n)),
          h('span', { class: 'small' }, formatDate(n.created_at, lang()))))));
    }
    const actions = h('p', { class: 'notification-actions' });
    if (unread) actions.append(h('button', { class: 'btn small read-all', onClick: () => markAllRead().catch((e) => toast(e.message, 'error')) }, t('notify.readall')));
    const desktop = desktopState();
    if (desktop === 'default') actions.append(h('button', { class: 'btn small desktop', onClick: () => askDesktop() }, t('notify.desktop')));
    if (desktop === 'denied') actions.append(h('span', { class: 'small' }, t('notify.desktop.denied')));
    if (actions.childNodes.length) panel.append(actions);
    return panel;
  }

  function render() {
    clear(root);
    document.title = `${t('nav.playing')} — ${t('app.name')}`;
    const page = h('section', { class: 'page playing' }, h('h1', {}, t('nav.playing')),
      h('p', { class: 'small' }, h('a', { href: '#/challenges', class: 'challenges-link' }, t('challenges.title'))));
    if (failed) page.append(h('p', { class: 'error' }, failed));
    else if (!list) page.append(h('p', { class: 'loading' }, t('loading')));
    else if (!list.length) {
      page.append(h('p', { class: 'empty' }, t('playing.none')), h('p', {}, h('a', { class: 'btn primary', href: '#/' }, t('playing.find'))));
    } else page.append(h('ul', { class: 'playing-list' }, ...list.map(row)));
    page.append(notificationPanel());
    root.append(page);
  }

  async function load() {
    try {
      list = (await api.playing()).games;
      failed = null;
    } catch (err) {
      failed = err.message || String(err);
    }
    render();
  }

  // A change of the count means a move somewhere in these games: read the list again.
  const off = onTurns(load);
  const offNotes = onNotifications(render);
  api.games().then((g) => { games = g; render(); }).catch(() => {});
  render();
  load();
  return { unmount() { off(); offNotes(); }, relabel: render };
}
