// Challenges in the browser: a person challenges a bot account from its page (the BOT badge
// shown), the bot's owner, signed in on the site, sees it on the challenges page and accepts,
// and both land at the new table; at desktop and phone sizes.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, screenshotPath, tableState, register } from './helpers.mjs';

const env = serverAndBrowser(['--limits', 'off']);

for (const [size, viewport] of [['desktop', { width: 1366, height: 850 }], ['phone', { width: 390, height: 844 }]]) {
  test(`a person challenges a bot account and its owner accepts on the challenges page (${size})`, async () => {
    const suffix = `${size.slice(0, 1)}${Date.now() % 100000}`;
    const person = await newPlayer(env.browser, env.server.url, { viewport });
    const owner = await newPlayer(env.browser, env.server.url, { viewport });
    await register(person.page, `alice${suffix}`);
    const bot = await register(owner.page, `robo${suffix}`);
    const upgraded = await owner.page.evaluate(async () => (await fetch('/api/bot/account/upgrade', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status);
    assert.equal(upgraded, 200);

    // The bot's page: marked as a bot, with the form to challenge it.
    await person.page.goto(`${env.server.url}/#/player/${encodeURIComponent(bot.id)}`);
    const form = person.page.locator('.challenge-form');
    await form.waitFor();
    assert.equal(await person.page.locator('.player-page .badge.kind.bot').innerText(), 'BOT');
    await form.locator('select[name="challenge-game"]').selectOption('mill');
    await form.locator('select[name="challenge-clock"]').selectOption('10+5');
    await form.locator('select[name="challenge-side"]').selectOption('a');
    await person.page.screenshot({ path: screenshotPath(`challenge-form-${size}.png`), fullPage: true });
    await form.locator('button[type="submit"]').click();
    await person.page.locator('.challenges-page .challenge').waitFor();
    assert.match(await person.page.locator('.challenges-page .challenge').innerText(), /robo/);
    await person.page.screenshot({ path: screenshotPath(`challenges-sent-${size}.png`), fullPage: true });

    // The owner, on the site, answers it.
    await owner.page.goto(`${env.server.url}/#/challenges`);
    const incoming = owner.page.locator('.challenges-page .challenge');
    await incoming.waitFor();
    assert.match(await incoming.innerText(), new RegExp(`alice${suffix}`));
    await owner.page.screenshot({ path: screenshotPath(`challenges-incoming-${size}.png`), fullPage: true });
    await incoming.locator('button.accept').click();

    // Both are at the new table, the bot's name marked.
    for (const { page } of [owner, person]) {
      await page.waitForFunction(() => location.hash.startsWith('#/table/') && window.__stolik?.table?.status === 'playing');
    }
    const table = await tableState(person.page);
    assert.equal(table.seats[0].user.name, `alice${suffix}`);
    assert.equal(table.seats[1].user.bot, true);
    await person.page.locator('.bot-badge').first().waitFor();
    await person.page.screenshot({ path: screenshotPath(`challenge-table-${size}.png`), fullPage: true });
    assert.deepEqual(person.page.__errors || [], []);
    assert.deepEqual(owner.page.__errors || [], []);
    await person.context.close();
    await owner.context.close();
  });
}
