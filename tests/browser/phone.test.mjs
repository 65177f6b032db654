// Phones (390x844): lists keep their second column, and an invitee sees "Sit down" without
// scrolling.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, createPrivateTable, tableState, playByClicks, waitPly } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);
const PHONE = { viewport: { width: 390, height: 844 }, context: { hasTouch: true, isMobile: true } };

/** The page is no wider than the screen. */
async function noSideScroll(page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= inner, `page ${scroll}px wide on a ${inner}px screen`);
}

async function visible(locator) {
  return locator.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return getComputedStyle(e).display !== 'none' && r.width > 0 && r.height > 0;
  });
}

test('on a phone the finished games keep the game column', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, PHONE);
  await page.locator('.game-card[data-game="cephalopod"] .play-bot').tap();
  await waitStatus(page, 'playing');
  // A move each first: a resignation before both sides have moved only calls the game off.
  const st = await tableState(page);
  await playByClicks(page, 'cephalopod', st.legal[0]);
  await waitPly(page, 2);
  await page.locator('.actions .resign').tap();
  await page.locator('.actions .resign-confirm').tap();
  await waitStatus(page, 'finished');
  await page.goto(env.server.url + '/#/profile');
  const cell = page.locator('.games-list tbody tr').first().locator('td').nth(1);
  await cell.waitFor();
  assert.ok(await visible(cell), 'the game column is shown');
  assert.match(await cell.innerText(), /Cephalopod/);
  await noSideScroll(page);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('on a phone the lobby keeps the clock column', async () => {
  const host = await newPlayer(env.browser, env.server.url);
  await host.page.goto(env.server.url + '/#/lobby');
  const form = host.page.locator('.create-form');
  await form.locator('select[name="game"]').selectOption('perekati');
  await form.locator('input[name="timed"]').nth(1).check();
  await form.locator('.create').click();
  await host.page.waitForFunction(() => window.__stolik?.table?.status === 'open');
  const { context, page } = await newPlayer(env.browser, env.server.url, PHONE);
  await page.goto(env.server.url + '/#/lobby');
  const cell = page.locator('.lobby-tables tbody tr').first().locator('td').nth(1);
  await cell.waitFor();
  assert.ok(await visible(cell), 'the clock column is shown');
  // The clock, and under it how long the table has waited.
  assert.equal((await cell.innerText()).trim(), '5+3\njust now');
  await noSideScroll(page);
  await context.close();
  await host.context.close();
});

test('on a phone the invitee is seated on opening the link, the board in view', async () => {
  const host = await newPlayer(env.browser, env.server.url);
  const invite = await createPrivateTable(host.page, env.server.url, 'mill');
  const { context, page } = await newPlayer(env.browser, env.server.url, PHONE);
  await page.goto(invite);
  await waitStatus(page, 'playing');
  assert.equal((await page.evaluate(() => window.__stolik.table.you)), 'b');
  assert.equal(await page.locator('.actions .sit').count(), 0);
  const board = await page.locator('.board-wrap svg.board').boundingBox();
  assert.ok(board.y < 844, `the board starts at y=${board.y}`);
  await noSideScroll(page);
  await context.close();
  await host.context.close();
});
