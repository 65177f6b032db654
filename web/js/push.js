// Web Push: "Notify me" on this device. The browser asks the player's permission, subscribes
// with the site's VAPID key (GET /api/push/key) through the service worker (web/sw.js), and
// the subscription goes to the server (POST /api/me/push), which pushes the player's
// notifications to it while no page of the site shows them (docs/protocol.md, "Web Push").

import { api } from './api.js';
import { lang } from './i18n.js';

const SUBSCRIBE_TIMEOUT_MS = 20000;

/** Whether this browser can receive pushes at all. */
export function pushSupported() {
  return 'serviceWorker' in navigator && typeof PushManager !== 'undefined' && typeof Notification !== 'undefined';
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function registration() {
  return navigator.serviceWorker.ready;
}

/** This device's push subscription, if it has one. */
export async function deviceSubscription() {
  if (!pushSupported()) return null;
  return (await registration()).pushManager.getSubscription();
}

/**
 * Asks the permission, subscribes this device and tells the server. Throws with `denied` set
 * when the player (or the browser) refuses notifications, `noService` when the browser's push
 * service does not answer.
 */
export async function enablePush() {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw Object.assign(new Error(permission), { denied: true });
  const { key } = await api.pushKey();
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    // A browser whose push service cannot be reached may never answer: it is given a while.
    const timeout = new Promise((resolve, reject) => setTimeout(
      () => reject(Object.assign(new Error('no push service'), { noService: true })), SUBSCRIBE_TIMEOUT_MS));
    sub = await Promise.race([reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }), timeout]);
  }
  const json = sub.toJSON();
  return api.subscribePush({ endpoint: json.endpoint, keys: json.keys, lang: lang() });
}

/** Stops pushes to this device: the server forgets it, the browser drops the subscription. */
export async function disablePush() {
  const sub = await deviceSubscription();
  if (!sub) return;
  await api.unsubscribePush(sub.endpoint).catch(() => {});
  await sub.unsubscribe();
}
