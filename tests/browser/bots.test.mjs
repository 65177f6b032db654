// The bots page and the leaderboard's people/bots switch, with the bot ladder on: the site's
// bots play each other on the server, the page lists them (and a bot account that joined the
// ladder) with their ratings and the ladder's last games, each a link to its replay; the live
// games mark bots with the BOT badge; the leaderboard switches to the bot accounts' board and
// links to the bots page. At desktop and phone sizes.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, screenshotPath } from './helpers.mjs';

// Two ladder games at once, a short pause, bots that answer at once with a short rest.
const env = serverAndBrowser(['--limits', 'off', '--bot-time-cap-ms', '5', '--ladder-games', '2', '--ladder-pause-ms', '100', '--ladder-move-rest-ms', '10']);

/** Registers `name` in the page's own session; returns its user. */
async function register(page, name) {
  const res = await page.evaluate(async (n) => {
    const r = await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: n, password: 'secret-password' }) });
    return { status: r.status, body: await r.json() };
  }, name);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await page.reload();
  await page.waitForFunction((n) => window.__stolikSocket?.state === 'open' && window.__stolikSocket.user?.name === n, name);
  return res.body.user;
}

/** A POST from the page, with its cookie: the status. */
function post(page, path) {
  return page.evaluate(async (p) => (await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, path);
}

for (const [size, viewport] of [['desktop', { width: 1366, height: 850 }], ['phone', { width: 390, height: 844 }]]) {
  test(`the bots page shows the ladder's bots, ratings and games, and the leaderboard switches to bots (${size})`, async () => {
    const suffix = `${size.slice(0, 1)}${Date.now() % 100000}`;
    const P = await newPlayer(env.browser, env.server.url, { viewport });
    const { page } = P;
    const bot = await register(page, `ladderbot${suffix}`);
    assert.equal(await post(page, '/api/bot/account/upgrade'), 200);
    assert.equal(await post(page, '/api/bot/ladder'), 200);

    // The ladder has finished a few games of the house bots with a result (an aborted one,
    // listed too, rates nobody), and their ratings are in.
    await page.waitForFunction(async () => {
      const ladder = await (await fetch('/api/ladder')).json();
      const rated = ladder.bots.filter((b) => Object.values(b.ratings || {}).some((r) => r.rapid));
      return ladder.recent.filter((g) => g.result).length >= 2 && rated.length >= 2;
    }, null, { polling: 300, timeout: 90000 });

    await page.goto(`${env.server.url}/#/bots`);
    await page.locator('.bots-ratings tbody tr').first().waitFor();
    const rows = page.locator('.bots-ratings tbody tr');
    const rated = page.locator('.bots-ratings .rating-cell .rating');
    const listed = page.locator('.ladder-games tbody tr');
    // The page reads the ladder once: on a busy machine its read can come before the games
    // the API just counted are rated, so it is read again until they are.
    for (let i = 0; i < 30 && (await rated.count() < 2 || await listed.count() < 2); i++) {
      await page.waitForTimeout(500);
      await page.reload();
      await rows.first().waitFor();
    }
    // The three house bots and the accounts that joined (this one, and the other size's).
    assert.ok(await rows.count() >= 4);
    assert.equal(await page.locator(`.bots-ratings tr[data-bot="${bot.id}"]`).count(), 1);
    // Every bot is marked, and the house bots have ratings from their games.
    assert.equal(await page.locator('.bots-ratings .bot-badge').count(), await rows.count());
    assert.ok(await page.locator('.bots-ratings .rating-cell .rating').count() >= 2);
    const games = page.locator('.ladder-games tbody tr');
    assert.ok(await games.count() >= 2);
    assert.equal(await games.first().locator('.bot-badge').count(), 2);
    await page.screenshot({ path: screenshotPath(`bots-page-${size}.png`), fullPage: true });

    // One bot's games only: every game listed has it.
    await page.locator('.bots-page nav.switcher a[data-bot="bot:hard"]').click();
    await page.waitForFunction(() => location.hash === '#/bots?bot=bot%3Ahard');
    await page.locator('.ladder-games, .bots-page .empty').first().waitFor();
    for (const players of await page.locator('.ladder-games .ladder-players').allInnerTexts()) {
      assert.match(players, /hard/i);
    }

    // A game's replay opens from the list.
    await page.goto(`${env.server.url}/#/bots`);
    const first = page.locator('.ladder-games tbody tr').first();
    await first.waitFor();
    const id = await first.getAttribute('data-game');
    await first.locator('a.replay-link').click();
    await page.waitForFunction((g) => location.hash === `#/replay/${g}`, id);
    await page.locator('.replay-page, .page').first().waitFor();

    // Live games mark the house bots playing on the ladder.
    await page.goto(`${env.server.url}/#/live`);
    await page.locator('.live-players .bot-badge').first().waitFor({ timeout: 60000 });

    // The leaderboard: people's board by default, the bots' one a click away, and a link here.
    await page.goto(`${env.server.url}/#/leaderboard/mill?class=rapid`);
    const boards = page.locator('nav.switcher a[data-board]');
    await boards.first().waitFor();
    assert.equal(await page.locator('nav.switcher a[data-board="people"]').getAttribute('aria-current'), 'page');
    await page.locator('nav.switcher a[data-board="bots"]').click();
    await page.waitForFunction(() => location.hash.includes('bots=1'));
    await page.locator('nav.switcher a[data-board="bots"][aria-current="page"]').waitFor();
    assert.match(await page.locator('.leaderboard-page .panel .small').innerText(), /Bot accounts only/);
    // Another game keeps the bots' board.
    await page.locator('nav.switcher a[data-game="tumbleweed"]').click();
    await page.waitForFunction(() => location.hash.startsWith('#/leaderboard/tumbleweed') && location.hash.includes('bots=1'));
    await page.screenshot({ path: screenshotPath(`leaderboard-bots-${size}.png`), fullPage: true });
    // An empty board says so, and nothing left out is written as "null".
    assert.doesNotMatch(await page.locator('.leaderboard-page').innerText(), /\bnull\b/);
    await page.locator('.leaderboard-page a.bots-link').click();
    await page.waitForFunction(() => location.hash === '#/bots');
    await page.locator('.bots-ratings').waitFor();

    assert.deepEqual(page.__errors || [], []);
    await P.context.close();
  });
}
