// Ratings and the community pages: the rated choice, players' pages with their rating chart,
// name links, the live games, the leaderboards, the bots' ratings, a claim after the opponent
// left, and the spectators' chat. Games are set up over the public API from each player's page
// (their own cookie), and looked at through the pages.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, tableState, screenshotPath } from './helpers.mjs';

// A short grace before a left game may be claimed, so that the claim test need not wait 30 s.
const env = serverAndBrowser(['--limits', 'off', '--abandon-grace-ms', '1500', '--bot-time-cap-ms', '50']);

/** An HTTP call from the page, with its cookie: {status, body}. */
async function call(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const res = await fetch(p, { method: m, headers: b ? { 'Content-Type': 'application/json' } : {}, body: b ? JSON.stringify(b) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }, [method, path, body]);
}

/** A request over the page's socket; resolves with the reply. */
function ws(page, request) {
  return page.evaluate((r) => window.__stolikSocket.request(r), request);
}

let counter = 0;

/** A new browser whose visitor has registered an account; the page is reloaded with it. */
async function account(prefix = 'p') {
  const P = await newPlayer(env.browser, env.server.url);
  const name = `${prefix}${Date.now() % 100000}${counter++}`;
  const reply = await call(P.page, 'POST', '/api/register', { username: name, password: 'secret-password' });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  await P.page.reload();
  await P.page.waitForFunction((n) => window.__stolikSocket?.state === 'open' && window.__stolikSocket.user?.name === n, name);
  return { ...P, user: reply.body.user };
}

/** Host creates a rated private mill table (no clock: rapid) and the guest sits; returns its id. */
async function ratedTable(host, guest, extra = {}) {
  const created = await call(host.page, 'POST', '/api/tables', { game: 'mill', private: true, rated: true, ...extra });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { id, invite } = created.body;
  await ws(guest.page, { type: 'sit', table: id, token: invite || undefined });
  return { id, invite };
}

/** Each side makes one move (the first legal one), so that the game counts. */
async function bothMove(players, { id, invite }) {
  for (let ply = 0; ply < 2; ply++) {
    for (const P of players) {
      const snap = (await call(P.page, 'GET', `/api/tables/${id}${invite ? `?token=${encodeURIComponent(invite)}` : ''}`)).body;
      if (snap.status === 'playing' && snap.you && snap.to_move === snap.you && snap.ply === ply) {
        await ws(P.page, { type: 'move', table: id, move: snap.legal[0], ply });
      }
    }
  }
}

/** A whole rated game that `loser` resigns after both have moved; returns the table id. */
async function ratedGame(a, b, loser) {
  const table = await ratedTable(a, b);
  await bothMove([a, b], table);
  await ws(loser.page, { type: 'resign', table: table.id });
  return table.id;
}

