// The status line, the result banner and the note about an opponent who left.

import { h, clear, fill } from '../../ui.js';
import { t, sideName, resultText, userName } from '../../i18n.js';
import { endReason } from '../../endings.js';
import { socket } from '../../socket.js';
import { button } from './actions.js';

/** m:ss until a moment, never below 0:00. */
export function countdown(at) {
  const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function status(page) {
  const { el } = page;

  function renderStatus() {
    let text = '';
    if (page.tbl.status === 'open') {
      const free = page.tbl.seats.some((s) => !s.user);
      text = page.tbl.you ? t(page.tbl.private ? 'status.waiting' : 'status.waiting.public') : free ? t('status.open') : t('status.starting');
    } else if (page.tbl.status === 'playing') {
      if (page.solo()) text = t('status.solo');
      else if (page.tbl.you && page.tbl.to_move === page.tbl.you) text = phaseHint() || t('status.yourmove');
      else if (page.tbl.you) text = t('status.theirmove');
      else text = t('status.watching', { side: sideName(page.tbl.game, page.tbl.seats[page.tbl.to_move === 'a' ? 0 : 1]?.label || page.tbl.to_move) });
    } else {
      text = t('status.over');
    }
    fill(el.status, 
      socket.state !== 'open' ? h('span', { class: 'offline' }, t('net.reconnecting') + ' ') : null,
      text,
    );
    // The result banner.
    clear(el.banner);
    el.banner.className = 'banner';
    if (page.tbl.status === 'finished' || page.tbl.status === 'aborted') {
      const mine = resultForMe();
      el.banner.classList.add('shown', mine);
      const why = reasonNode();
      el.banner.append(h('strong', {}, resultText(page.tbl, page.games)));
      if (why) el.banner.append(why);
    }
  }

  // A player of a live game for two has no open connection: the opponent is told when the
  // game can be claimed, and once it can (`claim`, in the opponent's snapshot only) may claim
  // the win or call it a draw; spectators are told who left.
  function renderAway() {
    clear(el.away);
    const away = page.tbl.status === 'playing' ? page.tbl.away : null;
    el.away.hidden = !away;
    if (!away) return;
    const sv = page.tbl.seats.find((x) => x.seat === away.seat);
    const name = userName(sv?.user) || sideName(page.tbl.game, sv?.label || away.seat);
    if (!page.tbl.you) {
      el.away.append(h('p', { class: 'away-note' }, t('away.spectator', { name })));
    } else if (page.tbl.you !== away.seat && page.tbl.claim) {
      el.away.append(
        h('p', { class: 'away-note' }, t('away.claim')),
        h('div', { class: 'claim-buttons' },
          button(t('away.claim.win'), () => page.act({ type: 'claim', outcome: 'win' }), 'primary claim-win'),
          button(t('away.claim.draw'), () => page.act({ type: 'claim', outcome: 'draw' }), 'claim-draw')),
      );
    } else if (page.tbl.you !== away.seat) {
      // The countdown stands where the sentence has {time}, in every language.
      const [before, after = ''] = t('away.wait').split('{time}');
      el.away.append(h('p', { class: 'away-note' }, before, h('strong', { class: 'away-countdown', 'data-at': away.claim_at }, countdown(away.claim_at)), after));
    }
  }

  function reasonNode() {
    const text = endReason(page.tbl);
    return text ? h('span', { class: 'reason' }, ' — ' + text) : null;
  }

  function phaseHint() {
    if (page.tbl.game !== 'tumbleweed') return '';
    if (page.tbl.turn === 'setup') return t('tumbleweed.setup.red');
    if (page.tbl.turn === 'choose') return t('tumbleweed.choose.hint');
    return '';
  }

  function resultForMe() {
    if (page.tbl.status === 'aborted') return 'neutral';
    const r = page.tbl.result || '';
    if (r.startsWith('won')) return 'win';
    if (r === 'lost') return 'loss';
    if (r === 'draw' || !page.tbl.you) return 'neutral';
    return r === page.tbl.you ? 'win' : 'loss';
  }

  return { renderAway, renderStatus };
}
