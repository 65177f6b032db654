// The player's notifications: the unread count, the latest ones, and each new one as it comes
// over the socket — shown by the browser too (with the player's permission) when the tab is
// not in front.

import { socket } from './socket.js';
import { api } from './api.js';
import { t, gameName, botName } from './i18n.js';
import { currentRoute } from './router.js';

let unread = 0;
let latest = [];
// The catalogue, to name each notification's game.
let catalogue = [];
const listeners = new Set();

function changed() {
  for (const fn of listeners) fn();
}

async function load() {
  try {
    const body = await api.notifications();
    unread = body.unread;
    latest = body.notifications;
    changed();
  } catch {
    // Offline: the next hello loads them again.
  }
}

api.games().then((games) => {
  catalogue = games;
  changed();
}).catch(() => {});

/** Whether this tab shows the table `id` now. */
function showing(id) {
  const r = currentRoute();
  return r.parts[0] === 'table' && r.parts[1] === id && document.visibilityState === 'visible';
}

socket.on('hello', load);
// Read elsewhere, withdrawn, or gone with their game: the list is read again.
socket.on('notifications', (msg) => {
  unread = msg.unread;
  load();
});
socket.on('notification', (msg) => {
  const n = msg.notification;
  // A new one, or one that replaces the unread one of its kind at its table.
  latest = [n, ...latest.filter((x) => x.id !== n.id)].slice(0, 100);
  unread = typeof msg.unread === 'number' ? msg.unread : unread + 1;
  changed();
  // The player is looking at that game: nothing to tell them.
  if (showing(n.game_id)) {
    markRead([n.id]).catch(() => {});
    return;
  }
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted' && document.visibilityState !== 'visible') {
    new Notification(t('app.name'), { body: notificationText(n), tag: `stolik-${n.id}` });
  }
});

/** Who a notification is about, as the player knows them. */
function opponentName(n) {
  if (!n.opponent) return t('notify.someone');
  return n.opponent.startsWith('bot:') ? botName(n.opponent.slice(4)) : n.opponent;
}

/** What a notification says, in the current language: what happened, in which game, with whom. */
export function notificationText(n) {
  const game = gameName(catalogue.find((g) => g.id === n.game)) || n.game || '';
  return t('notify.' + n.kind, { game, opponent: opponentName(n) });
}

export function notifications() {
  return { unread, latest };
}

export function onNotifications(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Marks these notifications read. */
export async function markRead(ids) {
  await api.markRead(ids);
  const before = latest.filter((n) => ids.includes(n.id) && !n.read).length;
  latest = latest.map((n) => (ids.includes(n.id) ? { ...n, read: true } : n));
  unread = Math.max(0, unread - before);
  changed();
}

export async function markAllRead() {
  await api.markRead();
  unread = 0;
  latest = latest.map((n) => ({ ...n, read: true }));
  changed();
}

/** Whether the browser can show notifications, and whether we may. */
export function desktopState() {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission;
}

export async function askDesktop() {
  if (typeof Notification === 'undefined') return 'unsupported';
  const answer = await Notification.requestPermission();
  changed();
  return answer;
}
