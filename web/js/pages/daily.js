// The White Rabbit daily deal: the same dice for everyone on a day, one attempt each, and the
// day's leaderboard (score first, then fewest actions). #/daily?day=YYYY-MM-DD for past days,
// whose deals can be replayed for practice, off the leaderboard.

import { h, clear, toast, formatPercent } from '../ui.js';
import { t, gameName } from '../i18n.js';
import { api } from '../api.js';
import { navigate } from '../router.js';
import { session } from '../session.js';

/** Starts (or resumes) the caller's attempt at a day's deal and opens its table. */
export async function playDaily(day) {
  try {
    const snap = await api.playDaily(day);
    navigate(`/table/${snap.id}`);
  } catch (err) {
    toast(err.message || String(err), 'error');
  }
}

/** The day before or after `day` (YYYY-MM-DD), in UTC like the server's days. */
function shift(day, by) {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
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
      page.append(
        h('p', { class: 'lead' }, t('daily.lead')),
        h('nav', { class: 'day-nav', 'aria-label': t('daily.days') },
          h('a', { class: 'btn prev-day', href: `#/daily?day=${shift(data.day, -1)}` }, '← ', shift(data.day, -1)),
          h('strong', { class: 'day' }, isToday ? t('daily.today', { day: data.day }) : data.day),
          isToday ? null : h('a', { class: 'btn next-day', href: `#/daily?day=${shift(data.day, 1)}` }, shift(data.day, 1), ' →'),
        ),
        h('p', {},
          h('button', { class: 'btn primary play-daily', onClick: () => playDaily(data.day) },
            data.table ? t('daily.continue') : isToday ? t('daily.play') : t('daily.practise')),
        ),
        // (Element.append would print a null as text.)
        ...(!isToday && !data.table ? [h('p', { class: 'muted practice-note' }, t('daily.practice_note'))] : []),
        h('h2', {}, t('daily.board')),
        perfectNote(),
        board(),
      );
    }
    root.append(page);
  }

  /** The deal's expected score under perfect play (exact tables only), said once. */
  function perfectNote() {
    const p = data.perfect;
    if (!p) return h('p', { class: 'muted perfect-none' }, t('daily.perfect.none'));
    return h('p', { class: 'perfect-note' }, t('daily.perfect', { score: p.score.toFixed(2), win: formatPercent(p.win) }));
  }

  function board() {
    const lines = data.leaderboard || [];
    if (!lines.length) return h('p', { class: 'muted empty-board' }, t('daily.empty'));
    return h('table', { class: 'leaderboard' },
      h('thead', {}, h('tr', {},
        h('th', {}, '#'), h('th', {}, t('daily.player')), h('th', {}, t('daily.score')), h('th', {}, t('daily.actions')))),
      h('tbody', {}, ...lines.map((e) => h('tr', { class: session.user && e.user_id === session.user.id ? 'me' : '' },
        h('td', {}, String(e.rank)),
        h('td', {}, e.display_name),
        h('td', { class: 'score' }, String(e.score),
          data.perfect ? h('span', { class: 'muted perfect', title: t('daily.perfect.title', { score: data.perfect.score.toFixed(2) }) }, ' / ' + data.perfect.score.toFixed(2)) : null),
        h('td', {}, String(e.actions)),
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
