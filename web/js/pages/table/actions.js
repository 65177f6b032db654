// The actions beside the board: sit and stand, offers and their answers, resign, rematch,
// flip the board, the next game waiting for a move.

import { h, clear, toast } from '../../ui.js';
import { t } from '../../i18n.js';
import { api } from '../../api.js';
import { session } from '../../session.js';
import { navigate } from '../../router.js';
import { createTable } from '../../start.js';
import { turns } from '../../turns.js';
import { dailyEnd, dayGoesOn } from '../../daily_attempt.js';
import { analysisHref } from '../../analysis/link.js';

/** A plain button of the actions bar (the status and hint panels use it too). */
export function button(label, fn, cls = '') {
  return h('button', { class: ['btn', cls], onClick: fn }, label);
}

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function actions(page) {
  const { id, token, el } = page;

  function renderActions() {
    clear(el.actions);
    const seated = !!page.tbl.you;
    const s = page.tbl.status;
    const add = (...nodes) => el.actions.append(...nodes);
    if (s === 'open') {
      if (!seated && page.tbl.seats.some((x) => !x.user)) add(button(t('table.sit'), () => page.act({ type: 'sit' }), 'primary sit'));
      // Alone at the table, standing up closes it: the host is offered the plain words.
      const alone = seated && page.tbl.seats.filter((x) => x.user).length === 1;
      if (seated && alone && page.tbl.host === session.user?.id) {
        if (page.confirmCancel) {
          add(
            h('p', { class: 'note' }, t('table.cancel.confirm')),
            button(t('table.cancel'), () => { page.confirmCancel = false; page.act({ type: 'cancel' }); }, 'danger cancel-confirm'),
            button(t('table.cancel.keep'), () => { page.confirmCancel = false; renderActions(); }),
          );
        } else add(button(t('table.cancel'), () => { page.confirmCancel = true; renderActions(); }, 'cancel-table'));
      } else if (seated) add(button(t('table.stand'), () => page.act({ type: 'stand' }), 'stand'));
    }
    if (s === 'playing' && seated) {
      // An arena game, before your first move: half your clock for an extra point (the server says when).
      if (page.tbl.berserk?.can) {
        const berserk = button(t('table.berserk'), () => page.act({ type: 'berserk' }), 'berserk');
        berserk.title = t('table.berserk.hint');
        add(berserk);
      }
      if (!page.solo() && page.tbl.ply < page.tbl.seats.length) add(button(t('table.abort'), () => page.act({ type: 'abort' }), 'abort'));
      if (!page.solo()) {
        if (page.tbl.draw_offer === page.opponentSeat()) {
          add(
            h('div', { class: 'offer' }, t('table.draw.offered')),
            button(t('table.draw.accept'), () => page.act({ type: 'draw.accept' }), 'primary draw-accept'),
            button(t('table.draw.decline'), () => page.act({ type: 'draw.decline' }), 'draw-decline'),
          );
        } else if (page.tbl.draw_offer === page.tbl.you) {
          add(h('div', { class: 'offer' }, t('table.draw.sent')));
        } else {
          add(button(t('table.draw.offer'), () => page.act({ type: 'draw.offer' }), 'draw-offer'));
        }
        // Takebacks are for casual games; the server says when there is nothing to take back.
        if (!page.tbl.rated) {
          if (page.tbl.takeback_offer === page.opponentSeat()) {
            add(
              h('div', { class: 'offer' }, t('table.takeback.offered')),
              button(t('table.takeback.accept'), () => page.act({ type: 'takeback.accept' }), 'primary takeback-accept'),
              button(t('table.takeback.decline'), () => page.act({ type: 'takeback.decline' }), 'takeback-decline'),
            );
          } else if (page.tbl.takeback_offer === page.tbl.you) {
            add(h('div', { class: 'offer' }, t('table.takeback.sent')));
          } else if (page.tbl.can_take_back) {
            add(button(t('table.takeback'), () => page.act({ type: 'takeback.offer' }), 'takeback'));
          }
        }
      }
      if (page.confirmResign) {
        add(
          button(t(page.solo() ? 'table.giveup.confirm' : 'table.resign.confirm'), () => { page.confirmResign = false; page.act({ type: 'resign' }); }, 'danger resign-confirm'),
          button(t('cancel'), () => { page.confirmResign = false; renderActions(); }),
        );
      } else {
        add(button(t(page.solo() ? 'table.giveup' : 'table.resign'), () => { page.confirmResign = true; renderActions(); }, 'resign'));
      }
    }
    if (s === 'playing' && seated && page.tbl.game === 'white-rabbit') {
      if (page.tbl.daily) add(h('p', { class: 'note no-hints' }, t('hint.daily')));
      else add(button(t('hint.ask'), page.askHint, 'ask-hint'));
      if (!page.tbl.daily) add(button(t('rabbit.newdeal'), () => createTable({ game: page.tbl.game, variant: page.tbl.variant }), 'new-deal'));
    }
    if ((s === 'finished' || s === 'aborted') && seated) {
      if (page.tbl.rematch) {
        add(h('a', { class: 'btn primary', href: `#/table/${page.tbl.rematch}` }, t('table.rematch.go')));
      } else if (page.solo() && page.tbl.daily) {
        // The daily deal's end leads back to its day: the result, the place, the leaderboard.
        add(dailyEnd(page.tbl));
      } else if (page.solo()) {
        add(button(t('table.newgame'), () => page.act({ type: 'rematch.offer' }), 'primary rematch'));
      } else if (page.tbl.rematch_offer === page.opponentSeat()) {
        add(
          h('div', { class: 'offer' }, t('table.rematch.offered')),
          button(t('table.rematch.accept'), () => page.act({ type: 'rematch.accept' }), 'primary rematch-accept'),
          button(t('table.rematch.decline'), () => page.act({ type: 'rematch.decline' }), 'rematch-decline'),
        );
      } else if (page.tbl.rematch_offer === page.tbl.you) {
        add(h('div', { class: 'offer' }, t('table.rematch.sent')));
      } else {
        add(button(t('table.rematch'), () => page.act({ type: 'rematch.offer' }), 'primary rematch'));
      }
    }
    if ((s === 'finished' || s === 'aborted') && !seated && page.tbl.rematch) {
      // A private game's rematch keeps its link: the spectator who had it follows with it.
      add(h('a', { class: 'btn', href: `#/table/${page.tbl.rematch}${token ? '?token=' + encodeURIComponent(token) : ''}` }, t('table.rematch.go')));
    }
    if (s === 'finished') {
      add(h('a', { class: 'btn', href: `#/replay/${page.tbl.id}${token ? '?token=' + encodeURIComponent(token) : ''}` }, t('table.replay')));
      if (!page.solo()) add(h('a', { class: 'btn analyse-link', href: analysisHref(page.tbl.game, page.tbl.variant, { record: page.tbl.id, token }) }, t('analysis.board.open')));
      // A daily deal's review opens only once its day is over (UTC, like the server's days).
      if (page.tbl.game === 'white-rabbit' && !dayGoesOn(page.tbl.daily)) add(h('a', { class: 'btn review-link', href: `#/review/${page.tbl.id}` }, t('review.open')));
    }
    // Anyone may look at the board from the other side.
    if (!page.solo()) {
      add(h('button', {
        class: 'btn flip-board', 'aria-pressed': page.flipped ? 'true' : 'false',
        onClick: () => { page.flipped = !page.flipped; page.renderBoard(); renderActions(); },
      }, t('table.flip')));
    }
    // Other games wait for this player's move: one press takes them to the next.
    const waitingHere = s === 'playing' && seated && !page.solo() && page.tbl.to_move === page.tbl.you ? 1 : 0;
    const elsewhere = turns() - waitingHere;
    if (seated && elsewhere > 0 && !waitingHere) {
      add(button(t('table.next', { n: elsewhere }), nextGame, 'next-game'));
    }
  }

  /** Opens the game that waits longest for this player's move, other than this one. */
  async function nextGame() {
    try {
      const { games: mine } = await api.playing();
      const next = mine.find((g) => g.your_turn && g.id !== id);
      if (next) navigate(`/table/${next.id}`);
      else toast(t('table.next.none'), 'info');
    } catch (err) {
      toast(page.errorText(err), 'error');
    }
  }

  return { renderActions };
}
