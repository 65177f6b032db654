// The table's heading: the game and its badges, and the invitation link to send.

import { h, clear, fill, icon, toast, copyText } from '../../ui.js';
import { t, gameName, variantName } from '../../i18n.js';
import { ratedLabel } from '../../players.js';

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function head(page) {
  const { token, el } = page;

  function renderHead() {
    const g = page.info();
    document.title = `${g ? gameName(g) : page.tbl.game} — ${t('app.name')}`;
    fill(el.title, g ? gameName(g) : page.tbl.game);
    fill(el.badges, 
      h('span', { class: 'badge' }, g ? variantName(g, page.tbl.variant) : page.tbl.variant),
      page.tbl.clock ? h('span', { class: 'badge' }, icon('clock'), ` ${Math.round(page.tbl.clock.initial_ms / 60000 * 10) / 10}+${page.tbl.clock.increment_ms / 1000}`) : null,
      page.tbl.days ? h('span', { class: 'badge correspondence' }, icon('clock'), ' ', t('clock.days', { n: page.tbl.days })) : null,
      // A solo table is nobody else's to join: "private" would say nothing.
      page.tbl.private && !page.solo() ? h('span', { class: 'badge private' }, t('table.private')) : null,
      page.solo() ? null : h('span', { class: ['badge', 'rated-badge', page.tbl.rated && 'rated'] }, ratedLabel(page.tbl.rated, page.tbl.rating_class)),
      page.tbl.daily ? h('a', { class: 'badge daily', href: `#/daily?day=${page.tbl.daily}` }, t('daily.badge', { day: page.tbl.daily })) : null,
      page.tbl.daily && !page.tbl.rated ? h('span', { class: 'badge practice' }, t('daily.practice.badge')) : null,
      h('span', { class: 'badge' }, t('state.' + page.tbl.status)),
      h('a', { class: 'badge link', href: `#/rules/${page.tbl.game}` }, t('nav.rules')),
    );
    clear(el.invite);
    // Whoever waits for an opponent sees the link to send, and copies it in one press (a
    // public table's link is its address; a private one's carries the invitation). A solo
    // table has nobody to invite.
    if (!page.solo() && page.tbl.status === 'open' && page.tbl.you && (page.tbl.invite || !page.tbl.private)) {
      el.invite.append(h('input', {
        class: 'invite-link', readonly: true, value: inviteLink(), 'aria-label': t('table.invite.link'),
        onFocus: (e) => e.target.select(),
      }));
    }
    if (!page.solo() && (page.tbl.invite || (page.tbl.status === 'open' && page.tbl.you))) {
      el.invite.append(
        h('button', { class: 'btn copy-invite', onClick: async () => {
          const ok = await copyText(inviteLink());
          toast(ok ? t('table.invite.copied') : inviteLink(), ok ? 'ok' : 'info', ok ? 2500 : 10000);
        } }, icon('link'), t('table.invite.copy')),
      );
    }
  }

  function inviteLink() {
    if (!page.tbl.invite) return `${location.origin}/#/table/${page.tbl.id}`;
    return `${location.origin}/#/table/${page.tbl.id}?token=${encodeURIComponent(page.tbl.invite)}`;
  }

  return { renderHead };
}
