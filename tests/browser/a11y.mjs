// Accessibility: axe-core on every page in every state (a11y-states.mjs), in the light and the
// dark theme at the desktop size and once more at a phone's, where tap targets must be at
// least 24×24 px. Any serious or critical finding fails the state's test, with what axe says
// and where. The states come in groups, one test file each (a11y-GROUP.test.mjs), so that each
// file stays within the runner's time for a file. STOLIK_A11Y=live,rules checks only the states
// whose names hold one of those words.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, serverAndBrowser, newPlayer } from './helpers.mjs';
import { pageStates } from './a11y-states.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };
// Each state is checked as: (viewport, colour scheme).
const LOOKS = [
  { name: 'desktop, light', viewport: DESKTOP, scheme: 'light' },
  { name: 'desktop, dark', viewport: DESKTOP, scheme: 'dark' },
  { name: 'phone, light', viewport: PHONE, scheme: 'light' },
];
const BLOCKING = new Set(['serious', 'critical']);

/** The serious and critical findings of axe on the page as it is now, one line each. */
async function findings(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(() => window.axe.run(document, {
    resultTypes: ['violations'],
    // WCAG 2.2's minimum target size (24×24 px) is not among axe's default rules.
    rules: { 'target-size': { enabled: true } },
  }).then((r) => r.violations));
  return violations
    .filter((v) => BLOCKING.has(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help}, ${v.nodes.length}× — ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`).join(' | ')}`);
}

/** Checkboxes and radio buttons smaller than 24×24 px, which a finger cannot hit. */
async function smallBoxes(page) {
  const small = await page.locator('input[type="checkbox"], input[type="radio"]').evaluateAll((els) => els
    .filter((e) => e.getClientRects().length)
    .map((e) => [e.getBoundingClientRect(), e])
    .filter(([r]) => r.width < 24 || r.height < 24)
    .map(([r, e]) => `${e.name || e.className} ${Math.round(r.width)}×${Math.round(r.height)}`));
  return small.length ? [`small boxes to tick: ${small.join(', ')}`] : [];
}

async function lookAs(page, look) {
  await page.setViewportSize(look.viewport);
  await page.emulateMedia({ colorScheme: look.scheme });
  await page.waitForFunction((s) => document.documentElement.dataset.theme === s, look.scheme);
  // Let transitions between the themes' colours end before axe reads them.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

/** The test of one group of states, with a server and a Chromium of its own. */
export function checkGroup(group) {
  const env = serverAndBrowser(['--bot-time-cap-ms', '50', '--limits', 'off']);
  test(`axe finds nothing serious on the ${group}, in either theme, on desktop or phone`, async (t) => {
    const games = await (await fetch(env.server.url + '/api/games')).json();
    const only = process.env.STOLIK_A11Y?.split(',').filter(Boolean);
    const states = pageStates(games).filter((s) => s.group === group && (!only || only.some((w) => s.name.includes(w))));
    for (const state of states) await t.test(state.name, () => check(env, state));
  });
}

async function check(env, state) {
  // axe is injected as a script: the site's Content-Security-Policy would refuse it.
  const { context, page } = await newPlayer(env.browser, env.server.url, { viewport: DESKTOP, context: { bypassCSP: true } });
  const site = { url: env.server.url, cleanup: [] };
  try {
    await state.open(page, site);
    const found = [];
    for (const look of LOOKS) {
      await lookAs(page, look);
      for (const line of await findings(page)) found.push(`[${look.name}] ${line}`);
      if (look.viewport === PHONE) for (const line of await smallBoxes(page)) found.push(`[${look.name}] ${line}`);
    }
    if (found.length) assert.fail(`${state.name}:\n${found.join('\n')}`);
    assert.deepEqual(page.__errors || [], []);
  } finally {
    for (const close of site.cleanup) await close();
    await context.close();
  }
}
