// The home page: the five games, each with its picture, and ways to start playing.

import { h, clear, toast } from '../ui.js';
import { t, lang, gameName, gameSummary, variantName } from '../i18n.js';
import { api } from '../api.js';
import { join } from '../quickmatch.js';
import { gamePagePath } from '../router.js';
import { playDaily, createTable } from '../start.js';
import { TIME_CONTROLS, clockBody, clockChipLabel } from '../clocks.js';
import { ratedCheckbox, rated, bots, botOption, ratingClass } from '../players.js';
import { session } from '../session.js';

/** The seat a body asks for: the first (0), the second (1), or either by chance. */
function withSide(body, side) {
  const seat = side === 'second' ? 1 : side === 'random' ? Math.floor(Math.random() * 2) : 0;
  return { ...body, seat };
}

function accountHere() {
  return !!session.user && !session.user.guest;
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
    const c = choices(g.id);
    // What every button of the card starts with: the variant, the time control, the side.
    const body = (extra) => withSide(ratedBody({ game: g.id, variant: variant(), ...clockBody(c.clock), ...extra }), c.side);
    return h('article', { class: 'game-card', 'data-game': g.id },
      h('img', { class: 'game-pic', src: `/img/${g.id}.svg`, alt: '', width: 320, height: 200 }),
      h('div', { class: 'game-body' },
        h('h2', {}, h('a', { class: 'game-link', href: gamePagePath(g.id, lang()) }, gameName(g))),
        h('p', { class: 'meta' }, solo ? t('home.solo') : t('home.players', { n: g.seats }), g.dice ? ' · ' + t('home.dice') : '',
          solo ? null : [' · ', h('a', { class: 'leaderboard-link', href: `#/leaderboard/${g.id}` }, t('leaderboard.short'))]),
        h('p', { class: 'summary' }, gameSummary(g)),
        // The first button plays at once: the puzzle, or a bot (nobody else needs to be online).
        solo
          ? h('div', { class: 'card-actions first-actions' },
            h('button', { class: 'btn primary play-solo', onClick: () => createTable({ game: g.id, variant: variant() }) }, t('home.play')),
            h('button', { class: 'btn daily-deal', onClick: () => playDaily() }, t('home.daily')))
          : g.bots && g.bots.length ? botPicker(g, body) : null,
        variantPicker,
        solo ? null : timePicker(g),
        solo ? null : sidePicker(g),
        // Rated games are for accounts: the one choice (shared by every card and the lobby).
        solo || !accountHere() ? null : h('div', { class: 'card-rated' }, ratedCheckbox((on) => {
          for (const box of root.querySelectorAll('.rated-check')) box.checked = on;
        })),
        h('div', { class: 'card-actions' },
          solo ? null : h('button', { class: 'btn quick-match', onClick: () => join(g.id, variant(), c.clock ? clockBody(c.clock).clock : undefined, rated()) }, t('home.quick')),
          solo ? null : h('button', { class: 'btn create-private', onClick: () => createTable(body({ private: true })) }, t('home.private')),
          h('a', { class: 'btn rules-link', href: gamePagePath(g.id, lang()) }, t('home.rules')),
        ),
      ),
    );
  }

  // One click picks a time control for every button of the card ("∞": no clock).
  function timePicker(g) {
    const c = choices(g.id);
    const chip = (id) => h('button', {
      type: 'button',
      class: ['chip', 'time-chip', (c.clock || '') === id && 'on'],
      'data-clock': id,
      'aria-pressed': (c.clock || '') === id ? 'true' : 'false',
      onClick: () => { c.clock = id; render(); },
    }, id ? clockChipLabel(id) : '∞');
    return h('div', { class: 'time-chips', role: 'group', 'aria-label': t('home.clock') },
      chip(''), ...TIME_CONTROLS.map(chip));
  }

  // Which side the player takes: the first, the second, or chance.
  function sidePicker(g) {
    const c = choices(g.id);
    return h('label', { class: 'field side-field' }, h('span', {}, t('home.side')),
      h('select', { class: 'side-select', name: 'side', onChange: (e) => { c.side = e.target.value; } },
        ['first', 'second', 'random'].map((v) => h('option', { value: v, selected: (c.side || 'first') === v }, t('home.side.' + v)))));
  }

  // Play against a bot: pick a level, the bot takes the other seat and the game starts.
  function botPicker(g, body) {
    const select = h('select', {
      class: 'bot-level',
      'aria-label': t('home.botLevel'),
      onChange: (e) => { choices(g.id).bot = e.target.value; },
    },
      ...g.bots.map((level) => h('option', { value: level, selected: level === choices(g.id).bot },
        botOption(botList, level, g.id, ratingClass(clockBody(choices(g.id).clock).clock)))));
    return h('div', { class: 'card-actions bot-actions first-actions' },
      h('button', {
        class: 'btn primary play-bot',
        onClick: () => createTable(body({ bot: select.value })),
      }, t('home.bot')),
      select,
    );
  }

  /** The body of a table for two, rated when the visitor (with an account) chose so. */
  function ratedBody(body) {
    return rated() && accountHere() ? { ...body, rated: true } : body;
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
