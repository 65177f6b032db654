// Setting up a position by hand on the analysis board, in every game that has a setup editor:
// pieces put and taken away, the side to move chosen, an impossible position refused with the
// engine's reason, a possible one taken, a move played on it, and its share link opened by
// someone else showing the same start and line. Phone (taps) and desktop (clicks) alternate
// across the games; each game is also photographed at the other size.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, screenshotPath } from './helpers.mjs';

const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);
const PHONE = { viewport: { width: 390, height: 844 }, context: { hasTouch: true, isMobile: true } };
const DESKTOP = { viewport: { width: 1366, height: 850 } };

/** The server's word on a position and a line (what the board itself asks). */
async function check(page, body) {
  return page.evaluate(async (b) => {
    const res = await fetch('/api/positions/check', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    return res.json();
  }, body);
}

/** A player at `size` on the analysis board of `game` and `variant`. */
async function analysing(size, game, variant, lang = 'en') {
  const p = await player(size, lang);
  await p.page.goto(`${env.server.url}/#/analysis/${game}/${variant}`);
  await p.page.locator('.setup-open').waitFor();
  return p;
}

/** A player at one size: `press` taps on the phone and clicks on the desktop. */
async function player(size, lang = 'en') {
  const { context, page } = await newPlayer(env.browser, env.server.url, { ...size, lang });
  const touch = !!size.context?.hasTouch;
  const press = (selector) => (touch ? page.locator(selector).tap() : page.locator(selector).click());
  return { context, page, press, touch };
}

/** Chooses `piece` from the palette ('' is the eraser) and puts it on each of `cells`. */
async function put(p, piece, cells) {
  await p.press(`.setup-piece[data-piece="${piece}"]`);
  assert.equal(await p.page.locator(`.setup-piece[data-piece="${piece}"]`).getAttribute('aria-checked'), 'true');
  for (const cell of cells) await p.press(`.board-wrap [data-cell="${cell}"]`);
}

/** Nothing of the setup panel runs out of its padding (at the size the page has now). */
async function fits(page) {
  const out = await page.evaluate(() => {
    const box = document.querySelector('.setup-panel');
    const style = getComputedStyle(box);
    const r0 = box.getBoundingClientRect();
    const left = r0.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth);
    const right = r0.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
    return [...box.querySelectorAll('*')]
      .filter((el) => { const r = el.getBoundingClientRect(); return r.width && (r.right > right + 0.5 || r.left < left - 0.5); })
      .map((el) => el.className || el.tagName);
  });
  assert.deepEqual(out, [], 'within the setup panel');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
}

/**
 * On a phone the palette is the last thing above the board, and the two fit the screen
 * together: a piece chosen and the cells it goes to without scrolling between them.
 */
async function together(page) {
  const [palette, board, height] = await page.evaluate(() => [
    document.querySelector('.setup-palette').getBoundingClientRect().toJSON(),
    document.querySelector('.board-wrap svg').getBoundingClientRect().toJSON(),
    window.innerHeight,
  ]);
  assert.ok(palette.bottom <= board.top, `the palette (to ${palette.bottom}) above the board (from ${board.top})`);
  assert.ok(board.bottom - palette.top <= height, `palette and board (${palette.top} to ${board.bottom}) within ${height} px`);
}

/** "Use this position" refused: the engine's reason is shown and the panel stays open. */
async function refused(p, reason, lead = 'No game reaches this position: ') {
  await p.press('.setup-done');
  await p.page.locator('.setup-error').waitFor();
  const text = await p.page.locator('.setup-error').innerText();
  assert.ok(text.startsWith(lead), text);
  assert.match(text.slice(lead.length), reason);
  assert.equal(await p.page.locator('.setup-panel').count(), 1, 'still setting up');
  assert.equal(await p.page.locator('.share-link').count(), 0);
}

/** "Use this position" taken: the board leaves setup and says whose turn it is. */
async function taken(p, turn) {
  await p.press('.setup-done');
  await p.page.locator('.share-link').waitFor();
  assert.equal(await p.page.locator('.setup-panel').count(), 0);
  assert.match(await p.page.locator('.analysis-turn').innerText(), turn);
}

/** The link opened in a fresh context at the other size: its line's last move is current. */
async function opened(link, size, move) {
  const o = await player(size);
  await o.page.goto(link);
  await o.page.locator('.move-tree .mv.current').waitFor();
  assert.equal(await o.page.locator('.move-tree .mv.current').innerText(), `1. ${move}`);
  return o;
}

