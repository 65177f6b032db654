// Dark mode follows the system until the switch is used (and remembers it); sounds are
// played for moves, starts and ends unless muted, and the mute is remembered. Sounds are
// checked through the page's list of what it played (window.__stolikSounds).

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, waitMyTurn, waitPly, tableState, playByClicks } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

async function look(page) {
  return page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    bg: getComputedStyle(document.documentElement).backgroundColor,
  }));
}

async function reload(page) {
  await page.reload();
  await page.waitForFunction(() => window.__stolikSocket && window.__stolikSocket.state === 'open');
}

test('a dark system gets the dark theme; the switch wins and is remembered', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, { context: { colorScheme: 'dark' } });
  assert.deepEqual(await look(page), { theme: 'dark', bg: 'rgb(26, 22, 19)' });
  await page.locator('.theme-toggle').click();
  assert.deepEqual(await look(page), { theme: 'light', bg: 'rgb(244, 239, 230)' });
  await reload(page);
  assert.equal((await look(page)).theme, 'light', 'the choice outlives a reload');
  await context.close();
  const light = await newPlayer(env.browser, env.server.url, { context: { colorScheme: 'light' } });
  assert.equal((await look(light.page)).theme, 'light');
  await light.page.locator('.theme-toggle').click();
  assert.equal((await look(light.page)).theme, 'dark');
  await light.context.close();
});

test('sounds: start, move and end are played; muted, nothing is, and the mute is remembered', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  const sounds = () => page.evaluate(() => [...window.__stolikSounds]);
  await page.locator('.game-card[data-game="cephalopod"] .play-bot').click();
  await waitStatus(page, 'playing');
  await page.waitForFunction(() => window.__stolikSounds.includes('start'));
  await waitMyTurn(page);
  let st = await tableState(page);
  const before = (await sounds()).length;
  await playByClicks(page, 'cephalopod', st.legal[0]);
  await waitPly(page, st.ply + 1);
  await page.waitForFunction((n) => window.__stolikSounds.length > n, before);
  assert.equal((await sounds())[before], 'move');

  // Muted: the bot's answer and our next move make no sound.
  await waitMyTurn(page);
  await page.locator('.sound-toggle').click();
  assert.equal(await page.locator('.sound-toggle').getAttribute('aria-pressed'), 'false');
  const muted = (await sounds()).length;
  st = await tableState(page);
  await playByClicks(page, 'cephalopod', st.legal[0]);
  await waitPly(page, st.ply + 2); // ours and the bot's
  assert.equal((await sounds()).length, muted, 'nothing played while muted');

  await reload(page);
  assert.equal(await page.locator('.sound-toggle').getAttribute('aria-pressed'), 'false', 'still muted after a reload');
  await page.locator('.sound-toggle').click();
  await page.locator('.actions .resign').click();
  await page.locator('.actions .resign-confirm').click();
  await waitStatus(page, 'finished');
  await page.waitForFunction(() => window.__stolikSounds.includes('end'));
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
