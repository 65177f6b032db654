// An arena in the browser: an account creates it from the tournaments page, two accounts join,
// the server pairs them and takes each to the table, both press Berserk before their first move
// (each sees the other's mark and the halved clocks), they play a Cephalopod 3×3 game by clicks,
// and the standings move live on the page of a visitor watching the tournament, the winner's
// berserk point marked; when the arena ends its page keeps the winners and the final standings —
// at a desktop's size and a phone's.
// A minute of the tournaments' calendar lasts 6 s here: the shortest arena, 5 minutes, 30 s.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, playOut, screenshotPath, tableState, register } from './helpers.mjs';

const env = serverAndBrowser(['--tournament-minute-ms', '6000']);

/** The points shown on `page`'s standings, by player name. */
function pointsShown(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.tour-line')].map((row) => [
    row.querySelector('.player-link')?.textContent, Number(row.querySelector('.tour-points')?.textContent),
  ])));
}

for (const [size, viewport] of [['desktop', { width: 1366, height: 850 }], ['phone', { width: 390, height: 844 }]]) {
  test(`join an arena, be paired, play, and see the standings move (${size})`, async () => {
    const tag = `${size.slice(0, 1)}${Date.now() % 100000}`;
    const A = await newPlayer(env.browser, env.server.url, { viewport });
    const B = await newPlayer(env.browser, env.server.url, { viewport });
    const W = await newPlayer(env.browser, env.server.url, { viewport });
    const [a, b, watcher] = [A.page, B.page, W.page];
    await register(a, `ann${tag}`);
    await register(b, `bob${tag}`);

    await a.goto(`${env.server.url}/#/tournaments`);
    const form = a.locator('.tour-create form');
    await form.waitFor();
    await form.locator('select[name="game"]').selectOption('cephalopod');
    await form.locator('select[name="variant"]').selectOption('3x3');
    await form.locator('input[name="minutes"]').fill('5');
    await form.locator('input[name="starts_in"]').fill('0');
    await a.screenshot({ path: screenshotPath(`tournaments-${size}.png`), fullPage: true });
    await form.locator('button[type="submit"]').click();
    await a.waitForFunction(() => location.hash.startsWith('#/tournament/'));
    const id = await a.evaluate(() => location.hash.split('/')[2]);

    await watcher.goto(`${env.server.url}/#/tournament/${id}`);
    await watcher.locator('.tour-standings').waitFor();
    await a.locator('.tour-join').click();
    await b.goto(`${env.server.url}/#/tournament/${id}`);
    await b.locator('.tour-join').click();
    // Paired at once (two players: a duel), each taken to the table.
    await a.waitForFunction(() => location.hash.startsWith('#/table/'), null, { timeout: 15000 });
    await b.waitForFunction(() => location.hash.startsWith('#/table/'), null, { timeout: 15000 });
    await waitStatus(a, 'playing');
    await waitStatus(b, 'playing');
    await watcher.locator('.tour-line').nth(1).waitFor();
    assert.deepEqual(Object.values(await pointsShown(watcher)), [0, 0]);
    await watcher.locator('.tour-games li a').waitFor();

    // Both go berserk before their first move: the button goes, both seats are marked on both
    // pages, and each clock is halved (the form's 3 minutes: 90 s).
    for (const p of [a, b]) {
      await p.locator('button.berserk').click();
      await p.locator('button.berserk').waitFor({ state: 'detached' });
    }
    for (const p of [a, b]) {
      await p.locator('.player .berserk-mark').nth(1).waitFor();
      await p.waitForFunction(() => window.__stolik?.table?.berserk?.seats.every(Boolean));
      assert.deepEqual((await tableState(p)).clock.remaining_ms, [90000, 90000]);
    }
    await b.screenshot({ path: screenshotPath(`tournament-berserk-${size}.png`), fullPage: true });

    const end = await playOut([a, b], 'cephalopod', (st) => st.legal[0]);
    assert.equal(end.status, 'finished');
    // The watcher's standings move without a reload: the winner has 2 points and the berserk one.
    await watcher.waitForFunction(() => [...document.querySelectorAll('.tour-points')].some((c) => Number(c.textContent) === 3), null, { timeout: 15000 });
    const points = await pointsShown(watcher);
    assert.deepEqual(Object.values(points).sort(), [0, 3], JSON.stringify(points));
    assert.equal(await watcher.locator('.tour-scores .chip.berserk').count(), 1);
    await watcher.screenshot({ path: screenshotPath(`tournament-watcher-${size}.png`), fullPage: true });

    // The two are paired again at once: the loser's table page takes them to the next game.
    await a.goto(`${env.server.url}/#/tournament/${id}`);
    // The pairing may come after the page opened: the page then takes the player to the table,
    // as it should; back on the tournament page, "your next game" leads there.
    await a.waitForFunction(() => location.hash.startsWith('#/table/') || document.querySelector('.tour-next'), null, { timeout: 15000 });
    if (await a.evaluate(() => location.hash.startsWith('#/table/'))) {
      await a.goto(`${env.server.url}/#/tournament/${id}`);
    }
    await a.locator('.tour-next').waitFor({ timeout: 15000 });
    await a.screenshot({ path: screenshotPath(`tournament-player-${size}.png`), fullPage: true });

    // At the end the page shows the winners; the game in progress then does not count.
    await watcher.locator('.tour-podium li').first().waitFor({ timeout: 45000 });
    assert.match(await watcher.locator('.tour-countdown').innerText(), /^ended \d/);
    assert.deepEqual(Object.values(await pointsShown(watcher)).sort(), [0, 3]);
    await watcher.screenshot({ path: screenshotPath(`tournament-finished-${size}.png`), fullPage: true });
    for (const p of [a, b, watcher]) assert.deepEqual(p.__errors || [], []);
    await A.context.close();
    await B.context.close();
    await W.context.close();
  });
}
