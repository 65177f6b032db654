// The choices players expect: the side against a bot, a time control in one click (for a bot
// game and for quick match), a board to flip, and a refusal said in the player's language
// with the way on. The server keeps its default limits here (five unfinished bot games).

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, tableState, waitMyTurn } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50']);

test('from the card: the second seat against a bot, on a 3+2 clock', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  const card = page.locator('.game-card[data-game="mill"]');
  await card.locator('.time-chip[data-clock="3+2"]').click();
  assert.equal(await card.locator('.time-chip[data-clock="3+2"]').getAttribute('aria-pressed'), 'true');
  await card.locator('select.side-select').selectOption('second');
  await card.locator('.play-bot').click();
  await waitStatus(page, 'playing');
  const st = await tableState(page);
  assert.equal(st.you, 'b');
  assert.ok(st.seats[0].user.id.startsWith('bot:'), 'the bot moves first');
  assert.equal(st.clock.initial_ms, 180000);
  assert.equal(st.clock.increment_ms, 2000);
  // The bot opens; then it is our move.
  await waitMyTurn(page);
  assert.ok((await tableState(page)).ply >= 1);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('quick match from the card waits in the queue of the chosen control', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  const card = page.locator('.game-card[data-game="cephalopod"]');
  await card.locator('.time-chip[data-clock="5+3"]').click();
  await card.locator('.quick-match').click();
  let q = null;
  for (let i = 0; i < 50 && !q; i++) {
    const lobby = await page.evaluate(async () => (await fetch('/api/tables')).json());
    q = lobby.queues.find((x) => x.game === 'cephalopod') || null;
    if (!q) await page.waitForTimeout(100);
  }
  assert.ok(q, 'a queue of cephalopod');
  assert.equal(q.initial_ms, 300000);
  assert.equal(q.increment_ms, 3000);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('the flip button turns the board round, for players and spectators alike', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.locator('.game-card[data-game="cephalopod"] .play-bot').click();
  await waitStatus(page, 'playing');
  const flip = page.locator('.actions .flip-board');
  assert.equal(await flip.getAttribute('aria-pressed'), 'false');
  const before = await page.locator('.board-wrap [data-cell="a1"]').boundingBox();
  await flip.click();
  assert.equal(await page.locator('.actions .flip-board').getAttribute('aria-pressed'), 'true');
  const after = await page.locator('.board-wrap [data-cell="a1"]').boundingBox();
  // a1 went from the lower left to the upper right.
  assert.ok(after.x > before.x && after.y < before.y, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
  // Perekati draws its own turned board.
  await page.goto(env.server.url + '/#/');
  await page.locator('.game-card[data-game="perekati"] .play-bot').click();
  await page.waitForFunction(() => window.__stolik?.table?.game === 'perekati' && window.__stolik.table.status === 'playing');
  const cell = page.locator('.board-wrap [data-cell="a1"]');
  await cell.waitFor();
  const p1 = await cell.boundingBox();
  await page.locator('.actions .flip-board').click();
  const p2 = await page.locator('.board-wrap [data-cell="a1"]').boundingBox();
  assert.ok(p2.y < p1.y, 'perekati turned');
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('a sixth bot game is refused in Russian, with the way to the games to finish', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, { lang: 'ru' });
  await page.locator('.game-card .play-bot').first().waitFor();
  for (let i = 0; i < 5; i++) {
    const status = await page.evaluate(async () => (await fetch('/api/tables', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'mill', bot: 'easy' }),
    })).status);
    assert.equal(status, 201);
  }
  await page.locator('.game-card[data-game="cephalopod"] .play-bot').click();
  const toast = page.locator('.toast.error');
  await toast.waitFor();
  assert.equal(await toast.innerText(), 'У вас уже есть недоигранные партии с ботами: доиграйте или сдайте одну из них. К моим партиям');
  await toast.locator('a[href="#/playing"]').click();
  await page.locator('.playing-game').first().waitFor();
  assert.equal(await page.locator('.playing-game').count(), 5);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('a leaderboard says when a rating is listed, and offers a game while it is empty', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.goto(env.server.url + '/#/leaderboard/tumbleweed');
  const rule = page.locator('.leaderboard-rule');
  await rule.waitFor();
  assert.match(await rule.innerText(), /110 or less.*about ten rated games/);
  await page.locator('.panel .empty').waitFor();
  assert.equal(await page.locator('.panel a.btn.primary[href="#/"]').count(), 1);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('the lobby form: one click for a 10+5 clock, the second seat', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.goto(env.server.url + '/#/lobby');
  const form = page.locator('.create-form');
  await form.locator('select[name="game"]').selectOption('cephalopod');
  await form.locator('.time-chip[data-clock="10+5"]').click();
  assert.equal(await form.locator('input[name="minutes"]').inputValue(), '10');
  assert.equal(await form.locator('input[name="increment"]').inputValue(), '5');
  assert.equal(await form.locator('.time-chip[data-clock="10+5"]').getAttribute('aria-pressed'), 'true');
  await form.locator('select[name="side"]').selectOption('second');
  await form.locator('.create').click();
  await page.waitForFunction(() => window.__stolik?.table?.status === 'open');
  const st = await tableState(page);
  assert.equal(st.you, 'b');
  assert.equal(st.clock.initial_ms, 600000);
  assert.equal(st.clock.increment_ms, 5000);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('a player is found by the start of their username, and their page opens', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.locator('.game-card').first().waitFor();
  const status = await page.evaluate(async () => (await fetch('/api/register', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'Searchable', password: 'secret-password' }),
  })).status);
  assert.equal(status, 200);
  const other = await newPlayer(env.browser, env.server.url);
  await other.page.goto(env.server.url + '/#/leaderboard');
  const box = other.page.locator('.player-search input[name="q"]');
  await box.fill('search');
  await box.press('Enter');
  const link = other.page.locator('.found-players a', { hasText: 'Searchable' });
  await link.waitFor();
  await link.click();
  await other.page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Searchable');
  await other.page.goto(env.server.url + '/#/leaderboard');
  await other.page.locator('.player-search input[name="q"]').fill('nobody-here');
  await other.page.locator('.player-search button').click();
  await other.page.locator('.player-search .empty').waitFor();
  assert.deepEqual(other.page.__errors || [], []);
  await context.close();
  await other.context.close();
});
