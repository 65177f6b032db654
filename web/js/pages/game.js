// A game's own page (/games/GAME, /uk/games/GAME, /en/games/GAME): what the game is, where
// it comes from, the questions newcomers ask, the names it goes by, its rules with their
// demonstrations, and the ways to start playing. The server has already filled in the head.

import { h, clear } from '../ui.js';
import { t, lang, gameName, gameSummary } from '../i18n.js';
import { gamePath, gamePagePath } from '../router.js';
import { gameEntry } from '../registry/index.js';
import { rulesSections, playButtons, mountGamePage } from '../rules_sections.js';

function say(text) {
  return text[lang()] || text.en;
}

function section(cls, title, ...body) {
  return h('section', { class: ['rules-section', cls] }, h('h2', {}, title), ...body);
}

export function mount(root, params) {
  const id = params.parts[1];
  return mountGamePage(id, (game, figures) => {
    clear(root);
    const text = gameEntry(id)?.page;
    const rules = rulesSections(id, game, figures);
    if (!text || !rules) {
      document.title = t('app.name');
      root.append(h('section', { class: 'page narrow' }, h('h1', {}, t('game.unknown')), h('a', { href: '/#/' }, t('nav.games'))));
      return;
    }
    // The address follows the language the page is shown in.
    const here = gamePath();
    const path = gamePagePath(id, lang());
    if (here && location.pathname !== path) history.replaceState(null, '', path + location.search);
    const name = game ? gameName(game) : id;
    document.title = t('game.title', { game: name });
    if (game) document.querySelector('meta[name="description"]')?.setAttribute('content', gameSummary(game));
    const [about, ...rest] = rules;
    root.append(h('article', { class: 'page rules game-page', 'data-game': id },
      h('p', { class: 'crumbs' }, h('a', { href: '/#/' }, t('nav.games')), ' / ', name),
      h('h1', {}, name),
      game ? h('p', { class: 'lead' }, gameSummary(game)) : null,
      playButtons(game, name),
      about,
      section('game-origin', t('game.origin'), say(text.origin).map((p) => h('p', {}, p))),
      section('game-faq', t('game.faq'), h('dl', {}, text.faq.flatMap((item) => [h('dt', {}, say(item.q)), h('dd', {}, say(item.a))]))),
      // The names people search for it by in the page's language (each language's page has
      // its own, as the server writes it).
      section('game-also', t('game.names'), h('ul', { class: 'game-names' }, (text.names[lang()] || text.names.en || []).map((n) => h('li', {}, n)))),
      h('h2', { class: 'game-rules-title' }, t('game.rules')),
      rest,
      playButtons(game, name),
    ));
  });
}