async function profileOf(page, id) {
  const reply = await call(page, 'GET', `/api/users/${encodeURIComponent(id)}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

/** Two new accounts. */
async function pair(prefix) {
  return [await account(prefix), await account(prefix)];
}

/** The page has no errors; the browsers close. */
async function done(...players) {
  for (const P of players) assert.deepEqual(P.page.__errors || [], []);
  for (const P of players) await P.context.close();
}

/** Waits for a page whose heading is this name (a player's page). */
function heading(page, name) {
  return page.waitForFunction((n) => document.querySelector('h1')?.textContent === n, name);
}

test('the rated checkbox: not on the cards of a guest, disabled in the lobby (with the way to an account), and the server says no too', async () => {
  const G = await newPlayer(env.browser, env.server.url);
  const card = G.page.locator('.game-card[data-game="mill"]');
  await card.locator('.play-bot').waitFor();
  // A guest's cards carry no rated choice; solo games have no ratings at all.
  assert.equal(await G.page.locator('.game-card .rated-check').count(), 0);
  await G.page.goto(env.server.url + '/#/lobby');
  const form = G.page.locator('.create-form');
  await form.locator('.rated-check').waitFor();
  assert.equal(await form.locator('.rated-check').isDisabled(), true);
  assert.equal(await form.locator('input[name="rating-min"]').count(), 0, 'no rating range for a casual game');
  const refused = await call(G.page, 'POST', '/api/tables', { game: 'mill', rated: true });
  assert.ok([400, 403].includes(refused.status), JSON.stringify(refused));
  assert.match(refused.body.message, /accounts/);
  await done(G);
});

test('an account plays rated from the lobby: the range is offered, the table says Rated · Blitz with ratings', async () => {
  const A = await account('lob');
  await A.page.goto(env.server.url + '/#/lobby');
  const form = A.page.locator('.create-form');
  await form.locator('select[name="game"]').selectOption('mill');
  const box = form.locator('.rated-check');
  assert.equal(await box.isDisabled(), false);
  await box.check();
  await form.locator('input[name="rating-min"]').fill('1000');
  await form.locator('input[name="rating-max"]').fill('2000');
  await form.locator('input[name="timed"]').nth(1).check();
  await form.locator('input[name="minutes"]').fill('3');
  await form.locator('input[name="increment"]').fill('2');
  await form.locator('.create').click();
  await A.page.waitForFunction(() => window.__stolik?.table?.status === 'open');
  const st = await tableState(A.page);
  assert.equal(st.rated, true);
  assert.equal(st.rating_class, 'blitz');
  assert.equal(await A.page.locator('.badges .rated-badge.rated').textContent(), 'Rated · Blitz');
  // The host's provisional rating shows with a question mark next to the name.
  assert.match(await A.page.locator('.player.me .name .rating').textContent(), /^\d+\?$/);

  // In another browser's lobby: rated, the host's rating and the range.
  const B = await account('lob');
  await B.page.goto(env.server.url + '/#/lobby');
  const row = B.page.locator(`.lobby-tables tr[data-table="${st.id}"]`);
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, /Rated/);
  assert.match(text, /1000–2000/);
  assert.match(text, /\d+\?/);
  // The choice is remembered: the next form starts rated.
  await A.page.goto(env.server.url + '/#/');
  assert.equal(await A.page.locator('.game-card[data-game="mill"] .rated-check').isChecked(), true);
  await done(A, B);
});

test('a player page: ratings, wins and losses, one chart point per rated game, recent games with links', async () => {
  const [A, B] = await pair('chart');
  const ids = [await ratedGame(A, B, B), await ratedGame(A, B, A), await ratedGame(A, B, B)];
  // A casual game is not a point of the chart.
  const casual = await call(A.page, 'POST', '/api/tables', { game: 'mill', private: true });
  await ws(B.page, { type: 'sit', table: casual.body.id, token: casual.body.invite });
  await bothMove([A, B], { id: casual.body.id, invite: casual.body.invite });
  await ws(B.page, { type: 'resign', table: casual.body.id });

  await A.page.goto(`${env.server.url}/#/player/${A.user.id}`);
  const chart = A.page.locator('.rating-history[data-game="mill"][data-class="rapid"] svg.rating-chart');
  await chart.waitFor();
  assert.equal(await chart.locator('circle.point').count(), 3);
  assert.match(await chart.locator('circle.point').first().locator('title').textContent(), new RegExp(`against ${B.user.name}`));
  assert.equal(await A.page.locator('h1').textContent(), A.user.name);
  assert.match(await A.page.locator('.results-line').textContent(), /wins: 3 · draws: 0 · losses: 1/);
  const rating = (await profileOf(A.page, A.user.id)).ratings.mill.rapid;
  assert.equal(await A.page.locator('.ratings-table td[data-class="rapid"] .rating').textContent(), `${rating.rating}${rating.provisional ? '?' : ''}`);
  // Recent games: each rated one with its change, the opponent a link, the replay one press away.
  const rows = A.page.locator('.games-list tbody tr');
  assert.equal(await rows.count(), 4);
  for (const id of ids) assert.equal(await A.page.locator(`.games-list tr[data-game="${id}"] .rating-change`).count(), 1);
  assert.equal(await A.page.locator(`.games-list tr[data-game="${ids[1]}"] .rating-change.down`).count(), 1);
  // Three games leave a newcomer provisional: the chart's caption and the list say so with a `?`.
  assert.equal(rating.provisional, true);
  assert.match(await A.page.locator('.rating-history[data-game="mill"] figcaption').textContent(), new RegExp(`${rating.rating}\\? now`));
  assert.match(await A.page.locator(`.games-list tr[data-game="${ids[2]}"]`).textContent(), new RegExp(`${rating.rating}\\?`));
  await A.page.screenshot({ path: screenshotPath('player-page.png'), fullPage: true });
  await A.page.locator(`.games-list tr[data-game="${ids[0]}"] .opponents .player-link`).click();
  await heading(A.page, B.user.name);
  assert.ok(A.page.url().endsWith(`#/player/${encodeURIComponent(B.user.id)}`));
  await A.page.goto(`${env.server.url}/#/player/${A.user.id}`);
  await A.page.locator(`.games-list tr[data-game="${ids[0]}"] .replay-link`).click();
  await A.page.waitForFunction((id) => location.hash === `#/replay/${id}`, ids[0]);
  // Your own profile leads to your public page.
  await A.page.goto(env.server.url + '/#/profile');
  await A.page.locator('.public-page').click();
  await heading(A.page, A.user.name);
  await done(A, B);
});

