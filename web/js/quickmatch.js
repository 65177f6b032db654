// Quick match: join a queue, show a waiting box with a cancel button, and go to the table the
// server pairs us at. The box lives outside the pages so it survives navigation.

import { h, toast } from './ui.js';
import { t, onLang, gameName } from './i18n.js';
import { socket } from './socket.js';
import { api } from './api.js';
import { navigate } from './router.js';

let waiting = null; // {game, variant, clock}
let box = null;

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
  const clock = waiting.clock ? ` · ${waiting.clock.initial / 60}+${waiting.clock.increment}` : '';
  box = h(
    'div',
    { class: 'queue-box', role: 'status', 'aria-live': 'polite' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    h('span', { class: 'queue-text' }, t('queue.waiting', { game: g ? gameName(g) : waiting.game }) + clock),
    h('button', { class: 'btn queue-cancel', onClick: leave }, t('cancel')),
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
    waiting = { game, variant, clock };
    render();
  } catch (err) {
    toast(errorText(err), 'error');
  }
}

export async function leave() {
  const was = waiting;
  waiting = null;
  render();
  if (was) await socket.request({ type: 'queue.leave' }).catch(() => {});
}

export function isWaiting() {
  return !!waiting;
}

socket.on('match', (msg) => {
  waiting = null;
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
