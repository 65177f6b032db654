// Perekati-pole between two browsers on a private table, ending in a threefold repetition;
// chat both ways, a reload and a dropped connection in the middle of the game.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitPly, waitStatus, waitMyTurn, playByClicks, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

test('perekati: a private table played to a draw by repetition, with chat, reload and reconnect', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  const b = B.page;

  // The host creates a private table from the catalogue and gets an invite link.
  await a.locator('.game-card[data-game="perekati"] .create-private').click();
  await a.waitForFunction(() => window.__stolik?.table?.invite);
  await a.locator('.copy-invite').waitFor();
  const t0 = await tableState(a);
  assert.equal(t0.status, 'open');
  assert.equal(t0.you, 'a');
  assert.equal(t0.private, true);
  const invite = `${env.server.url}/#/table/${t0.id}?token=${encodeURIComponent(t0.invite)}`;

  // The guest opens the link and is seated at once; the game starts.
  await b.goto(invite);
  await waitStatus(a, 'playing');
  await waitStatus(b, 'playing');
  assert.equal((await tableState(b)).you, 'b');

  // Chat both ways.
  await a.locator('.chat-input').fill('hello from a');
  await a.locator('.chat-form button').click();
  await b.locator('.chat-list', { hasText: 'hello from a' }).waitFor();
  await b.locator('.chat-input').fill('hi from b');
  await b.locator('.chat-input').press('Enter');
  await a.locator('.chat-list', { hasText: 'hi from b' }).waitFor();

  // One cube each steps forward and back, twice: the start position occurs a third time.
  const script = [
    [a, 'c1c2'], [b, 'c6c5'], [a, 'c2c1'], [b, 'c5c6'],
    [a, 'c1c2'], [b, 'c6c5'], [a, 'c2c1'], [b, 'c5c6'],
  ];
  for (let i = 0; i < script.length; i++) {
    const [page, mv] = script[i];
    await waitMyTurn(page);
    // Legal targets are highlighted after selecting a cube.
    await playByClicks(page, 'perekati', mv);
    await waitPly(a, i + 1);
    await waitPly(b, i + 1);
    if (i === 1) {
      // A reload in the middle of the game restores the table.
      await b.reload();
      await b.waitForFunction(() => window.__stolik?.table?.ply === 2);
      assert.equal((await tableState(b)).you, 'b');
      await b.locator('.chat-list', { hasText: 'hello from a' }).waitFor();
    }
    if (i === 3) {
      // B loses its connection; A moves meanwhile; B catches up and is shown the missed move.
      await b.evaluate(() => window.__stolikSocket.drop());
      await waitMyTurn(a).catch(() => {});
    }
    if (i === 4) {
      await b.waitForFunction(() => window.__stolik?.table?.ply === 5, null, { timeout: 20000 });
      await b.locator('.move-list .missed').first().waitFor();
    }
    if (i === 5) {
      await a.screenshot({ path: screenshotPath('perekati.png') });
      await b.screenshot({ path: screenshotPath('perekati-b.png') });
    }
  }

  await waitStatus(a, 'finished');
  await waitStatus(b, 'finished');
  const end = await tableState(a);
  assert.equal(end.result, 'draw');
  assert.equal(end.reason, 'repetition');
  await a.locator('.banner.shown', { hasText: 'Draw' }).waitFor();
  await b.locator('.banner.shown', { hasText: 'Draw' }).waitFor();
  await a.screenshot({ path: screenshotPath('perekati-end.png') });

  // A rematch takes both players to a new table.
  await a.locator('.actions .rematch').click();
  await b.locator('.actions .rematch-accept').click();
  await a.waitForFunction((id) => window.__stolik?.table && window.__stolik.table.id !== id && window.__stolik.table.status === 'playing', t0.id);
  await b.waitForFunction((id) => window.__stolik?.table && window.__stolik.table.id !== id, t0.id);
  const next = await tableState(b);
  assert.equal(next.you, 'a', 'colours swap in a rematch');

  assert.deepEqual(a.__errors || [], []);
  assert.deepEqual(b.__errors || [], []);
  await A.context.close();
  await B.context.close();
});