/** The start a share link carries (its `position`). */
function startOf(link) {
  return new URLSearchParams(new URL(link).hash.split('?')[1]).get('position');
}

/**
 * The link's viewer opens the editor too (at the other size: `check` looks at it), photographed
 * as `name`; then both players leave, with no error on either page.
 */
async function bothSizes(p, o, name, check = async () => {}) {
  await o.press('.setup-open');
  await check();
  await fits(o.page);
  if (o.touch) await together(o.page);
  await o.page.screenshot({ path: screenshotPath(name), fullPage: true });
  for (const page of [p.page, o.page]) assert.deepEqual(page.__errors || [], []);
  await o.context.close();
  await p.context.close();
}

test('mill on a phone: tokens on points and in hand, too many tokens refused, a placement, the link', async () => {
  const p = await analysing(PHONE, 'mill', 'troika');
  const { page } = p;
  await p.press('.setup-open');
  await p.press('.setup-clear');
  assert.equal(await page.locator('.board-wrap [data-cell] .token').count(), 0, 'an empty board');
  // Light on a7 and d7, dark on g1 and d1; then d1 taken away again.
  await put(p, 'a', ['a7', 'd7']);
  await put(p, 'b', ['g1', 'd1']);
  await put(p, '', ['d1']);
  assert.equal(await page.locator('.board-wrap [data-cell="a7"] .token.side-a').count(), 1);
  assert.equal(await page.locator('.board-wrap [data-cell="d7"] .token.side-a').count(), 1);
  assert.equal(await page.locator('.board-wrap [data-cell="d1"] .token').count(), 0, 'the eraser emptied d1');
  assert.equal(await page.locator('.board-wrap [data-cell="g1"] .token.side-b').count(), 1);
  // Nine still in hand for each side besides those on the board: eleven tokens are too many.
  await refused(p, /side a has 2 tokens on the board and 9 in hand, more than 9/);
  await page.screenshot({ path: screenshotPath('analysis-setup-mill-refused-390.png'), fullPage: true });
  // Light has placed two and dark one, so seven and eight in hand and dark to move: taken.
  // The counts have buttons: one fewer, one more (none above nine or below none).
  assert.equal(await page.locator('.hand-a-more').isDisabled(), true, 'no more than nine');
  await p.press('.hand-a-less');
  assert.equal(await page.locator('.setup-error').count(), 0, 'a change clears the reason');
  await p.press('.hand-a-less');
  await p.press('.hand-a-less');
  await p.press('.hand-a-more');
  await p.press('.hand-b-less');
  assert.equal(await page.locator('output.hand-a').innerText(), '7');
  assert.equal(await page.locator('output.hand-b').innerText(), '8');
  assert.equal(await page.locator('.board-wrap .hand[aria-label="Light: 7 in hand"]').count(), 1, 'the board shows the hand at once');
  assert.equal(await page.getByRole('group', { name: 'Dark, in hand:' }).getByRole('button', { name: 'One fewer' }).count(), 1);
  await page.locator('.setup-side').selectOption('b');
  await fits(page);
  await together(page);
  await page.screenshot({ path: screenshotPath('analysis-setup-mill-editing-390.png'), fullPage: true });
  await taken(p, /Dark to move/);
  assert.equal(startOf(await page.locator('.share-link').inputValue()), 'aa./.../.../....../.../.../..b b 7 8 0000 0000 3');
  // Dark places on d1.
  await p.press('.board-wrap [data-cell="d1"]');
  await page.locator('.move-tree .mv.current').waitFor();
  assert.equal(await page.locator('.move-tree .mv.current').innerText(), '1. d1');
  assert.match(await page.locator('.analysis-turn').innerText(), /Light to move/);
  const link = await page.locator('.share-link').inputValue();
  assert.match(link, /line=d1/);
  await page.screenshot({ path: screenshotPath('analysis-setup-mill-played-390.png'), fullPage: true });
  const o = await opened(link, DESKTOP, 'd1');
  for (const [cell, side] of [['a7', 'a'], ['d7', 'a'], ['g1', 'b'], ['d1', 'b']]) {
    assert.equal(await o.page.locator(`.board-wrap [data-cell="${cell}"] .token.side-${side}`).count(), 1, `${cell} holds ${side}`);
  }
  assert.equal(await o.page.locator('.board-wrap .hand[aria-label="Dark: 7 in hand"]').count(), 1);
  await o.page.locator('.replay-controls button').first().click();
  assert.equal(await o.page.locator('.board-wrap [data-cell="d1"] .token').count(), 0, 'the start has d1 empty');
  assert.equal(await o.page.locator('.board-wrap .hand[aria-label="Dark: 8 in hand"]').count(), 1);
  await o.page.screenshot({ path: screenshotPath('analysis-setup-mill-shared-1366.png') });
  await bothSizes(p, o, 'analysis-setup-mill-editing-1366.png');
});

