// Takebacks: granted at once by a bot in a casual game; between two people, declined and then
// accepted, with the board back where it was.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, waitMyTurn, waitPly, tableState, playByClicks, createPrivateTable, joinByInvite } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

test('a bot gives a move back at once', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.locator('.game-card[data-game="cephalopod"] .play-bot').click();
  await waitStatus(page, 'playing');
  await waitMyTurn(page);
  const st = await tableState(page);
  await playByClicks(page, 'cephalopod', st.legal[0]);
  await waitPly(page, st.ply + 2);
  await waitMyTurn(page);
  await page.locator('.actions .takeback').click();
  await page.waitForFunction((n) => window.__stolik.table.ply === n, st.ply);
  const back = await tableState(page);
  assert.equal(back.position, st.position);
  assert.equal(back.to_move, st.to_move);
  assert.equal(await page.locator('.board-wrap .die').count(), 0, 'the board is empty again');
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('a person declines a takeback, then allows it', async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  const invite = await createPrivateTable(ann.page, env.server.url, 'cephalopod', '5x5');
  await joinByInvite(bob.page, invite);
  await waitStatus(ann.page, 'playing');
  await waitMyTurn(ann.page);
  const start = await tableState(ann.page);
  await playByClicks(ann.page, 'cephalopod', start.legal[0]);
  await waitPly(bob.page, 1);

  // Declined: the move stays.
  await ann.page.locator('.actions .takeback').click();
  await ann.page.locator('.actions .offer').waitFor();
  await bob.page.locator('.actions .takeback-decline').click();
  await ann.page.locator('.actions .takeback').waitFor();
  assert.equal((await tableState(ann.page)).ply, 1);

  // Allowed: back to the start, Ann to move.
  await ann.page.locator('.actions .takeback').click();
  await bob.page.locator('.actions .takeback-accept').click();
  await ann.page.waitForFunction(() => window.__stolik.table.ply === 0);
  await bob.page.waitForFunction(() => window.__stolik.table.ply === 0);
  const back = await tableState(bob.page);
  assert.equal(back.position, start.position);
  await waitMyTurn(ann.page);
  await playByClicks(ann.page, 'cephalopod', start.legal[1]);
  await waitPly(bob.page, 1);
  assert.equal((await tableState(bob.page)).moves[0], start.legal[1]);
  assert.deepEqual(ann.page.__errors || [], []);
  assert.deepEqual(bob.page.__errors || [], []);
  await ann.context.close();
  await bob.context.close();
});
