// A tournament's chat room in the browser: an account says a line on an arena's page and
// another account watching the same page sees it appear; a guest reads it and is asked to log
// in instead of getting a box to write in — at a desktop's size and a phone's.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, screenshotPath, register } from './helpers.mjs';

const env = serverAndBrowser();

/** The chat lines shown on `page`, as text. */
function linesShown(page) {
  return page.evaluate(() => [...document.querySelectorAll('.tour-chat .chat-line')].map((li) => li.textContent.replace(/mute$/, '').trim()));
}

for (const [size, viewport] of [['desktop', { width: 1366, height: 850 }], ['phone', { width: 390, height: 844 }]]) {
  test(`say a line in a tournament's chat and see it on another page (${size})`, async () => {
    const tag = `${size.slice(0, 1)}${Date.now() % 100000}`;
    const A = await newPlayer(env.browser, env.server.url, { viewport });
    const B = await newPlayer(env.browser, env.server.url, { viewport });
    const G = await newPlayer(env.browser, env.server.url, { viewport });
    const [a, b, guest] = [A.page, B.page, G.page];
    await register(a, `cat${tag}`);
    await register(b, `dog${tag}`);
    const id = await a.evaluate(async () => {
      const res = await fetch('/api/tournaments', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ game: 'mill', initial: 180, increment: 2, minutes: 30, starts_in: 60 }),
      });
      return (await res.json()).id;
    });
    for (const p of [a, b, guest]) {
      await p.goto(`${env.server.url}/#/tournament/${id}`);
      await p.locator('.tour-chat .empty').waitFor();
    }

    await a.locator('.tour-chat .chat-input').fill('Good luck, everyone');
    await a.locator('.tour-chat .chat-form button[type="submit"]').click();
    await a.waitForFunction(() => document.querySelector('.tour-chat .chat-input').value === '');
    assert.deepEqual(await linesShown(a), [`cat${tag}: Good luck, everyone`]);
    // The other pages get it with the room's next read (once a second).
    for (const p of [b, guest]) {
      await p.waitForFunction(() => document.querySelectorAll('.tour-chat .chat-line').length === 1, null, { timeout: 10000 });
      assert.deepEqual(await linesShown(p), [`cat${tag}: Good luck, everyone`]);
    }
    // Someone else's line can be muted; a guest has no box to write in but a note to log in.
    assert.equal(await b.locator('.tour-chat .chat-act.mute').count(), 1);
    assert.equal(await guest.locator('.tour-chat .chat-form').isHidden(), true);
    assert.match(await guest.locator('.tour-chat-note').textContent(), /Log in/);

    // Typing survives the page's redraws (its countdown and standings redraw it).
    await b.locator('.tour-chat .chat-input').fill('Thank');
    await b.locator('.tour-chat .chat-input').press('End');
    await b.keyboard.type('s!');
    assert.equal(await b.locator('.tour-chat .chat-input').inputValue(), 'Thanks!');
    await b.keyboard.press('Enter');
    await a.waitForFunction(() => document.querySelectorAll('.tour-chat .chat-line').length === 2, null, { timeout: 10000 });
    assert.deepEqual(await linesShown(a), [`cat${tag}: Good luck, everyone`, `dog${tag}: Thanks!`]);

    await a.locator('.tour-chat').scrollIntoViewIfNeeded();
    await a.screenshot({ path: screenshotPath(`tournament-chat-${size}.png`), fullPage: true });
    await guest.screenshot({ path: screenshotPath(`tournament-chat-guest-${size}.png`), fullPage: true });
    for (const p of [a, b, guest]) assert.deepEqual(p.__errors || [], []);
    for (const p of [A, B, G]) await p.context.close();
  });
}
