// Tumbleweed you can read: the move markers never cover a stack's height, the board takes the
// room there is, the move list's columns follow the colours, and on a phone a placement on
// the big boards waits for a second tap.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitPly, waitMyTurn, playByClicks,
  createPrivateTable, joinByInvite,
} from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);
const DESK = { viewport: { width: 1366, height: 850 } };
const PHONE = { viewport: { width: 390, height: 844 }, context: { hasTouch: true, isMobile: true } };

/** Every marker on the board: a ring around a stack, a dot only on an empty cell. */
async function markersBesideHeights(page) {
  return page.evaluate(() => [...document.querySelectorAll('.board-wrap g.target')].every((g) => {
    const stack = g.querySelector('.stack:not(.ghost)');
    return stack ? !g.querySelector('.target-dot') && !!g.querySelector('.target-ring') : !g.querySelector('.target-ring');
  }));
}

test('hex8 at 1366x850: a large board, heights never under a marker, Red first in the move list', async () => {
  const A = await newPlayer(env.browser, env.server.url, DESK);
  const B = await newPlayer(env.browser, env.server.url, DESK);
  const invite = await createPrivateTable(A.page, env.server.url, 'tumbleweed', 'hex8');
  await joinByInvite(B.page, invite);
  await waitMyTurn(A.page);
  await playByClicks(A.page, 'tumbleweed', 'd4,k11');
  await waitMyTurn(B.page);
  await playByClicks(B.page, 'tumbleweed', 'red');
  await waitPly(A.page, 2);
  await B.page.waitForFunction(() => window.__stolik.table.seats[1].label === 'r');
  const width = await B.page.locator('.board-wrap svg.board').evaluate((svg) => svg.getBoundingClientRect().width);
  assert.ok(width >= 540, `the board is ${width} px wide`);

  // A few placements; on every turn the markers leave the numbers alone.
  for (let i = 0; i < 4; i++) {
    const page = i % 2 === 0 ? B.page : A.page;
    await waitMyTurn(page);
    assert.ok(await markersBesideHeights(page), 'a marker covers a height');
    const st = await tableState(page);
    await playByClicks(page, 'tumbleweed', st.legal.find((m) => m !== 'pass'));
    await waitPly(A.page, 3 + i);
  }
  // Bob took red: his name heads the first column, and his first placement opens round 2.
  const head = await A.page.locator('.moves-players').innerText();
  const bob = (await tableState(A.page)).seats[1].user.name;
  assert.ok(head.startsWith(`Red: ${bob}`), head);
  const second = A.page.locator('.move-list li').nth(1).locator('.mv').first();
  assert.equal(await second.innerText(), (await tableState(A.page)).moves[2]);
  // My games names Alice's colour, not her seat.
  await A.page.goto(env.server.url + '/#/playing');
  await A.page.locator('.playing-who .small').waitFor();
  assert.equal(await A.page.locator('.playing-who .small').innerText(), 'you play White');
  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('on a phone, a hex8 placement waits for a second tap (or Place)', async () => {
  const A = await newPlayer(env.browser, env.server.url, PHONE);
  const B = await newPlayer(env.browser, env.server.url, PHONE);
  const invite = await createPrivateTable(A.page, env.server.url, 'tumbleweed', 'hex8');
  await joinByInvite(B.page, invite);
  await waitMyTurn(A.page);
  await playByClicks(A.page, 'tumbleweed', 'd4,k11');
  await waitMyTurn(B.page);
  await playByClicks(B.page, 'tumbleweed', 'red');
  await waitPly(B.page, 2);
  await waitMyTurn(B.page);
  const st = await tableState(B.page);
  const [first, second] = st.legal.filter((m) => m !== 'pass');
  // One tap picks and shows what would stand there; nothing is played.
  await B.page.locator(`.board-wrap [data-cell="${first}"]`).click();
  await B.page.locator('.board-wrap .confirm-place').waitFor();
  assert.match(await B.page.locator('.board-wrap .confirm-place').innerText(), new RegExp(`Place on ${first}`));
  assert.equal((await tableState(B.page)).ply, 2);
  // Another cell moves the pick; a second tap on it plays it.
  await B.page.locator(`.board-wrap [data-cell="${second}"]`).click();
  assert.match(await B.page.locator('.board-wrap .confirm-place').innerText(), new RegExp(`Place on ${second}`));
  assert.equal((await tableState(B.page)).ply, 2);
  await B.page.locator(`.board-wrap [data-cell="${second}"]`).click();
  await waitPly(A.page, 3);
  assert.equal((await tableState(A.page)).moves[2], second);
  // The Place button plays too.
  await waitMyTurn(A.page);
  const next = (await tableState(A.page)).legal.find((m) => m !== 'pass');
  await A.page.locator(`.board-wrap [data-cell="${next}"]`).click();
  await A.page.locator('.board-wrap .confirm-place').click();
  await waitPly(B.page, 4);
  assert.equal((await tableState(B.page)).moves[3], next);
  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});
