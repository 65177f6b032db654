// The White Rabbit daily deal: the same dice for everyone on a day, one attempt each, and the
// day's leaderboard (score first, then fewest actions). #/daily?day=YYYY-MM-DD for past days,
// whose deals can be replayed for practice, off the leaderboard. Accounts' attempts of the day
// are ranked; guests play the day's deal for practice.

import { h, clear } from '../ui.js';
import { t, gameName } from '../i18n.js';
import { api } from '../api.js';
import { session } from '../session.js';
import { playerLink } from '../players.js';
import { numbers } from '../rabbit-words.js';
import { playDaily } from '../start.js';
import { dayGoesOn, attemptSentence } from '../daily_attempt.js';

/** The day before or after `day` (YYYY-MM-DD), in UTC like the server's days. */
function shift(day, by) {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
}

/** The caller's attempt on the daily page: how it went, and its links. */
function attemptNode(mine, day) {
  const won = mine.result && mine.result.startsWith('won');
  const over = mine.status !== 'playing';
  return h('div', { class: ['daily-mine', won ? 'won' : over ? 'lost' : 'playing'] },
    h('p', { class: 'daily-result' }, attemptSentence(mine)),
    h('p', { class: 'daily-links' },
      h('a', { class: 'btn open-attempt', href: `#/table/${mine.table}` }, mine.status === 'playing' ? t('daily.continue') : t('daily.open')),
      over && !dayGoesOn(day) ? h('a', { class: 'btn review-link', href: `#/review/${mine.table}` }, t('daily.review')) : null,
    ),
    over && dayGoesOn(day) ? h('p', { class: 'muted small' }, t('daily.review.later')) : null,
  );
}

export function mount(root, params) {
  const asked = params.query.get('day') || null;
  let data = null;
  let failed = null;
  // The game's name is the catalogue's; its id stands in until the catalogue has come.
  let rabbit = null;

  function render() {
    clear(root);
    const title = t('daily.title', { game: rabbit ? gameName(rabbit) : 'white-rabbit' });
    document.title = `${title} — ${t('app.name')}`;
    const page = h('section', { class: 'page narrow daily' }, h('h1', {}, title));
    if (failed) {
      page.append(h('p', { class: 'error' }, failed));
    } else if (!data) {
      page.append(h('p', { class: 'loading' }, t('loading')));
    } else {
      const isToday = data.day === data.today;
      const f = data.figures;
      page.append(
        h('p', { class: 'lead' }, t('daily.lead')),
        h('nav', { class: 'day-nav', 'aria-label': t('daily.days') },
          h('a', { class: 'btn prev-day', href: `#/daily?day=${shift(data.day, -1)}` }, '← ', shift(data.day, -1)),
          h('strong', { class: 'day' }, isToday ? t('daily.today', { day: data.day }) : data.day),
          isToday ? null : h('a', { class: 'btn next-day', href: `#/daily?day=${shift(data.day, 1)}` }, shift(data.day, 1), ' →'),
        ),
        data.mine ? attemptNode(data.mine, data.day) : h('p', {},
          h('button', { class: 'btn primary play-daily', onClick: () => playDaily(data.day) },
            isToday ? t('daily.play') : t('daily.practise'))),
        // (Element.append would print a null as text.)
        ...(isToday && !data.ranked ? [h('p', { class: 'muted guest-note' }, t('daily.guest'))] : []),
        ...(!isToday && !data.mine ? [h('p', { class: 'muted practice-note' }, t('daily.practice_note'))] : []),
        ...(!isToday && data.mine ? [h('p', {},
          h('button', { class: 'btn play-daily', onClick: () => playDaily(data.day) }, t('daily.practise')))] : []),
        h('h2', {}, t('daily.board')),
        h('p', { class: 'daily-figures' }, t('daily.figures', { attempts: f.attempts, finished: f.finished, solved: f.solved })),
        ...(data.perfect ? [perfectNote()] : []),
        board(),
      );
    }
    root.append(page);
  }

  /** The deal's expected score under perfect play (exact values only), said once. */
  function perfectNote() {
    const p = data.perfect;
    return h('p', { class: 'perfect-note' }, t('daily.perfect', { score: numbers.score(p.score), win: numbers.win(p.win) }));
  }

  function board() {
    const lines = data.leaderboard || [];
    if (!lines.length) return h('p', { class: 'muted empty-board' }, t('daily.empty'));
    return h('table', { class: 'leaderboard daily-board' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('daily.player')), h('th', { scope: 'col' }, t('daily.score')), h('th', { scope: 'col' }, t('daily.actions')))),
      h('tbody', {}, ...lines.map((e) => h('tr', { class: session.user && e.user_id === session.user.id ? 'me' : '' },
        h('td', { class: 'rank' }, String(e.rank)),
        h('td', { class: 'who' }, playerLink({ id: e.user_id, name: e.display_name })),
        h('td', { class: 'points' }, String(e.score),
          data.perfect ? h('span', { class: 'muted perfect', title: t('daily.perfect.title', { score: numbers.score(data.perfect.score) }) }, ' / ' + numbers.score(data.perfect.score)) : null),
        h('td', { class: 'count' }, String(e.actions)),
      ))),
    );
  }

  render();
  api.games().then((list) => {
    rabbit = list.find((g) => g.id === 'white-rabbit') || null;
    render();
  }).catch(() => {});
  api.daily(asked).then((d) => {
    data = d;
    render();
  }).catch((err) => {
    failed = err.message || String(err);
    render();
  });

  return { unmount() {}, relabel: render };
}