test('perekati on a desktop: cubes with their hats turned, a missing cube refused, a roll, the link', async () => {
  const p = await analysing(DESKTOP, 'perekati', 'malysh');
  const { page } = p;
  await p.press('.setup-open');
  // Setup starts from the position shown: the start, five cubes a side, hats on top.
  assert.equal(await page.locator('.board-wrap .cube.side-a').count(), 5);
  // Light's cube on c1 taken away: the board needs five a side.
  await put(p, '', ['c1']);
  assert.equal(await page.locator('.board-wrap [data-cell="c1"].cube').count(), 0);
  await refused(p, /side a has 4 cubes, this board needs 5/);
  await page.screenshot({ path: screenshotPath('analysis-setup-perekati-refused-1366.png') });
  // Put back on c3 with its hat facing the far row, and dark's e6 cube turned hat underneath.
  await put(p, 'aN', ['c3']);
  await put(p, 'bD', ['e6']);
  assert.match(await page.locator('.board-wrap [data-cell="c3"] title').textContent(), /c3: hat facing the far row/);
  assert.match(await page.locator('.board-wrap [data-cell="e6"] title').textContent(), /e6: hat underneath/);
  assert.equal(await page.locator('.board-wrap [data-cell="e6"] .hat-under').count(), 1, 'a hat underneath is drawn as a ring');
  // The palette: each side's six cubes under its name, drawn with the hat where it is.
  assert.deepEqual(await page.locator('.setup-group-name').allInnerTexts(), ['Light', 'Dark']);
  assert.equal(await page.locator('.setup-group .setup-piece .palette-icon').count(), 12);
  assert.equal(await page.getByRole('radio', { name: 'Light: hat facing the far row' }).getAttribute('data-piece'), 'aN');
  assert.equal(await page.locator('.setup-piece[data-piece="bD"]').innerText(), 'underneath');
  assert.equal(await page.locator('.setup-piece[data-piece="bD"] .palette-icon .hat-under').count(), 1);
  await page.locator('.setup-side').selectOption('b');
  await fits(page);
  await page.screenshot({ path: screenshotPath('analysis-setup-perekati-editing-1366.png') });
  await taken(p, /Dark to move/);
  const position = startOf(await page.locator('.share-link').inputValue());
  assert.equal(position, 'uuuud/...../...../..N../...../UU.UU b');
  // Dark rolls the cube on e6, wherever the engine allows it to.
  const here = await check(page, { game: 'perekati', variant: 'malysh', position, moves: [] });
  const roll = here.legal.find((m) => m.startsWith('e6'));
  assert.ok(roll, `a roll from e6 among ${here.legal}`);
  await p.press(`.board-wrap [data-cell="${roll.slice(0, 2)}"]`);
  await p.press(`.board-wrap [data-cell="${roll.slice(2)}"]`);
  await page.locator('.move-tree .mv.current').waitFor();
  const link = await page.locator('.share-link').inputValue();
  assert.match(link, new RegExp(`line=${roll}`));
  await page.screenshot({ path: screenshotPath('analysis-setup-perekati-played-1366.png') });
  const o = await opened(link, PHONE, await page.locator('.move-tree .mv.current').innerText().then((s) => s.replace(/^1\. /, '')));
  const to = roll.slice(2);
  assert.equal(await o.page.locator(`.board-wrap [data-cell="${to}"].cube.side-b`).count(), 1, `dark's cube rolled to ${to}`);
  assert.equal(await o.page.locator('.board-wrap [data-cell="e6"].cube').count(), 0);
  assert.match(await o.page.locator('.board-wrap [data-cell="c3"] title').textContent(), /hat facing the far row/);
  await o.page.screenshot({ path: screenshotPath('analysis-setup-perekati-shared-390.png'), fullPage: true });
  await o.page.locator('.replay-controls button').first().tap();
  assert.match(await o.page.locator('.board-wrap [data-cell="e6"] title').textContent(), /e6: hat underneath/);
  // The editor at the phone size too: all twelve cubes of the palette within the screen.
  await bothSizes(p, o, 'analysis-setup-perekati-editing-390.png', async () => {
    assert.equal(await o.page.locator('.setup-piece').count(), 13);
  });
});

