// Every page of the client in each state worth checking, for the accessibility run
// (a11y.mjs). A state is `{ name, group, open }`: `open(page, site)` brings a page of a fresh
// visitor, already on the catalogue, to that state and returns once it is drawn; `group` names
// the test file that checks it (a11y-GROUP.test.mjs). The games come from the server's
// catalogue; a new page, or a new state of one, is one more entry here.

import { createPrivateTable, waitStatus, tableState, playByClicks, waitPly } from './helpers.mjs';

/** Drawn by the client (not the page the server wrote first), with `selector` in it. */
async function drawn(page, selector, timeout = 30000) {
  await page.locator(`.page-root ${selector}`).first().waitFor({ timeout });
}

async function go(page, site, path, selector) {
  await page.goto(site.url + path);
  await drawn(page, selector);
}

/** A game against the bot (or the puzzle, alone) from the game's card; its table id. */
async function botGame(page, site, game) {
  await go(page, site, '/#/', `.game-card[data-game="${game.id}"]`);
  const card = page.locator(`.game-card[data-game="${game.id}"]`);
  await card.locator(game.seats === 1 ? '.play-solo' : '.play-bot').click();
  await waitStatus(page, 'playing');
  await drawn(page, '.board-wrap [data-cell], .board-wrap [data-die]');
  return (await tableState(page)).id;
}

/**
 * A finished game: started, a move of the visitor's (and the bot's answer: a resignation
 * before both sides have moved only calls the game off), then resigned. Where the first move
 * is not offered as a list (Tumbleweed's opening), the resignation calls the game off, which
 * is an ending screen too.
 */
async function finishedGame(page, site, game) {
  const id = await botGame(page, site, game);
  const st = await tableState(page);
  if (st.status === 'playing' && st.legal?.length) {
    await playByClicks(page, game.id, st.legal[0]);
    await waitPly(page, st.ply + (game.seats === 1 ? 1 : 2));
  }
  if ((await tableState(page)).status === 'playing') {
    await page.locator('.actions .resign').click();
    await page.locator('.actions .resign-confirm').click();
  }
  await page.waitForFunction(() => ['finished', 'aborted'].includes(window.__stolik?.table?.status));
  await drawn(page, '.actions .btn');
  return id;
}

/** The visitor's daily deal, given up at once: its end, with the way back to the day. */
async function dailyEnded(page, site) {
  await go(page, site, '/#/daily', '.daily .play-daily');
  await page.locator('.daily .play-daily').click();
  await page.waitForFunction(() => window.__stolik?.table?.daily);
  if ((await tableState(page)).status === 'playing') {
    await page.locator('.actions .resign').click();
    await page.locator('.actions .resign-confirm').click();
  }
  await waitStatus(page, 'finished');
  await drawn(page, '.daily-end .daily-result');
}

let accounts = 0;

/** The visitor registers an account (the rated choices are theirs then) and comes back. */
async function signIn(page) {
  const name = `a11y${process.pid % 1000}x${accounts++}`;
  const status = await page.evaluate(async (n) => (await fetch('/api/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: n, password: 'secret-password' }),
  })).status, name);
  if (status !== 200) throw new Error(`registering ${name}: HTTP ${status}`);
  await page.reload();
  await page.waitForFunction((n) => window.__stolikSocket?.state === 'open' && window.__stolikSocket.user?.name === n, name);
}

/** A new account made outside the browser (its id); a bot account with `bot`. */
async function outsideAccount(site, name, { bot = false } = {}) {
  const me = await (await fetch(`${site.url}/api/me`)).json();
  const auth = { Authorization: `Bearer ${me.token}`, 'Content-Type': 'application/json' };
  const res = await fetch(`${site.url}/api/register`, { method: 'POST', headers: auth, body: JSON.stringify({ username: name, password: 'secret-password' }) });
  const registered = await res.json();
  if (res.status !== 200) throw new Error(`registering ${name}: HTTP ${res.status}`);
  if (bot) {
    const up = await fetch(`${site.url}/api/bot/account/upgrade`, { method: 'POST', headers: { ...auth, Authorization: `Bearer ${registered.token}` }, body: '{}' });
    if (up.status !== 200) throw new Error(`upgrading ${name}: HTTP ${up.status}`);
  }
  return registered.user.id;
}

