// A finished tournament's winners, above its final standings: the first three places (more
// names when a round robin's players share a place), each with a medal and the points.

import { h } from '../ui.js';
import { t } from '../i18n.js';
import { playerLink } from '../players.js';

/** `lines`: the standings' lines ({ rank, player, name }); `points(line)`: their points as
 * shown. Nothing when nobody placed. */
export function podium(lines, points) {
  const top = [...lines].filter((line) => line.rank <= 3).sort((a, b) => a.rank - b.rank);
  if (!top.length) return null;
  return h('section', { class: 'panel tour-podium', 'aria-labelledby': 'tour-winners' },
    h('h2', { id: 'tour-winners' }, t('tour.winners')),
    h('ol', { class: 'podium' }, ...top.map((line) => h('li', { class: `place-${line.rank}`, 'data-player': line.player },
      h('span', { class: 'medal', 'aria-hidden': 'true' }, String(line.rank)),
      h('span', { class: 'podium-name' }, playerLink({ id: line.player, name: line.name })),
      h('span', { class: 'small podium-points' }, points(line))))));
}
