// Web Push in the browser. Headless Chromium has no push service to subscribe through (the
// real one is a third party these machines cannot reach), so what is tested is what is real
// here: "Notify me" asks the permission and goes as far as the browser's subscription, and a
// push delivered to the service worker through the DevTools protocol shows the notification
// that names the game and the opponent and opens the table (or, for a tournament about to
// start, names it and opens its page).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, startServer, launchPersistent, screenshotPath } from './helpers.mjs';

async function browserWithProfile(url) {
  const dir = mkdtempSync(join(tmpdir(), 'stolik-push-'));
  const context = await launchPersistent(dir, { viewport: { width: 1366, height: 850 } });
  await context.grantPermissions(['notifications'], { origin: url });
  await context.addInitScript(() => {
    if (!localStorage.getItem('stolik.lang')) localStorage.setItem('stolik.lang', 'en');
  });
  return { context, close: async () => { await context.close(); rmSync(dir, { recursive: true, force: true }); } };
}

async function openControlled(page, url, hash = '') {
  await page.goto(url + '/' + hash);
  await page.waitForFunction(() => window.__stolikSocket?.state === 'open');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
}

/** Delivers `payload` to the page's service worker through the DevTools protocol, as a push
 * service would, and returns the notifications it then shows. */
async function deliverAndShow(browser, page, url, payload) {
  const cdp = await browser.context.newCDPSession(page);
  const registered = new Promise((resolve) => cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
    const mine = registrations.find((r) => r.scopeURL === url + '/' && !r.isDeleted);
    if (mine) resolve(mine.registrationId);
  }));
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registered;
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: url, registrationId, data: JSON.stringify(payload) });
  const notifications = () => page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url }));
  });
  let shown = await notifications();
  for (let i = 0; i < 100 && !shown.length; i++) {
    await new Promise((r) => setTimeout(r, 100));
    shown = await notifications();
  }
  return shown;
}

