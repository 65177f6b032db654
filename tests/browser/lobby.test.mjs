// The lobby's pages: the newest open tables first, twenty at a time, one game's or every
// game's, each page kept up to date by the changes the server sends for it.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, screenshotPath } from './helpers.mjs';

// Without limits one guest may open every table of the test.
const env = serverAndBrowser(['--limits', 'off']);

/** Opens a public table as the page's guest; returns its id. */
async function openTable(page, game) {
  return page.evaluate(async (g) => {
    const res = await fetch('/api/tables', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: g }),
    });
    if (res.status !== 201) throw new Error(`create ${g}: ${res.status} ${await res.text()}`);
    return (await res.json()).id;
  }, game);
}

const rows = (page) => page.locator('.lobby-tables tbody tr');
const rowIds = (page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.dataset.table));

async function waitRows(page, n) {
  await page.waitForFunction((count) => document.querySelectorAll('.lobby-tables tbody tr').length === count, n);
}

test('lobby: twenty tables a page, newest first, paged and filtered by game as tables open', async () => {
  const host = await newPlayer(env.browser, env.server.url);
  const opened = [];
  for (let i = 0; i < 21; i++) opened.push(await openTable(host.page, 'cephalopod'));
  for (let i = 0; i < 2; i++) opened.push(await openTable(host.page, 'mill'));
  const newestFirst = [...opened].reverse();

  const B = await newPlayer(env.browser, env.server.url, { viewport: { width: 1366, height: 850 } });
  const b = B.page;
  await b.goto(`${env.server.url}/#/lobby`);
  await waitRows(b, 20);
  assert.deepEqual(await rowIds(b), newestFirst.slice(0, 20));
  assert.equal(await b.locator('.pager-range').textContent(), '1–20 of 23');
  assert.ok(await b.locator('.pager .newer').isDisabled());
  await b.screenshot({ path: screenshotPath('lobby-pages.png') });

  // The older page: the last three.
  await b.locator('.pager .older').click();
  await waitRows(b, 3);
  assert.deepEqual(await rowIds(b), newestFirst.slice(20));
  assert.equal(await b.locator('.pager-range').textContent(), '21–23 of 23');
  assert.ok(await b.locator('.pager .older').isDisabled());

  // A table opened now pushes the twentieth newest onto this page, live.
  const newest = await openTable(host.page, 'cephalopod');
  await waitRows(b, 4);
  assert.deepEqual(await rowIds(b), newestFirst.slice(19));
  assert.equal(await b.locator('.pager-range').textContent(), '21–24 of 24');

  // One game's tables: the two mill tables on one page, and the next one arrives on top.
  await b.locator('.lobby-filter').selectOption('mill');
  await waitRows(b, 2);
  assert.deepEqual(await rowIds(b), newestFirst.slice(0, 2));
  assert.equal(await b.locator('.pager').count(), 0);
  const mill = await openTable(host.page, 'mill');
  await waitRows(b, 3);
  assert.equal((await rowIds(b))[0], mill);

  // Back to every game, from the first page.
  await b.locator('.lobby-filter').selectOption('');
  await waitRows(b, 20);
  assert.deepEqual((await rowIds(b)).slice(0, 2), [mill, newest]);
  assert.deepEqual(b.__errors || [], []);
  await B.context.close();

  // On a phone the pager fits under the list.
  const P = await newPlayer(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  await P.page.goto(`${env.server.url}/#/lobby`);
  await waitRows(P.page, 20);
  await P.page.locator('.pager').scrollIntoViewIfNeeded();
  const pager = await P.page.locator('.pager').boundingBox();
  assert.ok(pager.x >= 0 && pager.x + pager.width <= 390, `the pager fits: ${JSON.stringify(pager)}`);
  await P.page.screenshot({ path: screenshotPath('lobby-pages-phone.png') });
  await P.context.close();
  await host.context.close();
});
