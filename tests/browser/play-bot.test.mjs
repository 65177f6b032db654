// Bot games on every variant: from a game's card, from the lobby's form, and offered by a
// quick match that finds nobody.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, tableState, playOut, playByClicks, serveSources } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

test('a bot game on cephalopod 3x3, started from the card, is played on 3x3 to its end', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  const card = page.locator('.game-card[data-game="cephalopod"]');
  await card.locator('select.variant-select').selectOption('3x3');
  await card.locator('select.bot-level').selectOption('easy');
  await card.locator('.play-bot').click();
  await waitStatus(page, 'playing');
  const st = await tableState(page);
  assert.equal(st.variant, '3x3');
  assert.ok(st.seats.some((s) => s.user && s.user.id === 'bot:easy'), 'the bot sits at the table');
  // A 3x3 board: nine cells.
  assert.equal(await page.locator('.board-wrap [data-cell]').count(), 9);
  const end = await playOut([page], 'cephalopod', (s) => s.legal[0]);
  await waitStatus(page, 'finished');
  assert.ok(['a', 'b'].includes(end.result));
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('the lobby form starts a bot game on the chosen variant', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.goto(env.server.url + '/#/lobby');
  const form = page.locator('.create-form');
  await form.locator('select[name="game"]').selectOption('mill');
  await form.locator('select[name="variant"]').selectOption('troika-long');
  await form.locator('select[name="opponent"]').selectOption('medium');
  // Against a bot there is nothing to publish and nobody to quick-match.
  assert.equal(await form.locator('input[name="vis"]').count(), 0);
  assert.equal(await form.locator('.quick').count(), 0);
  await form.locator('.create').click();
  await waitStatus(page, 'playing');
  const st = await tableState(page);
  assert.equal(st.game, 'mill');
  assert.equal(st.variant, 'troika-long');
  assert.ok(st.seats.some((s) => s.user && s.user.id === 'bot:medium'));
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('a quick match with nobody around offers a bot of the same game and variant, and keeps searching', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  const card = page.locator('.game-card[data-game="perekati"]');
  // The card's variants come with the catalogue: wait for them before reading them.
  await card.locator('select.variant-select option').first().waitFor({ state: 'attached' });
  const variants = await card.locator('select.variant-select option').evaluateAll((os) => os.map((o) => o.value));
  const variant = variants[variants.length - 1];
  await card.locator('select.variant-select').selectOption(variant);
  await card.locator('.quick-match').click();
  await page.locator('.queue-box').waitFor();
  assert.equal(await page.locator('.queue-box .queue-play-bot').count(), 0, 'no offer at once');
  await page.locator('.queue-box .queue-play-bot').waitFor({ timeout: 15000 });
  // The search goes on: the box still spins, and the server still has us in its queue.
  assert.equal(await page.locator('.queue-box .spinner').count(), 1);
  const lobby = await (await fetch(env.server.url + '/api/tables')).json();
  const q = lobby.queues.find((x) => x.game === 'perekati' && x.variant === variant);
  assert.ok(q && q.waiting === 1, `still queued: ${JSON.stringify(lobby.queues)}`);
  await page.locator('.queue-box .queue-play-bot').click();
  await waitStatus(page, 'playing');
  const st = await tableState(page);
  assert.equal(st.game, 'perekati');
  assert.equal(st.variant, variant);
  assert.ok(st.seats.some((s) => s.user && s.user.id.startsWith('bot:')));
  assert.equal(await page.locator('.queue-box').count(), 0, 'the search ended with the bot game');
  const after = await (await fetch(env.server.url + '/api/tables')).json();
  assert.ok(!after.queues.some((x) => x.waiting > 0), 'nobody left in the queue');
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('every variant of every two-player game can be played against a bot from its card', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await serveSources(page, env.server.url);
  const games = await (await fetch(env.server.url + '/api/games')).json();
  for (const g of games.filter((x) => x.seats === 2)) {
    for (const v of g.variants) {
      await page.goto(env.server.url + '/#/');
      const card = page.locator(`.game-card[data-game="${g.id}"]`);
      // A game of one variant has no variant menu.
      if (g.variants.length > 1) await card.locator('select.variant-select').selectOption(v.id);
      await card.locator('.play-bot').click();
      await page.waitForFunction((want) => window.__stolik?.table?.variant === want && window.__stolik.table.status === 'playing', v.id);
      const st = await tableState(page);
      let mv = st.legal[0];
      if (!mv && g.id === 'tumbleweed') {
        // The opening setup is not listed: any two empty cells.
        const empty = await page.evaluate(async (pos) => {
          const tw = await import('/src/js/boards/tumbleweed.js');
          return [...tw.parse(pos).cells.values()].filter((c) => !c.stack).map((c) => c.name);
        }, st.position);
        mv = `${empty[0]},${empty[1]}`;
      }
      await playByClicks(page, g.id, mv);
      // The bot answers on this variant.
      await page.waitForFunction(() => window.__stolik.table.ply >= 2, null, { timeout: 20000 });
      await page.locator('.actions .resign').click();
      await page.locator('.actions .resign-confirm').click();
      await waitStatus(page, 'finished');
    }
  }
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
