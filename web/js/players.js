// Players as every page shows them: a name that links to the player's page, a rating (with a
// `?` while it is provisional, as lichess does), a rating change in green or red, the rating
// class of a clock, and the "Rated" choice of the forms that start a game.

import { h, remembered, remember } from './ui.js';
import { t, botName } from './i18n.js';
import { session } from './session.js';
import { api } from './api.js';

export const CLASSES = ['blitz', 'rapid', 'correspondence'];

/**
 * Who a player is, from any of the server's shapes: a snapshot's `user` ({id, name}), a game
 * list's seat ({user_id, display_name, bot}), a live game's player ({user_id, name, bot}), a
 * leaderboard row ({user_id, name}) or a record's player ({user, name, bot}).
 */
export function who(p) {
  if (!p) return { id: null, name: '' };
  let id = p.id || p.user_id || (typeof p.user === 'string' ? p.user : null) || null;
  // `bot` is our own bot's level (a string), or `true` for a bot account (someone's program).
  const level = (typeof p.bot === 'string' && p.bot) || (typeof id === 'string' && id.startsWith('bot:') ? id.slice(4) : null);
  if (!id && level) id = `bot:${level}`;
  const account = p.bot === true || p.bot_account === true;
  return { id, name: level ? botName(level) : p.name || p.display_name || '', bot: level, account };
}

/** The BOT badge of a bot (a bot account, or one of the site's own), after its name wherever it
 * is shown. */
export function botBadge(p) {
  const { account, bot } = who(p);
  if (!account && !bot) return null;
  return h('span', { class: 'badge bot-badge', title: t(account ? 'bot.badge.title' : 'bot.badge.house') }, t('bot.badge'));
}

/** The player's name as a link to their page (plain text when the id is not known). */
export function playerLink(p) {
  const { id, name, bot } = who(p);
  if (!id) return h('span', { class: 'player-name' }, name || '—');
  const link = h('a', { class: ['player-link', bot && 'bot'], href: `#/player/${encodeURIComponent(id)}`, 'data-user': id }, name || id);
  const badge = botBadge(p);
  return badge ? h('span', { class: 'player-name' }, link, ' ', badge) : link;
}

/** 1523, or 1500? while provisional. */
export function ratingText(r) {
  if (!r || r.rating == null) return '';
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** A rating as a small grey number, explained on hover when provisional. */
export function ratingNode(r) {
  if (!r || r.rating == null) return null;
  return h('span', { class: ['rating', r.provisional && 'provisional'], title: r.provisional ? t('rating.provisional') : null }, ratingText(r));
}

/** +8 in green, −8 in red (a real minus sign), ±0 in grey. */
export function changeText(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}

export function changeNode(n) {
  if (n == null) return null;
  return h('span', { class: ['rating-change', n > 0 ? 'up' : n < 0 ? 'down' : 'same'] }, changeText(n));
}

/** A name link followed by the rating, as seats, live games and lobbies show a player. */
export function playerWithRating(p, rating) {
  const r = ratingNode(rating);
  return h('span', { class: 'player-with-rating' }, playerLink(p), r ? ' ' : null, r);
}

/**
 * The rating class of a game's clock, as the server decides it: correspondence for days a
 * move, blitz when initial + 40 × increment is under ten minutes, rapid for every other live
 * game (untimed ones too). Takes a form's clock ({initial, increment} in seconds, or {days}).
 */
export function ratingClass(clock) {
  if (clock?.days) return 'correspondence';
  if (clock && clock.initial != null && clock.initial + 40 * (clock.increment || 0) < 600) return 'blitz';
  return 'rapid';
}

export function className(cls) {
  return t('class.' + cls);
}

/** "Rated · Blitz" or "Casual". */
export function ratedLabel(rated, cls) {
  return rated ? `${t('rated.rated')}${cls ? ' · ' + className(cls) : ''}` : t('rated.casual');
}

const RATED_KEY = 'stolik.rated';

/** Whether the next game should be rated: only accounts can, and the choice is remembered. */
export function rated() {
  return !!session.user && !session.user.guest && remembered(RATED_KEY);
}

/**
 * The "Rated" checkbox: an account's choice, remembered for the next forms; a guest sees it
 * disabled with the reason. `onChange` runs after a change (to show other ratings, say).
 */
export function ratedCheckbox(onChange) {
  const guest = !session.user || session.user.guest;
  const box = h('input', {
    type: 'checkbox', class: 'rated-check', name: 'rated', checked: rated(), disabled: guest,
    onChange: (e) => {
      remember(RATED_KEY, e.target.checked);
      onChange?.(e.target.checked);
    },
  });
  return h('label', { class: ['rated-field', guest && 'disabled'], title: guest ? t('rated.guest') : null },
    box, ' ', t('rated.rated'),
    guest ? h('span', { class: 'small rated-hint' }, h('a', { href: '#/profile' }, t('rated.guest'))) : null);
}

/** The bots and their ratings (asked afresh by each form: they move with every rated game). */
export function bots() {
  return api.bots().catch(() => []);
}

/** A bot level's rating in a game and class, from the list `bots()` gives. */
export function botRating(list, level, game, cls) {
  return (list || []).find((b) => b.level === level)?.ratings?.[game]?.[cls] || null;
}

/** "Easy" or "Easy · 1350?" for a bot picker's option. */
export function botOption(list, level, game, cls) {
  const r = botRating(list, level, game, cls);
  return r ? `${t('bot.' + level)} · ${ratingText(r)}` : t('bot.' + level);
}
