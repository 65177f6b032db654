// A correspondence game from the lobby form: days a move, the deadline shown to the side to
// move, and the time left in My games.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, joinByInvite, tableState, waitMyTurn, playByClicks, waitPly, screenshotPath } from './helpers.mjs';

const env = serverAndBrowser();

test('a correspondence table shows its days and the deadline of the move to play', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  await a.goto(env.server.url + '/#/lobby');
  await a.locator('.create-form select[name="game"]').selectOption('mill');
  await a.locator('.create-form input[name="vis"]').nth(1).check();
  await a.locator('.create-form input[name="timed"][value="days"]').check();
  await a.locator('.create-form select[name="days"]').selectOption('2');
  await a.locator('.create-form .create').click();
  await a.waitForFunction(() => window.__stolik?.table?.invite);
  const created = await tableState(a);
  assert.equal(created.days, 2);
  assert.equal(created.clock, null);
  await joinByInvite(B.page, `${env.server.url}/#/table/${created.id}?token=${encodeURIComponent(created.invite)}`);
  await a.locator('.badge.correspondence', { hasText: '2 d a move' }).waitFor();

  // The side to move sees how long it has, about two days.
  const mover = (await tableState(a)).to_move === (await tableState(a)).you ? a : B.page;
  await mover.locator('.player.to-move .deadline').waitFor();
  assert.match(await mover.locator('.player.to-move .deadline').textContent(), /^1 d 23 h left to move$|^2 d 0 h left to move$/);
  // The other player looks at their games meanwhile (at the table, the move is no news).
  const other = mover === a ? B.page : a;
  await other.goto(env.server.url + '/#/playing');
  await other.locator(`.playing-game[data-game="${created.id}"]`).waitFor();
  await waitMyTurn(mover);
  const st = await tableState(mover);
  await playByClicks(mover, 'mill', st.legal[0]);
  await mover.waitForFunction(() => window.__stolik.table.ply === 1);
  await mover.screenshot({ path: screenshotPath('correspondence.png') });

  const row = other.locator(`.playing-game[data-game="${created.id}"]`);
  await other.waitForFunction((id) => /left to move/.test(document.querySelector(`.playing-game[data-game="${id}"]`)?.textContent || ''), created.id);
  assert.match(await row.textContent(), /left to move/);
  // The move also left a notification, unread until marked, naming the opponent and the game.
  const note = other.locator('.notification-list .notification.unread[data-kind="your_turn"]');
  await note.waitFor();
  assert.match(await note.textContent(), /Your move against .+ in Mill/);
  await other.locator('.notifications .read-all').click();
  await note.waitFor({ state: 'detached' });
  await other.locator('.notification-list .notification[data-kind="your_turn"]').waitFor();
  await other.screenshot({ path: screenshotPath('notifications.png') });
  for (const p of [a, B.page]) assert.deepEqual(p.__errors || [], []);
  await A.context.close();
  await B.context.close();
});
