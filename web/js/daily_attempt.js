// A player's attempt at a daily deal, in words: on the daily page and at the end of the deal's
// table, with the way back to the day.

import { h } from './ui.js';
import { t } from './i18n.js';
import { api } from './api.js';

/** Whether `day` (a daily deal's day, or null) is still being played: today or later, in UTC. */
export function dayGoesOn(day) {
  return !!day && day >= new Date().toISOString().slice(0, 10);
}

/** How the caller's attempt went, in sentences: the result, then its place or "practice". */
export function attemptSentence(mine) {
  const won = mine.result && mine.result.startsWith('won');
  const lines = [];
  if (mine.status === 'playing') lines.push(t('daily.mine.playing', { actions: mine.actions }));
  else if (won) lines.push(t('daily.mine.won', { score: mine.result.slice(4), actions: mine.actions }));
  else lines.push(t('daily.mine.lost', { actions: mine.actions }));
  if (!mine.ranked) lines.push(t('daily.mine.practice'));
  else if (mine.rank) lines.push(t('daily.mine.rank', { rank: mine.rank }));
  return lines.join(' ');
}

/**
 * The end of a daily deal on its table: the result with its place (or "practice"), and the
 * way back to the day and its leaderboard. Fills itself in once the server has answered.
 */
export function dailyEnd(tbl) {
  const box = h('div', { class: 'daily-end' },
    h('a', { class: 'btn primary back-to-day', href: `#/daily?day=${tbl.daily}` }, t('daily.back')));
  api.daily(tbl.daily).then((d) => {
    if (d.mine && d.mine.table === tbl.id && d.mine.status !== 'playing') {
      box.prepend(h('p', { class: 'daily-result' }, attemptSentence(d.mine)));
    }
  }).catch(() => {});
  return box;
}
