// The player's notifications: the unread count, the latest ones, and each new one as it comes
// over the socket — shown by the browser too (with the player's permission) when the tab is
// not in front.

import { socket } from './socket.js';
import { api } from './api.js';
import { t } from './i18n.js';

let unread = 0;
let latest = [];
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

socket.on('hello', load);
socket.on('notification', (msg) => {
  const n = msg.notification;
  latest = [n, ...latest.filter((x) => x.id !== n.id)].slice(0, 100);
  unread += 1;
  changed();
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted' && document.visibilityState !== 'visible') {
    new Notification(t('app.name'), { body: notificationText(n), tag: `stolik-${n.id}` });
  }
});

/** What a notification says, in the current language. */
export function notificationText(n) {
  return t('notify.' + n.kind);
}

export function notifications() {
  return { unread, latest };
}

export function onNotifications(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
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
