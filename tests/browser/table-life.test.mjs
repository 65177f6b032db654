// A table's life as its players see it: the host cancels a table nobody joined, and it leaves
// the lobby at once; notifications name the game and the opponent, count under the bell, and
// are read when their game is opened; a declined draw is said to the one who offered it.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, tableState, joinByInvite } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

/** Opens a public table of `game` from the lobby's form; its id. */
async function publicTable(page, game) {
  await page.goto(env.server.url + '/#/lobby');
  await page.locator('.create-form select[name="game"]').selectOption(game);
  await page.locator('.create-form .create').click();
  await page.waitForFunction(() => window.__stolik?.table?.status === 'open');
  return (await tableState(page)).id;
}

test('the host cancels an open table, and it leaves the lobby at once', async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  const id = await publicTable(ann.page, 'perekati');
  await bob.page.goto(env.server.url + '/#/lobby');
  const row = bob.page.locator(`tr[data-table="${id}"]`);
  await row.waitFor();
  assert.match(await row.locator('.seek-age').innerText(), /just now/);

  // No plain "stand up" that leaves a ghost behind: the host is offered to cancel, and asked once.
  assert.equal(await ann.page.locator('.actions .stand').count(), 0);
  await ann.page.locator('.actions .cancel-table').click();
  await ann.page.locator('.actions .cancel-confirm').click();
  await waitStatus(ann.page, 'aborted');
  assert.match(await ann.page.locator('.banner').innerText(), /the host cancelled the table/);
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(ann.page.__errors || [], []);
  assert.deepEqual(bob.page.__errors || [], []);
  await ann.context.close();
  await bob.context.close();
});

test('a notification names the game and the opponent, rings the bell, and is read on opening its game', async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  // A correspondence game: a draw offer there is news for a player who is away.
  await ann.page.locator('.game-card').first().waitFor();
  const created = await ann.page.evaluate(async () => (await fetch('/api/tables', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'cephalopod', variant: '5x5', private: true, clock: { days: 3 } }),
  })).json());
  const id = created.id;
  const invite = `${env.server.url}/#/table/${id}?token=${encodeURIComponent(created.invite)}`;
  // Ann looks at her games while Bob sits down.
  await ann.page.goto(env.server.url + '/#/playing');
  await ann.page.locator('.page-root h1').waitFor();
  assert.equal(await ann.page.locator('.bell .bell-count').count(), 0);
  await joinByInvite(bob.page, invite);
  const bobName = (await tableState(bob.page)).seats.find((s) => s.seat === 'b').user.name;

  await ann.page.locator('.bell .bell-count').waitFor();
  assert.equal(await ann.page.locator('.bell .bell-count').innerText(), '1');
  assert.match(await ann.page.locator('.bell').getAttribute('aria-label'), /1 unread/);
  const item = ann.page.locator('.notification.unread a');
  await item.waitFor();
  assert.equal(await item.innerText(), `${bobName} sat down at your Cephalopod table`);

  // Opening the game reads it: the bell goes quiet.
  await item.click();
  await waitStatus(ann.page, 'playing');
  await ann.page.locator('.bell .bell-count').waitFor({ state: 'detached' });
  await ann.page.locator('.bell').click();
  await ann.page.locator('.notification a').first().waitFor();
  assert.equal(await ann.page.locator('.notification.unread').count(), 0);

  // Bob offers a draw while Ann is away from the table; she declines it at the table, and Bob
  // is told so.
  await bob.page.locator('.actions .draw-offer').click();
  const offer = ann.page.locator('.notification.unread a');
  await offer.waitFor();
  assert.equal(await offer.innerText(), `${bobName} offers a draw in Cephalopod`);
  await offer.click();
  await ann.page.locator('.actions .draw-decline').click();
  await bob.page.locator('.toast', { hasText: 'Your opponent declined the draw.' }).waitFor();
  await ann.page.locator('.bell .bell-count').waitFor({ state: 'detached' });
  assert.equal((await tableState(bob.page)).draw_offer, null);
  assert.equal(id, (await tableState(ann.page)).id);
  assert.deepEqual(ann.page.__errors || [], []);
  assert.deepEqual(bob.page.__errors || [], []);
  await ann.context.close();
  await bob.context.close();
});
