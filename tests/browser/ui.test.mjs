// The pages around the tables: catalogue, rules, languages, lobby, quick match, accounts.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitPly, waitStatus, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

/** The ids of the server's games, in its order (`GET /api/games`, the catalogue). */
async function gameIds() {
  const games = await (await fetch(env.server.url + '/api/games')).json();
  assert.ok(games.length > 1, 'the catalogue lists games');
  return games.map((g) => g.id);
}

test('catalogue lists every game of the server with pictures; language switch is remembered', async () => {
  const ids = await gameIds();
  const P = await newPlayer(env.browser, env.server.url, { lang: 'ru' });
  const p = P.page;
  await p.locator('.game-card').nth(ids.length - 1).waitFor();
  assert.deepEqual(await p.locator('.game-card').evaluateAll((cards) => cards.map((c) => c.dataset.game)), ids);
  assert.equal(await p.locator('.game-card img.game-pic').count(), ids.length);
  for (const id of ids) {
    const ok = await p.evaluate(async (g) => (await fetch(`/img/${g}.svg`)).ok, id);
    assert.ok(ok, `picture of ${id}`);
  }
  assert.equal(await p.locator('.main-nav a').first().textContent(), 'Игры');
  await p.screenshot({ path: screenshotPath('catalogue.png'), fullPage: true });

  await p.locator('.lang-select').selectOption('en');
  await p.locator('.main-nav a[href="#/"]', { hasText: 'Games' }).waitFor();
  await p.locator('.game-card .quick-match', { hasText: 'Quick match' }).first().waitFor();
  await p.locator('.lang-select').selectOption('uk');
  await p.locator('.main-nav a[href="#/"]', { hasText: 'Ігри' }).waitFor();
  await p.reload();
  await p.locator('.main-nav a[href="#/"]', { hasText: 'Ігри' }).waitFor();
  assert.equal(await p.evaluate(() => document.documentElement.lang), 'uk');
  await P.context.close();
});

test('rules pages exist in three languages with diagrams', async () => {
  const P = await newPlayer(env.browser, env.server.url, { lang: 'en' });
  const p = P.page;
  for (const id of await gameIds()) {
    await p.goto(`${env.server.url}/#/rules/${id}`);
    await p.locator('.rules-section').first().waitFor();
    assert.ok((await p.locator('.diagram svg.board').count()) >= 1, `a diagram for ${id}`);
  }
  await p.screenshot({ path: screenshotPath('rules-white-rabbit.png'), fullPage: true });
  await p.goto(`${env.server.url}/#/rules/tumbleweed`);
  await p.locator('.rules-section').first().waitFor();
  const en = await p.locator('.rules-section h2').first().textContent();
  await p.locator('.lang-select').selectOption('ru');
  await p.waitForFunction((old) => document.querySelector('.rules-section h2').textContent !== old, en);
  await p.screenshot({ path: screenshotPath('rules-tumbleweed.png'), fullPage: true });
  await P.context.close();
});

test('lobby: a public table appears live and another player joins it', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  await B.page.goto(`${env.server.url}/#/lobby`);
  await B.page.locator('.lobby-tables .empty').waitFor();

  const a = A.page;
  await a.goto(`${env.server.url}/#/lobby`);
  await a.locator('.create-form select[name="game"]').selectOption('cephalopod');
  await a.locator('.create-form select[name="variant"]').selectOption('3x3');
  await a.locator('.create-form input[name="timed"]').nth(1).check();
  await a.locator('.create-form input[name="minutes"]').fill('3');
  await a.locator('.create-form input[name="increment"]').fill('2');
  await a.locator('.create-form .create').click();
  await a.waitForFunction(() => window.__stolik?.table?.status === 'open');
  const t0 = await tableState(a);
  assert.equal(t0.clock.initial_ms, 180000);
  assert.equal(t0.clock.increment_ms, 2000);

  const row = B.page.locator(`.lobby-tables tr[data-table="${t0.id}"]`);
  await row.waitFor();
  await B.page.screenshot({ path: screenshotPath('lobby.png') });
  await row.locator('.join').click();
  await waitStatus(B.page, 'playing');
  await waitStatus(a, 'playing');
  await a.locator('.clock').first().waitFor();

  // Abort before both have moved.
  await a.locator('.actions .abort').click();
  await waitStatus(B.page, 'aborted');
  await A.context.close();
  await B.context.close();
});

