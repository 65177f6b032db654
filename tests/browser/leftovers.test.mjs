// Small things a player notices: no voice button against a bot, no chat at the solo puzzle,
// White Rabbit's ban line gone once the game is over, one "Variants" section and a Play
// button on the rules pages, and clocks that stand still while the server is away.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, waitStatus, waitMyTurn, waitPly, tableState, playByClicks, joinByInvite,
} from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

test('a bot game has no voice button; the solo puzzle has no chat', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.locator('.game-card[data-game="cephalopod"] .play-bot').click();
  await waitStatus(page, 'playing');
  await page.locator('.move-list').waitFor();
  assert.equal(await page.locator('.voice-toggle').count(), 0);
  assert.ok(await page.locator('.voice').evaluate((e) => e.hidden));
  await page.goto(env.server.url + '/#/');
  await page.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await waitStatus(page, 'playing');
  assert.equal(await page.locator('.chat').isVisible(), false);
  await context.close();
});

test('white rabbit: the ban line goes once the game is over', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await waitStatus(page, 'playing');
  // A swap bans swapping it straight back: the line shows.
  const st = await tableState(page);
  const swap = st.legal.find((m) => m.includes('~'));
  await playByClicks(page, 'white-rabbit', swap);
  await waitPly(page, 1);
  const ban = page.locator('.board-wrap .hint.small');
  await ban.waitFor();
  assert.match(await ban.innerText(), /not allowed/);
  await page.locator('.actions .resign').click();
  await page.locator('.actions .resign-confirm').click();
  await waitStatus(page, 'finished');
  await page.locator('.banner.shown').waitFor();
  assert.equal(await page.locator('.board-wrap .hint.small').count(), 0);
  await context.close();
});

test('rules pages: one Variants section, and a Play button that starts a game', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  for (const game of ['perekati', 'tumbleweed', 'cephalopod', 'mill', 'white-rabbit']) {
    await page.goto(`${env.server.url}/#/rules/${game}`);
    await page.locator('.rules-play-btn').first().waitFor();
    const heads = await page.locator('.rules-section h2').allInnerTexts();
    assert.equal(heads.filter((x) => x === 'Variants').length, 1, `${game}: ${heads}`);
    assert.ok(await page.locator('.variant-list li').count() >= 1);
  }
  await page.goto(`${env.server.url}/#/rules/mill`);
  await page.locator('.rules-play-bot').first().click();
  await waitStatus(page, 'playing');
  assert.equal((await tableState(page)).game, 'mill');
  await context.close();
});

test('while the server is away the clocks stand still, and run again when it is back', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  // A private cephalopod table with a clock, from the lobby's form.
  await A.page.goto(env.server.url + '/#/lobby');
  const form = A.page.locator('.create-form');
  await form.locator('select[name="game"]').selectOption('cephalopod');
  await form.locator('input[name="vis"]').nth(1).check();
  await form.locator('input[name="timed"]').nth(1).check();
  await form.locator('.create').click();
  await A.page.waitForFunction(() => window.__stolik?.table?.invite);
  const t0 = await tableState(A.page);
  assert.ok(t0.clock, 'a clock');
  await joinByInvite(B.page, `${env.server.url}/#/table/${t0.id}?token=${encodeURIComponent(t0.invite)}`);
  // Both sides move once: the clock of the side to move runs.
  for (const [p, n] of [[A.page, 1], [B.page, 2]]) {
    await waitMyTurn(p);
    const st = await tableState(p);
    await playByClicks(p, 'cephalopod', st.legal[0]);
    await waitPly(A.page, n);
  }
  const clock = A.page.locator('.clock.running');
  await clock.waitFor();
  // The socket drops and stays down (no reconnection until we allow it).
  await A.page.evaluate(() => {
    const s = window.__stolikSocket;
    s.wanted = false;
    s.ws.close();
  });
  await A.page.waitForFunction(() => window.__stolikSocket.state === 'closed');
  // The clock froze with the socket; the display catches up at the ticker's next tick (every
  // 100 ms), which may still cross a second.
  await new Promise((r) => setTimeout(r, 300));
  const frozen = await clock.innerText();
  // Long enough for a running clock to show a different second.
  await new Promise((r) => setTimeout(r, 2200));
  assert.equal(await clock.innerText(), frozen, 'the clock stood still');
  await A.page.evaluate(() => window.__stolikSocket.connect());
  await A.page.waitForFunction(() => window.__stolikSocket.state === 'open');
  await A.page.waitForFunction((f) => document.querySelector('.clock.running')?.textContent !== f, frozen, { timeout: 5000 });
  await A.context.close();
  await B.context.close();
});
