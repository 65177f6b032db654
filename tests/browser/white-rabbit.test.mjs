// The solo dice puzzle played by clicking: a swap if one is possible, then ending turns until
// the game is decided.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, tableState, waitPly, waitStatus, playByClicks, screenshotPath,
} from './helpers.mjs';

const env = serverAndBrowser();

/** The hand's dice as drawn, left to right (the six table dice come first on the board). */
function hand(page) {
  return page.locator('.board-wrap [data-die]').evaluateAll((els) => els.slice(6).map((e) => e.dataset.die));
}

test('white rabbit: swap, then end turns until the game is over', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => window.__stolik?.table && window.__stolik.table.status !== 'open');
  let st = await tableState(p);
  let swapped = false;
  for (let i = 0; i < 60 && st.status === 'playing'; i++) {
    const swap = st.legal.find((m) => m.includes('~'));
    const mv = !swapped && swap ? swap : 'end';
    if (mv === swap) swapped = true;
    const handBefore = await hand(p);
    await playByClicks(p, 'white-rabbit', mv);
    await waitPly(p, st.ply + 1);
    if (mv === swap) {
      // The hand keeps its order: the die that came in stands where the one that left stood.
      const [out, into] = swap.split('~');
      await p.waitForFunction((id) => [...document.querySelectorAll('.board-wrap [data-die]')].slice(6).some((e) => e.dataset.die === id), into);
      assert.deepEqual(await hand(p), handBefore.map((id) => (id === out ? into : id)));
    }
    if (i === 0) await p.screenshot({ path: screenshotPath('white-rabbit.png') });
    st = await tableState(p);
  }
  await waitStatus(p, 'finished');
  st = await tableState(p);
  assert.ok(st.result === 'lost' || st.result.startsWith('won'), st.result);
  await p.locator('.banner.shown').waitFor();
  await p.screenshot({ path: screenshotPath('white-rabbit-end.png') });

  // "New game" deals a fresh puzzle at a new table.
  await p.locator('.actions .rematch').click();
  await p.waitForFunction((id) => window.__stolik?.table && window.__stolik.table.id !== id, st.id);
  assert.deepEqual(p.__errors || [], []);
  await P.context.close();
});

test('white rabbit: a hint marks the best action on the board and can be played', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => window.__stolik?.table && window.__stolik.table.status !== 'open');
  const st = await tableState(p);
  if (st.status !== 'playing') return; // a deal won before any action: nothing to hint
  await p.locator('.actions .ask-hint').click();
  await p.locator('.hint-panel .play-hint').waitFor();
  const rows = await p.locator('.hint-table tbody.hint-row').count();
  assert.ok(rows >= 1 && rows <= 5, `rows ${rows}`);
  // The suggestion is drawn on the board: two dice for a swap, or the reroll/end button.
  assert.ok(await p.locator('.board-wrap .hinted').count() >= 1);
  await p.screenshot({ path: screenshotPath('white-rabbit-hint.png') });
  await p.locator('.hint-panel .play-hint').click();
  await waitPly(p, 1);
  // The hint was for the old position: it is gone after the move.
  await p.waitForFunction(() => !document.querySelector('.hint-panel .play-hint'));
  assert.deepEqual(p.__errors || [], []);
  await P.context.close();
});

test('daily deal: the same dice for two players, one attempt each, no hints, a leaderboard', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const positions = [];
  for (const P of [A, B]) {
    await P.page.locator('.game-card[data-game="white-rabbit"] .daily-deal').click();
    await P.page.waitForFunction(() => window.__stolik?.table?.daily);
    await P.page.locator('.badges .badge.daily').waitFor();
    positions.push((await tableState(P.page)).position);
  }
  assert.equal(positions[0], positions[1]);
  const a = await tableState(A.page);
  if (a.status === 'playing') {
    await A.page.locator('.actions .no-hints').waitFor();
    assert.equal(await A.page.locator('.actions .ask-hint').count(), 0);
  }
  await A.page.screenshot({ path: screenshotPath('white-rabbit-daily.png') });

  // The daily page offers to go back to the same attempt, says a guest's attempt is practice,
  // and shows the (empty) leaderboard with the day's figures.
  await A.page.locator('.main-nav a[href="#/daily"]').click();
  await A.page.locator('.daily .open-attempt').waitFor();
  assert.equal(await A.page.locator('.daily .open-attempt').textContent(), 'Back to my attempt');
  await A.page.locator('.daily .guest-note').waitFor();
  await A.page.locator('.daily .empty-board').waitFor();
  assert.match(await A.page.locator('.daily .daily-figures').innerText(), /Ranked attempts: 0/);
  // Without the exact tables there is no perfect-play value, and nothing stands in for it.
  assert.equal(await A.page.locator('.daily .perfect-note').count(), 0);
  assert.ok(!(await A.page.locator('.daily').innerText()).includes('null'), 'no stray "null" on the page');
  await A.page.locator('.daily .open-attempt').click();
  await A.page.waitForFunction((id) => window.__stolik?.table?.id === id, a.id);
  assert.deepEqual(A.page.__errors || [], []);
  assert.deepEqual(B.page.__errors || [], []);
  await A.context.close();
  await B.context.close();
});

