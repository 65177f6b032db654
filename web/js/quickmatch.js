// Quick match: join a queue, show a waiting box with a cancel button, and go to the table the
// server pairs us at. The box lives outside the pages so it survives navigation. When nobody
// turns up within a few seconds the box also offers a bot of the same game and variant; the
// search goes on until the visitor takes that offer or cancels.

import { h, toast } from './ui.js';
import { t, onLang, gameName } from './i18n.js';
import { socket } from './socket.js';
import { api } from './api.js';
import { navigate } from './router.js';

let waiting = null; // {game, variant, clock, since}
let box = null;
let offerTimer = null;
let botLevel = 'easy';
/** How long a search runs before a bot is offered. */
export const BOT_OFFER_MS = 5000;

function errorText(err) {
  const key = 'error.' + err.code;
  const text = t(key);
  return text === key ? err.message || err.code : text;
}

async function render() {
  box?.remove();
  box = null;
  if (!waiting) return;
  const games = await api.games().catch(() => []);
  const g = games.find((x) => x.id === waiting.game);
  if (!waiting) return;
  box?.remove();
  const bots = g?.bots || [];
  const offer = bots.length && performance.now() - waiting.since >= BOT_OFFER_MS;
  const clock = waiting.clock ? ` · ${waiting.clock.initial / 60}+${waiting.clock.increment}` : '';
  box = h(
    'div',
    { class: 'queue-box', role: 'status', 'aria-live': 'polite' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    h('span', { class: 'queue-text' }, t('queue.waiting', { game: g ? gameName(g) : waiting.game }) + clock),
    h('button', { class: 'btn queue-cancel', onClick: leave }, t('cancel')),
    offer ? h('div', { class: 'queue-bot' },
      h('p', {}, t('queue.nobody')),
      h('select', { class: 'queue-bot-level', 'aria-label': t('home.botLevel'), onChange: (e) => { botLevel = e.target.value; } },
        bots.map((level) => h('option', { value: level, selected: level === botLevel }, t('bot.' + level)))),
      h('button', { class: 'btn primary queue-play-bot', onClick: playBot }, t('home.bot'))) : null,
  );
  document.body.append(box);
}

export async function join(game, variant, clock) {
  if (waiting) await leave();
  const body = { type: 'queue.join', game };
  if (variant) body.variant = variant;
  if (clock) body.clock = clock;
  try {
    await socket.request(body);
    waiting = { game, variant, clock, since: performance.now() };
    render();
    clearTimeout(offerTimer);
    offerTimer = setTimeout(render, BOT_OFFER_MS);
  } catch (err) {
    toast(errorText(err), 'error');
  }
}

/** Takes the offer: leaves the queue and starts a bot game of the same game and variant. */
async function playBot() {
  const w = waiting;
  if (!w) return;
  await leave();
  try {
    const body = { game: w.game, bot: botLevel };
    if (w.variant) body.variant = w.variant;
    if (w.clock) body.clock = w.clock;
    const snap = await api.createTable(body);
    navigate(`/table/${snap.id}`);
  } catch (err) {
    toast(errorText(err), 'error');
  }
}

export async function leave() {
  const was = waiting;
  waiting = null;
  clearTimeout(offerTimer);
  render();
  if (was) await socket.request({ type: 'queue.leave' }).catch(() => {});
}

export function isWaiting() {
  return !!waiting;
}

socket.on('match', (msg) => {
  waiting = null;
  clearTimeout(offerTimer);
  render();
  navigate(`/table/${msg.table}`);
});

// The server forgets the queue when the socket drops: join again after reconnecting.
socket.onOpen(({ reconnected }) => {
  if (reconnected && waiting) {
    const w = waiting;
    const body = { type: 'queue.join', game: w.game };
    if (w.variant) body.variant = w.variant;
    if (w.clock) body.clock = w.clock;
    socket.request(body).catch(() => {});
  }
});

onLang(render);
