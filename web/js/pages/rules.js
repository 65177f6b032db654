// A game's rules in the current language, with small diagrams drawn by the board renderers
// and, for the main rules, demonstrations that play them out step by step.

import { h, clear } from '../ui.js';
import { t, gameName } from '../i18n.js';
import { rulesSections, playButtons, mountGamePage } from '../rules_sections.js';

export function mount(root, params) {
  const id = params.parts[1];
  return mountGamePage(id, (game, figures) => {
    clear(root);
    const sections = rulesSections(id, game, figures);
    if (!sections) {
      root.append(h('section', { class: 'page narrow' }, h('h1', {}, t('rules.unknown')), h('a', { href: '#/' }, t('nav.games'))));
      return;
    }
    const name = game ? gameName(game) : id;
    document.title = `${t('rules.title')}: ${name} — ${t('app.name')}`;
    const page = h('article', { class: 'page rules' },
      h('p', { class: 'crumbs' }, h('a', { href: '#/' }, t('nav.games')), ' / ', t('rules.title')),
      h('h1', {}, name),
      playButtons(game, name),
      sections,
    );
    const play = playButtons(game, name);
    if (play) page.append(play);
    root.append(page);
  });
}
