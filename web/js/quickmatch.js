// Quick match: join a queue, show a waiting box with a cancel button, and go to the table the
// server pairs us at. The box lives outside the pages so it survives navigation. When nobody
// turns up within a few seconds the box also offers a bot of the same game and variant; the
// search goes on until the visitor takes that offer or cancels.

import { h, toast } from './ui.js';
import { t, onLang, gameName } from './i18n.js';
import { socket } from './socket.js';
import { api } from './api.js';
import { navigate } from './router.js';
import { ratedLabel, ratingClass, bots as botRatings, botOption } from './players.js';

let waiting = null; // {game, variant, clock, rated, since}
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
  const [games, botList] = await Promise.all([api.games().catch(() => []), botRatings()]);
  const g = games.find((x) => x.id === waiting.game);
  if (!waiting) return;
  box?.remove();
  const bots = g?.bots || [];
  const offer = bots.length && performance.now() - waiting.since >= BOT_OFFER_MS;
  const clock = (waiting.clock?.days ? ` · ${t('clock.days', { n: waiting.clock.days })}` : waiting.clock ? ` · ${waiting.clock.initial / 60}+${waiting.clock.increment}` : '')
    + ` · ${ratedLabel(waiting.rated, waiting.rated ? ratingClass(waiting.clock) : null)}`;
  box = h(
    'div',
    { class: 'queue-box', role: 'status', 'aria-live': 'polite' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    h('span', { class: 'queue-text' }, t('queue.waiting', { game: g ? gameName(g) : waiting.game }) + clock),
    h('button', { class: 'btn queue-cancel', onClick: leave }, t('cancel')),
    offer ? h('div', { class: 'queue-bot' },
      h('p', {}, t('queue.nobody')),
      h('select', { class: 'queue-bot-level', 'aria-label': t('home.botLevel'), onChange: (e) => { botLevel = e.target.value; } },
        bots.map((level) => h('option', { value: level, selected: level === botLevel }, botOption(botList, level, waiting.game, ratingClass(waiting.clock))))),
      h('button', { class: 'btn primary queue-play-bot', onClick: playBot }, t('home.bot'))) : null,
  );
  document.body.append(box);
}

/** The queue.join request for a search. */
function joinRequest(w) {
  const body = { type: 'queue.join', game: w.game };
  if (w.rated) body.rated = true;
  if (w.variant) body.variant = w.variant;
  if (w.clock) body.clock = w.clock;
  return body;
}

/** Joins quick match; `rated` only for accounts (the server refuses it for guests). */
export async function join(game, variant, clock, rated = false) {
  if (waiting) await leave();
  try {
    await socket.request(joinRequest({ game, variant, clock, rated }));
    waiting = { game, variant, clock, rated, since: performance.now() };
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
    if (w.rated) body.rated = true;
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
    socket.request(joinRequest(waiting)).catch(() => {});
  }
});

onLang(render);
