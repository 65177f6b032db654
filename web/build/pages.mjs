// What the server needs to write a game's page in its language before any script runs: the
// shell's and the page's labels from the dictionaries, and each game's texts from its registry
// data (where it comes from, the FAQ, the names it is searched by, the rules' sections).
// The build writes it as pages.json; the server renders the HTML (routes/pages/).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientGames } from './registry.mjs';

const LANGS = ['ru', 'uk', 'en'];

/** The dictionary keys the server's pages use. */
const LABELS = [
  'app.name', 'app.noscript', 'nav.skip', 'nav.language', 'nav.games',
  'game.title', 'game.origin', 'game.faq', 'game.names', 'game.rules', 'game.unknown',
  'rules.unknown', 'page.notfound',
];

function pick(text, lang, what) {
  const value = text?.[lang];
  if (value === undefined) throw new Error(`${what} has no ${lang} text`);
  return value;
}

/** `{labels: {LANG: {KEY: text}}, games: {GAME: {LANG: {origin, faq, names, rules}}}}`. */
export async function pageTexts(webDir) {
  const labels = {};
  for (const lang of LANGS) {
    const dict = JSON.parse(readFileSync(join(webDir, 'i18n', `${lang}.json`), 'utf8'));
    labels[lang] = Object.fromEntries(LABELS.map((key) => [key, pick(dict, key, `i18n/${lang}.json`)]));
  }
  const games = {};
  for (const [id, data] of Object.entries(await clientGames())) {
    games[id] = Object.fromEntries(LANGS.map((lang) => [lang, {
      origin: pick(data.page.origin, lang, `${id}'s origin`),
      faq: data.page.faq.map((item, i) => ({ q: pick(item.q, lang, `${id}'s question ${i}`), a: pick(item.a, lang, `${id}'s answer ${i}`) })),
      names: pick(data.page.names, lang, `${id}'s names`),
      rules: pick(data.rules, lang, `${id}'s rules`).map((section) => ({ h: section.h, p: section.p })),
    }]));
  }
  return { labels, games };
}