test('tumbleweed on a phone: stacks of any height, play without stacks refused, a placement, the link', async () => {
  const p = await analysing(PHONE, 'tumbleweed', 'hex6');
  const { page } = p;
  // The start is the setup, before anyone has placed: the board and the field say so.
  assert.match(await page.locator('.analysis-turn').innerText(), /^First player \(setup\) to move$/);
  await p.press('.setup-open');
  assert.equal(await page.locator('.setup-side').inputValue(), 'setup');
  assert.deepEqual(await page.locator('.setup-side option').allInnerTexts(), ['First player (setup)', 'Second player (choice of colour)', 'Red', 'White']);
  await p.press('.setup-clear');
  assert.match(await page.locator('.board-wrap [data-cell="f6"] title').textContent(), /f6: neutral 2/);
  // Red to move with no red or white stack is no position of a game.
  await page.locator('.setup-side').selectOption('r');
  await refused(p, /once play has begun there are at least two red or white stacks/);
  await page.screenshot({ path: screenshotPath('analysis-setup-tumbleweed-refused-390.png'), fullPage: true });
  // Red 3 on d4, white 2 on h8 and white 1 on c3, then c3 emptied again.
  await put(p, 'r3', ['d4']);
  await put(p, 'w2', ['h8', 'c3']);
  await put(p, '', ['c3']);
  assert.match(await page.locator('.board-wrap [data-cell="d4"] title').textContent(), /d4: red 3/);
  assert.match(await page.locator('.board-wrap [data-cell="h8"] title').textContent(), /h8: white 2/);
  // The palette: each colour's stacks of 1 to 6 under its name, drawn as on the board, then the neutral one.
  assert.deepEqual(await page.locator('.setup-group-name').allInnerTexts(), ['Red', 'White']);
  assert.equal(await page.getByRole('radio', { name: 'white 2', exact: true }).getAttribute('data-piece'), 'w2');
  assert.equal(await page.locator('.setup-piece[data-piece="w2"] .palette-icon .stack-w').count(), 1);
  assert.equal(await page.locator('.setup-piece[data-piece="n2"] .palette-icon .stack-n').count(), 1);
  assert.doesNotMatch(await page.locator('.board-wrap [data-cell="c3"] title').textContent(), /:/);
  await page.locator('.setup-side').selectOption('w');
  await fits(page);
  await together(page);
  await page.screenshot({ path: screenshotPath('analysis-setup-tumbleweed-editing-390.png'), fullPage: true });
  await taken(p, /White to move/);
  const position = startOf(await page.locator('.share-link').inputValue());
  assert.match(position, / w 0$/);
  // White places next to its stack.
  const here = await check(page, { game: 'tumbleweed', variant: 'hex6', position, moves: [] });
  const move = ['h7', 'g7', 'h9', 'g8'].find((m) => here.legal.includes(m));
  assert.ok(move, `a placement next to h8 among ${here.legal}`);
  await p.press(`.board-wrap [data-cell="${move}"]`);
  await page.locator('.move-tree .mv.current').waitFor();
  assert.match(await page.locator('.analysis-turn').innerText(), /Red to move/);
  const link = await page.locator('.share-link').inputValue();
  assert.match(link, new RegExp(`line=${move}`));
  await page.screenshot({ path: screenshotPath('analysis-setup-tumbleweed-played-390.png'), fullPage: true });
  const o = await opened(link, DESKTOP, move);
  assert.match(await o.page.locator(`.board-wrap [data-cell="${move}"] title`).textContent(), new RegExp(`${move}: white 1`));
  assert.match(await o.page.locator('.board-wrap [data-cell="d4"] title').textContent(), /d4: red 3/);
  await o.page.screenshot({ path: screenshotPath('analysis-setup-tumbleweed-shared-1366.png') });
  await o.page.locator('.replay-controls button').first().click();
  assert.doesNotMatch(await o.page.locator(`.board-wrap [data-cell="${move}"] title`).textContent(), /white/);
  await bothSizes(p, o, 'analysis-setup-tumbleweed-editing-1366.png', async () => {
    assert.equal(await o.page.locator('.setup-side').inputValue(), 'w');
  });
});