test('white rabbit: a finished game can be reviewed decision by decision', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
  await p.waitForFunction(() => window.__stolik?.table && window.__stolik.table.status !== 'open');
  let st = await tableState(p);
  for (let i = 0; i < 3 && st.status === 'playing'; i++) {
    await playByClicks(p, 'white-rabbit', st.legal[0]);
    await waitPly(p, st.ply + 1);
    st = await tableState(p);
  }
  if (st.status === 'playing') {
    await p.locator('.actions .resign').click();
    await p.locator('.actions .resign-confirm').click();
  }
  await waitStatus(p, 'finished');
  const plies = (await tableState(p)).ply;
  await p.locator('.actions .review-link').click();
  await p.locator('.review-summary').waitFor({ timeout: 60000 });
  assert.equal(await p.locator('.review-list tr.decision').count(), plies);
  // A decision is shown on the real board, the taken and the best action side by side in words.
  await p.locator('.review-board-svg svg.board').waitFor();
  await p.locator('.review-list tr.decision[data-ply="0"] button.show').click();
  await p.waitForFunction(() => document.querySelector('.review-list tr.decision[data-ply="0"]')?.classList.contains('chosen'));
  const words = await p.locator('.review-decision').innerText();
  assert.match(words, /Played: /);
  assert.match(words, /Best: /);
  assert.doesNotMatch(words, /\b[krw]\d?~[krw]\d?\b/, 'no engine letters');
  await p.screenshot({ path: screenshotPath('white-rabbit-review.png') });
  assert.deepEqual(p.__errors || [], []);
  await P.context.close();
});

test('daily deal: a lost attempt shows its result at its end and on the daily page', async () => {
  const P = await newPlayer(env.browser, env.server.url);
  const p = P.page;
  await p.goto(`${env.server.url}/#/daily`);
  await p.locator('.daily .play-daily').click();
  await p.waitForFunction(() => window.__stolik?.table?.daily);
  // A solo table: no seat box, turn dot, chat, invite link or "private" badge.
  assert.equal(await p.locator('.player, .turn-dot, .copy-invite, .badge.private').count(), 0);
  assert.equal(await p.locator('section.panel.chat').isVisible(), false, 'no chat at a solo table');
  await p.locator('.badges .badge.practice').waitFor();
  if ((await tableState(p)).status === 'playing') {
    await p.locator('.actions .resign').click();
    await p.locator('.actions .resign-confirm').click();
  }
  await waitStatus(p, 'finished');
  // The end leads back to the day, with the result.
  await p.locator('.daily-end .daily-result').waitFor();
  const result = (await tableState(p)).result;
  if (result === 'lost') assert.match(await p.locator('.daily-end .daily-result').innerText(), /lost/);
  assert.equal(await p.locator('.actions .rematch').count(), 0, 'no random "New game" after the daily deal');
  await p.screenshot({ path: screenshotPath('white-rabbit-daily-end.png') });
  await p.locator('.daily-end .back-to-day').click();
  await p.locator('.daily .daily-mine .daily-result').waitFor();
  const mine = await p.locator('.daily .daily-mine').innerText();
  if (result === 'lost') assert.match(mine, /Your attempt: lost/);
  assert.match(mine, /practice/);
  await p.screenshot({ path: screenshotPath('white-rabbit-daily-page.png') });
  assert.deepEqual(p.__errors || [], []);
  await P.context.close();
});

// What only the operator needs (tables being built, the server's files) never reaches a page.
const OPERATOR = /exact tables|точн\S* таблиц|rabbit-tables|hint mode|режим\S* подсказ|режим\S* підказ|\bserver\b|сервер/i;

test('white rabbit: no player page carries a note for the operator', async () => {
  for (const lang of ['en', 'ru', 'uk']) {
    const P = await newPlayer(env.browser, env.server.url, { lang });
    const p = P.page;
    const seen = [];
    const look = async (what) => {
      await p.waitForTimeout(300);
      const text = await p.locator('main, body').first().innerText();
      seen.push(what);
      assert.doesNotMatch(text, OPERATOR, `${lang} ${what}: ${text.match(OPERATOR)?.[0]}`);
    };
    await p.goto(`${env.server.url}/#/daily`);
    await p.locator('.daily .play-daily').waitFor();
    await look('daily page');
    await p.goto(`${env.server.url}/#/rules/white-rabbit`);
    await p.waitForTimeout(500);
    await look('rules');
    await p.goto(`${env.server.url}/#/`);
    await p.locator('.game-card[data-game="white-rabbit"] .play-solo').click();
    await p.waitForFunction(() => window.__stolik?.table && window.__stolik.table.status !== 'open');
    if ((await tableState(p)).status === 'playing') {
      await p.locator('.actions .ask-hint').click();
      await p.locator('.hint-panel .hint-table').waitFor();
      await look('table with a hint');
      await p.locator('.actions .resign').click();
      await p.locator('.actions .resign-confirm').click();
    }
    await waitStatus(p, 'finished');
    await look('finished table');
    await p.locator('.actions .review-link').click();
    await p.locator('.review-summary').waitFor({ timeout: 60000 });
    await look('review');
    assert.equal(seen.length >= 4, true);
    assert.deepEqual(p.__errors || [], []);
    await P.context.close();
  }
});
