// A game's rules as sections, with small diagrams drawn by the board renderers and, for the
// main rules, demonstrations that play them out step by step; the buttons that start a game;
// and the loading both pages that show rules share (the rules page and a game's own page).

import { h, toast } from './ui.js';
import { t, lang, variantName } from './i18n.js';
import { api } from './api.js';
import { gameEntry } from './registry/index.js';
import { demoFigure } from './demos/stepper.js';
import { join } from './quickmatch.js';
import { createTable } from './start.js';

function diagram(entry, key) {
  const d = entry.diagrams[key];
  if (!d) return null;
  const box = h('div', { class: ['diagram', 'diagram-' + d.game] });
  const mod = entry.board;
  // Diagrams are pictures: not interactive, no extra controls.
  if (d.territory) box.__ui = { key: null, persist: { territory: true } };
  mod.render(box, { variant: d.variant, position: d.position, legal: [], last: d.last || null }, { interactive: false, controls: d.territory ? undefined : false });
  return box;
}

/**
 * The rules sections of game `id` (null when there are none). `figures` keeps the
 * demonstrations between calls, so that a language switch keeps the step each one shows.
 */
export function rulesSections(id, game, figures) {
  const entry = gameEntry(id);
  if (!entry) return null;
  const sections = entry.rules[lang()] || entry.rules.en;
  // The catalogue's list of variants goes into the text's own "Variants" section when it
  // has one (Mill's), and into a section of its own otherwise.
  const variantList = game
    ? h('ul', { class: 'variant-list' }, game.variants.map((v) => h('li', {}, variantName(game, v.id), v.id === game.default_variant ? ` (${t('rules.default')})` : '', h('code', { class: 'vid' }, ' ' + v.id))))
    : null;
  let listed = false;
  const out = [];
  for (const sec of sections) {
    const own = variantList && sec.h === t('rules.variants');
    if (own) listed = true;
    const demos = (sec.demos || []).filter((key) => entry.demos[key]).map((key) => {
      if (!figures.has(key)) figures.set(key, demoFigure(key, entry.demos[key]));
      const fig = figures.get(key);
      fig.relabel();
      return fig.element;
    });
    out.push(h('section', { class: 'rules-section' },
      h('h2', {}, sec.h),
      h('div', { class: 'rules-flex' },
        h('div', { class: 'rules-text' }, sec.p.map((para) => h('p', {}, para)), own ? variantList : null),
        // A demonstration starts from the picture the diagram would show.
        sec.d && !demos.length ? diagram(entry, sec.d) : null,
      ),
      demos.length ? h('div', { class: 'demos' }, h('p', { class: 'demos-title' }, t('demo.showme')), demos) : null,
    ));
  }
  if (variantList && !listed) {
    out.push(h('section', { class: 'rules-section' }, h('h2', {}, t('rules.variants')), variantList));
  }
  return out;
}

/**
 * Read the rules, then play: a quick match and a bot for two-player games, a deal for the
 * solo puzzle.
 */
export function playButtons(game, name) {
  if (!game) return null;
  if (game.seats === 1) {
    return h('div', { class: 'rules-play' },
      h('button', { class: 'btn primary rules-play-btn', onClick: () => createTable({ game: game.id }) }, t('rules.play', { game: name })));
  }
  return h('div', { class: 'rules-play' },
    h('button', { class: 'btn primary rules-play-btn', onClick: () => join(game.id) }, t('rules.play', { game: name })),
    game.bots && game.bots.length
      ? h('button', { class: 'btn rules-play-bot', onClick: () => createTable({ game: game.id, bot: game.bots[0] }) }, `${t('home.bot')} (${t('bot.' + game.bots[0])})`)
      : null);
}

/**
 * A page about game `id`: `draw(game, figures)` renders it at once, again when the catalogue
 * entry `game` has come, and on every language switch; `figures` keeps its demonstrations.
 */
export function mountGamePage(id, draw) {
  let game = null;
  let ready = false;
  const figures = new Map();
  // Drawn once the catalogue is here: before it, the page would show the game's id as its
  // name and title (the server's <title> is right until then).
  const render = () => { if (ready) draw(game, figures); };
  api.games().then((list) => {
    game = list.find((g) => g.id === id) || null;
  }).catch((err) => toast(err.message, 'error')).finally(() => {
    ready = true;
    render();
  });
  return { unmount() {}, relabel: render };
}
