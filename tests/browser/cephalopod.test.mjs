// Cephalopod 3x3 played to a full board by clicking; captures with several options are
// chosen through the capture chooser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, newPlayer, tableState, waitStatus, createPrivateTable, joinByInvite, playOut, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

test('cephalopod: a 3x3 game to the end, with a capture choice', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  const b = B.page;
  const invite = await createPrivateTable(a, env.server.url, 'cephalopod', '3x3');
  await joinByInvite(b, invite);
  await waitStatus(a, 'playing');

  let sawChoice = false;
  // Prefer a cell with several capture options (to exercise the chooser), else the first move.
  const choose = (st) => {
    const byCell = {};
    for (const m of st.legal) (byCell[m.split(':')[0]] ||= []).push(m);
    const multi = Object.values(byCell).find((l) => l.length > 1);
    if (multi && !sawChoice) {
      sawChoice = true;
      return multi[multi.length - 1];
    }
    return st.legal[0];
  };
  const end = await playOut([a, b], 'cephalopod', (st) => {
    if (st.ply === 4) {
      // Screenshot mid-game, before the board fills up.
    }
    return choose(st);
  });
  await waitStatus(a, 'finished');
  await waitStatus(b, 'finished');
  assert.ok(['a', 'b'].includes(end.result), `a winner, got ${end.result}`);
  await a.locator('.banner.shown').waitFor();
  await a.screenshot({ path: screenshotPath('cephalopod.png') });
  assert.deepEqual(a.__errors || [], []);
  assert.deepEqual(b.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('cephalopod: the capture chooser highlights the candidate dice', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  const b = B.page;
  const invite = await createPrivateTable(a, env.server.url, 'cephalopod', '5x5');
  await joinByInvite(b, invite);
  // Build three dice around c3 then place there: b3, c4 and d3 all show 1.
  const script = [[a, 'b3'], [b, 'c4'], [a, 'd3'], [b, 'a1']];
  const { playByClicks, waitPly } = await import('./helpers.mjs');
  for (let i = 0; i < script.length; i++) {
    await playByClicks(script[i][0], 'cephalopod', script[i][1]);
    await waitPly(a, i + 1);
    await waitPly(b, i + 1);
  }
  await a.locator('.board-wrap [data-cell="c3"]').click();
  await a.locator('.board-wrap .capture-option').first().waitFor();
  const options = await a.locator('.board-wrap .capture-option').count();
  assert.equal(options, 4, 'three pairs and the triple');
  assert.equal(await a.locator('.board-wrap .candidate').count(), 3);
  await a.screenshot({ path: screenshotPath('cephalopod-choice.png') });
  await a.locator('.board-wrap .capture-option[data-move="c3:b3,c4,d3"]').click();
  await waitPly(b, 5);
  const st = await tableState(b);
  assert.ok(st.position.includes('a3'), st.position);
  await A.context.close();
  await B.context.close();
});
