// The engine's review from a finished game's replay: asked for with the button, its progress,
// then the evaluation graph, each move labelled and the engine's move for the position shown.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, tableState, playByClicks, waitPly, screenshotPath } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

test('a finished game is reviewed from its replay: graph, labels and the best move', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.goto(env.server.url + '/#/');
  const card = page.locator('.game-card[data-game="mill"]');
  await card.locator('select.bot-level').selectOption('easy');
  await card.locator('.play-bot').click();
  await waitStatus(page, 'playing');
  for (let ply = 0; ply < 6; ply += 2) {
    const st = await tableState(page);
    await playByClicks(page, 'mill', st.legal[0]);
    await waitPly(page, ply + 2);
  }
  await page.locator('.actions .resign').click();
  await page.locator('.actions .resign-confirm').click();
  await waitStatus(page, 'finished');
  const id = (await tableState(page)).id;
  await page.goto(`${env.server.url}/#/replay/${id}`);
  const ask = page.locator('.analysis-panel .analysis-ask');
  await ask.waitFor();
  await ask.click();
  // Queued or running first, then done: the graph and the labels come.
  await page.locator('.analysis-panel .eval-chart').waitFor({ timeout: 120_000 });
  const marks = page.locator('.replay-moves .mv-label');
  assert.equal(await marks.count(), 6, 'every move labelled');
  for (const label of await marks.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))) {
    assert.match(label, /^(best|good|inaccuracy|mistake|blunder)$/);
  }
  // The start position has the engine's move; the final position has none.
  await page.locator('.replay-controls button').first().click();
  assert.match(await page.locator('.analysis-best').innerText(), /Engine's move here: \S+/);
  assert.match(await page.locator('.analysis-value').innerText(), /Engine's estimate: Light scores \d+%/);
  // ... and it is drawn on the board: an arrow or a ring over the cells it uses.
  await page.locator('.board-wrap svg .best-move').waitFor();
  assert.ok(await page.locator('.board-wrap svg .best-move :is(.best-ring, .best-shaft)').count() > 0);
  await page.screenshot({ path: screenshotPath('analysis-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.analysis-panel .eval-chart').waitFor();
  await page.screenshot({ path: screenshotPath('analysis-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 850 });
  await page.screenshot({ path: screenshotPath('analysis-1366.png'), fullPage: false });
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
