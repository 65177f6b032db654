// The site's own tournaments and the record of finished ones, in the browser: a server given a
// schedule lists its coming events as the site's own with a running countdown; a section with
// no tournament says so and offers an account "Create an arena", which leads to the form; a
// finished arena shows its winners above the standings; and a player's page lists the
// tournaments they took part in, with their place and points — at a desktop's size and a
// phone's. A minute of the tournaments' calendar lasts 2 s here: a 5-minute arena, 10 s.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, serverAndBrowser, newPlayer, screenshotPath } from './helpers.mjs';

const schedule = join(tmpdir(), `stolik-browser-schedule-${process.pid}.json`);
const hours = Array.from({ length: 24 }, (_, h) => h);
writeFileSync(schedule, JSON.stringify({
  events: [{ id: 'hourly', kind: 'arena', game: 'mill', initial: 180, increment: 2, minutes: 45, hours, ahead_hours: 2 }],
}));
const env = serverAndBrowser(['--tournament-minute-ms', '2000', '--schedule', schedule]);

async function register(page, name) {
  const status = await page.evaluate(async (n) => (await fetch('/api/register', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: n, password: 'secret-password' }),
  })).status, name);
  assert.equal(status, 200);
  await page.reload();
  await page.waitForFunction((n) => window.__stolikSocket?.state === 'open' && window.__stolikSocket.user?.name === n, name);
  return page.evaluate(() => window.__stolikSocket.user.id);
}

/** `page`'s own request to the API (its session's cookie); the answer's body. */
function call(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const res = await fetch(p, { method: m, headers: { 'Content-Type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }, [method, path, body]);
}

/** Plays the first legal move at `table` when it is `page`'s player's turn. */
async function moveIfMine(page, table) {
  await page.evaluate(async (t) => {
    const snap = (await window.__stolikSocket.request({ type: 'table.subscribe', table: t })).table;
    if (snap.status === 'playing' && snap.to_move === snap.you) {
      await window.__stolikSocket.request({ type: 'move', table: t, move: snap.legal[0], ply: snap.ply });
    }
  }, table);
}

for (const [size, viewport] of [['desktop', { width: 1366, height: 850 }], ['phone', { width: 390, height: 844 }]]) {
  test(`scheduled events with their countdown, the empty lists, the winners and a player's record (${size})`, async () => {
    const tag = `${size.slice(0, 1)}${Date.now() % 100000}`;
    const A = await newPlayer(env.browser, env.server.url, { viewport });
    const B = await newPlayer(env.browser, env.server.url, { viewport });
    const W = await newPlayer(env.browser, env.server.url, { viewport });
    const [a, b, w] = [A.page, B.page, W.page];

    // A visitor: the site's events are listed, coming up, marked as its own, counting down.
    await a.goto(`${env.server.url}/#/tournaments`);
    const site = a.locator('.tour-row .tour-site');
    await site.first().waitFor({ timeout: 15000 });
    assert.equal(await site.count(), 2, 'two hours ahead: two hourly events');
    assert.equal(await site.first().innerText(), "Stolik's own event");
    const countdown = a.locator('#tour-upcoming ~ table .tour-countdown').first();
    const before = await countdown.innerText();
    assert.match(before, /^starts in (\d+:)?\d+:\d\d$/);
    await a.waitForFunction((text) => document.querySelector('.tour-countdown').textContent !== text, before, { timeout: 5000 });
    // Nothing running: said so; a visitor is not offered the form's button.
    const empty = a.locator('.tour-empty').first();
    assert.equal(await empty.locator('p').innerText(), 'No tournament is being played right now.');
    assert.equal(await a.locator('.tour-create-offer').count(), 0);

    // An account is offered "Create an arena", which takes it to the form.
    const annId = await register(a, `ann${tag}`);
    await register(b, `bob${tag}`);
    await a.goto(`${env.server.url}/#/tournaments`);
    await a.locator('.tour-create-offer').first().waitFor();
    assert.equal(await a.locator('.tour-create-offer').first().innerText(), 'Create an arena');
    await a.screenshot({ path: screenshotPath(`tournaments-scheduled-${size}.png`), fullPage: true });
    await a.locator('.tour-create-offer').first().click();
    await a.waitForFunction(() => document.activeElement?.name === 'game');

    // A short arena of the two: bob resigns his first game, and the arena ends.
    const made = await call(a, 'POST', '/api/tournaments', { game: 'mill', initial: 60, increment: 0, minutes: 5, starts_in: 0 });
    assert.equal(made.status, 201, JSON.stringify(made));
    const id = made.body.id;
    assert.equal((await call(a, 'POST', `/api/tournaments/${id}/join`)).status, 204);
    assert.equal((await call(b, 'POST', `/api/tournaments/${id}/join`)).status, 204);
    let table = null;
    for (let i = 0; i < 50 && !table; i++) {
      table = (await call(b, 'GET', `/api/tournaments/${id}`)).body.me?.playing;
      if (!table) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(table, 'the two are paired');
    // One move each (a game resigned before both have moved is called off), then Bob resigns.
    for (const p of [a, b, a, b]) await moveIfMine(p, table);
    await b.evaluate((t) => window.__stolikSocket.request({ type: 'resign', table: t }), table);
    // Watched by a visitor: a player's page goes to each new table the arena gives them.
    await w.goto(`${env.server.url}/#/tournament/${id}`);
    await w.locator('.tour-podium li').nth(1).waitFor({ timeout: 30000 });
    assert.match(await w.locator('.tour-podium li.place-1').innerText(), new RegExp(`ann${tag}`));
    assert.match(await w.locator('.tour-podium li.place-1 .podium-points').innerText(), /^2 pts$/);
    await w.screenshot({ path: screenshotPath(`tournament-winners-${size}.png`), fullPage: true });

    // Ann's page, as Bob sees it: the arena, first of two, two points, linked.
    await b.goto(`${env.server.url}/#/player/${annId}`);
    const row = b.locator(`.player-tournament[data-tournament="${id}"]`);
    await row.waitFor({ timeout: 15000 });
    assert.equal(await row.locator('.tour-place').innerText(), '1 of 2');
    assert.equal(await row.locator('.tour-points').innerText(), '2');
    assert.equal(await row.locator('a').getAttribute('href'), `#/tournament/${id}`);
    await row.scrollIntoViewIfNeeded();
    await b.screenshot({ path: screenshotPath(`player-tournaments-${size}.png`), fullPage: true });
    for (const p of [a, b, w]) assert.deepEqual(p.__errors || [], []);
    await A.context.close();
    await B.context.close();
    await W.context.close();
  });
}