test('a finished rated table shows each change in colour, and a name there opens that player', async () => {
  const [A, B] = await pair('tbl');
  const table = await ratedTable(A, B);
  await A.page.goto(`${env.server.url}/#/table/${table.id}`);
  await A.page.waitForFunction(() => window.__stolik?.table?.status === 'playing');
  await bothMove([A, B], table);
  await ws(B.page, { type: 'resign', table: table.id });
  await waitStatus(A.page, 'finished');
  await A.page.locator('.player.me .rating-change.up').waitFor();
  assert.match(await A.page.locator('.player.me .rating-change').textContent(), /^\+\d+$/);
  assert.match(await A.page.locator('.player:not(.me) .rating-change.down').textContent(), /^−\d+$/);
  assert.equal(await A.page.locator('.badges .rated-badge').textContent(), 'Rated · Rapid');
  await A.page.locator('.player:not(.me) .name .player-link').click();
  await heading(A.page, B.user.name);
  assert.match(await A.page.locator('.player-page .lead').textContent(), /Account/);
  await done(A, B);
});

test('the live page lists a game being played, opens it as a spectator; the spectators have a chat room of their own', async () => {
  const [A, B] = await pair('live');
  // Public: private tables are not listed.
  const table = await ratedTable(A, B, { private: false });
  await bothMove([A, B], table);
  const C = await newPlayer(env.browser, env.server.url);
  await C.page.locator('.main-nav .live-nav').click();
  const row = C.page.locator(`.live-row[data-table="${table.id}"]`);
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, new RegExp(A.user.name));
  assert.match(text, new RegExp(B.user.name));
  assert.match(text, /\d+\?/, 'the players’ ratings');
  assert.match(text, /Rated/);
  // Filtered by another game, the row goes; by mill, it stays.
  await C.page.locator('.live-filter').selectOption('tumbleweed');
  await C.page.locator('.live .empty').waitFor();
  await C.page.locator('.live-filter').selectOption('mill');
  await C.page.locator(`.live-row[data-table="${table.id}"] .watch`).click();
  await C.page.waitForFunction((id) => window.__stolik?.table?.id === id, table.id);
  const st = await tableState(C.page);
  assert.equal(st.you, null);
  // The spectator writes in the spectators' room: a player does not see it until asking to.
  assert.match(await C.page.locator('.chat .spectator-room').textContent(), /spectators’ chat/);
  await A.page.evaluate(() => localStorage.removeItem('stolik.spectatorChat'));
  await A.page.goto(`${env.server.url}/#/table/${table.id}`);
  await A.page.waitForFunction(() => window.__stolik?.table?.you);
  await C.page.locator('.chat-input').fill('who wins?');
  await C.page.locator('.chat-form button').click();
  await C.page.locator('.chat-line.from-spectator', { hasText: 'who wins?' }).waitFor();
  await ws(A.page, { type: 'chat', table: table.id, text: 'good luck' });
  await A.page.locator('.chat-line', { hasText: 'good luck' }).waitFor();
  assert.equal(await A.page.locator('.chat-line', { hasText: 'who wins?' }).count(), 0);
  await A.page.locator('.chat .show-spectators').check();
  await A.page.locator('.chat-line.from-spectator', { hasText: 'who wins?' }).waitFor();
  // The spectator reads both rooms.
  await C.page.locator('.chat-line:not(.from-spectator)', { hasText: 'good luck' }).waitFor();
  const watchers = await call(C.page, 'GET', '/api/live?game=mill');
  assert.ok(watchers.body.games.find((g) => g.id === table.id).watchers >= 1);
  await C.page.screenshot({ path: screenshotPath('spectator.png') });
  await done(A, B, C);
});

