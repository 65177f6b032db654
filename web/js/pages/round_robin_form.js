// The round robin's part of the tournaments page's create form: a correspondence clock (days a
// move, and whether vacation days may be taken) or a live one for a small field, and the most
// players. The bounds are the server's (`tournaments/round_robin/create.rs`).

import { h } from '../ui.js';
import { t } from '../i18n.js';

const DAYS = [1, 2, 3, 5, 7, 14];
const MOST = { days: 16, live: 10 };

/** The fields, given the form's state, its number-field maker and a re-render. */
export function roundRobinFields(form, number, rerender) {
  const most = MOST[form.clock];
  if (form.max_players > most) form.max_players = most;
  return [
    h('label', { class: 'field' }, h('span', {}, t('tour.rr.clock')),
      h('select', { name: 'clock', onChange: (e) => { form.clock = e.target.value; rerender(); } },
        ...['days', 'live'].map((c) => h('option', { value: c, selected: c === form.clock }, t('tour.rr.clock.' + c))))),
    ...(form.clock === 'days'
      ? [h('label', { class: 'field' }, h('span', {}, t('tour.rr.days')),
        h('select', { name: 'days', onChange: (e) => { form.days = Number(e.target.value); } },
          ...DAYS.map((d) => h('option', { value: d, selected: d === form.days }, t('clock.days', { n: d })))))]
      : [number('initial', 1, 60, t('tour.create.initial')), number('increment', 0, 60, t('tour.create.increment'))]),
    number('max_players', 3, most, t('tour.rr.max_players')),
    form.clock === 'days'
      ? h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'vacation', checked: form.vacation, onChange: (e) => { form.vacation = e.target.checked; } }), ' ', t('tour.rr.vacation'))
      : null,
  ];
}

/** What `POST /api/tournaments` is sent for the form's round robin. */
export function roundRobinBody(form) {
  const clock = form.clock === 'days'
    ? { days: form.days, vacation: form.vacation }
    : { initial: form.initial * 60, increment: form.increment };
  return {
    kind: 'round_robin', game: form.game, variant: form.variant || undefined, ...clock,
    max_players: form.max_players, starts_in: form.starts_in, rated: form.rated,
  };
}
