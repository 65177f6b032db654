// The lobby: open public tables (live), quick-match queues, and a form to create a table.

import { h, clear, toast } from '../ui.js';
import { t, gameName, variantName } from '../i18n.js';
import { api } from '../api.js';
import { socket } from '../socket.js';
import { session } from '../session.js';
import { join } from '../quickmatch.js';
import { navigate } from '../router.js';
import { createTable } from '../start.js';
import { TIME_CONTROLS, clockBody, clockChipLabel, clockLabel } from '../clocks.js';
import { ratedCheckbox, rated, ratingClass, ratedLabel, ratingNode, bots, botOption, playerLink } from '../players.js';

/** How long ago a table was opened: "just now", "4 min ago", "2 h ago". */
export function ageText(openedAt) {
  const minutes = Math.floor(Math.max(0, Date.now() - openedAt) / 60000);
  if (minutes < 1) return t('lobby.age.now');
  if (minutes < 60) return t('lobby.age.min', { n: minutes });
  return t('lobby.age.hour', { n: Math.floor(minutes / 60) });
}

/** The lobby's order, the server's: newest table first, then by id. */
function lobbyOrder(a, b) {
  return (b.opened_at || 0) - (a.opened_at || 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A page of the lobby after a `lobby.changes` event: what left it out, what is new or changed in. */
function applyLobbyChanges(page, changes) {
  const removed = new Set(changes.removed);
  const changed = new Set(changes.tables.map((tb) => tb.id));
  const kept = page.tables.filter((tb) => !removed.has(tb.id) && !changed.has(tb.id));
  return {
    ...page,
    tables: [...kept, ...changes.tables].sort(lobbyOrder),
    total: changes.total,
    queues: changes.queues || page.queues,
  };
}

/** Tables a page of the lobby holds. */
const PAGE_SIZE = 20;

export function mount(root) {
  let games = [];
  let lobby = { tables: [], total: 0, queues: [] };
  // The page of open tables followed: one game's or every game's, from an offset.
  const view = { game: '', offset: 0 };
  // The form keeps its values across re-renders (language switch, lobby updates).
  const form = { game: 'perekati', variant: '', opponent: 'human', private: false, timed: false, corr: false, days: 3, minutes: 5, increment: 3, min: '', max: '' };
  let botList = [];
  const el = {};
  const offs = [];

  function gameOf(id) {
    return games.find((g) => g.id === id);
  }

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    clear(root);
    document.title = `${t('nav.lobby')} — ${t('app.name')}`;
    el.tables = h('div', { class: 'lobby-tables' });
    el.queues = h('div', { class: 'lobby-queues' });
    el.form = h('div', { class: 'create-form' });
    root.append(
      h('section', { class: 'page lobby' },
        h('h1', {}, t('nav.lobby')),
        h('div', { class: 'lobby-grid' },
          h('section', { class: 'panel' },
            h('div', { class: 'panel-head' }, h('h2', {}, t('lobby.tables')), gameFilter()),
            el.tables),
          h('div', {},
            h('section', { class: 'panel' }, h('h2', {}, t('lobby.create')), el.form),
            h('section', { class: 'panel' }, h('h2', {}, t('lobby.queues')), el.queues),
          ),
        ),
      ),
    );
    renderTables();
    renderQueues();
    renderForm();
  }

  function gameFilter() {
    return h('label', { class: 'field inline' }, h('span', {}, t('live.filter')),
      h('select', { class: 'lobby-filter', name: 'lobby-game', onChange: (e) => follow(e.target.value, 0) },
        h('option', { value: '' }, t('live.all')),
        ...games.filter((g) => g.seats > 1).map((g) => h('option', { value: g.id, selected: g.id === view.game }, gameName(g)))));
  }

  function renderTables() {
    clear(el.tables);
    if (!lobby.tables.length) {
      el.tables.append(h('p', { class: 'empty' }, t('lobby.notables')));
      return;
    }
    const list = h('table', { class: 'list' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('lobby.game')), h('th', {}, t('lobby.clock')), h('th', {}, t('lobby.players')), h('th', {}, h('span', { class: 'sr-only' }, t('list.actions'))))),
    );
    const body = h('tbody');
    for (const tb of lobby.tables) {
      const g = gameOf(tb.game);
      const mine = session.user && tb.players.includes(session.user.name);
      body.append(h('tr', { 'data-table': tb.id },
        h('td', {}, g ? gameName(g) : tb.game, h('div', { class: 'small' }, g ? variantName(g, tb.variant) : tb.variant,
          ' · ', h('span', { class: ['rated-label', tb.rated && 'rated'] }, ratedLabel(tb.rated)))),
        h('td', {}, clockLabel(tb.clock?.initial_ms, tb.clock?.increment_ms, tb.days) || '∞',
          tb.opened_at ? h('div', { class: 'small seek-age', 'data-at': tb.opened_at }, ageText(tb.opened_at)) : null),
        h('td', {}, tb.players.length
          ? tb.players.flatMap((name, i) => [i ? ', ' : '', playerLink({ id: (tb.player_ids || [])[i], name, bot: (tb.player_bots || [])[i] })])
          : '—', tb.host_rating ? [' ', ratingNode(tb.host_rating)] : null,
          h('div', { class: 'small' }, `${tb.players.length}/${tb.seats}`,
            tb.rating_range ? ` · ${t('lobby.range.shown', { min: tb.rating_range[0], max: tb.rating_range[1] })}` : '')),
        h('td', { class: 'row-actions' },
          mine
            ? h('a', { class: 'btn', href: `#/table/${tb.id}` }, t('lobby.open'))
            : h('button', { class: 'btn primary join', disabled: tb.rated && !accountHere(), title: tb.rated && !accountHere() ? t('rated.guest') : null, onClick: () => sit(tb.id) }, t('lobby.join')),
        ),
      ));
    }
    list.append(body);
    el.tables.append(list);
    if (lobby.total > PAGE_SIZE) el.tables.append(pager());
  }

  /** "21–40 of 95" with the newer and older pages on either side. */
  function pager() {
    const first = view.offset + 1;
    const last = view.offset + lobby.tables.length;
    return h('div', { class: 'pager' },
      h('button', { class: 'btn small newer', disabled: view.offset === 0, onClick: () => follow(view.game, Math.max(0, view.offset - PAGE_SIZE)) }, '‹ ', t('lobby.newer')),
      h('span', { class: 'pager-range' }, t('lobby.range', { first, last, total: lobby.total })),
      h('button', { class: 'btn small older', disabled: last >= lobby.total, onClick: () => follow(view.game, view.offset + PAGE_SIZE) }, t('lobby.older'), ' ›'),
    );
  }

  /** Follows another page of the lobby; the server stops sending the one before. */
  function follow(game, offset) {
    view.game = game;
    view.offset = offset;
    subscribe();
  }

  /** Whether a page or change the server sent is of the page followed now: an answer for the
   * page before may still arrive after the visitor asked for another. */
  function ofThisPage(msg) {
    return msg.offset === view.offset && (msg.game || '') === view.game && msg.limit === PAGE_SIZE;
  }

  function subscribe() {
    const query = { game: view.game || undefined, offset: view.offset, limit: PAGE_SIZE };
    socket.request({ type: 'lobby.subscribe', ...query }).then((msg) => {
      if (ofThisPage(msg)) show(msg);
    }).catch(() => {});
  }

  function show(page) {
    lobby = page;
    // The page emptied under the visitor (its tables were taken): show the last one there is.
    if (!lobby.tables.length && view.offset > 0) {
      follow(view.game, Math.max(0, Math.floor((lobby.total - 1) / PAGE_SIZE) * PAGE_SIZE));
      return;
    }
    renderTables();
    renderQueues();
  }

  function renderQueues() {
    clear(el.queues);
    const queues = lobby.queues.filter((q) => q.waiting > 0);
    if (!queues.length) {
      el.queues.append(h('p', { class: 'empty' }, t('lobby.noqueues')));
      return;
    }
    const ul = h('ul', { class: 'queue-list' });
    for (const q of queues) {
      const g = gameOf(q.game);
      const clock = clockLabel(q.initial_ms, q.increment_ms, q.days);
      ul.append(h('li', {},
        h('span', {}, `${g ? gameName(g) : q.game} · ${g ? variantName(g, q.variant) : q.variant}${clock ? ' · ' + clock : ''} · ${ratedLabel(q.rated)}`),
        h('span', { class: 'count' }, t('lobby.waiting', { n: q.waiting })),
        h('button', { class: 'btn small', disabled: q.rated && !accountHere(), title: q.rated && !accountHere() ? t('rated.guest') : null, onClick: () => join(q.game, q.variant, queueClock(q), q.rated) }, t('lobby.play')),
      ));
    }
    el.queues.append(ul);
  }

  function accountHere() {
    return !!session.user && !session.user.guest;
  }

  function queueClock(q) {
    if (q.days) return { days: q.days };
    return q.initial_ms ? { initial: Math.round(q.initial_ms / 1000), increment: Math.round((q.increment_ms || 0) / 1000) } : undefined;
  }

  function renderForm() {
    clear(el.form);
    const g = gameOf(form.game);
    if (!g) {
      el.form.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    if (!g.variants.some((v) => v.id === form.variant)) form.variant = g.default_variant;
    const solo = g.seats === 1;
    const field = (label, input) => h('label', { class: 'field' }, h('span', {}, label), input);
    const gameSel = h('select', { name: 'game', onChange: (e) => { form.game = e.target.value; form.variant = ''; renderForm(); } },
      games.map((x) => h('option', { value: x.id, selected: x.id === form.game }, gameName(x))));
    const varSel = h('select', { name: 'variant', onChange: (e) => { form.variant = e.target.value; } },
      g.variants.map((v) => h('option', { value: v.id, selected: v.id === form.variant }, variantName(g, v.id))));
    el.form.append(field(t('lobby.game'), gameSel), field(t('lobby.variant'), varSel));
    const bots = g.bots || [];
    if (!bots.includes(form.opponent)) form.opponent = 'human';
    const vsBot = form.opponent !== 'human';
    if (!solo && bots.length) {
      el.form.append(field(t('lobby.opponent'), h('select', { name: 'opponent', onChange: (e) => { form.opponent = e.target.value; renderForm(); } },
        h('option', { value: 'human', selected: !vsBot }, t('lobby.opponent.human')),
        bots.map((level) => h('option', { value: level, selected: form.opponent === level }, t('lobby.opponent.bot', { level: botOption(botList, level, g.id, ratingClass(clockSpec())) }))))));
    }
    if (!solo) {
      if (!vsBot) el.form.append(
        h('fieldset', { class: 'radio-row' },
          h('legend', {}, t('lobby.visibility')),
          h('label', {}, h('input', { type: 'radio', name: 'vis', checked: !form.private, onChange: () => { form.private = false; } }), ' ', t('lobby.public')),
          h('label', {}, h('input', { type: 'radio', name: 'vis', checked: form.private, onChange: () => { form.private = true; } }), ' ', t('lobby.private')),
        ),
      );
      // One click for the usual controls; the fields below fine-tune them.
      el.form.append(h('div', { class: 'time-chips', role: 'group', 'aria-label': t('home.clock') },
        ...['', ...TIME_CONTROLS].map((id) => h('button', {
          type: 'button', class: ['chip', 'time-chip', chosenControl() === id && 'on'], 'data-clock': id,
          'aria-pressed': chosenControl() === id ? 'true' : 'false', onClick: () => pickControl(id),
        }, id ? clockChipLabel(id) : '∞'))));
      el.form.append(
        h('fieldset', { class: 'radio-row' },
          h('legend', {}, t('lobby.clock')),
          h('label', {}, h('input', { type: 'radio', name: 'timed', checked: !form.timed && !form.corr, onChange: () => { form.timed = false; form.corr = false; renderForm(); } }), ' ', t('lobby.noclock')),
          h('label', {}, h('input', { type: 'radio', name: 'timed', checked: form.timed, onChange: () => { form.timed = true; form.corr = false; renderForm(); } }), ' ', t('lobby.timed')),
          h('label', {}, h('input', { type: 'radio', name: 'timed', value: 'days', checked: form.corr, onChange: () => { form.timed = false; form.corr = true; renderForm(); } }), ' ', t('lobby.bydays')),
        ),
      );
      if (form.corr) {
        el.form.append(h('div', { class: 'clock-fields' },
          field(t('lobby.correspondence'), h('select', { name: 'days', onChange: (e) => { form.days = Number(e.target.value); } },
            [1, 2, 3, 5, 7, 14].map((n) => h('option', { value: n, selected: n === form.days }, t('clock.days', { n }))))),
        ));
      }
      if (form.timed) {
        el.form.append(h('div', { class: 'clock-fields' },
          field(t('lobby.minutes'), h('input', { type: 'number', name: 'minutes', min: 1, max: 180, value: form.minutes, onInput: (e) => { form.minutes = Number(e.target.value); } })),
          field(t('lobby.increment'), h('input', { type: 'number', name: 'increment', min: 0, max: 180, value: form.increment, onInput: (e) => { form.increment = Number(e.target.value); } })),
        ));
      }
    }
    if (!solo) {
      el.form.append(ratedCheckbox(() => {
        renderForm();
        el.form.querySelector('.rated-check')?.focus();
      }));
      // A rating range keeps an open seek for players near your rating.
      if (!vsBot && !form.private && rated()) {
        const bound = (key) => h('input', { type: 'number', name: 'rating-' + key, min: 0, max: 4000, step: 50, value: form[key], placeholder: key === 'min' ? '1200' : '1800',
          onInput: (e) => { form[key] = e.target.value; } });
        el.form.append(h('div', { class: 'clock-fields rating-range' },
          field(t('lobby.range.min'), bound('min')), field(t('lobby.range.max'), bound('max'))));
      }
    }
    if (!solo) {
      el.form.append(field(t('home.side'), h('select', { name: 'side', class: 'side-select', onChange: (e) => { form.side = e.target.value; } },
        ['first', 'second', 'random'].map((v) => h('option', { value: v, selected: (form.side || 'first') === v }, t('home.side.' + v))))));
    }
    el.form.append(h('div', { class: 'form-actions' },
      h('button', { class: 'btn primary create', onClick: create }, solo || vsBot ? t('home.play') : t('lobby.createbtn')),
      solo || vsBot ? null : h('button', { class: 'btn quick', onClick: quick }, t('home.quick')),
    ));
  }

  /** The one-click control the form's clock fields hold now ('' for none), if any. */
  function chosenControl() {
    if (form.corr) return `${form.days}d`;
    if (!form.timed) return '';
    return `${form.minutes}+${form.increment}`;
  }

  function pickControl(id) {
    const { clock } = clockBody(id);
    form.corr = !!clock?.days;
    form.timed = !!clock && !clock.days;
    if (clock?.days) form.days = clock.days;
    if (form.timed) {
      form.minutes = clock.initial / 60;
      form.increment = clock.increment;
    }
    renderForm();
  }

  function clockSpec() {
    if (form.corr) return { days: form.days || 3 };
    if (!form.timed) return undefined;
    const minutes = Math.max(0.25, Math.min(180, Number(form.minutes) || 5));
    return { initial: Math.round(minutes * 60), increment: Math.max(0, Math.min(180, Math.round(Number(form.increment) || 0))) };
  }

  function create() {
    const g = gameOf(form.game);
    const body = { game: form.game, variant: form.variant };
    if (g.seats > 1) {
      if (form.opponent !== 'human' && (g.bots || []).includes(form.opponent)) body.bot = form.opponent;
      else body.private = form.private;
      const clock = clockSpec();
      if (clock) body.clock = clock;
      body.seat = form.side === 'second' ? 1 : form.side === 'random' ? Math.floor(Math.random() * 2) : 0;
      if (rated()) {
        body.rated = true;
        const range = ratingRange();
        if (range && !body.bot && !body.private) body.rating_range = range;
      }
    }
    createTable(body);
  }

  /** [min, max] when either bound is filled in (the other one open), else null. */
  function ratingRange() {
    const min = form.min === '' ? null : Number(form.min);
    const max = form.max === '' ? null : Number(form.max);
    if (min == null && max == null) return null;
    return [min ?? 0, max ?? 4000];
  }

  function quick() {
    join(form.game, form.variant, clockSpec(), rated());
  }

  async function sit(tableId) {
    try {
      await socket.request({ type: 'sit', table: tableId });
      navigate(`/table/${tableId}`);
    } catch (err) {
      toast(err.message || err.code, 'error');
    }
  }

  offs.push(socket.on('lobby.changes', (msg) => {
    if (ofThisPage(msg)) show(applyLobbyChanges(lobby, msg));
  }));
  offs.push(socket.onOpen(subscribe));

  render();
  api.games().then((list) => {
    games = list;
    render();
  }).catch((err) => toast(err.message, 'error'));
  bots().then((list) => {
    botList = list;
    renderForm();
  });

  // Each table's age moves on while the page is open.
  const ages = setInterval(() => {
    for (const cell of root.querySelectorAll('.seek-age')) cell.textContent = ageText(Number(cell.dataset.at));
  }, 20000);

  return {
    unmount() {
      clearInterval(ages);
      for (const off of offs) off();
      if (socket.state === 'open') socket.request({ type: 'lobby.unsubscribe' }).catch(() => {});
    },
    relabel: render,
  };
}
