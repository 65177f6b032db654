// A game's rules in the current language, with small diagrams drawn by the board renderers.

import { h, clear, toast } from '../ui.js';
import { t, lang, gameName, variantName } from '../i18n.js';
import { api } from '../api.js';
import { boards } from '../boards/index.js';
import { RULES, DIAGRAMS } from '../rules-text.js';

export function mount(root, params) {
  const id = params.parts[1];
  let game = null;

  function diagram(key) {
    const d = DIAGRAMS[key];
    if (!d) return null;
    const box = h('div', { class: ['diagram', 'diagram-' + d.game] });
    const mod = boards[d.game];
    // Diagrams are pictures: not interactive, no extra controls.
    if (d.territory) box.__ui = { key: null, persist: { territory: true } };
    mod.render(box, { variant: d.variant, position: d.position, legal: [], last: d.last || null }, { interactive: false, controls: d.territory ? undefined : false });
    return box;
  }

  function render() {
    clear(root);
    const rules = RULES[id];
    if (!rules) {
      root.append(h('section', { class: 'page narrow' }, h('h1', {}, t('rules.unknown')), h('a', { href: '#/' }, t('nav.games'))));
      return;
    }
    const name = game ? gameName(game) : id;
    document.title = `${t('rules.title')}: ${name} — ${t('app.name')}`;
    const sections = rules[lang()] || rules.en;
    const page = h('article', { class: 'page rules' },
      h('p', { class: 'crumbs' }, h('a', { href: '#/' }, t('nav.games')), ' / ', t('rules.title')),
      h('h1', {}, name),
    );
    for (const sec of sections) {
      page.append(h('section', { class: 'rules-section' },
        h('h2', {}, sec.h),
        h('div', { class: 'rules-flex' },
          h('div', { class: 'rules-text' }, sec.p.map((para) => h('p', {}, para))),
          sec.d ? diagram(sec.d) : null,
        ),
      ));
    }
    if (game) {
      page.append(h('section', { class: 'rules-section' },
        h('h2', {}, t('rules.variants')),
        h('ul', {}, game.variants.map((v) => h('li', {}, variantName(game, v.id), v.id === game.default_variant ? ` (${t('rules.default')})` : '', h('code', { class: 'vid' }, ' ' + v.id)))),
      ));
    }
    root.append(page);
  }

  render();
  api.games().then((list) => {
    game = list.find((g) => g.id === id) || null;
    render();
  }).catch((err) => toast(err.message, 'error'));
  return { unmount() {}, relabel: render };
}
