// A game against the Easy bot, started from the catalogue and played to its end by clicking.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, playOut, screenshotPath } from './helpers.mjs';

// Bots answer quickly here: the test is about the flow, not their strength.
const env = serverAndBrowser(['--bot-time-cap-ms', '50']);

test('a cephalopod game against the Easy bot reaches its end', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const page = P.page;
  await page.goto(env.server.url + '/#/');
  const card = page.locator('.game-card[data-game="cephalopod"]');
  await card.locator('select.bot-level').selectOption('easy');
  await card.locator('.play-bot').click();
  await waitStatus(page, 'playing');
  const end = await playOut([page], 'cephalopod', (st) => st.legal[0]);
  await waitStatus(page, 'finished');
  assert.ok(['a', 'b'].includes(end.result), `a winner, got ${end.result}`);
  await page.locator('.banner.shown').waitFor();
  await page.screenshot({ path: screenshotPath('bot.png') });
  assert.deepEqual(page.__errors || [], []);
  await P.context.close();
});