test('quick match pairs two players and cancel works', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  await A.page.locator('.game-card[data-game="mill"] .quick-match').click();
  await A.page.locator('.queue-box').waitFor();
  await A.page.locator('.queue-box .queue-cancel').click();
  await A.page.locator('.queue-box').waitFor({ state: 'detached' });

  await A.page.locator('.game-card[data-game="perekati"] .quick-match').click();
  await A.page.locator('.queue-box').waitFor();
  await B.page.locator('.game-card[data-game="perekati"] .quick-match').click();
  await A.page.waitForFunction(() => window.__stolik?.table?.status === 'playing');
  await B.page.waitForFunction(() => window.__stolik?.table?.status === 'playing');
  const ta = await tableState(A.page);
  const tb = await tableState(B.page);
  assert.equal(ta.id, tb.id);
  assert.notEqual(ta.you, tb.you);
  // Resign ends it: before both sides have moved, that calls the game off.
  const first = ta.you === 'a' ? A.page : B.page;
  await first.locator('.actions .resign').click();
  await first.locator('.actions .resign-confirm').click();
  await waitStatus(A.page, 'aborted');
  await A.context.close();
  await B.context.close();
});

test('accounts: register, log out, log in; finished games listed with a replay', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  // Finish a quick solo game first, as a guest: it must stay with the account.
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => window.__stolik?.table?.status === 'playing' || window.__stolik?.table?.status === 'finished');
  if ((await tableState(p)).status === 'playing') {
    await p.locator('.actions .resign').click();
    await p.locator('.actions .resign-confirm').click();
  }
  await waitStatus(p, 'finished');

  const name = 'tester' + Math.floor(Math.random() * 1e6);
  await p.goto(`${env.server.url}/#/profile`);
  await p.locator('.register-form input[name="username"]').fill(name);
  await p.locator('.register-form input[name="password"]').fill('secret-password');
  // The games list arrives and re-renders the page: what was typed must survive it.
  await p.locator('.games-list tbody tr').first().waitFor();
  assert.equal(await p.locator('.register-form input[name="username"]').inputValue(), name);
  await p.locator('.register-form button').click();
  await p.locator('.logout').waitFor();
  await p.locator('.user-link', { hasText: name }).waitFor();
  await p.locator('.games-list tbody tr').first().waitFor();
  await p.screenshot({ path: screenshotPath('profile.png') });

  await p.locator('.logout').click();
  await p.locator('.login-form').waitFor();
  await p.locator('.login-form input[name="username"]').fill(name);
  await p.locator('.login-form input[name="password"]').fill('secret-password');
  await p.locator('.login-form button').click();
  await p.locator('.user-link', { hasText: name }).waitFor();
  await p.locator('.games-list .replay-link').first().click();
  await p.locator('.replay-controls').waitFor();
  await p.screenshot({ path: screenshotPath('replay.png') });
  await P.context.close();
});

/** Presses Tab until the focused element matches `selector`, as a keyboard user would. */
async function tabTo(page, selector, limit = 80) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('keyboard: a White Rabbit swap made with Tab and Enter only', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => ['playing', 'finished'].includes(window.__stolik?.table?.status));
  let st = await tableState(p);
  // End turns (by keyboard too) until a swap is on offer.
  while (st.status === 'playing' && !st.legal.some((m) => m.includes('~'))) {
    await tabTo(p, '.board-wrap .end');
    await p.keyboard.press('Enter');
    await waitPly(p, st.ply + 1);
    st = await tableState(p);
  }
  if (st.status !== 'playing') {
    await P.context.close();
    return; // the deal ended (won at setup or lost) before any swap was possible
  }
  const swap = st.legal.find((m) => m.includes('~'));
  const [hand, table] = swap.split('~');
  await tabTo(p, `.board-wrap [data-die="${hand}"]`);
  await p.keyboard.press('Enter');
  // Selecting keeps the focus on the die; the table die is further along the tab order.
  await p.locator(`.board-wrap [data-die="${hand}"].selected`).waitFor();
  await tabTo(p, `.board-wrap [data-die="${table}"]`);
  await p.keyboard.press('Enter');
  await waitPly(p, st.ply + 1);
  const after = await tableState(p);
  assert.equal(after.moves[after.moves.length - 1], swap);
  await P.context.close();
});

