// The seat boxes: who sits where, their ratings, the turn dot, and the clocks in them.

import { h, clear, formatClock, formatDate } from '../../ui.js';
import { t, lang, sideName, timeLeft } from '../../i18n.js';
import { boards } from '../../registry/index.js';
import { playerLink, ratingNode, changeNode } from '../../players.js';
import { play as playSound } from '../../sound.js';
import { countdown } from './status.js';

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function seats(page) {
  const { root, el } = page;

  function seatRow(seat) {
    const index = seat === 'a' ? 0 : 1;
    const sv = page.tbl.seats[index];
    if (!sv) return h('div');
    const toMove = page.tbl.status === 'playing' && page.tbl.to_move === seat;
    const extra = sideInfo(seat);
    const clock = page.tbl.clock
      ? h('div', { class: ['clock', page.clockBase?.running === seat && 'running', 'clock-' + seat], 'data-seat': seat }, formatClock(currentClock(seat)))
      : toMove && page.tbl.deadline
        // Correspondence: the time left for this move, the date itself on hover.
        ? h('div', { class: 'deadline', title: formatDate(page.tbl.deadline, lang()) }, t('table.deadline', { time: timeLeft(page.tbl.deadline - Date.now()) }))
        : null;
    return h(
      'div',
      { class: ['player', toMove && 'to-move', page.tbl.you === seat && 'me'] },
      h('span', { class: ['swatch', `seat-${page.tbl.game}-${sv.label}`] }),
      h(
        'div',
        { class: 'who' },
        h('div', { class: 'name' },
          sv.user ? playerLink(sv.user) : h('em', {}, t('table.seat.empty')),
          sv.rating ? [' ', ratingNode(sv.rating)] : null,
          sv.rating_change != null ? [' ', changeNode(sv.rating_change)] : null,
          page.tbl.you === seat ? h('span', { class: 'you' }, ` (${t('table.you')})`) : null),
        // Under the name, which a phone cuts short: an arena player who went berserk.
        h('div', { class: 'side-name' }, sideName(page.tbl.game, sv.label), extra ? ` · ${extra}` : '',
          page.tbl.berserk?.seats[index] ? [' ', h('span', { class: 'berserk-mark', title: t('table.berserk.hint') }, t('table.berserk.went'))] : null),
        onVacation(seat),
      ),
      toMove ? h('span', { class: 'turn-dot', title: t('status.tomove') }, '●') : null,
      clock,
    );
  }

  /** Correspondence: this seat let its deadline pass and is on vacation, with its days left. */
  function onVacation(seat) {
    const v = page.tbl.status === 'playing' ? page.tbl.vacation : null;
    if (!v || v.seat !== seat) return null;
    return h('div', { class: 'vacation' }, v.days_left == null ? t('table.vacation') : t('table.vacation.left', { n: v.days_left }));
  }

  /** The game's own words under a seat (cubes home, dice, score), when its board has them. */
  function sideInfo(seat) {
    const mod = boards[page.tbl.game];
    try {
      return mod?.seatNote?.(page.tbl.position, seat, page.tbl.seats) ?? '';
    } catch {
      return '';
    }
  }

  function renderPlayers() {
    clear(el.top);
    clear(el.bottom);
    // A solo puzzle has one player and no turns to take: no seat box, no turn dot.
    if (page.solo()) return;
    // You at the bottom; spectators see side a at the bottom.
    const bottom = page.tbl.you || 'a';
    const top = bottom === 'a' ? 'b' : 'a';
    el.top.append(seatRow(top));
    el.bottom.append(seatRow(bottom));
  }

  function setClock(remaining, running) {
    page.clockBase = { remaining: [...remaining], running, at: performance.now() };
  }

  function currentClock(seat) {
    if (!page.clockBase) return 0;
    const i = seat === 'a' ? 0 : 1;
    let ms = page.clockBase.remaining[i];
    if (page.clockBase.running === seat && !page.clockBase.frozen) ms -= performance.now() - page.clockBase.at;
    return ms;
  }

  // Without the server the page cannot know the clocks: they stand still until it answers
  // again (then its snapshot sets them), rather than run on and jump back.
  function freezeClock() {
    if (!page.clockBase || !page.clockBase.running || page.clockBase.frozen) return;
    page.clockBase = { remaining: [currentClock('a'), currentClock('b')], running: page.clockBase.running, at: performance.now(), frozen: true };
  }

  let lowWarned = null; // the ply at which the low-time sound last played

  /** Ten times a second: the clocks and the countdowns on the page, and the low-time sound. */
  function tick() {
    for (const node of root.querySelectorAll('.away-countdown')) node.textContent = countdown(Number(node.dataset.at));
    if (!page.tbl || !page.tbl.clock || !page.clockBase?.running) return;
    for (const node of root.querySelectorAll('.clock')) {
      const seat = node.dataset.seat;
      node.textContent = formatClock(currentClock(seat));
      node.classList.toggle('low', currentClock(seat) < 20000);
    }
    if (page.tbl.you && page.clockBase.running === page.tbl.you && !page.clockBase.frozen && currentClock(page.tbl.you) < 10000 && lowWarned !== page.tbl.ply) {
      lowWarned = page.tbl.ply;
      playSound('lowtime');
    }
  }

  return { currentClock, freezeClock, renderPlayers, setClock, tick };
}
