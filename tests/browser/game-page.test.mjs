// A game's own page at a real path: the head a search engine reads before any JavaScript,
// then the page the client draws — what the game is, its FAQ, its names, its rules.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer } from './helpers.mjs';

const env = serverAndBrowser(['--limits', 'off']);

test('/games/perekati: the title before JavaScript, then the page with its FAQ', async () => {
  // What a crawler gets: plain HTML, head filled in by the server, Russian at this path.
  const raw = await (await fetch(`${env.server.url}/games/perekati`)).text();
  assert.match(raw, /<title>Перекати-поле — правила и игра онлайн \| Столик<\/title>/);
  assert.match(raw, /<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/games\/perekati">/);

  // A reader who never chose a language gets the path's.
  const { context, page } = await newPlayer(env.browser, env.server.url, { lang: null });
  await page.goto(`${env.server.url}/games/perekati`);
  const faq = page.locator('.game-faq');
  await faq.locator('dt', { hasText: 'Можно ли играть с компьютером?' }).waitFor();
  assert.ok(await faq.locator('dt', { hasText: 'Может ли кубик перепрыгнуть через другой?' }).isVisible());
  assert.equal(await page.title(), 'Перекати-поле — правила и игра онлайн | Столик');
  assert.equal(await page.locator('h1').innerText(), 'Перекати-поле');
  assert.match(await page.locator('.game-origin').innerText(), /Коровин/);
  // The names people search by, in the page's language only.
  const names = await page.locator('.game-also li').allInnerTexts();
  assert.ok(!names.includes('Soviet rolling cube game'), `English names on the Russian page: ${names}`);
  assert.ok(names.length > 0);
  assert.ok(await page.locator('figure.demo[data-demo="perekati.roll"]').isVisible(), 'the rules come with their demonstrations');
  assert.equal(new URL(page.url()).pathname, '/games/perekati');
  assert.equal(await page.evaluate(() => localStorage.getItem('stolik.lang')), null, 'the path did not become a choice');

  // Switching the language: the English page, at the English address.
  await page.locator('.lang-select').selectOption('en');
  await faq.locator('dt', { hasText: 'Can a cube jump over another?' }).waitFor();
  assert.equal(await page.title(), 'Perekati-pole — rules and play online | Stolik');
  assert.equal(new URL(page.url()).pathname, '/en/games/perekati');
  await page.locator('.game-also li', { hasText: 'Soviet rolling cube game' }).waitFor();
  // The play buttons work from here as on the rules page.
  assert.ok(await page.locator('.rules-play-bot').first().isVisible());
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('the catalogue links to the game pages, and an unknown game says so', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, { lang: 'uk' });
  await page.locator('.game-card[data-game="mill"] .rules-link').click();
  await page.waitForURL(/\/uk\/games\/mill$/);
  await page.locator('.game-faq dt').first().waitFor();
  assert.equal(await page.title(), 'Млин (Трійка) — правила та гра онлайн | Столик');
  assert.match(await page.locator('.game-origin').innerText(), /Трійка/);

  const res = await page.goto(`${env.server.url}/en/games/chess`);
  assert.equal(res.status(), 404);
  await page.locator('h1', { hasText: 'Такої гри тут немає.' }).waitFor();
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
