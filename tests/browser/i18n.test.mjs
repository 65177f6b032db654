// Every text in all three languages: the dictionaries (web/i18n/LANG.json) have the same keys,
// and every key the code asks for exists (keys built at run time are checked by their known
// endings); every game the client holds has its rules and page texts in all three.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientGames, registeredGames, GAMES_DIR } from './client-games.mjs';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const GAMES = await clientGames();

function dictionaries() {
  return Object.fromEntries(['ru', 'uk', 'en'].map((l) => [l, JSON.parse(readFileSync(join(web, 'i18n', `${l}.json`), 'utf8'))]));
}

function sources(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.js') ? [p] : [];
  });
}

test('the three dictionaries have the same keys', () => {
  const d = dictionaries();
  const en = Object.keys(d.en).sort();
  assert.deepEqual(Object.keys(d.ru).sort(), en);
  assert.deepEqual(Object.keys(d.uk).sort(), en);
});

test('every key used in the code exists', () => {
  const keys = new Set(Object.keys(dictionaries().en));
  const missing = [];
  for (const file of sources(join(web, 'js')).filter((f) => !f.endsWith('i18n.js'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\('([a-z0-9_.-]+[a-z0-9])'\s*[,)]/g)) if (!keys.has(m[1])) missing.push(`${file}: ${m[1]}`);
  }
  // Keys assembled at run time.
  const dynamic = [
    ...['U', 'D', 'N', 'S', 'E', 'W'].map((h) => 'perekati.hat.' + h),
    ...['rules', 'resign', 'time', 'agreement', 'abandoned', 'abort', 'expired'].map((r) => 'reason.' + r),
    ...['blitz', 'rapid', 'correspondence'].map((c) => 'class.' + c),
    'rating.change',
    ...['open', 'playing', 'finished', 'aborted'].map((s) => 'state.' + s),
    ...['off', 'ringing', 'waiting', 'connecting', 'connected', 'failed', 'denied'].map((s) => 'voice.state.' + s),
    ...['r', 'w', 'n'].map((c) => 'tumbleweed.colour.' + c),
    ...['k', 'r', 'w'].map((c) => 'rabbit.colour.' + c),
    ...['pass', 'red', 'white', 'reroll', 'end'].map((m) => 'move.' + m),
    'table.resign', 'table.resign.confirm', 'table.giveup', 'table.giveup.confirm', 'voice.on', 'voice.off',
    'account.register', 'account.login', 'account.registered', 'account.loggedin',
    ...['your_turn', 'draw_offer', 'rematch_offer', 'challenge', 'joined', 'deadline', 'vacation', 'game_over', 'tournament_start'].map((k) => 'push.kind.' + k),
    'profile.push.on', 'profile.push.off', 'profile.push.status.on', 'profile.push.status.off',
    ...['finished', 'cancelled'].map((s) => 'tour.status.' + s),
    ...['running', 'upcoming', 'finished'].flatMap((l) => ['tour.list.' + l, 'tour.none.' + l]),
    ...['win', 'draw', 'loss'].map((r) => 'tour.score.' + r),
    ...['arena', 'round_robin'].map((k) => 'tour.kind.' + k),
    ...['days', 'live'].map((c) => 'tour.rr.clock.' + c),
    ...['a', 'b'].map((s) => 'tour.rr.seat.' + s),
    ...['scheduled', 'created', 'playing', 'finished', 'forfeited', 'annulled'].map((s) => 'tour.rr.status.' + s),
  ];
  for (const k of dynamic) if (!keys.has(k)) missing.push(k);
  assert.deepEqual(missing, []);
});

test('every game file of the client is in its registry', () => {
  const files = readdirSync(GAMES_DIR).filter((f) => f !== 'index.js' && f !== 'common.js').map((f) => f.replace(/\.js$/, ''));
  assert.deepEqual(registeredGames().sort(), files.sort());
});

test('rules exist for every game in every language', () => {
  for (const game of ['perekati', 'tumbleweed', 'cephalopod', 'mill', 'white-rabbit']) {
    const rules = GAMES[game].rules;
    for (const lang of ['ru', 'uk', 'en']) {
      assert.ok(rules[lang].length >= 3, `${game} ${lang}`);
      assert.equal(rules[lang].length, rules.en.length, `${game} ${lang} has every section`);
    }
  }
});

test('every game page says where the game comes from, its questions and its names in every language', () => {
  for (const game of ['perekati', 'tumbleweed', 'cephalopod', 'mill', 'white-rabbit']) {
    const { page } = GAMES[game];
    for (const lang of ['ru', 'uk', 'en']) {
      assert.ok(page.origin[lang].length >= 1, `${game} ${lang}: origin`);
      assert.ok(page.names[lang].length >= 1, `${game} ${lang}: names`);
      for (const item of page.faq) assert.ok(item.q[lang] && item.a[lang], `${game} ${lang}: every question and answer`);
    }
  }
});
