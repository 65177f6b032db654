// The challenges page (#/challenges): the challenges to this player, to accept or decline
// (with a reason), and the player's own, to cancel. It follows them live: each change comes on
// the socket as a `challenge` message; an accepted one opens its table.

import { h, clear, formatDate, toast } from '../ui.js';
import { t, lang, gameName, variantName } from '../i18n.js';
import { api } from '../api.js';
import { socket } from '../socket.js';
import { playerLink } from '../players.js';
import { navigate } from '../router.js';

/** The reasons a decline may give (the server's closed list). */
const REASONS = ['generic', 'later', 'too_fast', 'too_slow', 'time_control', 'rated', 'casual', 'game', 'variant', 'no_bot', 'only_bot'];

function errorText(err) {
  const key = 'error.' + err.code;
  const text = t(key);
  return text === key ? err.message || err.code : text;
}

function clockText(clock) {
  if (!clock) return t('challenge.clock.none');
  if (clock.days) return t('challenge.days', { n: clock.days });
  return `${clock.initial / 60}+${clock.increment}`;
}

export function mount(root) {
  let open = null;
  let games = [];
  let problem = null;

  function what(c) {
    const info = games.find((g) => g.id === c.game);
    return [
      h('strong', {}, info ? gameName(info) : c.game), ' ',
      h('span', { class: 'small' }, info ? variantName(info, c.variant) : c.variant), ' · ',
      clockText(c.clock), ' · ',
      c.rated ? t('challenge.rated') : t('challenge.casual'), ' · ',
      h('span', { class: 'small' }, t('challenge.until', { date: formatDate(c.expires_at, lang()) })),
    ];
  }

  async function act(call, done) {
    try {
      const c = await call();
      if (done) done(c);
      await load();
    } catch (err) {
      toast(errorText(err), 'error');
      await load();
    }
  }

  function incomingRow(c) {
    const reason = h('select', { name: 'decline-reason', 'aria-label': t('challenge.reason') },
      ...REASONS.map((r) => h('option', { value: r }, t(`challenge.reason.${r}`))));
    return h('li', { class: 'challenge', 'data-challenge': c.id },
      h('div', {}, t('challenge.from'), ' ', playerLink(c.challenger)),
      h('div', { class: 'challenge-what' }, what(c)),
      h('div', { class: 'challenge-actions' },
        h('button', { class: 'btn accept', type: 'button', onClick: () => act(() => api.acceptChallenge(c.id), (a) => navigate(`/table/${a.game_id}`)) }, t('challenge.accept')),
        reason,
        h('button', { class: 'btn decline', type: 'button', onClick: () => act(() => api.declineChallenge(c.id, reason.value)) }, t('challenge.decline'))));
  }

  function outgoingRow(c) {
    return h('li', { class: 'challenge', 'data-challenge': c.id },
      h('div', {}, t('challenge.to'), ' ', playerLink(c.dest)),
      h('div', { class: 'challenge-what' }, what(c)),
      h('div', { class: 'challenge-actions' },
        h('button', { class: 'btn cancel', type: 'button', onClick: () => act(() => api.cancelChallenge(c.id)) }, t('challenge.cancel'))));
  }

  function list(items, row, empty) {
    if (!items.length) return h('p', { class: 'empty' }, t(empty));
    return h('ul', { class: 'challenge-list' }, ...items.map(row));
  }

  function render() {
    if (!root.isConnected) return;
    clear(root);
    document.title = `${t('challenges.title')} — ${t('app.name')}`;
    const page = h('section', { class: 'page challenges-page' }, h('h1', {}, t('challenges.title')));
    root.append(page);
    if (problem) {
      page.append(h('p', { class: 'error' }, problem));
      return;
    }
    if (!open) {
      page.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    page.append(
      h('p', { class: 'small' }, t('challenges.about')),
      h('section', { class: 'panel' }, h('h2', {}, t('challenges.incoming')), list(open.incoming, incomingRow, 'challenges.none.in')),
      h('section', { class: 'panel' }, h('h2', {}, t('challenges.outgoing')), list(open.outgoing, outgoingRow, 'challenges.none.out')));
  }

  async function load() {
    try {
      open = await api.challenges();
      problem = null;
    } catch (err) {
      problem = errorText(err);
    }
    render();
  }

  const off = socket.on('challenge', (msg) => {
    const c = msg.challenge;
    // Our own challenge accepted: its table is the place to be.
    if (msg.event === 'accepted' && open && open.outgoing.some((x) => x.id === c.id)) {
      toast(t('challenge.accepted'), 'ok');
      navigate(`/table/${c.game_id}`);
      return;
    }
    if (msg.event === 'declined' && open && open.outgoing.some((x) => x.id === c.id)) {
      toast(t('challenge.declined', { reason: t(`challenge.reason.${c.decline_reason}`) }), 'info');
    }
    load();
  });

  render();
  api.games().then((g) => { games = g; render(); }).catch(() => {});
  load();
  return { relabel: render, unmount: off };
}
