// The service worker: it keeps the client's files, so that the site opens quickly and can be
// installed, and shows the offline page (offline.html) when a page is asked for and the
// server cannot be reached. It never answers for the API or the socket: games are live, and a
// stale answer there would be wrong.
//
// The build (web/build/bundle.mjs) rewrites the next line with the bundle's version and its
// files; served from the sources (`--web-dir`), the worker keeps what the offline page needs.
const BUILD = { version: 'sources', precache: ['/offline.html', '/css/app.css', '/js/theme-boot.js', '/js/offline.js', '/js/i18n-choice.js', '/img/favicon.svg'] };

const PREFIX = 'stolik-';
const CACHE = PREFIX + BUILD.version;

self.addEventListener('install', (event) => {
  // A new version takes over at once: pages load their next page from it (pwa.js).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(BUILD.precache)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // The page itself always from the server (never a stale version of the site); the offline
    // page only when the server cannot be reached at all.
    event.respondWith(fetch(request).catch(() => offline()));
  } else if (url.pathname.startsWith('/assets/')) {
    // Named by their content's hash: a kept copy is always right.
    event.respondWith(kept(request));
  } else if (url.pathname.startsWith('/img/') || BUILD.precache.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request).then((hit) => hit || Response.error())));
  }
});

async function offline() {
  const cache = await caches.open(CACHE);
  return (await cache.match('/offline.html')) || Response.error();
}

async function kept(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

// Web Push (docs/protocol.md, "Web Push"): the server's push, decrypted by the browser, is
// JSON with the notification's title, text and page. Nothing is shown while a page of the
// site shows that very table in front of the player (the server skips a player at the table
// already; this covers a page that opened it since).
self.addEventListener('push', (event) => {
  event.waitUntil((async () => {
    let data;
    try {
      data = event.data ? event.data.json() : null;
    } catch {
      data = null;
    }
    if (!data || typeof data.title !== 'string') return;
    const url = new URL(data.url || '/', self.location.origin).href;
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    if (data.game_id && windows.some((w) => w.visibilityState === 'visible' && w.focused && w.url === url)) return;
    await self.registration.showNotification(data.title, {
      body: data.body || '',
      tag: data.tag,
      data: { url },
      icon: '/img/icon-192.png',
      badge: '/img/icon-192.png',
    });
  })());
});

// A click opens the notification's page.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openPage(event.notification.data?.url || '/'));
});

/** Shows `url`: a window of the site already open goes there and comes to the front; else a new one opens. */
async function openPage(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(url);
  const moved = (await open.navigate(url).catch(() => null)) || open;
  // Only a click lets a window come to the front.
  await moved.focus().catch(() => {});
  return moved;
}
