// A round robin in the browser: an account creates a correspondence one from the tournaments
// page (kind, clock, most players, no vacation days), three accounts join, at the start every
// game opens at once and the page shows the cross table and the games; two players play one
// game by clicks and the cross table gives the winner a point — at a desktop's size and a
// phone's. A minute of the tournaments' calendar lasts 8 s here.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, playOut, screenshotPath, register } from './helpers.mjs';

const env = serverAndBrowser(['--tournament-minute-ms', '8000']);

/** The points shown in `page`'s cross table, by player name. */
function pointsShown(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.rr-cross .tour-line')].map((row) => [
    row.querySelector('.player-link')?.textContent, row.querySelector('.tour-points')?.textContent,
  ])));
}

for (const [size, viewport] of [['desktop', { width: 1366, height: 850 }], ['phone', { width: 390, height: 844 }]]) {
  test(`create a round robin, see its cross table, and a game counted (${size})`, async () => {
    const tag = `${size.slice(0, 1)}${Date.now() % 100000}`;
    const players = [];
    for (const name of ['ann', 'bob', 'cyd']) {
      const p = await newPlayer(env.browser, env.server.url, { viewport });
      await register(p.page, `${name}${tag}`);
      players.push(p);
    }
    const [a, b, c] = players.map((p) => p.page);

    await a.goto(`${env.server.url}/#/tournaments`);
    const form = a.locator('.tour-create form');
    await form.waitFor();
    await form.locator('select[name="kind"]').selectOption('round_robin');
    await form.locator('select[name="game"]').selectOption('cephalopod');
    await form.locator('select[name="variant"]').selectOption('3x3');
    await form.locator('select[name="days"]').selectOption('2');
    await form.locator('input[name="max_players"]').fill('4');
    await form.locator('input[name="starts_in"]').fill('1');
    await form.locator('input[name="vacation"]').uncheck();
    await a.screenshot({ path: screenshotPath(`round-robin-create-${size}.png`), fullPage: true });
    await form.locator('button[type="submit"]').click();
    await a.waitForFunction(() => location.hash.startsWith('#/tournament/'));
    const id = await a.evaluate(() => location.hash.split('/')[2]);

    await a.locator('.tour-join').click();
    for (const p of [b, c]) {
      const status = await p.evaluate(async (t) => (await fetch(`/api/tournaments/${t}/join`, { method: 'POST' })).status, id);
      assert.equal(status, 204);
    }
    await a.locator('.rr-cross .tour-line').nth(2).waitFor();
    assert.match(await a.locator('.tour-head').innerText(), /no vacation days/);
    assert.match(await a.locator('h1').innerText(), /round robin 2 d a move/);

    // At the start all six games open (three pairs, each from both seats).
    await a.locator('.rr-games li[data-status="playing"]').nth(5).waitFor({ timeout: 30000 });
    assert.match(await a.locator('.tour-countdown').innerText(), /games under way/);
    const table = await a.locator('.rr-games li[data-status="playing"] a').first().getAttribute('href');
    const seats = await a.evaluate(async (t) => (await (await fetch(`/api/tables/${t.split('/')[2]}`)).json()).seats.map((s) => s.user.name), table);
    const pages = seats.map((name) => players[['ann', 'bob', 'cyd'].findIndex((n) => name === `${n}${tag}`)].page);
    for (const p of pages) {
      await p.goto(`${env.server.url}/${table}`);
      await waitStatus(p, 'playing');
    }
    const end = await playOut(pages, 'cephalopod', (st) => st.legal[0]);
    assert.equal(end.status, 'finished');
    const winner = end.result === 'a' ? seats[0] : seats[1];

    // The cross table counts it: a point for the winner, a result in its cell. The runner feeds
    // the result in on its next pass and the page re-reads every 30 s, so the page is opened
    // once the server counts it.
    for (let tries = 0; ; tries++) {
      const counted = await a.evaluate(async ([t, w]) => {
        const view = await (await fetch(`/api/tournaments/${t}`)).json();
        return (view.cross_table || []).some((line) => line.name === w && line.points === 1);
      }, [id, winner]);
      if (counted) break;
      assert.ok(tries < 60, 'the round robin counted the finished game');
      await new Promise((r) => setTimeout(r, 500));
    }
    await a.goto(`${env.server.url}/#/tournament/${id}`);
    // Read afresh, whether or not this page was already showing the tournament.
    await a.reload();
    await a.waitForFunction((w) => [...document.querySelectorAll('.rr-cross .tour-line')]
      .some((row) => row.querySelector('.player-link')?.textContent === w && row.querySelector('.tour-points')?.textContent === '1'), winner, { timeout: 15000 });
    const points = await pointsShown(a);
    assert.deepEqual(Object.values(points).sort(), ['0', '0', '1'], JSON.stringify(points));
    assert.equal(await a.locator('.rr-cross a.rr-mark.r-win').count(), 1);
    await a.screenshot({ path: screenshotPath(`round-robin-${size}.png`), fullPage: true });
    for (const p of [a, b, c]) assert.deepEqual(p.__errors || [], []);
    for (const p of players) await p.context.close();
  });
}
