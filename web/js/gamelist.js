// A player's finished games as a table (your profile and every player's page): date, game,
// opponent (a link to their page), result as it went for that player, rating change, moves,
// and the replay.

import { h, formatDate } from './ui.js';
import { t, lang, gameName, variantName, resultText } from './i18n.js';
import { endReason } from './endings.js';
import { who, playerLink, changeNode, ratingText } from './players.js';
import { analysisHref } from './analysis/link.js';

function outcomeFor(g, userId) {
  const seat = g.seats.find((x) => x.user_id === userId);
  const r = g.result || '';
  if (g.status === 'aborted') return 'neutral';
  if (r.startsWith('won')) return 'win';
  if (r === 'lost') return 'loss';
  if (r === 'draw' || !seat) return 'neutral';
  return r === 'ab'[seat.seat] ? 'win' : 'loss';
}

function changeCell(g, mine) {
  if (g.seats.length < 2) return '—';
  if (!g.rated) return h('span', { class: 'small' }, t('rated.casual'));
  if (mine?.rating_change == null) return '—';
  return [changeNode(mine.rating_change), mine.rating_after != null ? h('div', { class: 'small' }, ratingText({ rating: mine.rating_after, provisional: mine.rating_provisional })) : null];
}

/** `list` as GET /api/users/ID/games gives it; `games` the catalogue; whose games these are. */
export function gamesTable(list, games, userId) {
  if (!list.length) return h('p', { class: 'empty' }, t('profile.nogames'));
  const body = h('tbody');
  for (const g of list) {
    const info = games.find((x) => x.id === g.game);
    const mine = g.seats.find((x) => x.user_id === userId);
    const others = g.seats.filter((x) => x !== mine);
    const snap = { game: g.game, status: g.status, result: g.result, reason: g.end_reason, seats: g.seats.map((x) => ({ seat: 'ab'[x.seat], label: 'ab'[x.seat], user: { name: who(x).name } })) };
    const why = endReason(snap);
    const o = outcomeFor(g, userId);
    // The result as it went for this player (the opponent has a column of its own).
    const result = g.status === 'aborted' || g.seats.length < 2 || g.result === 'draw' || o === 'neutral'
      ? resultText(snap, games)
      : t(o === 'win' ? 'profile.won' : 'profile.lost');
    body.append(h('tr', { class: 'outcome-' + o, 'data-game': g.id },
      h('td', {}, formatDate(g.finished_at || g.created_at, lang())),
      h('td', {}, info ? gameName(info) : g.game, h('div', { class: 'small' }, info ? variantName(info, g.variant) : g.variant)),
      h('td', { class: 'opponents' }, others.length ? others.map((x, i) => [i ? ', ' : null, playerLink(x)]) : '—'),
      h('td', {}, result, why ? h('div', { class: 'small' }, why) : null),
      h('td', { class: 'change' }, changeCell(g, mine)),
      h('td', {}, String(g.move_count)),
      h('td', {}, h('a', { class: 'btn small replay-link', href: `#/replay/${g.id}` }, t('profile.replay')),
        g.seats.length > 1 && g.status === 'finished' ? [' ', h('a', { class: 'btn small analyse-link', href: analysisHref(g.game, g.variant, { record: g.id }) }, t('analysis.board.open'))] : null),
    ));
  }
  return h('table', { class: 'list games-list' },
    h('thead', {}, h('tr', {}, ['profile.date', 'lobby.game', 'profile.opponent', 'profile.result', 'rating.change', 'profile.moves'].map((k) => h('th', {}, t(k))), h('th', {}, h('span', { class: 'sr-only' }, t('list.actions'))))),
    body,
  );
}
