// Perekati-pole's no-progress adjudication at a real table: light brings one cube home, then
// both players roll their cubes about without entering their goal rows; 100 plies after the
// cube came home the table ends the game for the side with more cubes home, reason
// `noprogress`, and both pages say why in their players' languages.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, createPrivateTable, joinByInvite, playOut, tableState, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

// Dark's c6 cube steps aside to d5; light's c1 cube rolls round to c6 and stands there hat up.
const SCRIPT = [
  'c1c2', 'c6c5', 'c2c3', 'c5d5', 'c3d3', 'a6a5', 'd3d4', 'a5a6', 'd4c4', 'b6b5', 'c4c5', 'b5b6', 'c5c6',
];

test('perekati: 100 plies without a cube coming home end the game for the leader, and the end says so', async () => {
  const A = await newPlayer(env.browser, env.server.url, { viewport: { width: 1366, height: 850 } });
  const B = await newPlayer(env.browser, env.server.url, { lang: 'ru', viewport: { width: 390, height: 844 } });
  const invite = await createPrivateTable(A.page, env.server.url, 'perekati', 'malysh');
  await joinByInvite(B.page, invite);

  // After the script, a move that stays off the mover's goal row can bring no cube home;
  // drawn by a fixed generator so that the game is the same on every run.
  let seed = 12345;
  const choose = (st) => {
    if (st.ply < SCRIPT.length) return SCRIPT[st.ply];
    const goal = st.to_move === 'a' ? '6' : '1';
    const moves = st.legal.filter((m) => m.slice(3) !== goal);
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return moves[seed % moves.length];
  };
  const end = await playOut([A.page, B.page], 'perekati', choose, 5000);
  assert.equal(end.status, 'finished');
  assert.equal(end.ply, SCRIPT.length + 100);
  assert.equal(end.result, 'a');
  assert.equal(end.reason, 'noprogress');
  await A.page.locator('.reason', { hasText: 'no cube came home in 50 moves by each side; Light had more cubes home (1 to 0)' }).first().waitFor();
  await B.page.locator('.reason', { hasText: 'за 50 ходов каждой стороны ни один кубик не пришёл домой' }).first().waitFor();
  await A.page.screenshot({ path: screenshotPath('perekati-noprogress-1366.png') });
  await B.page.screenshot({ path: screenshotPath('perekati-noprogress-390.png') });

  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('perekati: a position coming round a third time ends the game, and the end names the repetition', async () => {
  const A = await newPlayer(env.browser, env.server.url, { viewport: { width: 1366, height: 850 } });
  const B = await newPlayer(env.browser, env.server.url, { lang: 'uk', viewport: { width: 390, height: 844 } });
  const invite = await createPrivateTable(A.page, env.server.url, 'perekati', 'malysh');
  await joinByInvite(B.page, invite);
  // A cube of each side steps out and back twice: the start comes round a third time.
  const script = ['a1a2', 'a6a5', 'a2a1', 'a5a6', 'a1a2', 'a6a5', 'a2a1', 'a5a6'];
  const end = await playOut([A.page, B.page], 'perekati', (st) => script[st.ply]);
  assert.equal(end.status, 'finished');
  assert.equal(end.result, 'draw');
  assert.equal(end.reason, 'repetition');
  await A.page.locator('.reason', { hasText: 'the same position came round a third time; as many cubes home on each side (0)' }).first().waitFor();
  await B.page.locator('.reason', { hasText: 'позиція повторилася втретє' }).first().waitFor();
  await A.page.screenshot({ path: screenshotPath('perekati-repetition-1366.png') });
  await B.page.screenshot({ path: screenshotPath('perekati-repetition-390.png') });
  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('perekati: 100 plies in which neither side brings a cube home end a level game as a draw, and the end says so', async () => {
  const A = await newPlayer(env.browser, env.server.url, { lang: 'uk', viewport: { width: 1366, height: 850 } });
  const B = await newPlayer(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  const invite = await createPrivateTable(A.page, env.server.url, 'perekati', 'malysh');
  await joinByInvite(B.page, invite);
  // Every move stays off the mover's goal row, so no cube can come home; a fixed generator
  // makes the game the same on every run.
  let seed = 777;
  const choose = (st) => {
    const goal = st.to_move === 'a' ? '6' : '1';
    const moves = st.legal.filter((m) => m.slice(3) !== goal);
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return moves[seed % moves.length];
  };
  const end = await playOut([A.page, B.page], 'perekati', choose, 5000);
  assert.equal(end.status, 'finished');
  assert.equal(end.ply, 100);
  assert.equal(end.result, 'draw');
  assert.equal(end.reason, 'noprogress');
  await A.page.locator('.reason', { hasText: 'за 50 ходів кожної сторони жоден кубик не дістався додому;' }).first().waitFor();
  await B.page.locator('.reason', { hasText: 'no cube came home in 50 moves by each side; as many cubes home on each side (0)' }).first().waitFor();
  await A.page.screenshot({ path: screenshotPath('perekati-noprogress-level-1366.png') });
  await B.page.screenshot({ path: screenshotPath('perekati-noprogress-level-390.png') });
  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});