test('cephalopod 5×5 on a desktop: dice put and taken, an empty board with Blue to move refused, a placement, the link', async () => {
  const p = await analysing(DESKTOP, 'cephalopod', '5x5');
  const { page } = p;
  await p.press('.setup-open');
  await put(p, 'a1', ['a1', 'b1']);
  await put(p, '', ['a1']);
  assert.equal(await page.locator('.board-wrap [data-cell="a1"] title').count(), 0, 'the eraser emptied a1');
  await p.press('.setup-clear');
  assert.equal(await page.locator('.board-wrap [data-cell="b1"] title').count(), 0, 'a clear board');
  // Side a always starts on the empty board.
  await page.locator('.setup-side').selectOption('b');
  await refused(p, /an empty board is the start of the game, where side a moves/);
  await fits(page);
  await page.screenshot({ path: screenshotPath('analysis-setup-cephalopod-refused-1366.png') });
  // Red 6 on c3, Blue 5 and Blue 1 next to it, Blue to move: taken.
  await put(p, 'a6', ['c3']);
  await put(p, 'b5', ['c4']);
  await put(p, 'b1', ['d3']);
  assert.match(await page.locator('.board-wrap [data-cell="c3"] title').textContent(), /Red 6/);
  // The palette: each side's dice under its name, drawn with their pips.
  assert.deepEqual(await page.locator('.setup-group-name').allInnerTexts(), ['Red', 'Blue']);
  assert.equal(await page.getByRole('radio', { name: 'Blue 5', exact: true }).locator('.palette-icon .pip').count(), 5);
  await fits(page);
  await page.screenshot({ path: screenshotPath('analysis-setup-cephalopod-editing-1366.png') });
  await taken(p, /Blue to move/);
  // Blue places on e3, next to its 1 alone: a plain 1, no capture.
  await p.press('.board-wrap [data-cell="e3"]');
  await page.locator('.move-tree .mv.current').waitFor();
  const move = (await page.locator('.move-tree .mv.current').innerText()).replace(/^1\. /, '');
  const link = await page.locator('.share-link').inputValue();
  assert.match(link, /line=e3/);
  await page.screenshot({ path: screenshotPath('analysis-setup-cephalopod-played-1366.png') });
  const o = await opened(link, PHONE, move);
  assert.match(await o.page.locator('.board-wrap [data-cell="c3"] title').textContent(), /Red 6/);
  assert.match(await o.page.locator('.board-wrap [data-cell="e3"] title').textContent(), /Blue 1/);
  await o.page.screenshot({ path: screenshotPath('analysis-setup-cephalopod-shared-390.png'), fullPage: true });
  await bothSizes(p, o, 'analysis-setup-cephalopod-editing-390.png');
});

test('in Russian on a phone: the refusal and Tumbleweed\'s phases in the page\'s language', async () => {
  const p = await analysing(PHONE, 'perekati', 'printed', 'ru');
  await p.press('.setup-open');
  await put(p, '', ['a1', 'b1']);
  await refused(p, /^side a has 4 cubes, this board needs 6$/, 'Такая позиция в игре не возникает: ');
  await fits(p.page);
  await together(p.page);
  await p.page.screenshot({ path: screenshotPath('analysis-setup-perekati-refused-ru-390.png'), fullPage: true });
  await p.page.goto(`${env.server.url}/#/analysis/tumbleweed/hex8`);
  await p.page.locator('.setup-open').waitFor();
  assert.equal(await p.page.locator('.analysis-turn').innerText(), 'Ход: Первый игрок (расстановка)');
  await p.press('.setup-open');
  assert.deepEqual(await p.page.locator('.setup-side option').allInnerTexts(), ['Первый игрок (расстановка)', 'Второй игрок (выбор цвета)', 'Красные', 'Белые']);
  await fits(p.page);
  assert.deepEqual(p.page.__errors || [], []);
  await p.context.close();
});
