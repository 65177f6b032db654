// The installable site: Chromium finds the manifest and the service worker good enough to
// install the site; the worker keeps the client's files; with the server stopped, a page of the
// site shows the offline page in the visitor's language, which opens the site again by itself
// once the server is back.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, startServer, launchPersistent, screenshotPath } from './helpers.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical findings on the page as it is, one line each. */
async function seriousFindings(page) {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations));
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

/** A profile of its own (installability is never reported for an off-the-record one). */
async function browserWithProfile(viewport, locale) {
  const dir = mkdtempSync(join(tmpdir(), 'stolik-pwa-'));
  // axe is injected into the offline page, which the site's policy would refuse.
  const context = await launchPersistent(dir, { viewport, locale, bypassCSP: true });
  return { context, close: async () => { await context.close(); rmSync(dir, { recursive: true, force: true }); } };
}

/** Opens the site and waits until its service worker controls the page. */
async function openControlled(page, url) {
  await page.goto(url + '/');
  await page.waitForFunction(() => window.__stolikSocket?.state === 'open');
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The first page is taken over by clients.claim() once the worker is active.
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
}

test('the site is installable: a manifest with its icons and a service worker that keeps the bundle', async () => {
  const server = await startServer();
  const browser = await browserWithProfile({ width: 1366, height: 850 }, 'en-GB');
  try {
    const page = browser.context.pages()[0] || await browser.context.newPage();
    await openControlled(page, server.url);
    const cdp = await browser.context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], JSON.stringify(manifest.errors));
    assert.equal(JSON.parse(manifest.data).name, 'Stolik');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], JSON.stringify(installabilityErrors));
    // Every script and style sheet the page loaded is kept by the worker, under this version.
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('stolik-')));
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/assets/')));
    assert.ok(loaded.length > 0);
    for (const path of loaded) assert.ok(kept.includes(path), `${path} is kept`);
    assert.ok(kept.includes('/offline.html'));
  } finally {
    await browser.close();
    await server.stop();
  }
});

for (const [size, viewport, locale, heading] of [
  ['1366', { width: 1366, height: 850 }, 'en-GB', 'Stolik cannot reach its server'],
  ['390', { width: 390, height: 844 }, 'uk-UA', 'Столик не може зв’язатися із сервером'],
]) {
  test(`with the server stopped a page shows the offline page, which comes back by itself (${size} px)`, async () => {
    let server = await startServer();
    const browser = await browserWithProfile(viewport, locale);
    try {
      const page = browser.context.pages()[0] || await browser.context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await openControlled(page, server.url);
      await page.goto(server.url + '/#/games');
      await server.stop();
      await page.reload();
      await page.getByRole('heading', { name: heading }).waitFor();
      assert.equal(await page.locator('.offline-note:visible').count(), 1);
      await page.screenshot({ path: screenshotPath(`offline-${size}.png`) });
      // Readable in both themes.
      for (const scheme of ['light', 'dark']) {
        // The theme as the site sets it (theme-boot.js chose it once, at load).
        await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, scheme);
        assert.deepEqual(await seriousFindings(page), [], `${scheme} theme`);
      }
      await page.screenshot({ path: screenshotPath(`offline-${size}-dark.png`) });
      // The server comes back where it was: the page finds it and opens the site.
      server = await startServer([], { port: server.port, database: server.database });
      await page.waitForFunction(() => window.__stolikSocket?.state === 'open', null, { timeout: 20000 });
      assert.equal(new URL(page.url()).hash, '#/games');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.stop();
    }
  });
}