/** The states, for the games of the server's catalogue (`GET /api/games`). */
export function pageStates(games) {
  const duel = games.filter((g) => g.seats === 2);
  const solo = games.filter((g) => g.seats === 1);
  return [
    { name: 'catalogue', group: 'pages', open: (page, site) => go(page, site, '/#/', '.game-card') },
    ...games.map((g) => ({ name: `game page: ${g.id}`, group: 'pages', open: (page, site) => go(page, site, `/en/games/${g.id}`, '.game-faq dt') })),
    ...games.map((g) => ({ name: `rules: ${g.id}`, group: 'pages', open: (page, site) => go(page, site, `/#/rules/${g.id}`, '.rules-section') })),
    ...duel.map((g) => ({
      name: `table waiting: ${g.id}`,
      group: 'tables',
      async open(page, site) {
        await createPrivateTable(page, site.url, g.id);
        await drawn(page, '.board-wrap [data-cell]');
      },
    })),
    ...games.map((g) => ({ name: `table playing: ${g.id}`, group: 'tables', open: (page, site) => botGame(page, site, g) })),
    ...games.map((g) => ({ name: `table finished: ${g.id}`, group: 'endings', open: (page, site) => finishedGame(page, site, g) })),
    ...solo.map((g) => ({
      name: `review: ${g.id}`,
      group: 'endings',
      async open(page, site) {
        const id = await finishedGame(page, site, g);
        await go(page, site, `/#/review/${id}`, '.review-summary');
      },
    })),
    {
      name: 'replay',
      group: 'endings',
      async open(page, site) {
        const id = await finishedGame(page, site, duel[0]);
        await go(page, site, `/#/replay/${id}`, '.moves, .side-col');
      },
    },
    {
      name: 'replay, with the engine\'s review and its move on the board',
      group: 'endings',
      async open(page, site) {
        const id = await finishedGame(page, site, duel[0]);
        await go(page, site, `/#/replay/${id}`, '.analysis-panel .analysis-ask');
        await page.locator('.page-root .analysis-panel .analysis-ask').click();
        await drawn(page, '.analysis-panel .eval-chart', 120000);
        await page.locator('.page-root .replay-controls button').first().click();
        await drawn(page, '.board-wrap .best-move');
      },
    },
    {
      name: 'analysis board, a finished game with a variation',
      group: 'endings',
      async open(page, site) {
        await finishedGame(page, site, duel[0]);
        await page.locator('.page-root .actions .analyse-link').click();
        await drawn(page, '.analysis-board .move-tree');
        await page.locator('.page-root .replay-controls button').first().click();
        await drawn(page, '.analysis-board .analysis-turn');
      },
    },
    {
      name: 'analysis board, setting up a position refused by the engine',
      group: 'pages',
      async open(page, site) {
        await go(page, site, `/#/analysis/${duel[0].id}`, '.setup-open');
        await page.locator('.page-root .setup-open').click();
        await page.locator('.page-root .setup-clear').click();
        await page.locator('.page-root .setup-done').click();
        await drawn(page, '.setup-error');
      },
    },
    // The setup panel's richest forms: Perekati's palette of drawn cubes grouped by side, and
    // Mill's counts of tokens in hand with their buttons.
    ...[['perekati/malysh', '.setup-group .palette-icon'], ['mill/troika', '.setup-count output']].map(([path, shown]) => ({
      name: `analysis board, setting up a position: ${path}`,
      group: 'pages',
      async open(page, site) {
        await go(page, site, `/#/analysis/${path}`, '.setup-open');
        await page.locator('.page-root .setup-open').click();
        await drawn(page, shown);
      },
    })),
    {
      name: 'analysis board, the engine thinking about the start',
      group: 'pages',
      async open(page, site) {
        await go(page, site, `/#/analysis/${duel[0].id}`, '.engine-switch input');
        await page.locator('.page-root .engine-switch input').check();
        await drawn(page, '.engine-panel .engine-line', 60000);
      },
    },
    { name: 'daily', group: 'people', open: (page, site) => go(page, site, '/#/daily', 'h1') },
    {
      name: 'daily deal ended, and the daily page with its result',
      group: 'endings',
      async open(page, site) {
        await dailyEnded(page, site);
        await go(page, site, '/#/daily', '.daily-mine .daily-result');
      },
    },
    { name: 'daily deal ended: its end', group: 'endings', open: (page, site) => dailyEnded(page, site) },
    {
      name: 'table playing: white-rabbit with a hint',
      group: 'tables',
      async open(page, site) {
        await botGame(page, site, solo[0]);
        await page.locator('.actions .ask-hint').click();
        await drawn(page, '.hint-panel .hint-table');
      },
    },
    { name: 'lobby', group: 'people', open: (page, site) => go(page, site, '/#/lobby', '.create-form') },
    {
      name: 'live, with a game being played',
      group: 'people',
      async open(page, site) {
        // A game someone else plays against the bot (private tables are not listed).
        const other = await page.context().browser().newContext();
        site.cleanup.push(() => other.close());
        const player = await other.newPage();
        await player.goto(site.url + '/');
        await botGame(player, site, duel[0]);
        await go(page, site, '/#/live', '.live-row');
      },
    },
    {
      name: 'profile, with finished games',
      group: 'people',
      async open(page, site) {
        await finishedGame(page, site, duel[0]);
        await go(page, site, '/#/profile', '.games-table tbody tr, table tbody tr');
      },
    },
    {
      name: 'profile of an account, with an API token just made',
      group: 'people',
      async open(page, site) {
        const registered = await page.evaluate(async (n) => (await fetch('/api/register', {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: n, password: 'secret-password' }),
        })).status, `a11y${Date.now() % 100000}`);
        if (registered !== 200) throw new Error(`register: ${registered}`);
        // The page learns of the account when it loads again.
        await page.goto(site.url + '/#/profile');
        await page.reload();
        await drawn(page, '.api-tokens .token-none');
        await page.locator('.api-tokens input.token-name').fill('engine');
        await page.locator('.api-tokens button[type="submit"]').click();
        await drawn(page, '.api-tokens .token-secret');
      },
    },
    {
      name: 'player page, with finished games',
      group: 'people',
      async open(page, site) {
        const id = await finishedGame(page, site, duel[0]);
        const me = (await tableState(page)).seats.find((s) => s.user && !s.user.id.startsWith('bot:')).user;
        await go(page, site, `/#/player/${encodeURIComponent(me.id)}`, 'h1');
        await drawn(page, `a[href="#/replay/${id}"]`);
      },
    },
    ...['catalogue', 'lobby', 'profile'].map((name) => ({
      name: `${name}, signed in`,
      group: 'people',
      async open(page, site) {
        await signIn(page);
        await go(page, site, name === 'catalogue' ? '/#/' : `/#/${name}`, name === 'catalogue' ? '.game-card .rated-check' : 'h1');
      },
    })),
    {
      name: 'tournaments, signed in, with an arena coming up',
      group: 'people',
      async open(page, site) {
        await signIn(page);
        await page.evaluate(() => fetch('/api/tournaments', {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ game: 'mill', initial: 180, increment: 2, minutes: 60, starts_in: 30 }),
        }));
        await go(page, site, '/#/tournaments', '.tour-row');
      },
    },
    {
      name: 'tournament page, joined, before the start, a line said in its chat',
      group: 'people',
      async open(page, site) {
        await signIn(page);
        const id = await page.evaluate(async () => {
          const made = await (await fetch('/api/tournaments', {
            method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ game: 'mill', initial: 180, increment: 2, minutes: 60, starts_in: 30 }),
          })).json();
          await fetch(`/api/tournaments/${made.id}/join`, { method: 'POST' });
          return made.id;
        });
        await go(page, site, `/#/tournament/${id}`, '.tour-line');
        await page.locator('.tour-chat .chat-input').fill('Good luck, everyone');
        await page.locator('.tour-chat .chat-form button[type="submit"]').click();
        await page.locator('.tour-chat .chat-line').waitFor();
      },
    },
    {
      name: 'arena table against a house bot, after going berserk',
      group: 'people',
      async open(page, site) {
        await signIn(page);
        const table = await page.evaluate(async () => {
          const made = await (await fetch('/api/tournaments', {
            method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ game: 'mill', initial: 180, increment: 2, minutes: 60, starts_in: 0, house_bots_after: 5 }),
          })).json();
          await fetch(`/api/tournaments/${made.id}/join`, { method: 'POST' });
          // Alone in the arena: a house bot plays the player after five seconds.
          for (;;) {
            const view = await (await fetch(`/api/tournaments/${made.id}`)).json();
            if (view.me?.playing) return view.me.playing;
            await new Promise((r) => setTimeout(r, 250));
          }
        });
        await go(page, site, `/#/table/${table}`, 'button.berserk');
        await page.locator('button.berserk').click();
        await page.locator('.player .berserk-mark').waitFor();
      },
    },
    {
      name: 'round robin page, joined, before the start',
      group: 'people',
      async open(page, site) {
        await signIn(page);
        const id = await page.evaluate(async () => {
          const made = await (await fetch('/api/tournaments', {
            method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ kind: 'round_robin', game: 'mill', days: 3, max_players: 8, starts_in: 30, vacation: false }),
          })).json();
          await fetch(`/api/tournaments/${made.id}/join`, { method: 'POST' });
          return made.id;
        });
        await go(page, site, `/#/tournament/${id}`, '.rr-cross .tour-line');
      },
    },
    { name: 'leaderboard', group: 'people', open: (page, site) => go(page, site, `/#/leaderboard/${duel[0].id}`, 'h1') },
    { name: 'leaderboard of bot accounts', group: 'people', open: (page, site) => go(page, site, `/#/leaderboard/${duel[0].id}?class=rapid&bots=1`, '.bots-link') },
    { name: "the bots' page", group: 'people', open: (page, site) => go(page, site, '/#/bots', '.bots-ratings') },
    {
      name: "a bot account's page, with its badge and the challenge form",
      group: 'people',
      async open(page, site) {
        await signIn(page);
        const id = await outsideAccount(site, `a11ybot${accounts++}x${process.pid % 1000}`, { bot: true });
        await go(page, site, `/#/player/${encodeURIComponent(id)}`, '.challenge-form');
      },
    },
    {
      name: 'challenges page, with a challenge sent',
      group: 'people',
      async open(page, site) {
        await signIn(page);
        const id = await outsideAccount(site, `a11ych${accounts++}x${process.pid % 1000}`);
        await go(page, site, `/#/player/${encodeURIComponent(id)}`, '.challenge-form');
        await page.locator('.challenge-form button[type="submit"]').click();
        await drawn(page, '.challenges-page .challenge');
        // The "sent" toast is checked with the page.
        await page.locator('.toast.ok').first().waitFor();
      },
    },
    { name: 'my games', group: 'people', open: (page, site) => go(page, site, '/#/playing', 'h1') },
    {
      name: 'my games, with an unread notification under the bell',
      group: 'people',
      async open(page, site) {
        const invite = await createPrivateTable(page, site.url, duel[0].id);
        await go(page, site, '/#/playing', 'h1');
        const other = await page.context().browser().newContext();
        site.cleanup.push(() => other.close());
        const friend = await other.newPage();
        // Opening the invitation seats the friend.
        await friend.goto(invite);
        await page.locator('.bell .bell-count').waitFor();
        await drawn(page, '.notification.unread');
      },
    },
    {
      name: 'table waiting, the host about to cancel it',
      group: 'tables',
      async open(page, site) {
        await createPrivateTable(page, site.url, duel[0].id);
        await page.locator('.actions .cancel-table').click();
        await drawn(page, '.actions .cancel-confirm');
      },
    },
  ];
}
