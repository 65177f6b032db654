// A player's record of tournaments on their page (js/pages/player.js): the finished ones they
// took part in, newest first — the tournament, when it ended, their place of how many, their
// points — each a link to the tournament, with earlier ones a page at a time.

import { h, formatDate } from '../ui.js';
import { t, lang } from '../i18n.js';
import { tournamentTitle } from './tournaments.js';
import { halves } from './round_robin.js';

/** The record's table; `record`: { tournaments, more } as read so far (null while loading);
 * `onMore` reads the next page. */
export function tournamentRecord(record, games, onMore) {
  if (!record) return h('p', { class: 'loading' }, t('loading'));
  if (!record.tournaments.length) return h('p', { class: 'empty' }, t('player.tournaments.none'));
  const points = (r) => (r.points === null || r.points === undefined ? '—' : r.kind === 'round_robin' ? halves(r.points) : String(r.points));
  return [
    h('table', { class: 'list player-tournaments' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('tour.name')),
        h('th', {}, t('player.tournaments.date')),
        h('th', { class: 'num' }, t('player.tournaments.col_place')),
        h('th', { class: 'num' }, t('tour.score')))),
      h('tbody', {}, ...record.tournaments.map((r) => h('tr', { class: 'player-tournament', 'data-tournament': r.id },
        h('td', {}, h('a', { href: `#/tournament/${r.id}` }, tournamentTitle(r, games)),
          r.site ? h('div', { class: 'small tour-site' }, t('tour.site')) : null),
        h('td', { class: 'small' }, formatDate(r.ends_at, lang())),
        h('td', { class: 'num tour-place' }, r.place ? t('player.tournaments.place', { place: r.place, n: r.of }) : t('player.tournaments.no_place')),
        h('td', { class: 'num tour-points' }, h('strong', {}, points(r))))))),
    record.more ? h('button', { type: 'button', class: 'btn small tour-record-more', onClick: onMore }, t('player.tournaments.more')) : null,
  ];
}
