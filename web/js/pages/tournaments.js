// The tournaments (#/tournaments): running arenas with the time left (round robins: their
// games under way), upcoming ones with a countdown to their start (the site's scheduled
// events among them, marked as its own), the latest finished ones; an empty section says so
// and offers an account the way to create an arena; and, for an account, a form to create an
// arena or a round robin (its own fields in round_robin_form.js). Countdowns run on the
// server's clock (the list carries its `now`).

import { h, clear, toast, formatDate } from '../ui.js';
import { t, gameName, variantName, lang } from '../i18n.js';
import { api } from '../api.js';
import { session } from '../session.js';
import { navigate } from '../router.js';
import { clockLabel } from '../clocks.js';
import { roundRobinBody, roundRobinFields } from './round_robin_form.js';

/** A time left as h:mm:ss or m:ss (days and hours beyond a day). */
export function formatDuration(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [d, hours, m, sec] = [Math.floor(total / 86400), Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  if (d > 0) return t('left.days', { d, h: hours % 24 });
  const mm = hours > 0 ? String(m).padStart(2, '0') : String(m);
  return `${hours > 0 ? hours + ':' : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

/** The server's clock minus this browser's, from an answer's `now`. */
export function clockSkew(now) {
  return typeof now === 'number' ? now - Date.now() : 0;
}

/** "starts in 4:05" / "ends in 12:30" for a tournament at server time `now`; when it ended,
 * once it has. */
export function countdownText(tour, now) {
  if (tour.status === 'upcoming') return t('tour.starts_in', { left: formatDuration(tour.starts_at - now) });
  if (tour.status === 'running' && tour.kind === 'round_robin') return t('tour.rr.running');
  if (tour.status === 'running') return t('tour.ends_in', { left: formatDuration(tour.ends_at - now) });
  if (tour.status === 'finished') return t('tour.ended', { date: formatDate(tour.ends_at, lang()) });
  return t('tour.status.' + tour.status);
}

/** The tournament's name as shown: game, variant, clock, "arena". */
export function tournamentTitle(tour, games) {
  const g = games.find((x) => x.id === tour.game);
  const game = g ? gameName(g) : tour.game;
  const variant = g && g.variants.length > 1 ? ` ${variantName(g, tour.variant)}` : '';
  const clock = clockLabel(tour.initial_ms, tour.increment_ms, tour.move_days);
  if (tour.kind === 'round_robin') return t('tour.rr.title', { game: game + variant, clock });
  return t('tour.title', { game: game + variant, clock });
}

export function mount(root) {
  let games = [];
  let list = null;
  let skew = 0;
  const el = {};
  const form = { kind: 'arena', game: '', variant: '', initial: 3, increment: 2, minutes: 30, starts_in: 5, rated: true, berserk: true, house_bots: false, bot_after: 30,
    clock: 'days', days: 3, max_players: 8, vacation: true };

  function render() {
    if (!root.isConnected) return;
    clear(root);
    document.title = `${t('nav.tournaments')} — ${t('app.name')}`;
    el.lists = h('div', { class: 'tour-lists' });
    root.append(h('section', { class: 'page tournaments-page' },
      h('div', { class: 'page-head' }, h('h1', {}, t('nav.tournaments'))),
      el.lists,
      createPanel()));
    renderLists();
  }

  function row(tour) {
    return h('tr', { class: 'tour-row', 'data-tournament': tour.id },
      h('td', {}, h('a', { href: `#/tournament/${tour.id}` }, tournamentTitle(tour, games)),
        h('div', { class: 'small' }, tour.rated ? t('rated.rated') : t('rated.casual'),
          tour.site ? [' · ', h('span', { class: 'tour-site' }, t('tour.site'))] : null)),
      h('td', {}, String(tour.players)),
      h('td', { class: 'tour-countdown', 'data-countdown': tour.id }, countdownText(tour, Date.now() + skew)));
  }

  function section(key, tours) {
    const body = tours.length
      ? h('table', { class: 'list tour-table' },
        h('thead', {}, h('tr', {}, h('th', {}, t('tour.name')), h('th', {}, t('tour.entrants')), h('th', {}, t('tour.when')))),
        h('tbody', {}, ...tours.map(row)))
      : h('div', { class: 'tour-empty' }, h('p', { class: 'empty' }, t(`tour.none.${key}`)), offerToCreate());
    return h('section', { class: 'panel', 'aria-labelledby': `tour-${key}` }, h('h2', { id: `tour-${key}` }, t(`tour.list.${key}`)), body);
  }

  /** An empty section's way to the creation form, for an account (a guest reads below how
   * to get one). */
  function offerToCreate() {
    const user = session.user;
    if (!user || user.guest) return null;
    return h('button', { type: 'button', class: 'btn small tour-create-offer', onClick: () => {
      form.kind = 'arena';
      render();
      const panel = root.querySelector('.tour-create');
      panel?.scrollIntoView({ block: 'start' });
      panel?.querySelector('select[name="game"]')?.focus();
    } }, t('tour.empty.create'));
  }

  function renderLists() {
    if (!el.lists) return;
    clear(el.lists);
    if (!list) {
      el.lists.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    el.lists.append(section('running', list.running), section('upcoming', list.upcoming), section('finished', list.finished));
  }

  function tick() {
    if (!list || !root.isConnected) return;
    const now = Date.now() + skew;
    const all = [...list.running, ...list.upcoming];
    for (const tour of all) {
      const cell = root.querySelector(`[data-countdown="${tour.id}"]`);
      if (cell) cell.textContent = countdownText(tour, now);
    }
    // A start or an end passed: the lists change. A round robin's end is not known in advance.
    const due = (tour) => (tour.status === 'upcoming' ? tour.starts_at : tour.kind === 'round_robin' ? Infinity : tour.ends_at);
    if (all.some((tour) => due(tour) <= now - 1500)) load();
  }

  function createPanel() {
    const user = session.user;
    if (!user || user.guest) return h('section', { class: 'panel' }, h('p', { class: 'small' }, t('tour.create.accounts')));
    const two = games.filter((g) => g.seats > 1);
    if (!form.game && two.length) form.game = two[0].id;
    const g = two.find((x) => x.id === form.game);
    if (g && !g.variants.some((v) => v.id === form.variant)) form.variant = g.default_variant;
    const number = (key, min, max, label) => h('label', { class: 'field' }, h('span', {}, label),
      h('input', { type: 'number', name: key, min, max, value: form[key], required: true, onInput: (e) => { form[key] = Number(e.target.value); } }));
    return h('section', { class: 'panel tour-create', 'aria-labelledby': 'tour-create' },
      h('h2', { id: 'tour-create' }, t('tour.create')),
      h('form', { class: 'form-grid', onSubmit: create },
        h('label', { class: 'field' }, h('span', {}, t('tour.kind')),
          h('select', { name: 'kind', onChange: (e) => { form.kind = e.target.value; render(); } },
            ...['arena', 'round_robin'].map((k) => h('option', { value: k, selected: k === form.kind }, t('tour.kind.' + k))))),
        h('label', { class: 'field' }, h('span', {}, t('lobby.game')),
          h('select', { name: 'game', onChange: (e) => { form.game = e.target.value; render(); } },
            ...two.map((x) => h('option', { value: x.id, selected: x.id === form.game }, gameName(x))))),
        g && g.variants.length > 1 ? h('label', { class: 'field' }, h('span', {}, t('lobby.variant')),
          h('select', { name: 'variant', onChange: (e) => { form.variant = e.target.value; } },
            ...g.variants.map((v) => h('option', { value: v.id, selected: v.id === form.variant }, variantName(g, v.id))))) : null,
        ...(form.kind === 'round_robin'
          ? roundRobinFields(form, number, render)
          : [number('initial', 1, 60, t('tour.create.initial')),
            number('increment', 0, 60, t('tour.create.increment')),
            number('minutes', 5, 720, t('tour.create.minutes'))]),
        number('starts_in', 0, 10080, t('tour.create.starts_in')),
        h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'rated', checked: form.rated, onChange: (e) => { form.rated = e.target.checked; } }), ' ', t('rated.rated')),
        ...(form.kind === 'round_robin' ? [] : [
          h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'berserk', checked: form.berserk, onChange: (e) => { form.berserk = e.target.checked; } }), ' ', t('tour.create.berserk')),
          h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'house_bots', checked: form.house_bots, onChange: (e) => { form.house_bots = e.target.checked; render(); } }), ' ', t('tour.create.house_bots')),
          form.house_bots ? number('bot_after', 5, 600, t('tour.create.bot_after')) : null]),
        h('button', { type: 'submit', class: 'btn primary' }, t('tour.create.go'))));
  }

  async function create(e) {
    e.preventDefault();
    try {
      const made = await api.createArena(form.kind === 'round_robin' ? roundRobinBody(form) : {
        game: form.game, variant: form.variant || undefined, initial: form.initial * 60, increment: form.increment,
        minutes: form.minutes, starts_in: form.starts_in, rated: form.rated,
        berserk: form.berserk, house_bots_after: form.house_bots ? form.bot_after : undefined,
      });
      navigate(`/tournament/${made.id}`);
    } catch (err) {
      toast(err.message, 'error', 6000);
    }
  }

  async function load() {
    try {
      list = await api.tournaments();
      skew = clockSkew(list.now);
    } catch (err) {
      toast(err.message, 'error');
    }
    renderLists();
  }

  const timer = setInterval(tick, 1000);
  const offSession = session.onChange(render);
  render();
  api.games().then((g) => { games = g; render(); }).catch(() => {});
  load();

  return {
    unmount() {
      clearInterval(timer);
      offSession();
    },
    relabel: render,
  };
}