test('a leaderboard lists a player once the rating is established, not before', async () => {
  // Games against one opponent move the rating less each time within a day (the farming rule
  // of docs/rules-decisions.md; the deviation moves in full): A meets several, as a player
  // who establishes a rating does.
  const [A, B] = await pair('lead');
  const others = [B];
  for (let i = 0; i < 9; i++) others.push(await account('lead'));
  let games = 0;
  for (; games < 40; games++) {
    const a = (await profileOf(A.page, A.user.id)).ratings?.mill?.rapid;
    if (a && !a.provisional) break;
    const opponent = others[games % others.length];
    await ratedGame(A, opponent, games % 2 === 1 ? A : opponent);
  }
  const rating = (await profileOf(A.page, A.user.id)).ratings.mill.rapid;
  assert.equal(rating.provisional, false, `still provisional after ${games} games`);
  await A.page.goto(env.server.url + '/#/');
  await A.page.locator('.game-card[data-game="mill"] .leaderboard-link').click();
  await A.page.waitForFunction(() => location.hash.startsWith('#/leaderboard/mill'));
  await A.page.locator('.switcher a[data-class="rapid"]').click();
  const row = A.page.locator(`.leaderboard tr[data-user="${A.user.id}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), new RegExp(`${A.user.name}${rating.rating}`));
  assert.ok((await row.getAttribute('class')).includes('me'));
  await A.page.screenshot({ path: screenshotPath('leaderboard.png'), fullPage: true });
  // Another class has nobody yet; the top navigation leads to the leaderboards too.
  await A.page.locator('.switcher a[data-class="correspondence"]').click();
  await A.page.locator('.leaderboard-page .empty').waitFor();
  await A.page.locator('.main-nav .leaderboard-nav').click();
  await A.page.waitForFunction(() => /^#\/leaderboard\/[a-z-]+\?class=/.test(location.hash));
  await done(A, ...others);
});

test('a rated game against a bot from its card; then the bot picker shows the bot’s rating for the game and class', async () => {
  const A = await account('bot');
  const card = A.page.locator('.game-card[data-game="mill"]');
  await card.locator('.rated-check').check();
  await card.locator('select.bot-level').selectOption('easy');
  await card.locator('.play-bot').click();
  await waitStatus(A.page, 'playing');
  let st = await tableState(A.page);
  assert.equal(st.rated, true);
  assert.equal(await A.page.locator('.badges .rated-badge').textContent(), 'Rated · Rapid');
  // One move each (the bot answers), then resign: a rated game the bot won.
  // The state is read in the same evaluation that finds it is A's turn: read apart, the
  // echo of A's own move (which carries no legal list) could land in between.
  for (let i = 0; i < 2; i++) {
    st = await (await A.page.waitForFunction(() => {
      const t = window.__stolik?.table;
      return t && t.to_move === t.you && t.legal.length > 0 ? t : null;
    })).jsonValue();
    await ws(A.page, { type: 'move', table: st.id, move: st.legal[0], ply: st.ply });
    await A.page.waitForFunction((n) => window.__stolik?.table?.ply > n, st.ply);
  }
  await ws(A.page, { type: 'resign', table: st.id });
  await waitStatus(A.page, 'finished');
  await A.page.locator('.player:not(.me) .rating-change.up').waitFor();
  const bots = (await call(A.page, 'GET', '/api/bots')).body;
  const easy = bots.find((b) => b.level === 'easy').ratings.mill.rapid;
  assert.ok(easy.rating > 0);
  await A.page.goto(env.server.url + '/#/');
  const option = A.page.locator('.game-card[data-game="mill"] .bot-level option[value="easy"]');
  await A.page.waitForFunction(() => / · \d/.test(document.querySelector('.game-card[data-game="mill"] .bot-level option[value="easy"]')?.textContent || ''));
  assert.equal(await option.textContent(), `Easy · ${easy.rating}${easy.provisional ? '?' : ''}`);
  // The bots have pages of their own, reached from the table's name.
  await A.page.goto(`${env.server.url}/#/table/${st.id}`);
  await A.page.locator('.player:not(.me) .player-link.bot').click();
  await A.page.locator('.player-page .badge.bot').waitFor();
  assert.match(await A.page.locator('.ratings-table td[data-class="rapid"]').textContent(), new RegExp(String(easy.rating)));
  await done(A);
});

test('when the opponent leaves, the one left sees a countdown, then claims the win; spectators are told', async () => {
  const [A, B] = await pair('claim');
  const table = await ratedTable(A, B);
  await A.page.goto(`${env.server.url}/#/table/${table.id}`);
  await B.page.goto(`${env.server.url}/#/table/${table.id}`);
  await A.page.waitForFunction(() => window.__stolik?.table?.status === 'playing');
  await bothMove([A, B], table);
  const C = await newPlayer(env.browser, env.server.url);
  await C.page.goto(`${env.server.url}/#/table/${table.id}?token=${encodeURIComponent(table.invite)}`);
  await C.page.waitForFunction((id) => window.__stolik?.table?.id === id, table.id);
  await B.context.close();
  // First the countdown, then (after the 1.5 s grace) the two buttons.
  await A.page.locator('.away .away-countdown').waitFor();
  assert.match(await A.page.locator('.away').textContent(), /Your opponent has left — you can claim the game in \d:\d\d/);
  await C.page.locator('.away', { hasText: `${B.user.name} has left the table` }).waitFor();
  assert.equal(await C.page.locator('.claim-win').count(), 0, 'a spectator cannot claim');
  await A.page.locator('.away .claim-win').waitFor({ timeout: 10000 });
  assert.equal(await A.page.locator('.away .claim-draw').count(), 1);
  await A.page.screenshot({ path: screenshotPath('claim.png') });
  await A.page.locator('.away .claim-win').click();
  await waitStatus(A.page, 'finished');
  const st = await tableState(A.page);
  assert.equal(st.reason, 'abandoned');
  assert.equal(st.result, st.you);
  assert.match(await A.page.locator('.banner').textContent(), /left the game/);
  await A.page.locator('.player.me .rating-change.up').waitFor();
  await done(A, C);
});
