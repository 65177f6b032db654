// With no saved choice the site speaks the browser's language (en-GB English, uk Ukrainian,
// ru Russian, anything else English); a choice made on the site wins from then on.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer } from './helpers.mjs';

const env = serverAndBrowser();

const NAV = { en: 'Games', ru: 'Игры', uk: 'Ігри' };

async function shown(page) {
  await page.locator('.main-nav a').first().waitFor();
  return {
    lang: await page.evaluate(() => document.documentElement.lang),
    nav: (await page.locator('.main-nav a').first().innerText()).trim(),
    select: await page.locator('.lang-select').inputValue(),
  };
}

for (const [locale, want] of [['en-GB', 'en'], ['uk-UA', 'uk'], ['uk', 'uk'], ['ru-RU', 'ru'], ['de-DE', 'en'], ['fr', 'en']]) {
  test(`a browser in ${locale} gets ${want}`, async () => {
    const { context, page } = await newPlayer(env.browser, env.server.url, { lang: null, context: { locale } });
    assert.deepEqual(await shown(page), { lang: want, nav: NAV[want], select: want });
    await context.close();
  });
}

test('the saved choice wins over the browser language', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, { lang: null, context: { locale: 'en-GB' } });
  assert.equal((await shown(page)).lang, 'en');
  await page.locator('.lang-select').selectOption('uk');
  await page.waitForFunction(() => document.documentElement.lang === 'uk');
  await page.reload();
  await page.waitForFunction(() => window.__stolikSocket && window.__stolikSocket.state === 'open');
  assert.deepEqual(await shown(page), { lang: 'uk', nav: NAV.uk, select: 'uk' });
  await context.close();
});
