// Shared test helpers: a real stolik server per test file, Chromium through playwright-core,
// and game actions performed by clicking the board like a player would.

import { test as nodeTest, before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
export const SCREENSHOTS = join(here, 'screenshots');

const BIN = process.env.STOLIK_BIN || join(root, 'target', 'debug', 'stolik');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Why the browser tests cannot run here (no Chromium), or false. STOLIK_REQUIRE_BROWSER=1 runs
 * them anyway, so that a missing Chromium fails them.
 */
const NO_BROWSER = !existsSync(CHROMIUM) && process.env.STOLIK_REQUIRE_BROWSER !== '1'
  && `Chromium is missing at ${CHROMIUM} (install Debian's chromium, or set CHROMIUM)`;

/**
 * node:test's `test`, for tests that need Chromium: reported as skipped, with the reason, where
 * there is none. Browser test files take `test` from here.
 */
export function test(name, options, fn) {
  if (typeof options === 'function') return test(name, {}, options);
  return nodeTest(name, { ...options, skip: NO_BROWSER || options.skip }, fn);
}

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/**
 * Starts `stolik serve` on a free port with a fresh SQLite database; `port` and `database`
 * start it again where a stopped one was (`server.port`, `server.database`).
 */
export async function startServer(extraArgs = [], { port: chosenPort, database } = {}) {
  const port = chosenPort ?? await freePort();
  const db = database ?? `/tmp/stolik-browser-${process.pid}-${randomBytes(4).toString('hex')}.db`;
  const proc = spawn(
    BIN,
    // The client as the site serves it: the bundle built into the binary.
    ['serve', '--bind', `127.0.0.1:${port}`, '--metrics-bind', '127.0.0.1:0', '--database', `sqlite://${db}`, ...extraArgs],
    // No White Rabbit tables built under the tests' directory unless a run asks for them, and
    // none of the site's scheduled tournaments unless a test gives `--schedule FILE`, and no bot
    // ladder unless a test asks for one (`--ladder-games N`): their games and events would join
    // the lists other tests read.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn', STOLIK_RABBIT_TABLES: process.env.STOLIK_RABBIT_TABLES || 'off', STOLIK_SCHEDULE: process.env.STOLIK_SCHEDULE || 'off', STOLIK_LADDER_GAMES: process.env.STOLIK_LADDER_GAMES || '0' } },
  );
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`stolik exited (${proc.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`stolik did not become healthy:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    database: db,
    log: () => log,
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => {
        const timer = setTimeout(() => { proc.kill('SIGKILL'); r(); }, 5000);
        proc.on('exit', () => { clearTimeout(timer); r(); });
      });
    },
  };
}

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
];

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * Chromium with a profile of its own in `dir` (a browser context that is not off the record:
 * what installability needs), as playwright-core's persistent context.
 */
export async function launchPersistent(dir, options = {}) {
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, ...options });
}

/**
 * One server and one Chromium for the calling test file, started before its tests and stopped
 * after them. The returned object's `server` and `browser` are set once the tests run.
 */
export function serverAndBrowser(serverArgs = []) {
  const env = { server: null, browser: null };
  before(async () => {
    if (NO_BROWSER) return;
    env.server = await startServer(serverArgs);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** A fresh browser context (its own cookie: its own guest) with one page on the site. */
export async function newPlayer(browser, url, { lang = 'en', viewport = { width: 1280, height: 900 }, context: options = {} } = {}) {
  const context = await browser.newContext({ viewport, ...options });
  // Start every player in a known language (lang: null leaves it to the browser's languages);
  // one test switches it by clicking.
  if (lang) {
    await context.addInitScript((l) => {
      if (!localStorage.getItem('stolik.lang')) localStorage.setItem('stolik.lang', l);
    }, lang);
  }
  const page = await context.newPage();
  page.on('pageerror', (err) => { page.__errors = [...(page.__errors || []), String(err)]; });
  // The server's Content-Security-Policy must never block anything the client does.
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) page.__errors = [...(page.__errors || []), msg.text()];
  });
  await page.goto(url + '/');
  await page.waitForFunction(() => window.__stolikSocket && window.__stolikSocket.state === 'open');
  return { context, page };
}

/**
 * Lets the page import the client's source modules from /src/… (`await import('/src/js/boards/mill.js')`),
 * for a test that drives one module directly: the site serves only the bundle.
 */
export async function serveSources(page, url) {
  await page.route(`${url}/src/**`, (route) => {
    const path = new URL(route.request().url()).pathname.slice('/src/'.length);
    return route.fulfill({ path: join(root, 'web', path) });
  });
}

export function tableState(page) {
  return page.evaluate(() => window.__stolik && window.__stolik.table);
}

