// The first load on a slow link: how long a new visitor waits for the catalogue's cards, and
// what the page downloads on the way, measured in a real Chromium whose network is throttled
// through the DevTools protocol (Network.emulateNetworkConditions). A benchmark, not a test:
// it prints figures for docs/performance.md and judges nothing.
//
//   cargo build --release --bin stolik
//   STOLIK_BIN=$PWD/target/release/stolik node tests/browser/first-load.mjs [--runs 7]
//
// Options: --runs N (visits of each kind), --latency MS (added to every request, default 150),
// --kbps N (down and up, default 1600).

import { parseArgs } from 'node:util';
import { startServer, launch } from './helpers.mjs';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    latency: { type: 'string', default: '150' },
    kbps: { type: 'string', default: '1600' },
  },
});
const RUNS = Number(opts.runs);
const LINK = {
  offline: false,
  latency: Number(opts.latency),
  downloadThroughput: (Number(opts.kbps) * 1000) / 8,
  uploadThroughput: (Number(opts.kbps) * 1000) / 8,
};

// Runs in the page before any of its scripts: notes when every card of the catalogue is in
// the document, and the next frame after that (when they are painted).
function watchCards() {
  const seen = () => {
    if (!document.querySelector('.game-card')) return false;
    requestAnimationFrame(() => { window.__cardsAt = performance.now(); });
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true });
}

/** One visit to `/` in `context`: milliseconds to the cards, requests and bytes on the wire. */
async function visit(context, url) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', LINK);
  let requests = 0;
  let bytes = 0;
  let fromCache = 0;
  cdp.on('Network.requestWillBeSent', (e) => { if (!e.request.url.startsWith('data:')) requests++; });
  cdp.on('Network.requestServedFromCache', () => { fromCache++; });
  cdp.on('Network.responseReceived', (e) => { if (e.response.fromDiskCache) fromCache++; });
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  await page.goto(url + '/', { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__cardsAt !== undefined, null, { timeout: 60000, polling: 50 });
  const ms = await page.evaluate(() => window.__cardsAt);
  // Let the rest of the start (socket, images) finish before counting what was fetched.
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.close();
  return { ms, requests, fromCache, bytes };
}

function summary(name, rows) {
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)];
  const last = rows[rows.length - 1];
  console.log(
    `${name}: cards after ${Math.round(median)} ms (median of ${rows.length}; ${Math.round(ms[0])}–${Math.round(ms[ms.length - 1])}), `
      + `${last.requests} requests (${last.fromCache} from the cache), ${(last.bytes / 1024).toFixed(1)} KB on the wire`,
  );
}

const server = await startServer(['--limits', 'off']);
const browser = await launch();
try {
  console.log(`link: ${LINK.latency} ms added to each request, ${opts.kbps} kbit/s each way`);
  const cold = [];
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    // A new visitor: a context of its own, its cache empty.
    const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
    await context.addInitScript(watchCards);
    cold.push(await visit(context, server.url));
    // The same visitor coming back: whatever the cache may keep.
    warm.push(await visit(context, server.url));
    await context.close();
  }
  summary('first visit', cold);
  summary('second visit', warm);
} finally {
  await browser.close();
  await server.stop();
}
