// "My games": the your-turn counter in the header follows the opponent's moves, and the page
// leads back to a game in progress from anywhere in the site.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, createPrivateTable, joinByInvite, waitMyTurn, waitPly, tableState,
  playByClicks, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

const badge = (page) => page.locator('.main-nav .playing-nav .turn-count');

test('the your-turn count follows the moves and My games leads back to the table', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const invite = await createPrivateTable(A.page, env.server.url, 'cephalopod', '5x5');
  await joinByInvite(B.page, invite);

  // Whoever moves first has one game waiting; the other none.
  const [sa, sb] = [await tableState(A.page), await tableState(B.page)];
  const [mover, waiter] = sa.to_move === sa.you ? [A.page, B.page] : [B.page, A.page];
  await badge(mover).filter({ hasText: '1' }).waitFor();
  assert.equal(await badge(waiter).count(), 0);
  await mover.waitForFunction(() => document.title.startsWith('(1) '));

  await waitMyTurn(mover);
  const state = await tableState(mover);
  await playByClicks(mover, 'cephalopod', state.legal[0]);
  await waitPly(waiter, state.ply + 1);
  await badge(waiter).filter({ hasText: '1' }).waitFor();
  await badge(mover).waitFor({ state: 'detached' });

  // The waiting player wanders off, then finds the game again through My games.
  await waiter.goto(env.server.url + '/#/lobby');
  await waiter.locator('.main-nav .playing-nav').click();
  const row = waiter.locator(`.playing-game[data-game="${sa.id}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Your move/);
  assert.ok((await row.getAttribute('class')).includes('your-turn'));
  await waiter.screenshot({ path: screenshotPath('playing.png') });
  await row.locator('a.playing-link').click();
  await waiter.waitForFunction((id) => window.__stolik?.table?.id === id && window.__stolik.table.status === 'playing', sa.id);
  const back = await tableState(waiter);
  assert.equal(back.to_move, back.you);

  // The mover's own list shows the same game as waiting for the opponent.
  await mover.goto(env.server.url + '/#/playing');
  const theirs = mover.locator(`.playing-game[data-game="${sa.id}"]`);
  await theirs.waitFor();
  assert.match(await theirs.textContent(), /Their move/);
  for (const p of [A.page, B.page]) assert.deepEqual(p.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('with no game in progress the page says so and offers a way to one', async () => {
  const P = await newPlayer(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  await P.page.goto(env.server.url + '/#/playing');
  await P.page.locator('.page.playing > p.empty').waitFor();
  await P.page.locator('.page.playing .notifications .empty').waitFor();
  assert.equal(await P.page.locator('.page.playing a.btn[href="#/"]').count(), 1);
  await P.context.close();
});

test('at a table waiting for the opponent, one press opens the next game waiting for me', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const first = await createPrivateTable(A.page, env.server.url, 'cephalopod', '5x5');
  const firstId = (await tableState(A.page)).id;
  await joinByInvite(B.page, first);
  const second = await createPrivateTable(A.page, env.server.url, 'cephalopod', '5x5');
  await joinByInvite(B.page, second);
  // A moves in the second game; it then waits for B, while the first waits for A.
  let st = await tableState(A.page);
  if (st.to_move !== st.you) {
    await waitMyTurn(B.page);
    const sb = await tableState(B.page);
    await playByClicks(B.page, 'cephalopod', sb.legal[0]);
    await waitPly(A.page, sb.ply + 1);
  }
  await waitMyTurn(A.page);
  st = await tableState(A.page);
  await playByClicks(A.page, 'cephalopod', st.legal[0]);
  await waitPly(A.page, st.ply + 1);
  const next = A.page.locator('.actions .next-game');
  await next.waitFor();
  await next.click();
  await A.page.waitForFunction((want) => window.__stolik?.table?.id === want, firstId);
  await A.page.locator('.actions .next-game').waitFor({ state: 'detached' });
  assert.deepEqual(A.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});
