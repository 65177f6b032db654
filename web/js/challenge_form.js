// The "Challenge" panel of a player's page: a two-player game, a clock, a side and whether it
// is rated, sent as a challenge (POST /api/challenge/ID). The answer comes on the challenges
// page (#/challenges), which also follows it live.

import { h, toast } from './ui.js';
import { t, gameName } from './i18n.js';
import { api } from './api.js';
import { session } from './session.js';

/** The clocks offered, as the server takes them (null: no clock). */
const CLOCKS = [
  { key: '5+3', clock: { initial: 300, increment: 3 } },
  { key: '10+5', clock: { initial: 600, increment: 5 } },
  { key: '15+10', clock: { initial: 900, increment: 10 } },
  { key: '3d', clock: { days: 3 } },
  { key: 'none', clock: null },
];

function errorText(err) {
  const key = 'error.' + err.code;
  const text = t(key);
  return text === key ? err.message || err.code : text;
}

/** The panel for challenging `target` (a profile), or null when nobody can be challenged. */
export function challengePanel(target, games) {
  const me = session.user;
  if (!me || me.id === target.id || target.guest || target.bot) return null;
  const twoPlayer = games.filter((g) => g.seats === 2);
  if (!twoPlayer.length) return null;
  const game = h('select', { name: 'challenge-game' }, ...twoPlayer.map((g) => h('option', { value: g.id }, gameName(g))));
  const clock = h('select', { name: 'challenge-clock' }, ...CLOCKS.map((c) => h('option', { value: c.key }, t(`challenge.clock.${c.key}`))));
  const side = h('select', { name: 'challenge-side' }, ...['random', 'a', 'b'].map((s) => h('option', { value: s }, t(`challenge.side.${s}`))));
  const rated = h('input', { type: 'checkbox', name: 'challenge-rated', disabled: me.guest });
  const button = h('button', { type: 'submit', class: 'btn' }, t('challenge.send'));

  async function send(e) {
    e.preventDefault();
    button.disabled = true;
    try {
      const chosen = CLOCKS.find((c) => c.key === clock.value);
      await api.challenge(target.id, { game: game.value, clock: chosen.clock, side: side.value, rated: rated.checked });
      toast(t('challenge.sent', { name: target.name }), 'ok');
      location.hash = '#/challenges';
    } catch (err) {
      toast(errorText(err), 'error');
    } finally {
      button.disabled = false;
    }
  }

  return h('section', { class: 'panel challenge-panel' },
    h('h2', {}, t('challenge.title', { name: target.name })),
    h('form', { class: 'account-form challenge-form', onSubmit: send },
      h('label', { class: 'field' }, h('span', {}, t('challenge.game')), game),
      h('label', { class: 'field' }, h('span', {}, t('challenge.clock')), clock),
      h('label', { class: 'field' }, h('span', {}, t('challenge.side')), side),
      h('label', { class: 'toggle' }, rated, ' ', t('challenge.rated')),
      button));
}
