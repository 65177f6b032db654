// The solo dice puzzle played by clicking: a swap if one is possible, then ending turns until
// the game is decided.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitPly, waitStatus, playByClicks, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

test('white rabbit: swap, then end turns until the game is over', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => window.__stolik?.table && window.__stolik.table.status !== 'open');
  let st = await tableState(p);
  let swapped = false;
  for (let i = 0; i < 60 && st.status === 'playing'; i++) {
    const swap = st.legal.find((m) => m.includes('~'));
    const mv = !swapped && swap ? swap : 'end';
    if (mv === swap) swapped = true;
    await playByClicks(p, 'white-rabbit', mv);
    await waitPly(p, st.ply + 1);
    if (i === 0) await p.screenshot({ path: screenshotPath('white-rabbit.png') });
    st = await tableState(p);
  }
  await waitStatus(p, 'finished');
  st = await tableState(p);
  assert.ok(st.result === 'lost' || st.result.startsWith('won'), st.result);
  await p.locator('.banner.shown').waitFor();
  await p.screenshot({ path: screenshotPath('white-rabbit-end.png') });

  // "New game" deals a fresh puzzle at a new table.
  await p.locator('.actions .rematch').click();
  await p.waitForFunction((id) => window.__stolik?.table && window.__stolik.table.id !== id, st.id);
  assert.deepEqual(p.__errors || [], []);
  await P.context.close();
});

test('white rabbit: a hint marks the best action on the board and can be played', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => window.__stolik?.table && window.__stolik.table.status !== 'open');
  const st = await tableState(p);
  if (st.status !== 'playing') return; // a deal won before any action: nothing to hint
  await p.locator('.actions .ask-hint').click();
  await p.locator('.hint-panel .play-hint').waitFor();
  const rows = await p.locator('.hint-table tbody tr').count();
  assert.ok(rows >= 1 && rows <= 5, `rows ${rows}`);
  // The suggestion is drawn on the board: two dice for a swap, or the reroll/end button.
  assert.ok(await p.locator('.board-wrap .hinted').count() >= 1);
  await p.screenshot({ path: screenshotPath('white-rabbit-hint.png') });
  await p.locator('.hint-panel .play-hint').click();
  await waitPly(p, 1);
  // The hint was for the old position: it is gone after the move.
  await p.waitForFunction(() => !document.querySelector('.hint-panel .play-hint'));
  assert.deepEqual(p.__errors || [], []);
  await P.context.close();
});

test('daily deal: the same dice for two players, one attempt each, no hints, a leaderboard', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const positions = [];
  for (const P of [A, B]) {
    await P.page.locator('.game-card[data-game="white-rabbit"] .daily-deal').click();
    await P.page.waitForFunction(() => window.__stolik?.table?.daily);
    await P.page.locator('.badges .badge.daily').waitFor();
    positions.push((await tableState(P.page)).position);
  }
  assert.equal(positions[0], positions[1]);
  const a = await tableState(A.page);
  if (a.status === 'playing') {
    await A.page.locator('.actions .no-hints').waitFor();
    assert.equal(await A.page.locator('.actions .ask-hint').count(), 0);
  }
  await A.page.screenshot({ path: screenshotPath('white-rabbit-daily.png') });

  // The daily page offers to go back to the same attempt, and shows the (empty) leaderboard.
  await A.page.locator('.main-nav a[href="#/daily"]').click();
  await A.page.locator('.daily .play-daily').waitFor();
  assert.equal(await A.page.locator('.daily .play-daily').textContent(), 'Back to my attempt');
  await A.page.locator('.daily .empty-board').waitFor();
  // Without the exact tables there is no perfect-play value, and it says so.
  await A.page.locator('.daily .perfect-none').waitFor();
  assert.ok(!(await A.page.locator('.daily').innerText()).includes('null'), 'no stray "null" on the page');
  await A.page.locator('.daily .play-daily').click();
  await A.page.waitForFunction((id) => window.__stolik?.table?.id === id, a.id);
  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('white rabbit: a finished game can be reviewed decision by decision', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => window.__stolik?.table && window.__stolik.table.status !== 'open');
  let st = await tableState(p);
  for (let i = 0; i < 3 && st.status === 'playing'; i++) {
    await playByClicks(p, 'white-rabbit', st.legal[0]);
    await waitPly(p, st.ply + 1);
    st = await tableState(p);
  }
  if (st.status === 'playing') {
    await p.locator('.actions .resign').click();
    await p.locator('.actions .resign-confirm').click();
  }
  await waitStatus(p, 'finished');
  const plies = (await tableState(p)).ply;
  await p.locator('.actions .review-link').click();
  await p.locator('.review-summary').waitFor({ timeout: 60000 });
  assert.equal(await p.locator('.review-list tr.decision').count(), plies);
  await p.screenshot({ path: screenshotPath('white-rabbit-review.png') });
  assert.deepEqual(p.__errors || [], []);
  await P.context.close();
});