export async function waitPly(page, ply) {
  await page.waitForFunction((n) => window.__stolik && window.__stolik.table && window.__stolik.table.ply >= n, ply, { timeout: 15000 });
}

export async function waitStatus(page, status) {
  await page.waitForFunction((s) => window.__stolik && window.__stolik.table && window.__stolik.table.status === s, status, { timeout: 15000 });
}

/** Waits until it is this page's turn and the board takes clicks. */
export async function waitMyTurn(page) {
  await page.waitForFunction(
    () => {
      const t = window.__stolik && window.__stolik.table;
      return t && t.status === 'playing' && t.you && t.to_move === t.you;
    },
    null,
    { timeout: 15000 },
  );
}

async function clickCell(page, cell) {
  await page.locator(`.board-wrap [data-cell="${cell}"]`).click();
}

/** Plays a move by clicking, as a player would, for any game. */
export async function playByClicks(page, game, mv) {
  const state = await tableState(page);
  switch (game) {
    case 'perekati':
      await clickCell(page, mv.slice(0, 2));
      await clickCell(page, mv.slice(2));
      return;
    case 'tumbleweed':
      if (mv === 'red') return page.locator('.board-wrap .choose-red').click();
      if (mv === 'white') return page.locator('.board-wrap .choose-white').click();
      if (mv === 'pass') return page.locator('.board-wrap .pass').click();
      if (mv.includes(',')) {
        const [r, w] = mv.split(',');
        await clickCell(page, r);
        await clickCell(page, w);
        return;
      }
      return clickCell(page, mv);
    case 'cephalopod': {
      const cell = mv.split(':')[0];
      const options = state.legal.filter((m) => m.split(':')[0] === cell);
      await clickCell(page, cell);
      if (options.length > 1) await page.locator(`.board-wrap .capture-option[data-move="${mv}"]`).click();
      return;
    }
    case 'mill': {
      const [base, ...x] = mv.split('x');
      const [a, b] = base.split('-');
      if (b) {
        await clickCell(page, a);
        await clickCell(page, b);
      } else {
        await clickCell(page, a);
      }
      for (const c of x) await clickCell(page, c);
      return;
    }
    case 'white-rabbit':
      if (mv === 'reroll') return page.locator('.board-wrap .reroll').click();
      if (mv === 'end') return page.locator('.board-wrap .end').click();
      {
        const [hd, td] = mv.split('~');
        await page.locator(`.board-wrap [data-die="${hd}"]`).click();
        await page.locator(`.board-wrap [data-die="${td}"]`).click();
      }
      return;
    default:
      throw new Error('unknown game ' + game);
  }
}

/** Creates a private table from the lobby form and returns the invite URL. */
export async function createPrivateTable(page, url, game, variant) {
  await page.goto(url + '/#/lobby');
  await page.locator('.create-form select[name="game"]').selectOption(game);
  if (variant) await page.locator('.create-form select[name="variant"]').selectOption(variant);
  await page.locator('.create-form input[name="vis"]').nth(1).check();
  await page.locator('.create-form .create').click();
  await page.waitForFunction(() => window.__stolik && window.__stolik.table && window.__stolik.table.invite);
  const t = await tableState(page);
  return `${url}/#/table/${t.id}?token=${encodeURIComponent(t.invite)}`;
}

/** The second player opens the invite link: they sit down at once, and the game starts. */
export async function joinByInvite(page, invite) {
  await page.goto(invite);
  await waitStatus(page, 'playing');
}

export function screenshotPath(name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, name);
}

/** Plays the game to its end: `choose(state)` returns the move for the side to move. */
export async function playOut(players, game, choose, maxPlies = 400) {
  for (let i = 0; i < maxPlies; i++) {
    const states = await Promise.all(players.map((p) => tableState(p)));
    // A page that has no table for a moment is on its way somewhere (an arena takes a player to
    // the next pairing the moment a game ends): the game's end is read from another page.
    const ended = states.find((s) => s && s.status !== 'playing');
    if (ended) return ended;
    if (states.some((s) => !s)) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const k = states.findIndex((s) => s.you && s.to_move === s.you);
    if (k < 0) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const st = states[k];
    const mv = choose(st);
    await playByClicks(players[k], game, mv);
    await Promise.all(players.map((p) => waitPly(p, st.ply + 1)));
  }
  return tableState(players[0]);
}

/** Registers `name` in the page's own session (its guest becomes the account); returns its user. */
export async function register(page, name) {
  const res = await page.evaluate(async (n) => {
    const r = await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: n, password: 'secret-password' }) });
    return { status: r.status, body: await r.json() };
  }, name);
  if (res.status !== 200) throw new Error(`register ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  await page.reload();
  await page.waitForFunction((n) => window.__stolikSocket?.state === 'open' && window.__stolikSocket.user?.name === n, name);
  return res.body.user;
}
