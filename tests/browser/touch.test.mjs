// On a touch screen (no hover): the pieces that can move are marked without a mouse over
// them, a tap on a Mill token that cannot move says why, and no hint says "click".

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, waitStatus, waitMyTurn, tableState, waitPly, serveSources } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);

const PHONE = { viewport: { width: 390, height: 844 }, context: { hasTouch: true, isMobile: true } };
const MOVABLE = 'rgb(63, 174, 106)'; // --movable in app.css

async function botGame(page, game) {
  const card = page.locator(`.game-card[data-game="${game}"]`);
  await card.locator('.play-bot').tap();
  await waitStatus(page, 'playing');
}

/** The stroke of each matching element, as the page draws it now (nothing hovered). */
function strokes(page, selector) {
  return page.locator(selector).evaluateAll((els) => els.map((e) => getComputedStyle(e).stroke));
}

async function hintText(page) {
  return (await page.locator('.board-wrap .board-controls').allInnerTexts()).join(' ');
}

test('perekati on a touch screen: the cubes that can move are ringed, the hint does not say click', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, PHONE);
  await botGame(page, 'perekati');
  await waitMyTurn(page);
  await page.locator('.board-wrap .movable').first().waitFor();
  const st = await tableState(page);
  const from = new Set(st.legal.map((m) => m.slice(0, 2)));
  const marked = await page.locator('.board-wrap .movable').evaluateAll((els) => els.map((e) => e.dataset.cell));
  assert.deepEqual(new Set(marked), from, 'exactly the cubes that can move are marked');
  for (const stroke of await strokes(page, '.board-wrap .movable .cube-body')) assert.equal(stroke, MOVABLE);
  // A cube of ours that cannot move is not ringed.
  const others = await strokes(page, '.board-wrap .cube.side-a:not(.movable) .cube-body');
  for (const stroke of others) assert.notEqual(stroke, MOVABLE);
  const hint = await hintText(page);
  assert.ok(hint.length > 0, 'a hint under the board');
  assert.doesNotMatch(hint, /click/i);
  // A tap selects; the hint then names the cube.
  const cell = marked[0];
  await page.locator(`.board-wrap [data-cell="${cell}"]`).tap();
  await page.locator('.board-wrap .target').first().waitFor();
  assert.match(await hintText(page), new RegExp(cell));
  assert.doesNotMatch(await hintText(page), /click/i);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('mill on a touch screen: a tap on a token that cannot move says why', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, PHONE);
  await botGame(page, 'mill');
  await waitMyTurn(page);
  assert.doesNotMatch(await hintText(page), /click/i);
  // Place a token, let the bot answer.
  const st = await tableState(page);
  const first = st.legal.find((m) => !m.includes('x') && !m.includes('-'));
  await page.locator(`.board-wrap [data-cell="${first}"]`).tap();
  await waitPly(page, 2);
  await waitMyTurn(page);
  // Tokens are still in hand: the one on the board cannot move yet; a tap tells why.
  const mine = page.locator(`.board-wrap [data-cell="${first}"]`);
  assert.ok(await mine.evaluate((e) => e.classList.contains('stuck')));
  await mine.tap();
  const why = page.locator('.board-wrap .board-controls .why');
  await why.waitFor();
  assert.match(await why.innerText(), new RegExp(`${first}.*hand`));
  assert.doesNotMatch(await hintText(page), /click/i);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('mill: a token walled in by others says every point next to it is taken', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await serveSources(page, env.server.url);
  await page.goto(env.server.url + '/#/rules/mill');
  // The board renderer itself, on a position where light's a1 is walled in by dark's a4 and
  // d1, with no tokens in hand (four light tokens: no flying).
  const text = await page.evaluate(async () => {
    const mill = await import('/src/js/boards/mill.js');
    const box = document.createElement('div');
    document.body.append(box);
    const position = '..a/.../a.a/b...../.../.../ab. a 0 0 0 0 0';
    mill.render(box, { variant: 'troika', position, legal: ['g7-d7', 'c5-d5'], last: null }, { interactive: true });
    box.querySelector('[data-cell="a1"]').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    return box.querySelector('.why')?.textContent || '';
  });
  assert.match(text, /a1.*taken/);
  await context.close();
});

test('white rabbit on a touch screen: the dice that can be swapped are ringed', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, PHONE);
  await page.locator('.game-card[data-game="white-rabbit"] .play-solo').tap();
  await waitStatus(page, 'playing');
  await page.locator('.board-wrap .movable').first().waitFor();
  const st = await tableState(page);
  const hands = new Set(st.legal.filter((m) => m.includes('~')).map((m) => m.split('~')[0]));
  const marked = await page.locator('.board-wrap .movable').evaluateAll((els) => els.map((e) => e.dataset.die));
  assert.deepEqual(new Set(marked), hands);
  for (const stroke of await strokes(page, '.board-wrap .movable .die-body')) assert.equal(stroke, MOVABLE);
  assert.doesNotMatch(await hintText(page), /click/i);
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
