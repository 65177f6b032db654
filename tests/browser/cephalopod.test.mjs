// Cephalopod 3x3 played to a full board by clicking; captures with several options are
// chosen through the capture chooser.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitStatus, createPrivateTable, joinByInvite, playOut, screenshotPath,
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

  // The first cell with several capture options goes through the chooser, taking its last
  // option (not what a plain click would give); every other ply plays the first legal move.
  let chosen = null;
  const choose = (st) => {
    if (chosen) return st.legal[0];
    const byCell = {};
    for (const m of st.legal) (byCell[m.split(':')[0]] ||= []).push(m);
    const multi = Object.values(byCell).find((l) => l.length > 1);
    if (!multi) return st.legal[0];
    chosen = { ply: st.ply, move: multi[multi.length - 1], first: multi[0] };
    return chosen.move;
  };
  const end = await playOut([a, b], 'cephalopod', choose);
  await waitStatus(a, 'finished');
  await waitStatus(b, 'finished');
  assert.ok(['a', 'b'].includes(end.result), `a winner, got ${end.result}`);
  assert.ok(chosen, 'a cell with several capture options came up');
  assert.notEqual(chosen.move, chosen.first);
  assert.equal(end.moves[chosen.ply], chosen.move, 'the option picked in the chooser was played');
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
