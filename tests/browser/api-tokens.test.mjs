// The profile's API tokens: an account makes one (its secret shown once), a program uses it,
// the account revokes it and the program is refused; at desktop and phone sizes.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer, screenshotPath } from './helpers.mjs';

const env = serverAndBrowser(['--limits', 'off']);

/** What a program holding `secret` is told by `GET /api/me`. */
async function asProgram(secret) {
  const res = await fetch(`${env.server.url}/api/me`, { headers: { Authorization: `Bearer ${secret}` } });
  return { status: res.status, body: await res.json() };
}

for (const [size, viewport] of [['desktop', { width: 1366, height: 850 }], ['phone', { width: 390, height: 844 }]]) {
  test(`an account makes, uses and revokes an API token (${size})`, async () => {
    const { context, page } = await newPlayer(env.browser, env.server.url, { viewport });
    const name = `tok${size}${Date.now() % 100000}`;
    const registered = await page.evaluate(async (n) => {
      const res = await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: n, password: 'secret-password' }) });
      return res.status;
    }, name);
    assert.equal(registered, 200);
    await page.goto(`${env.server.url}/#/profile`);
    await page.reload();
    const panel = page.locator('.api-tokens');
    await panel.locator('.token-none').waitFor();

    await panel.locator('input.token-name').fill('  my engine  ');
    await panel.locator('input[value="challenge"]').check();
    await panel.locator('button[type="submit"]').click();
    const secretField = panel.locator('input.token-secret');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    assert.match(secret, /^stk_[A-Za-z0-9]{32}$/);
    await panel.locator('.token-list .token').first().waitFor();
    const row = await panel.locator('.token-list .token').first().innerText();
    assert.match(row, /my engine/);
    assert.match(row, /read games and profiles, play at your tables, start games/);
    assert.match(row, /never used/);
    await page.screenshot({ path: screenshotPath(`api-tokens-${size}.png`), fullPage: true });

    const used = await asProgram(secret);
    assert.equal(used.status, 200, JSON.stringify(used.body));
    assert.equal(used.body.user.name, name);

    await panel.locator('.revoke-token').click();
    await panel.locator('.token-none').waitFor();
    assert.equal(await panel.locator('input.token-secret').count(), 0, 'the secret is gone with its token');
    const refused = await asProgram(secret);
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.deepEqual(page.__errors || [], []);
    await context.close();
  });
}

test('a guest sees no API tokens on the profile', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.goto(`${env.server.url}/#/profile`);
  await page.locator('.register-form').waitFor();
  assert.equal(await page.locator('.api-tokens').count(), 0);
  await context.close();
});
