// Looking back during a live game: the board shows earlier positions (buttons and arrow
// keys), the game goes on, and "»" or End brings the live position back.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, waitMyTurn, waitPly, tableState, playByClicks } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

/** Dice on the board as drawn, and dice in a cephalopod position. */
const drawn = (page) => page.locator('.board-wrap .die').count();
const inPosition = (pos) => (pos.split(' ')[0].match(/[ab]\d/g) || []).length;

test('stepping back through a live game and returning to it', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.locator('.game-card[data-game="cephalopod"] .play-bot').click();
  await waitStatus(page, 'playing');
  for (let k = 0; k < 3; k++) {
    await waitMyTurn(page);
    const st = await tableState(page);
    await playByClicks(page, 'cephalopod', st.legal[0]);
    await waitPly(page, st.ply + 2); // ours and the bot's answer
  }
  await waitMyTurn(page);
  const st = await tableState(page);
  const positions = (await (await page.request.get(`${env.server.url}/api/records/${st.id}/positions`)).json()).positions;
  assert.equal(positions.length, st.ply + 1);
  const view = () => page.evaluate(() => window.__stolik.view);

  // The arrow key goes one move back: the board is the position before the last move.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((n) => window.__stolik.view === n, st.ply - 1);
  assert.equal(await drawn(page), inPosition(positions[st.ply - 1]));
  assert.equal(await page.locator('.board-wrap .hit').count(), 0, 'an earlier position takes no moves');
  assert.ok((await page.locator('.history-note').innerText()).includes(`after move ${Math.ceil((st.ply - 1) / 2)} (${st.moves[st.ply - 2]})`));
  // The move list marks the move shown.
  assert.equal(await page.locator('.side-col .move-list .mv.current').innerText(), st.moves[st.ply - 2]);

  // Buttons: to the start, one forward.
  await page.locator('.history-first').click();
  await page.waitForFunction(() => window.__stolik.view === 0);
  assert.equal(await drawn(page), 0);
  await page.locator('.history-forward').click();
  await page.waitForFunction(() => window.__stolik.view === 1);
  assert.equal(await drawn(page), inPosition(positions[1]));

  // Typing in the chat moves the caret, not the board.
  await page.locator('.chat-input').fill('gg');
  await page.locator('.chat-input').press('ArrowLeft');
  assert.equal(await view(), 1);
  await page.locator('.chat-input').blur();

  // End: the live game again, still ours to move, and a move can be played.
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.__stolik.view === null);
  assert.equal(await page.locator('.history-note').count(), 0);
  assert.equal(await drawn(page), inPosition(st.position));
  await playByClicks(page, 'cephalopod', st.legal[0]);
  await waitPly(page, st.ply + 1);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
