// Tumbleweed on hex6: setup by clicking two cells, the colour choice, a few placements, two
// passes; with the territory overlay switched on.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitPly, waitStatus, waitMyTurn, playByClicks,
  createPrivateTable, joinByInvite, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

test('tumbleweed: setup, choice, placements and two passes', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  const b = B.page;
  const invite = await createPrivateTable(a, env.server.url, 'tumbleweed', 'hex6');
  await joinByInvite(b, invite);
  await waitStatus(a, 'playing');

  // Setup: the server sends no list (legal_truncated); any two empty cells.
  let st = await tableState(a);
  assert.equal(st.turn, 'setup');
  assert.equal(st.legal_truncated, true);
  await waitMyTurn(a);
  await playByClicks(a, 'tumbleweed', 'c3,i9');
  await waitPly(b, 1);

  // The second player chooses red (and so moves first).
  await waitMyTurn(b);
  await b.locator('.board-wrap .choose-red').waitFor();
  await playByClicks(b, 'tumbleweed', 'red');
  await waitPly(a, 2);
  // The choice renames the seats: a fresh snapshot follows the move event.
  await b.waitForFunction(() => window.__stolik.table.seats[1].label !== 'b', null, { timeout: 15000 });
  st = await tableState(b);
  assert.equal(st.seats[1].label, 'r');

  // Four placements from the legal lists, then both pass.
  let ply = 2;
  for (let i = 0; i < 4; i++) {
    const page = i % 2 === 0 ? b : a;
    await waitMyTurn(page);
    const s = await tableState(page);
    const mv = s.legal.find((m) => m !== 'pass');
    await playByClicks(page, 'tumbleweed', mv);
    ply += 1;
    await waitPly(a, ply);
    await waitPly(b, ply);
  }
  await a.locator('.board-wrap .territory-toggle').check();
  await a.locator('.board-wrap .terr-r, .board-wrap .terr-w').first().waitFor();
  await a.screenshot({ path: screenshotPath('tumbleweed.png') });

  await waitMyTurn(b);
  await playByClicks(b, 'tumbleweed', 'pass');
  await waitPly(a, ply + 1);
  await waitMyTurn(a);
  await playByClicks(a, 'tumbleweed', 'pass');
  await waitStatus(a, 'finished');
  await waitStatus(b, 'finished');
  const end = await tableState(a);
  assert.equal(end.reason, 'rules');
  await a.locator('.banner.shown').waitFor();
  await b.locator('.banner.shown').waitFor();
  await a.screenshot({ path: screenshotPath('tumbleweed-end.png') });
  assert.deepEqual(a.__errors || [], []);
  assert.deepEqual(b.__errors || [], []);
  await A.context.close();
  await B.context.close();
});
