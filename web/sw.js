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
