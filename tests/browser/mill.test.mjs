// Mill played out by clicking: placements, rows with removals chosen on the board, moves,
// until the rules end the game (a win, or a draw by repetition or by the quiet-move rule).

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitStatus, playOut, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

// Side a builds rows on the outer square; side b keeps to the inner corners. Otherwise: the
// move removing the most tokens, then the first legal move.
const PLAN_A = ['a7', 'd7', 'g7', 'g4', 'g1', 'd1', 'a1', 'a4', 'd6'];
const PLAN_B = ['c5', 'e5', 'c3', 'e3', 'b6', 'f6', 'b2', 'f2', 'd5', 'd3', 'b4', 'f4', 'c4', 'e4', 'd2'];

function choose(st) {
  const removals = (m) => m.split('x').length - 1;
  const best = Math.max(...st.legal.map(removals));
  const candidates = st.legal.filter((m) => removals(m) === best);
  const plan = st.you === 'a' ? PLAN_A : PLAN_B;
  for (const p of plan) {
    const hit = candidates.find((m) => m.split('x')[0] === p);
    if (hit) return hit;
  }
  return candidates[0];
}

test('mill: a game played to its end by clicking', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  const b = B.page;
  // From the catalogue: the default variant (troika).
  await a.locator('.game-card[data-game="mill"] .create-private').click();
  await a.waitForFunction(() => window.__stolik?.table?.invite);
  const t0 = await tableState(a);
  await b.goto(`${env.server.url}/#/table/${t0.id}?token=${encodeURIComponent(t0.invite)}`);
  await waitStatus(a, 'playing');

  let shot = false;
  const end = await playOut([a, b], 'mill', (st) => {
    if (!shot && st.ply >= 11) {
      shot = true;
    }
    return choose(st);
  }, 400);
  await waitStatus(a, 'finished');
  assert.equal(end.status, 'finished');
  assert.equal(end.reason, 'rules');
  await a.locator('.banner.shown').waitFor();
  // The reason in Mill's terms, read from the final position, not a vague "by the rules".
  const why = await a.locator('.banner.shown .reason').innerText();
  assert.doesNotMatch(why, /by the rules/);
  assert.match(why, /down to two tokens|no move left|three tokens|without a removal|third time/);
  await a.screenshot({ path: screenshotPath('mill.png') });
  assert.deepEqual(a.__errors || [], []);
  assert.deepEqual(b.__errors || [], []);
  await A.context.close();
  await B.context.close();
});
