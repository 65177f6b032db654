// Finished games read well: bots have names (in the page's language), the end reason is said
// in the game's terms, move numbers keep every digit, and the replay's list follows the move.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, tableState, playOut, playByClicks, waitPly } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

async function botGame(page, game, level = 'easy') {
  await page.goto(env.server.url + '/#/');
  const card = page.locator(`.game-card[data-game="${game}"]`);
  await card.locator('select.bot-level').selectOption(level);
  await card.locator('.play-bot').click();
  await waitStatus(page, 'playing');
}

async function resign(page) {
  await page.locator('.actions .resign').click();
  await page.locator('.actions .resign-confirm').click();
  await waitStatus(page, 'finished');
}

test('a bot is named in the history and the replay, in each language; resignation says who', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await botGame(page, 'perekati', 'medium');
  // A move each first: a resignation before both sides have moved only calls the game off.
  const st = await tableState(page);
  await playByClicks(page, 'perekati', st.legal[0]);
  await waitPly(page, 2);
  await resign(page);
  const banner = await page.locator('.banner.shown').innerText();
  assert.match(banner, /Stolik bot \(medium\)/);
  assert.match(banner, /Light resigned/);
  const id = (await tableState(page)).id;
  for (const [lang, name] of [['en', 'Stolik bot (medium)'], ['ru', 'Бот Столика (средний)'], ['uk', 'Бот Столика (середній)']]) {
    await page.goto(env.server.url + '/#/profile');
    await page.locator('.lang-select').selectOption(lang);
    const row = page.locator(`.games-list tr[data-game="${id}"]`);
    await row.waitFor();
    // The opponent's name, with the BOT badge every bot carries.
    const opponent = row.locator('td').nth(2);
    assert.equal((await opponent.locator('.player-link').innerText()).trim(), name);
    assert.equal(await opponent.locator('.bot-badge').count(), 1);
    // The result as it went for us (the opponent has its column), and who resigned.
    if (lang === 'en') assert.equal((await row.locator('td').nth(3).innerText()).replace(/\s+/g, ' ').trim(), 'Lost Light resigned');
    await page.goto(`${env.server.url}/#/replay/${id}`);
    const lead = page.locator('.replay .lead');
    await lead.waitFor();
    assert.ok((await lead.innerText()).includes(name), `${lang}: ${await lead.innerText()}`);
    assert.doesNotMatch(await lead.innerText(), /: —/);
    // Nothing left out is written as "null" (a mill game has no review link).
    assert.doesNotMatch(await page.locator('.replay').innerText(), /\bnull\b/);
  }
  await page.locator('.lang-select').selectOption('en');
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('an aborted game says so once', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await botGame(page, 'mill');
  await page.locator('.actions .abort').click();
  await waitStatus(page, 'aborted');
  const banner = (await page.locator('.banner.shown').innerText()).trim();
  assert.equal(banner, 'Game aborted');
  await context.close();
});

test('a full cephalopod game: the reason names the dice count, move numbers keep both digits, the replay list follows', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, { viewport: { width: 1280, height: 600 } });
  await botGame(page, 'cephalopod');
  const end = await playOut([page], 'cephalopod', (st) => st.legal[0]);
  await waitStatus(page, 'finished');
  assert.equal(end.reason, 'rules');
  const reason = await page.locator('.banner.shown .reason').innerText();
  assert.match(reason, /the board is full: (Red|Blue) has more dice \(\d+ to \d+\)/);
  // The table's list: one line per pair of moves, numbered 1., 2., … 10., 11., …
  const nums = await page.locator('.side-col .move-list li .num').allInnerTexts();
  assert.ok(nums.length >= 10, `${nums.length} lines`);
  assert.deepEqual(nums, nums.map((_, i) => `${i + 1}.`));
  const clipped = await page.locator('.side-col .move-list li .num').evaluateAll((els) => {
    const list = els[0].closest('.move-list').getBoundingClientRect();
    return els.filter((e) => e.getBoundingClientRect().left < list.left || e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent);
  });
  assert.deepEqual(clipped, []);

  // The replay: numbered as at the table (a line per pair of moves), every move a button, and
  // the current one always in view.
  await page.locator('.actions a[href^="#/replay/"]').click();
  await page.locator('.replay-moves li').first().waitFor();
  const rows = await page.locator('.replay-moves li .num').allInnerTexts();
  assert.deepEqual(rows, nums);
  assert.equal(await page.locator('.replay-moves .mv').count(), end.moves.length);
  const inView = () => page.evaluate(() => {
    const cur = document.querySelector('.replay-moves .mv.current');
    if (!cur) return null;
    const list = document.querySelector('.replay-moves').getBoundingClientRect();
    const r = cur.getBoundingClientRect();
    return r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
  });
  const scrolls = () => page.evaluate(() => {
    const l = document.querySelector('.replay-moves');
    return l.scrollHeight > l.clientHeight;
  });
  assert.ok(await scrolls(), 'the list is long enough to scroll');
  assert.equal(await inView(), true, 'the last move, shown first, is in view');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('.replay .step')?.textContent.startsWith('1 /'));
  assert.equal(await inView(), true, 'the first move is in view');
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('.replay .step')?.textContent.startsWith('21 /'));
  assert.equal(await inView(), true, 'move 21 is in view');
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
