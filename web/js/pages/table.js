// The table page: board, players and clocks, moves, offers, chat and voice for one table.
// The server is the truth: the page renders its snapshots and events, and a click only ever
// sends a move string taken from the server's list of legal moves.

import { h, clear, fill, icon, toast, copyText, formatClock, formatDate, formatPercent, remembered, remember } from '../ui.js';
import { t, lang, gameName, variantName, sideName, resultText, moveText, userName, timeLeft } from '../i18n.js';
import { endReason } from '../endings.js';
import { play as playSound } from '../sound.js';
import { socket } from '../socket.js';
import { api } from '../api.js';
import { boards } from '../registry/index.js';
import { session } from '../session.js';
import { Voice } from '../voice.js';
import { navigate } from '../router.js';
import { createTable } from './catalogue.js';
import { turns, onTurns } from '../turns.js';
import { playerLink, ratingNode, changeNode, ratedLabel } from '../players.js';

/** Whether a player has chosen to read the spectators' chat too (remembered). */
const SPECTATOR_CHAT_KEY = 'stolik.spectatorChat';

/** m:ss until a moment, never below 0:00. */
function countdown(at) {
  const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

export function mount(root, params) {
  const id = params.parts[1];
  const token = params.query.get('token') || null;
  let tbl = null; // the current snapshot, kept up to date by events
  let games = [];
  let clockBase = null; // {remaining: [a, b], running, at}
  let sending = false;
  let missed = new Set(); // plies learnt from a catch-up, highlighted in the move list
  let voice = null;
  let voiceState = 'off';
  let confirmResign = false;
  let hint = null; // White Rabbit: {ply, hints} from the solver, or {ply, loading: true}
  let disposed = false;
  let view = null; // looking back: the ply shown (0 = the start); null = the live position
  let positions = null; // every position so far, fetched when first looking back
  const offs = [];

  // Static skeleton; the parts are refreshed separately so that typing in the chat survives.
  const el = {};
  function skeleton() {
    clear(root);
    el.title = h('h1', { class: 'table-title' });
    el.badges = h('div', { class: 'badges' });
    el.invite = h('div', { class: 'invite' });
    el.top = h('div', { class: 'player-bar top' });
    el.board = h('div', { class: 'board-wrap' });
    el.bottom = h('div', { class: 'player-bar bottom' });
    el.history = h('div', { class: 'history' });
    el.banner = h('div', { class: 'banner', role: 'status', 'aria-live': 'polite' });
    el.status = h('div', { class: 'status-line', role: 'status', 'aria-live': 'polite' });
    el.away = h('div', { class: 'away', role: 'status', 'aria-live': 'polite' });
    el.actions = h('div', { class: 'actions' });
    el.hint = h('div', { class: 'hint-panel', 'aria-live': 'polite' });
    el.voice = h('div', { class: 'voice' });
    el.moves = h('ol', { class: 'move-list' });
    el.movesHead = h('p', { class: 'moves-players small' });
    el.chatOptions = h('div', { class: 'chat-options' });
    el.chatList = h('ul', { class: 'chat-list', 'aria-live': 'polite' });
    const oldInput = el.chatInput?.value || '';
    el.chatInput = h('input', { type: 'text', maxlength: 500, class: 'chat-input', placeholder: t('chat.placeholder'), 'aria-label': t('chat.title'), value: oldInput });
    el.chatForm = h(
      'form',
      { class: 'chat-form', onSubmit: sendChat },
      el.chatInput,
      h('button', { class: 'btn', type: 'submit' }, t('chat.send')),
    );
    root.append(
      el.page = h(
        'section',
        { class: 'table-page' },
        h('div', { class: 'table-head' }, el.title, el.badges, el.invite),
        h(
          'div',
          { class: 'table-main' },
          h('div', { class: 'board-col' }, el.top, el.board, el.bottom, el.history),
          h(
            'aside',
            { class: 'side-col' },
            el.banner,
            el.status,
            el.away,
            el.actions,
            el.hint,
            el.voice,
            h('section', { class: 'panel' }, h('h2', {}, t('moves.title')), el.movesHead, el.moves),
            el.chatPanel = h('section', { class: 'panel chat' }, h('h2', {}, t('chat.title')), el.chatOptions, el.chatList, el.chatForm),
          ),
        ),
      ),
    );
  }

  function info() {
    return games.find((g) => g.id === tbl?.game);
  }

  function solo() {
    return tbl && tbl.seats.length === 1;
  }

  /** A bot sits at this table: no voice, nobody to talk to. */
  function vsBot() {
    return !!tbl && tbl.seats.some((x) => x.user && typeof x.user.id === 'string' && x.user.id.startsWith('bot:'));
  }

  function opponentSeat() {
    return tbl.you === 'a' ? 'b' : 'a';
  }

  // ---- rendering -------------------------------------------------------------------------

  function renderAll() {
    if (!tbl) return;
    renderHead();
    renderPlayers();
    renderBoard();
    renderStatus();
    renderAway();
    renderActions();
    renderHint();
    renderVoice();
    renderMoves();
    renderHistory();
    renderChat();
    // The solo puzzle has nobody to talk to.
    el.chatPanel.hidden = solo();
    // On a phone the invitee's "Sit down" comes before the board (see app.css).
    el.page.classList.toggle('can-sit', tbl.status === 'open' && !tbl.you && tbl.seats.some((x) => !x.user));
    // …and so do the claim buttons once the opponent has left.
    el.page.classList.toggle('can-claim', tbl.status === 'playing' && !!tbl.claim);
    window.__stolik = { table: tbl, voice: voiceState, view: looking() ? view : null };
  }

  function renderHead() {
    const g = info();
    document.title = `${g ? gameName(g) : tbl.game} — ${t('app.name')}`;
    fill(el.title, g ? gameName(g) : tbl.game);
    fill(el.badges, 
      h('span', { class: 'badge' }, g ? variantName(g, tbl.variant) : tbl.variant),
      tbl.clock ? h('span', { class: 'badge' }, icon('clock'), ` ${Math.round(tbl.clock.initial_ms / 60000 * 10) / 10}+${tbl.clock.increment_ms / 1000}`) : null,
      tbl.days ? h('span', { class: 'badge correspondence' }, icon('clock'), ' ', t('clock.days', { n: tbl.days })) : null,
      tbl.private ? h('span', { class: 'badge private' }, t('table.private')) : null,
      solo() ? null : h('span', { class: ['badge', 'rated-badge', tbl.rated && 'rated'] }, ratedLabel(tbl.rated, tbl.rating_class)),
      tbl.daily ? h('a', { class: 'badge daily', href: `#/daily?day=${tbl.daily}` }, t('daily.badge', { day: tbl.daily })) : null,
      h('span', { class: 'badge' }, t('state.' + tbl.status)),
      h('a', { class: 'badge link', href: `#/rules/${tbl.game}` }, t('nav.rules')),
    );
    clear(el.invite);
    if (tbl.invite) {
      el.invite.append(
        h('button', { class: 'btn copy-invite', onClick: async () => {
          const ok = await copyText(inviteLink());
          toast(ok ? t('table.invite.copied') : inviteLink(), ok ? 'ok' : 'info', ok ? 2500 : 10000);
        } }, icon('link'), t('table.invite.copy')),
      );
    }
  }

  function inviteLink() {
    return `${location.origin}/#/table/${tbl.id}?token=${encodeURIComponent(tbl.invite)}`;
  }

  function seatRow(seat) {
    const index = seat === 'a' ? 0 : 1;
    const sv = tbl.seats[index];
    if (!sv) return h('div');
    const toMove = tbl.status === 'playing' && tbl.to_move === seat;
    const extra = sideInfo(seat);
    const clock = tbl.clock
      ? h('div', { class: ['clock', clockBase?.running === seat && 'running', 'clock-' + seat], 'data-seat': seat }, formatClock(currentClock(seat)))
      : toMove && tbl.deadline
        // Correspondence: the time left for this move, the date itself on hover.
        ? h('div', { class: 'deadline', title: formatDate(tbl.deadline, lang()) }, t('table.deadline', { time: timeLeft(tbl.deadline - Date.now()) }))
        : null;
    return h(
      'div',
      { class: ['player', toMove && 'to-move', tbl.you === seat && 'me'] },
      h('span', { class: ['swatch', `seat-${tbl.game}-${sv.label}`] }),
      h(
        'div',
        { class: 'who' },
        h('div', { class: 'name' },
          sv.user ? playerLink(sv.user) : h('em', {}, t('table.seat.empty')),
          sv.rating ? [' ', ratingNode(sv.rating)] : null,
          sv.rating_change != null ? [' ', changeNode(sv.rating_change)] : null,
          tbl.you === seat ? h('span', { class: 'you' }, ` (${t('table.you')})`) : null),
        h('div', { class: 'side-name' }, sideName(tbl.game, sv.label), extra ? ` · ${extra}` : ''),
      ),
      toMove ? h('span', { class: 'turn-dot', title: t('status.tomove') }, '●') : null,
      clock,
    );
  }

  /** The game's own words under a seat (cubes home, dice, score), when its board has them. */
  function sideInfo(seat) {
    const mod = boards[tbl.game];
    try {
      return mod?.seatNote?.(tbl.position, seat, tbl.seats) ?? '';
    } catch {
      return '';
    }
  }

  function renderPlayers() {
    clear(el.top);
    clear(el.bottom);
    if (solo()) {
      el.bottom.append(seatRow('a'));
      return;
    }
    // You at the bottom; spectators see side a at the bottom.
    const bottom = tbl.you || 'a';
    const top = bottom === 'a' ? 'b' : 'a';
    el.top.append(seatRow(top));
    el.bottom.append(seatRow(bottom));
  }

  function myTurn() {
    return tbl.status === 'playing' && tbl.you && tbl.to_move === tbl.you && !sending;
  }

  function boardState() {
    return {
      game: tbl.game,
      variant: tbl.variant,
      position: tbl.position,
      legal: tbl.legal,
      legal_truncated: tbl.legal_truncated,
      last: tbl.moves.length ? tbl.moves[tbl.moves.length - 1] : null,
      you: tbl.you,
      flip: tbl.you === 'b',
      interactive: myTurn(),
      over: tbl.status !== 'playing',
      hinted: currentHint()?.action || null,
    };
  }

  function renderBoard() {
    const mod = boards[tbl.game];
    if (!mod) {
      fill(el.board, h('p', {}, tbl.position));
      return;
    }
    el.board.dataset.game = tbl.game;
    const back = looking();
    el.board.classList.toggle('looking-back', back);
    if (back) {
      // An earlier position: a picture, whoever is to move in the live game.
      mod.render(el.board, {
        game: tbl.game, variant: tbl.variant, position: positions[view], legal: [],
        last: view > 0 ? tbl.moves[view - 1] : null, you: tbl.you, flip: tbl.you === 'b', interactive: false, over: true,
      }, { interactive: false });
      return;
    }
    const st = boardState();
    mod.render(el.board, st, { interactive: st.interactive, onMove: sendMove });
  }

  // ---- looking back ------------------------------------------------------------------------
  // The board can show any earlier position of the game going on (buttons under the board,
  // or the arrow keys); the game itself goes on, and the move list marks the move shown.

  function looking() {
    return view !== null && !!positions && !!positions[view] && view < tbl.ply;
  }

  async function look(target) {
    if (!tbl) return;
    const ply = Math.max(0, Math.min(tbl.ply, target));
    if (ply >= tbl.ply) {
      view = null;
    } else {
      if (!positions || positions.length < tbl.ply + 1) {
        try {
          const reply = await api.recordPositions(id, token || undefined);
          const list = Array.isArray(reply) ? reply : reply?.positions;
          if (!Array.isArray(list)) return;
          positions = list;
        } catch (err) {
          toast(errorText(err), 'error');
          return;
        }
      }
      if (disposed || !positions[ply]) return;
      view = ply;
    }
    renderBoard();
    renderHistory();
    renderMoves();
    if (window.__stolik) window.__stolik.view = view;
  }

  function renderHistory() {
    clear(el.history);
    if (!tbl.moves.length) return;
    const add = (...nodes) => fill(el.history, ...nodes);
    const back = looking();
    const at = back ? view : tbl.ply;
    const btn = (cls, label, text, target, disabled) =>
      h('button', { class: ['btn', cls], 'aria-label': label, title: label, disabled, onClick: () => look(target) }, text);
    add(
      back ? h('p', { class: 'history-note', role: 'status' }, view === 0 ? t('history.start') : t('history.viewing', { move: moveText(tbl.moves[view - 1]), n: solo() ? view : Math.ceil(view / 2) })) : null,
      h('div', { class: 'history-controls', role: 'toolbar', 'aria-label': t('moves.title') },
        btn('history-first', t('replay.first'), '«', 0, at === 0),
        btn('history-back', t('history.back'), '‹', at - 1, at === 0),
        btn('history-forward', t('history.forward'), '›', at + 1, !back),
        btn('history-live', t('history.live'), '»', tbl.ply, !back),
      ),
    );
  }

  function onKey(e) {
    if (!tbl || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest('input, textarea, select, [contenteditable]')) return;
    const at = looking() ? view : tbl.ply;
    if (e.key === 'ArrowLeft') look(at - 1);
    else if (e.key === 'ArrowRight') look(at + 1);
    else if (e.key === 'Home') look(0);
    else if (e.key === 'End') look(tbl.ply);
    else return;
    e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  function renderStatus() {
    let text = '';
    if (tbl.status === 'open') {
      const free = tbl.seats.some((s) => !s.user);
      text = tbl.you ? t('status.waiting') : free ? t('status.open') : t('status.starting');
    } else if (tbl.status === 'playing') {
      if (solo()) text = t('status.solo');
      else if (tbl.you && tbl.to_move === tbl.you) text = phaseHint() || t('status.yourmove');
      else if (tbl.you) text = t('status.theirmove');
      else text = t('status.watching', { side: sideName(tbl.game, tbl.seats[tbl.to_move === 'a' ? 0 : 1]?.label || tbl.to_move) });
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
    if (tbl.status === 'finished' || tbl.status === 'aborted') {
      const mine = resultForMe();
      el.banner.classList.add('shown', mine);
      const why = reasonNode();
      el.banner.append(h('strong', {}, resultText(tbl, games)));
      if (why) el.banner.append(why);
    }
  }

  // A player of a live game for two has no open connection: the opponent is told when the
  // game can be claimed, and once it can (`claim`, in the opponent's snapshot only) may claim
  // the win or call it a draw; spectators are told who left.
  function renderAway() {
    clear(el.away);
    const away = tbl.status === 'playing' ? tbl.away : null;
    el.away.hidden = !away;
    if (!away) return;
    const sv = tbl.seats.find((x) => x.seat === away.seat);
    const name = userName(sv?.user) || sideName(tbl.game, sv?.label || away.seat);
    if (!tbl.you) {
      el.away.append(h('p', { class: 'away-note' }, t('away.spectator', { name })));
    } else if (tbl.you !== away.seat && tbl.claim) {
      el.away.append(
        h('p', { class: 'away-note' }, t('away.claim')),
        h('div', { class: 'claim-buttons' },
          button(t('away.claim.win'), () => act({ type: 'claim', outcome: 'win' }), 'primary claim-win'),
          button(t('away.claim.draw'), () => act({ type: 'claim', outcome: 'draw' }), 'claim-draw')),
      );
    } else if (tbl.you !== away.seat) {
      // The countdown stands where the sentence has {time}, in every language.
      const [before, after = ''] = t('away.wait').split('{time}');
      el.away.append(h('p', { class: 'away-note' }, before, h('strong', { class: 'away-countdown', 'data-at': away.claim_at }, countdown(away.claim_at)), after));
    }
  }

  function reasonNode() {
    const text = endReason(tbl);
    return text ? h('span', { class: 'reason' }, ' — ' + text) : null;
  }

  function phaseHint() {
    if (tbl.game !== 'tumbleweed') return '';
    if (tbl.turn === 'setup') return t('tumbleweed.setup.red');
    if (tbl.turn === 'choose') return t('tumbleweed.choose.hint');
    return '';
  }

  function resultForMe() {
    if (tbl.status === 'aborted') return 'neutral';
    const r = tbl.result || '';
    if (r.startsWith('won')) return 'win';
    if (r === 'lost') return 'loss';
    if (r === 'draw' || !tbl.you) return 'neutral';
    return r === tbl.you ? 'win' : 'loss';
  }

  function button(label, fn, cls = '') {
    return h('button', { class: ['btn', cls], onClick: fn }, label);
  }

  function renderActions() {
    clear(el.actions);
    const seated = !!tbl.you;
    const s = tbl.status;
    const add = (...nodes) => el.actions.append(...nodes);
    if (s === 'open') {
      if (!seated && tbl.seats.some((x) => !x.user)) add(button(t('table.sit'), () => act({ type: 'sit' }), 'primary sit'));
      if (seated) add(button(t('table.stand'), () => act({ type: 'stand' }), 'stand'));
    }
    if (s === 'playing' && seated) {
      if (!solo() && tbl.ply < tbl.seats.length) add(button(t('table.abort'), () => act({ type: 'abort' }), 'abort'));
      if (!solo()) {
        if (tbl.draw_offer === opponentSeat()) {
          add(
            h('div', { class: 'offer' }, t('table.draw.offered')),
            button(t('table.draw.accept'), () => act({ type: 'draw.accept' }), 'primary draw-accept'),
            button(t('table.draw.decline'), () => act({ type: 'draw.decline' }), 'draw-decline'),
          );
        } else if (tbl.draw_offer === tbl.you) {
          add(h('div', { class: 'offer' }, t('table.draw.sent')));
        } else {
          add(button(t('table.draw.offer'), () => act({ type: 'draw.offer' }), 'draw-offer'));
        }
        // Takebacks are for casual games; the server says when there is nothing to take back.
        if (!tbl.rated) {
          if (tbl.takeback_offer === opponentSeat()) {
            add(
              h('div', { class: 'offer' }, t('table.takeback.offered')),
              button(t('table.takeback.accept'), () => act({ type: 'takeback.accept' }), 'primary takeback-accept'),
              button(t('table.takeback.decline'), () => act({ type: 'takeback.decline' }), 'takeback-decline'),
            );
          } else if (tbl.takeback_offer === tbl.you) {
            add(h('div', { class: 'offer' }, t('table.takeback.sent')));
          } else if (tbl.ply > 0) {
            add(button(t('table.takeback'), () => act({ type: 'takeback.offer' }), 'takeback'));
          }
        }
      }
      if (confirmResign) {
        add(
          button(t(solo() ? 'table.giveup.confirm' : 'table.resign.confirm'), () => { confirmResign = false; act({ type: 'resign' }); }, 'danger resign-confirm'),
          button(t('cancel'), () => { confirmResign = false; renderActions(); }),
        );
      } else {
        add(button(t(solo() ? 'table.giveup' : 'table.resign'), () => { confirmResign = true; renderActions(); }, 'resign'));
      }
    }
    if (s === 'playing' && seated && tbl.game === 'white-rabbit') {
      if (tbl.daily) add(h('p', { class: 'note no-hints' }, t('hint.daily')));
      else add(button(t('hint.ask'), askHint, 'ask-hint'));
      if (!tbl.daily) add(button(t('rabbit.newdeal'), () => createTable({ game: tbl.game, variant: tbl.variant }), 'new-deal'));
    }
    if ((s === 'finished' || s === 'aborted') && seated) {
      if (tbl.rematch) {
        add(h('a', { class: 'btn primary', href: `#/table/${tbl.rematch}` }, t('table.rematch.go')));
      } else if (solo()) {
        add(button(t('table.newgame'), () => act({ type: 'rematch.offer' }), 'primary rematch'));
      } else if (tbl.rematch_offer === opponentSeat()) {
        add(
          h('div', { class: 'offer' }, t('table.rematch.offered')),
          button(t('table.rematch.accept'), () => act({ type: 'rematch.accept' }), 'primary rematch-accept'),
          button(t('table.rematch.decline'), () => act({ type: 'rematch.decline' }), 'rematch-decline'),
        );
      } else if (tbl.rematch_offer === tbl.you) {
        add(h('div', { class: 'offer' }, t('table.rematch.sent')));
      } else {
        add(button(t('table.rematch'), () => act({ type: 'rematch.offer' }), 'primary rematch'));
      }
    }
    if ((s === 'finished' || s === 'aborted') && !seated && tbl.rematch) {
      add(h('a', { class: 'btn', href: `#/table/${tbl.rematch}` }, t('table.rematch.go')));
    }
    if (s === 'finished') {
      add(h('a', { class: 'btn', href: `#/replay/${tbl.id}${token ? '?token=' + encodeURIComponent(token) : ''}` }, t('table.replay')));
      // A daily deal's review opens only once its day is over (the server says so).
      if (tbl.game === 'white-rabbit' && !tbl.daily) add(h('a', { class: 'btn review-link', href: `#/review/${tbl.id}` }, t('review.open')));
    }
    // Other games wait for this player's move: one press takes them to the next.
    const waitingHere = s === 'playing' && seated && !solo() && tbl.to_move === tbl.you ? 1 : 0;
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
      toast(errorText(err), 'error');
    }
  }

  // ---- White Rabbit hints ----------------------------------------------------------------

  /** The solver's best action for the position on the board, once it has answered. */
  function currentHint() {
    return hint && hint.ply === tbl.ply && hint.hints ? hint.hints[0] : null;
  }

  async function askHint() {
    const ply = tbl.ply;
    hint = { ply, loading: true };
    renderHint();
    try {
      const answer = await api.hints(id);
      if (answer.ply !== tbl.ply) return; // the position moved on meanwhile
      hint = { ply: answer.ply, hints: answer.hints };
    } catch (err) {
      hint = null;
      toast(errorText(err), 'error');
    }
    renderHint();
    renderBoard();
  }

  function renderHint() {
    clear(el.hint);
    if (!hint || hint.ply !== tbl.ply || tbl.status !== 'playing') return;
    if (hint.loading) {
      el.hint.append(h('p', { class: 'loading' }, t('hint.thinking')));
      return;
    }
    const [best, ...rest] = hint.hints;
    if (!best) return;
    const row = (x, cls) => h('tr', { class: cls },
      h('td', { class: 'hint-action' }, moveText(x.action)),
      h('td', {}, formatPercent(x.win)),
      h('td', {}, x.score.toFixed(2)),
      h('td', {}, x.actions.toFixed(1)),
    );
    el.hint.append(
      h('h2', {}, t('hint.title')),
      h('p', { class: 'hint-best' }, t('hint.best', { action: moveText(best.action) }), ' ',
        myTurn() ? button(t('hint.play'), () => sendMove(best.action), 'primary play-hint') : null),
      h('table', { class: 'hint-table' },
        h('thead', {}, h('tr', {},
          h('th', {}, t('hint.action')), h('th', {}, t('hint.win')), h('th', {}, t('hint.score')), h('th', {}, t('hint.actions')))),
        h('tbody', {}, row(best, 'best'), ...rest.slice(0, 4).map((x) => row(x, ''))),
      ),
      h('p', { class: 'small muted' }, t('hint.explain')),
    );
  }

  function renderVoice() {
    clear(el.voice);
    const both = tbl.seats.length === 2 && tbl.seats.every((x) => x.user);
    if (!tbl.you || solo() || !both || vsBot() || tbl.status === 'aborted') {
      el.voice.hidden = true;
      return;
    }
    el.voice.hidden = false;
    const on = voice && voice.enabled;
    el.voice.append(
      h(
        'button',
        { class: ['btn', 'voice-toggle', on && 'on'], 'aria-pressed': on ? 'true' : 'false', onClick: toggleVoice },
        icon(on ? 'mic' : 'micoff'),
        t(on ? 'voice.off' : 'voice.on'),
      ),
      h('span', { class: ['voice-state', 'vs-' + voiceState] }, t('voice.state.' + voiceState)),
    );
  }

  function renderMoves() {
    fill(el.movesHead, solo() ? null : tbl.seats.map((x, i) => [i ? ' — ' : null, `${sideName(tbl.game, x.label)}: `, x.user ? playerLink(x.user) : '—']));
    clear(el.moves);
    const list = tbl.moves;
    if (!list.length) {
      el.moves.append(h('li', { class: 'empty' }, t('moves.none')));
      return;
    }
    // The move shown on the board: the last one, or the one looked back at.
    const shown = looking() ? view - 1 : list.length - 1;
    // Numbers are text, not list markers: a marker of two or three digits does not fit.
    const num = (n) => h('span', { class: 'num' }, `${n}.`);
    if (solo()) {
      list.forEach((m, i) => el.moves.append(h('li', { class: [missed.has(i + 1) && 'missed'] }, num(i + 1), h('span', { class: ['mv', i === shown && 'current'] }, moveText(m)))));
    } else {
      for (let i = 0; i < list.length; i += 2) {
        el.moves.append(
          h(
            'li',
            {},
            num(i / 2 + 1),
            h('span', { class: ['mv', missed.has(i + 1) && 'missed', i === shown && 'current'] }, moveText(list[i])),
            list[i + 1] !== undefined ? h('span', { class: ['mv', missed.has(i + 2) && 'missed', i + 1 === shown && 'current'] }, moveText(list[i + 1])) : null,
          ),
        );
      }
    }
    const current = looking() ? el.moves.querySelector('.mv.current') : null;
    if (current) {
      const item = current.closest('li');
      el.moves.scrollTop = Math.max(0, item.offsetTop - el.moves.offsetTop - (el.moves.clientHeight - item.offsetHeight) / 2);
    } else {
      el.moves.scrollTop = el.moves.scrollHeight;
    }
  }

  // Two rooms: seated players write in the players' room, everyone else in the spectators'.
  // Spectators read both; players read the spectators' only when they ask to.
  function renderChat() {
    clear(el.chatOptions);
    if (tbl.you && !solo()) {
      el.chatOptions.append(h('label', { class: 'spectator-toggle small' },
        h('input', { type: 'checkbox', class: 'show-spectators', checked: remembered(SPECTATOR_CHAT_KEY), onChange: (e) => {
          remember(SPECTATOR_CHAT_KEY, e.target.checked);
          renderChat();
        } }), ' ', t('chat.spectators.show')));
    } else if (!tbl.you) {
      el.chatOptions.append(h('p', { class: 'small spectator-room' }, t('chat.spectators.room')));
    }
    el.chatInput.placeholder = tbl.you ? t('chat.placeholder') : t('chat.spectators.placeholder');
    clear(el.chatList);
    for (const line of tbl.chat || []) appendChatLine(line);
  }

  function lineShown(line) {
    return !tbl.you || line.room !== 'spectators' || remembered(SPECTATOR_CHAT_KEY);
  }

  function appendChatLine(line) {
    if (!lineShown(line)) return;
    const mine = line.user && session.user && line.user === session.user.id;
    // Someone else's line can be muted (for you only) or reported to the moderators.
    const actions = !mine && line.user && !line.user.startsWith('bot:')
      ? h('span', { class: 'chat-actions' },
        h('button', { type: 'button', class: 'chat-act mute', title: t('chat.mute', { name: line.author }), 'aria-label': t('chat.mute', { name: line.author }), onClick: () => muteAuthor(line) }, t('chat.mute.short')),
        h('button', { type: 'button', class: 'chat-act report', title: t('chat.report'), 'aria-label': t('chat.report'), onClick: () => reportLine(line) }, t('chat.report.short')))
      : null;
    el.chatList.append(
      h('li', { class: ['chat-line', mine && 'mine', line.room === 'spectators' && 'from-spectator'], title: new Date(line.at).toLocaleTimeString(lang()) },
        line.room === 'spectators' ? h('span', { class: 'room-tag' }, t('chat.spectator.tag')) : null,
        h('b', {}, line.user ? playerLink({ id: line.user, name: line.author }) : line.author, ': '), line.text, actions),
    );
    el.chatList.scrollTop = el.chatList.scrollHeight;
  }

  async function muteAuthor(line) {
    try {
      await api.mute(line.user);
      tbl.chat = (tbl.chat || []).filter((l) => l.user !== line.user);
      renderChat();
      toast(t('chat.muted', { name: line.author }), 'ok');
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async function reportLine(line) {
    const reason = window.prompt(t('chat.report.prompt', { name: line.author }), '');
    if (!reason || !reason.trim()) return;
    try {
      await api.report(line.user, line.id, reason.trim().slice(0, 500));
      toast(t('chat.reported'), 'ok');
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  // ---- clocks ----------------------------------------------------------------------------

  function setClock(remaining, running) {
    clockBase = { remaining: [...remaining], running, at: performance.now() };
  }

  function currentClock(seat) {
    if (!clockBase) return 0;
    const i = seat === 'a' ? 0 : 1;
    let ms = clockBase.remaining[i];
    if (clockBase.running === seat && !clockBase.frozen) ms -= performance.now() - clockBase.at;
    return ms;
  }

  // Without the server the page cannot know the clocks: they stand still until it answers
  // again (then its snapshot sets them), rather than run on and jump back.
  function freezeClock() {
    if (!clockBase || !clockBase.running || clockBase.frozen) return;
    clockBase = { remaining: [currentClock('a'), currentClock('b')], running: clockBase.running, at: performance.now(), frozen: true };
  }

  let lowWarned = null; // the ply at which the low-time sound last played

  const ticker = setInterval(() => {
    for (const node of root.querySelectorAll('.away-countdown')) node.textContent = countdown(Number(node.dataset.at));
    if (!tbl || !tbl.clock || !clockBase?.running) return;
    for (const node of root.querySelectorAll('.clock')) {
      const seat = node.dataset.seat;
      node.textContent = formatClock(currentClock(seat));
      node.classList.toggle('low', currentClock(seat) < 20000);
    }
    if (tbl.you && clockBase.running === tbl.you && !clockBase.frozen && currentClock(tbl.you) < 10000 && lowWarned !== tbl.ply) {
      lowWarned = tbl.ply;
      playSound('lowtime');
    }
  }, 100);

  // ---- server messages -------------------------------------------------------------------

  function applySnapshot(snap) {
    const was = tbl;
    tbl = snap;
    // A game starting before your eyes: both seats just taken, or a bot game just made.
    if (snap.status === 'playing' && snap.ply === 0 && (!was ? snap.you : was.status === 'open')) playSound('start');
    if (tbl.clock) setClock(tbl.clock.remaining_ms, tbl.status === 'playing' ? tbl.clock.running : null);
    else clockBase = null;
    ensureVoice();
    renderAll();
  }

  function applyMove(ev) {
    if (ev.ply <= tbl.ply) return; // already seen
    if (ev.ply !== tbl.ply + 1) {
      // A gap: ask for what we missed.
      subscribe();
      return;
    }
    tbl.moves.push(ev.move);
    tbl.ply = ev.ply;
    tbl.position = ev.position;
    if ('to_move' in ev) {
      tbl.to_move = ev.to_move;
      tbl.turn = ev.turn;
      tbl.legal = ev.legal;
      tbl.legal_truncated = ev.legal_truncated;
    }
    // Tumbleweed's seats become colours with the choice; move events do not carry labels.
    if (tbl.game === 'tumbleweed' && (ev.move === 'red' || ev.move === 'white')) {
      const bLabel = ev.move === 'red' ? 'r' : 'w';
      tbl.seats = tbl.seats.map((x) => ({ ...x, label: x.seat === 'b' ? bLabel : bLabel === 'r' ? 'w' : 'r' }));
    }
    // Moving on declines a draw offered by the other side, and ends any takeback request.
    if (tbl.draw_offer && tbl.draw_offer !== ev.by) tbl.draw_offer = null;
    tbl.takeback_offer = null;
    if (tbl.clock && ev.clock) {
      // A clock runs once both sides have moved, for the side to move.
      const running = tbl.status === 'playing' && tbl.ply >= tbl.seats.length ? tbl.to_move : null;
      setClock(ev.clock, running);
    }
    sending = false;
    playSound(isCapture(tbl.game, ev.move) ? 'capture' : 'move');
    renderAll();
  }

  /** Moves that take pieces off the board (mill removals, cephalopod captures), by the game's board. */
  function isCapture(game, mv) {
    return boards[game]?.isCapture?.(mv) ?? false;
  }

  function onEvent(msg) {
    if (!tbl || msg.table !== tbl.id) return;
    switch (msg.type) {
      case 'move':
        applyMove(msg);
        break;
      case 'end':
        tbl.status = msg.status;
        tbl.result = msg.result;
        tbl.reason = msg.reason;
        tbl.to_move = null;
        tbl.legal = [];
        tbl.draw_offer = null;
        tbl.takeback_offer = null;
        tbl.away = null;
        tbl.claim = false;
        // A rated game: each seat's new rating and its change.
        if (msg.ratings) {
          tbl.seats = tbl.seats.map((x) => (msg.ratings[x.seat]
            ? { ...x, rating: { rating: msg.ratings[x.seat].after, provisional: msg.ratings[x.seat].provisional }, rating_change: msg.ratings[x.seat].change }
            : x));
        }
        if (clockBase) clockBase = { ...clockBase, remaining: [currentClock('a'), currentClock('b')], running: null, at: performance.now() };
        sending = false;
        confirmResign = false;
        if (msg.status === 'finished') playSound('end');
        renderAll();
        break;
      case 'offer':
        tbl[`${msg.kind}_offer`] = msg.by;
        if (msg.by && msg.by !== tbl.you && tbl.you) toast(t(`table.${msg.kind}.offered`));
        renderActions();
        break;
      case 'takeback':
        // The snapshot that follows carries the position. Earlier positions after the
        // takeback's ply are no longer the game's.
        if (positions) positions = positions.slice(0, msg.ply + 1);
        if (view !== null && view > msg.ply) view = null;
        toast(t('table.takeback.done'));
        break;
      case 'rematch':
        tbl.rematch = msg.next;
        if (tbl.you) navigate(`/table/${msg.next}`);
        else renderActions();
        break;
      case 'chat':
        tbl.chat = [...(tbl.chat || []), msg.line];
        appendChatLine(msg.line);
        break;
      case 'table':
        applySnapshot(msg.table);
        break;
      case 'seats':
        tbl.seats = msg.seats;
        tbl.status = msg.status;
        renderAll();
        break;
      case 'voice':
        voice?.signal(msg.signal);
        break;
      default:
    }
  }

  for (const type of ['move', 'end', 'offer', 'rematch', 'takeback', 'chat', 'seats', 'voice']) offs.push(socket.on(type, onEvent));
  // Seat changes arrive as whole snapshots (type 'table' with a `table` object).
  offs.push(socket.on('table', (msg) => {
    if (tbl && msg.table && msg.table.id === tbl.id) applySnapshot(msg.table);
  }));

  async function subscribe() {
    const since = tbl ? tbl.ply : undefined;
    try {
      const reply = await socket.request({ type: 'table.subscribe', table: id, token: token || undefined, since });
      if (disposed) return;
      if (reply.type === 'catchup') {
        const fresh = reply.moves.filter((m) => m.ply > (since || 0));
        if (fresh.length) {
          for (const m of fresh) missed.add(m.ply);
          toast(t('net.missed', { moves: fresh.map((m) => moveText(m.move)).join(', ') }), 'info', 6000);
        }
        applySnapshot(reply.state);
      } else if (reply.type === 'table') {
        applySnapshot(reply.table);
      }
    } catch (err) {
      if (disposed || err.code === 'disconnected') return;
      showError(err);
    }
  }

  function showError(err) {
    if (err.code === 'forbidden') {
      clear(root).append(h('section', { class: 'page narrow' }, h('h1', {}, t('table.forbidden.title')), h('p', {}, t('table.forbidden.text'))));
    } else if (err.code === 'not_found') {
      clear(root).append(h('section', { class: 'page narrow' }, h('h1', {}, t('table.notfound')), h('p', {}, h('a', { href: '#/' }, t('nav.games')))));
    } else {
      toast(errorText(err), 'error');
    }
  }

  function errorText(err) {
    // A refusal to sit (outside a rated table's range, a restricted account) says why itself.
    if (err.code === 'forbidden' && err.message && err.message !== err.code) return err.message;
    const key = 'error.' + err.code;
    const text = t(key);
    return text === key ? err.message || err.code : text;
  }

  async function act(body) {
    try {
      await socket.request({ ...body, table: id, token: body.type === 'sit' ? token || undefined : undefined });
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  async function sendMove(mv) {
    if (!myTurn()) return;
    sending = true;
    renderBoard();
    try {
      await socket.request({ type: 'move', table: id, move: mv, ply: tbl.ply });
      // The move event renders the new position; it may already have arrived.
    } catch (err) {
      sending = false;
      toast(errorText(err), 'error');
      if (err.code === 'stale_ply') subscribe();
      else renderBoard();
    }
  }

  async function sendChat(e) {
    e.preventDefault();
    const text = el.chatInput.value.trim();
    if (!text) return;
    try {
      await socket.request({ type: 'chat', table: id, text });
      el.chatInput.value = '';
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  // ---- voice -----------------------------------------------------------------------------

  function ensureVoice() {
    const both = tbl.seats.length === 2 && tbl.seats.every((x) => x.user);
    if (!voice && tbl.you && both && !vsBot()) {
      voice = new Voice({
        polite: tbl.you === 'b',
        send: (signal) => socket.request({ type: 'voice', table: id, signal }),
        onState: (st) => {
          voiceState = st;
          if (window.__stolik) window.__stolik.voice = st;
          if (tbl) renderVoice();
          if (st === 'ringing') toast(t('voice.ringing'));
        },
      });
    }
  }

  async function toggleVoice() {
    if (!voice) return;
    if (voice.enabled) voice.off();
    else await voice.on();
    renderVoice();
  }

  // ---- life cycle ------------------------------------------------------------------------

  skeleton();
  el.board.append(h('p', { class: 'loading' }, t('loading')));
  api
    .games()
    .then((list) => {
      games = list;
      if (tbl) renderAll();
    })
    .catch(() => {});
  offs.push(socket.onOpen(() => subscribe()));
  offs.push(onTurns(() => { if (tbl) renderActions(); }));
  offs.push(
    socket.onState((state) => {
      if (state !== 'open') freezeClock();
      if (tbl) renderStatus();
    }),
  );

  return {
    unmount() {
      disposed = true;
      clearInterval(ticker);
      document.removeEventListener('keydown', onKey);
      for (const off of offs) off();
      voice?.destroy();
      if (socket.state === 'open') socket.request({ type: 'table.unsubscribe', table: id }).catch(() => {});
      window.__stolik = undefined;
    },
    relabel() {
      skeleton();
      renderAll();
    },
  };
}
