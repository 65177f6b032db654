// The analysis board: from a finished game's end to the board with the game's line and its
// review, a variation tried and taken back; a position set up by hand (an impossible one
// refused with the engine's reason) and shared by its link; at desktop and phone sizes.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, tableState, playByClicks, waitPly, screenshotPath } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);
const PHONE = { viewport: { width: 390, height: 844 }, context: { hasTouch: true, isMobile: true } };

async function check(page, body) {
  return page.evaluate(async (b) => {
    const res = await fetch('/api/positions/check', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    return res.json();
  }, body);
}

test('from a game\'s end to the analysis board: the game\'s line, its review, a variation tried and undone', async (t) => {
  const { context, page } = await newPlayer(env.browser, env.server.url, { viewport: { width: 1366, height: 850 } });
  await page.goto(env.server.url + '/#/');
  const card = page.locator('.game-card[data-game="mill"]');
  await card.locator('select.bot-level').selectOption('easy');
  await card.locator('.play-bot').click();
  await waitStatus(page, 'playing');
  for (let ply = 0; ply < 8; ply += 2) {
    const st = await tableState(page);
    // The last placement listed: often a poor one, which gives the exercises something to do.
    await playByClicks(page, 'mill', st.legal.filter((m) => !m.includes('x')).pop());
    await waitPly(page, ply + 2);
  }
  await page.locator('.actions .resign').click();
  await page.locator('.actions .resign-confirm').click();
  await waitStatus(page, 'finished');
  const st = await tableState(page);
  const record = await page.evaluate((id) => fetch(`/api/records/${id}`).then((r) => r.json()), st.id);
  // The review first, from the replay, so that the board shows the engine's moves too.
  await page.goto(`${env.server.url}/#/replay/${st.id}`);
  await page.locator('.analysis-panel .analysis-ask').click();
  await page.locator('.analysis-panel .eval-chart').waitFor({ timeout: 120_000 });
  await page.goto(`${env.server.url}/#/table/${st.id}`);
  await page.locator('.actions .analyse-link').click();
  await page.locator('.analysis-board .move-tree').waitFor();
  assert.equal(await page.locator('.move-tree .mv.game-move').count(), record.moves.length, 'the game\'s line');
  // At the game's first position the review's move is drawn on the board.
  await page.locator('.replay-controls button').first().click();
  await page.locator('.board-wrap svg .best-move').waitFor();
  // A variation: after the game's first move, another placement than the game's second.
  await page.locator('.move-tree .mv.game-move').first().click();
  const after1 = await check(page, { game: 'mill', variant: record.variant, moves: record.moves.slice(0, 1) });
  const other = after1.legal.find((m) => m !== record.moves[1] && !m.includes('x') && !m.includes('-'));
  await page.locator(`.board-wrap [data-cell="${other}"]`).click();
  await page.locator('.move-tree .variation').waitFor();
  assert.match(await page.locator('.move-tree .mv.current').innerText(), new RegExp(`^2\\. ${other}$`));
  assert.match(await page.locator('.share-link').inputValue(), new RegExp(`record=${st.id}.*line=${encodeURIComponent(record.moves[0])}(\\+|%20)${other}`));
  await page.screenshot({ path: screenshotPath('analysis-board-variation-1366.png') });
  // Taken back: the variation is gone and the game's line is shown again.
  await page.locator('.analysis-undo').click();
  assert.equal(await page.locator('.move-tree .variation').count(), 0);
  assert.equal(await page.locator('.move-tree .mv.current').getAttribute('class').then((c) => c.includes('game-move')), true);
  // Tried again, then back to the game in one step.
  await page.locator(`.board-wrap [data-cell="${other}"]`).click();
  await page.locator('.move-tree .variation').waitFor();
  await page.locator('.analysis-back').click();
  assert.match(await page.locator('.move-tree .mv.current').innerText(), new RegExp(`^1\\. `));
  // The engine switched on in a position of the variation: its value, its line, its move
  // drawn, and deeper stages replacing the first.
  await page.locator(`.board-wrap [data-cell="${other}"]`).click();
  await page.locator('.engine-panel .engine-switch input').check();
  await page.locator('.engine-panel .analysis-value').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('.engine-panel .analysis-value').innerText(), /Engine's estimate|Exact/);
  assert.match(await page.locator('.engine-panel .engine-line').innerText(), /Engine's line: \S+/);
  await page.locator('.board-wrap svg .best-move').waitFor();
  await page.waitForFunction(() => /Depth [2-5] of 5|Proved/.test(document.querySelector('.engine-panel .engine-work')?.textContent || ''), null, { timeout: 60_000 });
  await page.screenshot({ path: screenshotPath('analysis-board-engine-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  // In one step in the page: the panel is drawn anew with each deeper stage of the engine.
  await page.evaluate(() => document.querySelector('.engine-panel').scrollIntoView({ block: 'nearest' }));
  await page.screenshot({ path: screenshotPath('analysis-board-engine-390.png') });
  await page.setViewportSize({ width: 1366, height: 850 });
  // Stepping back to the game's line: the engine follows to the position shown.
  await page.locator('.replay-controls button').nth(1).click();
  await page.waitForFunction(() => document.querySelector('.move-tree .mv.current')?.textContent.startsWith('1.') && document.querySelector('.engine-panel .engine-work'), null, { timeout: 60_000 });
  await page.locator('.engine-panel .engine-switch input').uncheck();
  assert.equal(await page.locator('.engine-panel .analysis-value').count(), 0);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('analysis-board-game-390.png'), fullPage: true });
  // Learning from the mistakes: offered when the review marked one of the viewer's moves (the
  // bot's answers vary, so a game may have none: the subtest then says it is skipped).
  await t.test('learning from the viewer\'s mistakes', async (st) => {
    if (!(await page.locator('.learn-start').count())) {
      st.skip('the review marked no mistake of the viewer in this game');
      return;
    }
    await page.locator('.learn-start').click();
    await page.locator('.exercise-task').waitFor();
    const line = new URL(await page.locator('.share-link').inputValue()).hash.split('line=')[1];
    const moves = line ? decodeURIComponent(line.split('&')[0]).split(/[ +]/) : [];
    const here = await check(page, { game: 'mill', variant: record.variant, moves });
    const tried = here.legal.find((m) => !m.includes('x') && !m.includes('-'));
    await page.locator(`.board-wrap [data-cell="${tried}"]`).click();
    await page.locator('.exercise-verdict').waitFor({ timeout: 120_000 });
    assert.match(await page.locator('.exercise-verdict').innerText(), /keeps the evaluation|gives away \d+%|the move you played/);
    await page.locator('.exercise-line').waitFor();
    await page.screenshot({ path: screenshotPath('analysis-board-exercise-390.png'), fullPage: true });
  });
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('a position set up by hand on a phone, refused when impossible, shared by its link', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, PHONE);
  await page.goto(`${env.server.url}/#/analysis/cephalopod/3x3`);
  await page.locator('.setup-open').tap();
  // An empty board with the second side to move cannot occur: the engine says why.
  await page.locator('.setup-clear').tap();
  await page.locator('.setup-side').selectOption('b');
  await page.locator('.setup-done').tap();
  assert.match(await page.locator('.setup-error').innerText(), /empty board/);
  await page.screenshot({ path: screenshotPath('analysis-board-setup-refused-390.png'), fullPage: true });
  // Two dice, then the first side to move: taken.
  await page.locator('.setup-piece[data-piece="a2"]').tap();
  await page.locator('.board-wrap [data-cell="b2"]').tap();
  await page.locator('.setup-piece[data-piece="b1"]').tap();
  await page.locator('.board-wrap [data-cell="a1"]').tap();
  await page.locator('.setup-side').selectOption('a');
  await page.locator('.setup-done').tap();
  await page.locator('.share-link').waitFor();
  assert.match(await page.locator('.analysis-turn').innerText(), /Red to move/);
  // A move played on it, and the link carries the start and the line.
  await page.locator('.board-wrap [data-cell="c3"]').tap();
  await page.locator('.move-tree .mv.current').waitFor();
  const link = await page.locator('.share-link').inputValue();
  assert.match(link, /position=.*line=c3/);
  await page.screenshot({ path: screenshotPath('analysis-board-setup-390.png'), fullPage: true });
  // Someone else opens the link: the same position, the same line.
  const other = await newPlayer(env.browser, env.server.url, { viewport: { width: 1366, height: 850 } });
  await other.page.goto(link);
  await other.page.locator('.move-tree .mv.current').waitFor();
  assert.equal(await other.page.locator('.move-tree .mv.current').innerText(), '1. c3');
  assert.match(await other.page.locator('.board-wrap [data-cell="b2"] title').textContent(), /Red 2/);
  assert.match(await other.page.locator('.board-wrap [data-cell="a1"] title').textContent(), /Blue 1/);
  assert.match(await other.page.locator('.board-wrap [data-cell="c3"] title').textContent(), /Red 1/);
  await other.page.locator('.replay-controls button').first().click();
  assert.equal(await other.page.locator('.board-wrap [data-cell="c3"] title').count(), 0, 'the start has c3 empty');
  await other.page.screenshot({ path: screenshotPath('analysis-board-shared-1366.png') });
  assert.deepEqual(page.__errors || [], []);
  assert.deepEqual(other.page.__errors || [], []);
  await other.context.close();
  await context.close();
});
