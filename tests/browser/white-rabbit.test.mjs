// The solo dice puzzle played by clicking: a swap if one is possible, then ending turns until
// the game is decided.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, newPlayer, tableState, waitPly, waitStatus, playByClicks, screenshotPath,
} from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('white rabbit: swap, then end turns until the game is over', async () => {
  const P = await newPlayer(browser, server.url);
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