test('phone-sized screen: the table page fits', async () => {
  const P = await newPlayer(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  const p = P.page;
  await p.locator('.game-card[data-game="tumbleweed"] .create-private').click();
  await p.waitForFunction(() => window.__stolik?.table?.invite);
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  assert.equal(overflow, false, 'no horizontal scrolling');
  await p.screenshot({ path: screenshotPath('phone-table.png'), fullPage: true });
  await P.context.close();
});

test('chat: mute a player for yourself, report a line, unmute on the profile', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  const b = B.page;
  await a.goto(`${env.server.url}/#/lobby`);
  await a.locator('.create-form select[name="game"]').selectOption('mill');
  await a.locator('.create-form .create').click();
  await a.waitForFunction(() => window.__stolik?.table?.status === 'open');
  const { id } = await tableState(a);
  await b.goto(`${env.server.url}/#/table/${id}`);
  await b.locator('.sit').first().click();
  await waitStatus(a, 'playing');

  await b.locator('.chat-input').fill('first line from b');
  await b.locator('.chat-input').press('Enter');
  const line = a.locator('.chat-line', { hasText: 'first line from b' });
  await line.waitFor();
  // Report it: the reason is asked in a dialog.
  a.once('dialog', (d) => d.accept('insulting'));
  await line.locator('.chat-act.report').click();
  await a.locator('.toast', { hasText: 'report was sent' }).waitFor();
  await a.screenshot({ path: screenshotPath('chat-actions.png') });
  // Mute: the line goes, and b's next line never shows for a (b still sees its own).
  await line.locator('.chat-act.mute').click();
  await line.waitFor({ state: 'detached' });
  await b.locator('.chat-input').fill('second line from b');
  await b.locator('.chat-input').press('Enter');
  await b.locator('.chat-line', { hasText: 'second line from b' }).waitFor();
  await a.locator('.chat-input').fill('a still chats');
  await a.locator('.chat-input').press('Enter');
  await b.locator('.chat-line', { hasText: 'a still chats' }).waitFor();
  assert.equal(await a.locator('.chat-line', { hasText: 'from b' }).count(), 0);

  // The profile lists the muted player, and unmuting brings the chat back.
  await a.goto(`${env.server.url}/#/profile`);
  await a.locator('.muted-list .unmute').click();
  await a.locator('.muted-players').waitFor({ state: 'detached' });
  await a.goto(`${env.server.url}/#/table/${id}`);
  await a.locator('.chat-line', { hasText: 'second line from b' }).waitFor();
  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('an answer that arrives after the visitor moved on does not draw over the next page', async () => {
  const P = await newPlayer(env.browser, env.server.url, { lang: 'en' });
  const p = P.page;
  // The replay's record answers late: by then the visitor is on the profile.
  let asked;
  let answered;
  const requested = new Promise((res) => { asked = res; });
  const late = new Promise((res) => { answered = res; });
  await p.route('**/api/records/**', async (route) => {
    asked();
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
    answered();
  });
  await p.goto(`${env.server.url}/#/replay/no-such-game`);
  // The app routes only once it knows who the visitor is: leave only after the replay has
  // asked for its record, or the replay is never drawn and nothing answers late.
  await requested;
  await p.goto(`${env.server.url}/#/profile`);
  await p.locator('.page.profile .public-page').waitFor();
  await late;
  await p.waitForTimeout(500);
  assert.equal(await p.locator('.page.profile .public-page').isVisible(), true);
  assert.equal(await p.locator('#main .page').count(), 1, 'only the profile is drawn');
  assert.match(await p.title(), /^Profile/);
  await P.context.close();
});
