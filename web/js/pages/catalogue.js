// The home page: the five games, each with its picture, and ways to start playing.

import { h, clear, toast } from '../ui.js';
import { t, lang, gameName, gameSummary, variantName } from '../i18n.js';
import { api } from '../api.js';
import { join } from '../quickmatch.js';
import { navigate, gamePagePath } from '../router.js';
import { playDaily } from './daily.js';
import { ratedCheckbox, rated, bots, botOption } from '../players.js';

export async function createTable(body) {
  try {
    const snap = await api.createTable(body);
    const q = snap.invite ? `?token=${encodeURIComponent(snap.invite)}` : '';
    navigate(`/table/${snap.id}${q}`);
  } catch (err) {
    toast(err.message || String(err), 'error');
  }
}

export function mount(root) {
  let games = null;
  let botList = [];

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    clear(root);
    document.title = t('app.name');
    const section = h('section', { class: 'page catalogue' },
      h('div', { class: 'hero' },
        h('h1', {}, t('home.title')),
        h('p', { class: 'lead' }, t('home.lead')),
      ),
    );
    if (!games) {
      section.append(h('p', { class: 'loading' }, t('loading')));
    } else {
      const grid = h('div', { class: 'game-grid' });
      for (const g of games) grid.append(card(g));
      section.append(grid);
    }
    root.append(section);
  }

  // What the visitor chose on each card (variant, bot level), kept across re-renders: a
  // language switch, and the bots' ratings arriving after the cards.
  const chosen = {};
  const choices = (id) => (chosen[id] ||= {});

  function card(g) {
    const solo = g.seats === 1;
    const variant = () => choices(g.id).variant || g.default_variant;
    const variantPicker = g.variants.length > 1
      ? h('label', { class: 'field variant-field' }, h('span', {}, t('lobby.variant')),
        h('select', { class: 'variant-select', name: 'variant', onChange: (e) => { choices(g.id).variant = e.target.value; } },
          g.variants.map((v) => h('option', { value: v.id, selected: v.id === variant() }, variantName(g, v.id)))))
      : null;
    return h('article', { class: 'game-card', 'data-game': g.id },
      h('img', { class: 'game-pic', src: `/img/${g.id}.svg`, alt: '', width: 320, height: 200 }),
      h('div', { class: 'game-body' },
        h('h2', {}, h('a', { class: 'game-link', href: gamePagePath(g.id, lang()) }, gameName(g))),
        h('p', { class: 'meta' }, solo ? t('home.solo') : t('home.players', { n: g.seats }), g.dice ? ' · ' + t('home.dice') : '',
          solo ? null : [' · ', h('a', { class: 'leaderboard-link', href: `#/leaderboard/${g.id}` }, t('leaderboard.short'))]),
        h('p', { class: 'summary' }, gameSummary(g)),
        variantPicker,
        // One choice for every card (and the lobby): ticking one ticks them all.
        solo ? null : h('div', { class: 'card-rated' }, ratedCheckbox((on) => {
          for (const box of root.querySelectorAll('.rated-check')) box.checked = on;
        })),
        h('div', { class: 'card-actions' },
          solo
            ? h('button', { class: 'btn primary play-solo', onClick: () => createTable({ game: g.id, variant: variant() }) }, t('home.play'))
            : h('button', { class: 'btn primary quick-match', onClick: () => join(g.id, variant(), undefined, rated()) }, t('home.quick')),
          solo ? h('button', { class: 'btn daily-deal', onClick: () => playDaily() }, t('home.daily')) : null,
          solo ? null : h('button', { class: 'btn create-private', onClick: () => createTable(ratedBody({ game: g.id, variant: variant(), private: true })) }, t('home.private')),
          h('a', { class: 'btn rules-link', href: gamePagePath(g.id, lang()) }, t('home.rules')),
        ),
        g.bots && g.bots.length ? botPicker(g, variant) : null,
      ),
    );
  }

  // Play against a bot: pick a level, the bot takes the other seat and the game starts.
  function botPicker(g, variant) {
    const select = h('select', {
      class: 'bot-level',
      'aria-label': t('home.botLevel'),
      onChange: (e) => { choices(g.id).bot = e.target.value; },
    },
      // Cards start games without a clock: the bots' rapid ratings.
      ...g.bots.map((level) => h('option', { value: level, selected: level === choices(g.id).bot },
        botOption(botList, level, g.id, 'rapid'))));
    return h('div', { class: 'card-actions bot-actions' },
      select,
      h('button', {
        class: 'btn play-bot',
        onClick: () => createTable(ratedBody({ game: g.id, variant: variant(), bot: select.value })),
      }, t('home.bot')),
    );
  }

  /** The body of a table for two, rated when the visitor chose so. */
  function ratedBody(body) {
    return rated() ? { ...body, rated: true } : body;
  }

  render();
  api.games().then((list) => {
    games = list;
    render();
  }).catch((err) => toast(err.message, 'error'));
  bots().then((list) => {
    botList = list;
    if (games) render();
  });

  return { relabel: render };
}