test('each kind of push has a switch in the profile, kept by the server', async () => {
  const server = await startServer();
  const browser = await browserWithProfile(server.url);
  try {
    const page = browser.context.pages()[0] || await browser.context.newPage();
    await openControlled(page, server.url, '#/profile');
    const kinds = page.locator('.push-settings .push-kind input');
    await kinds.first().waitFor();
    // One switch for every kind the server can push.
    const served = await page.evaluate(async () => (await (await fetch('/api/me/push')).json()).kinds);
    assert.ok(served.includes('rematch_offer'), JSON.stringify(served));
    assert.equal(await kinds.count(), served.length);
    for (const box of await kinds.all()) assert.equal(await box.isChecked(), true);
    await page.locator('input[name="push-game_over"]').uncheck();
    const off = () => page.evaluate(async () => (await (await fetch('/api/me/push')).json()).off);
    for (let i = 0; i < 100 && !(await off()).includes('game_over'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await off(), ['game_over']);
    // Drawn again from the server's answer after a reload.
    await page.reload();
    await page.locator('input[name="push-game_over"]').waitFor();
    assert.equal(await page.locator('input[name="push-game_over"]').isChecked(), false);
    assert.equal(await page.locator('input[name="push-your_turn"]').isChecked(), true);
    // How the panel looks, at both sizes.
    for (const [width, height] of [[1366, 850], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.locator('.push-settings').scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath(`push-settings-${width}.png`) });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('"Notify me" asks the permission and subscribes this device with the server\'s key', async (t) => {
  const server = await startServer();
  const browser = await browserWithProfile(server.url);
  try {
    const page = browser.context.pages()[0] || await browser.context.newPage();
    await openControlled(page, server.url, '#/profile');
    const button = page.locator('.push-settings .push-device');
    await button.waitFor();
    assert.equal(await button.textContent(), 'Notify me');
    await button.click();
    // Either the browser's push service answered (the subscription reached the server) or it
    // could not be reached and the page says why.
    await page.waitForFunction(() => document.querySelector('.push-settings .push-problem')
      || document.querySelector('.push-settings .push-device')?.textContent === 'Stop notifying this device', null, { timeout: 60000 });
    assert.equal(await page.evaluate(() => Notification.permission), 'granted');
    const problem = await page.locator('.push-settings .push-problem').textContent().catch(() => null);
    if (problem) {
      assert.match(problem, /^(Could not turn notifications on: |The browser's push service did not answer)/);
      // The switch is offered again, and the server has no device for this browser.
      assert.equal(await button.textContent(), 'Notify me');
      assert.equal(await button.isEnabled(), true);
      assert.equal((await page.evaluate(async () => (await fetch('/api/me/push')).json())).devices, 0);
      t.skip(`headless Chromium could not subscribe through a push service: ${problem}`);
      return;
    }
    const settings = await page.evaluate(async () => (await fetch('/api/me/push')).json());
    assert.equal(settings.devices, 1);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a push delivered to the service worker shows a notification that opens the table', async () => {
  const server = await startServer();
  const browser = await browserWithProfile(server.url);
  try {
    const page = browser.context.pages()[0] || await browser.context.newPage();
    await openControlled(page, server.url, '#/profile');
    // A real table to be told of.
    const table = await page.evaluate(async () => {
      const res = await fetch('/api/tables', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'mill', clock: { days: 2 } }) });
      return res.json();
    });
    assert.ok(table.id, JSON.stringify(table));
    const payload = {
      title: 'Stolik', body: 'Your move against bob in Mill (Troika)', url: `/#/table/${table.id}`,
      tag: `stolik-${table.id}`, kind: 'your_turn', game_id: table.id,
    };
    const shown = await deliverAndShow(browser, page, server.url, payload);
    assert.deepEqual(shown, [{
      title: 'Stolik', body: payload.body, tag: payload.tag, url: `${server.url}/#/table/${table.id}`,
    }]);
    // What a click does (a click on a system notification cannot be made headless): the
    // worker's own handler brings the open window to the table.
    const [worker] = browser.context.serviceWorkers();
    assert.ok(worker, 'the service worker is running');
    await worker.evaluate((url) => openPage(url).then(() => true), `${server.url}/#/table/${table.id}`);
    await page.waitForURL(`${server.url}/#/table/${table.id}`);
    await page.waitForFunction((id) => window.__stolik?.table?.id === id, table.id);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a push about a tournament about to start shows a notification that opens its page', async () => {
  const server = await startServer();
  const browser = await browserWithProfile(server.url);
  try {
    const page = browser.context.pages()[0] || await browser.context.newPage();
    await openControlled(page, server.url, '#/profile');
    // A real tournament, set up by an account.
    const name = `pushtour${Date.now() % 100000}`;
    const registered = await page.evaluate(async (n) => (await fetch('/api/register', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: n, password: 'secret-password' }),
    })).status, name);
    assert.equal(registered, 200);
    const tour = await page.evaluate(async () => (await fetch('/api/tournaments', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: 'mill', initial: 180, increment: 2, minutes: 30, starts_in: 60 }),
    })).json());
    assert.ok(tour.id, JSON.stringify(tour));
    const payload = {
      title: 'Stolik', body: 'The Mill (Troika) arena you joined is about to start', url: `/#/tournament/${tour.id}`,
      tag: `stolik-${tour.id}`, kind: 'tournament_start', game_id: null, tournament_id: tour.id,
    };
    const shown = await deliverAndShow(browser, page, server.url, payload);
    assert.deepEqual(shown, [{
      title: 'Stolik', body: payload.body, tag: payload.tag, url: `${server.url}/#/tournament/${tour.id}`,
    }]);
    const [worker] = browser.context.serviceWorkers();
    assert.ok(worker, 'the service worker is running');
    await worker.evaluate((url) => openPage(url).then(() => true), `${server.url}/#/tournament/${tour.id}`);
    await page.waitForURL(`${server.url}/#/tournament/${tour.id}`);
    await page.locator('.tour-standings').waitFor();
  } finally {
    await browser.close();
    await server.stop();
  }
});
