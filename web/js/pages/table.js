// The table page: board, players and clocks, moves, offers, chat and voice for one table.
// The server is the truth: the page renders its snapshots and events, and a click only ever
// sends a move string taken from the server's list of legal moves.
//
// This module keeps the state, the skeleton and the server's messages; each part of the page
// is a module of its own in table/, made over the one `page` object they share.

import { h, clear, toast } from '../ui.js';
import { t, moveText } from '../i18n.js';
import { play as playSound } from '../sound.js';
import { socket } from '../socket.js';
import { api } from '../api.js';
import { boards } from '../registry/index.js';
import { navigate } from '../router.js';
import { onTurns } from '../turns.js';
import { head } from './table/head.js';
import { seats } from './table/seats.js';
import { board } from './table/board.js';
import { history } from './table/history.js';
import { status } from './table/status.js';
import { actions } from './table/actions.js';
import { hints } from './table/hints.js';
import { chat } from './table/chat.js';
import { voicePanel } from './table/voice.js';

export function mount(root, params) {
  const id = params.parts[1];
  const token = params.query.get('token') || null;
  // Static skeleton; the parts are refreshed separately so that typing in the chat survives.
  const el = {};
  // The state every part reads and writes, and (assigned below) every part's functions.
  const page = {
    id,
    token,
    root,
    el,
    tbl: null, // the current snapshot, kept up to date by events
    games: [],
    clockBase: null, // {remaining: [a, b], running, at}
    sending: false,
    missed: new Set(), // plies learnt from a catch-up, highlighted in the move list
    voice: null,
    voiceState: 'off',
    confirmResign: false,
    confirmCancel: false,
    flipped: false,
    // The invitation's seat was asked for once (a refusal leaves the Sit down button).
    invited: false,
    hint: null, // White Rabbit: {ply, hints} from the solver, or {ply, loading: true}
    disposed: false,
    view: null, // looking back: the ply shown (0 = the start); null = the live position
    positions: null, // every position so far, fetched when first looking back
  };
  Object.assign(
    page,
    { info, solo, vsBot, opponentSeat, errorText, act, sendMove },
    head(page),
    seats(page),
    board(page),
    history(page),
    status(page),
    actions(page),
    hints(page),
    chat(page),
    voicePanel(page),
  );
  const offs = [];

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
      { class: 'chat-form', onSubmit: page.sendChat },
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
    return page.games.find((g) => g.id === page.tbl?.game);
  }

  function solo() {
    return page.tbl && page.tbl.seats.length === 1;
  }

  /** A bot sits at this table: no voice, nobody to talk to. */
  function vsBot() {
    return !!page.tbl && page.tbl.seats.some((x) => x.user && typeof x.user.id === 'string' && x.user.id.startsWith('bot:'));
  }

  function opponentSeat() {
    return page.tbl.you === 'a' ? 'b' : 'a';
  }

  // ---- rendering -------------------------------------------------------------------------

  function renderAll() {
    if (!page.tbl) return;
    page.renderHead();
    page.renderPlayers();
    page.renderBoard();
    page.renderStatus();
    page.renderAway();
    page.renderActions();
    page.renderHint();
    page.renderVoice();
    page.renderMoves();
    page.renderHistory();
    page.renderChat();
    // The solo puzzle has nobody to talk to.
    el.chatPanel.hidden = solo();
    // On a phone the invitee's "Sit down" comes before the board (see app.css).
    el.page.classList.toggle('can-sit', page.tbl.status === 'open' && !page.tbl.you && page.tbl.seats.some((x) => !x.user));
    // …and so do the claim buttons once the opponent has left.
    el.page.classList.toggle('can-claim', page.tbl.status === 'playing' && !!page.tbl.claim);
    window.__stolik = { table: page.tbl, voice: page.voiceState, view: page.looking() ? page.view : null };
  }

  // ---- server messages -------------------------------------------------------------------

  function applySnapshot(snap) {
    const was = page.tbl;
    page.tbl = snap;
    // The friend who opens an invitation to a table that waits for them sits down at once.
    if (!was && token && snap.private && snap.status === 'open' && !snap.you && snap.seats.some((x) => !x.user) && !page.invited) {
      page.invited = true;
      act({ type: 'sit' });
    }
    // A game starting before your eyes: both seats just taken, or a bot game just made.
    if (snap.status === 'playing' && snap.ply === 0 && (!was ? snap.you : was.status === 'open')) playSound('start');
    if (page.tbl.clock) page.setClock(page.tbl.clock.remaining_ms, page.tbl.status === 'playing' ? page.tbl.clock.running : null);
    else page.clockBase = null;
    page.ensureVoice();
    renderAll();
  }

  function applyMove(ev) {
    if (ev.ply <= page.tbl.ply) return; // already seen
    if (ev.ply !== page.tbl.ply + 1) {
      // A gap: ask for what we missed.
      subscribe();
      return;
    }
    page.tbl.moves.push(ev.move);
    page.tbl.ply = ev.ply;
    page.tbl.position = ev.position;
    if ('to_move' in ev) {
      page.tbl.to_move = ev.to_move;
      page.tbl.turn = ev.turn;
      page.tbl.legal = ev.legal;
      page.tbl.legal_truncated = ev.legal_truncated;
    }
    // Tumbleweed's seats become colours with the choice; move events do not carry labels.
    if (page.tbl.game === 'tumbleweed' && (ev.move === 'red' || ev.move === 'white')) {
      const bLabel = ev.move === 'red' ? 'r' : 'w';
      page.tbl.seats = page.tbl.seats.map((x) => ({ ...x, label: x.seat === 'b' ? bLabel : bLabel === 'r' ? 'w' : 'r' }));
    }
    // Moving on declines a draw offered by the other side, and ends any takeback request.
    if (page.tbl.draw_offer && page.tbl.draw_offer !== ev.by) {
      if (page.tbl.you && page.tbl.draw_offer === page.tbl.you) toast(t('table.draw.declined'));
      page.tbl.draw_offer = null;
    }
    if (page.tbl.you && ev.by === page.tbl.you) page.tbl.can_take_back = true;
    // Berserk is chosen before your first move.
    if (page.tbl.berserk && ev.by === page.tbl.you) page.tbl.berserk.can = false;
    page.tbl.takeback_offer = null;
    if (page.tbl.clock && ev.clock) {
      // A clock runs once both sides have moved, for the side to move.
      const running = page.tbl.status === 'playing' && page.tbl.ply >= page.tbl.seats.length ? page.tbl.to_move : null;
      page.setClock(ev.clock, running);
    }
    page.sending = false;
    playSound(isCapture(page.tbl.game, ev.move) ? 'capture' : 'move');
    renderAll();
  }

  /** Moves that take pieces off the board (mill removals, cephalopod captures), by the game's board. */
  function isCapture(game, mv) {
    return boards[game]?.isCapture?.(mv) ?? false;
  }

  function onEvent(msg) {
    if (!page.tbl || msg.table !== page.tbl.id) return;
    switch (msg.type) {
      case 'move':
        applyMove(msg);
        break;
      case 'end':
        page.tbl.status = msg.status;
        page.tbl.result = msg.result;
        page.tbl.reason = msg.reason;
        page.tbl.to_move = null;
        page.tbl.legal = [];
        page.tbl.draw_offer = null;
        page.tbl.takeback_offer = null;
        page.tbl.away = null;
        page.tbl.claim = false;
        // A rated game: each seat's new rating and its change.
        if (msg.ratings) {
          page.tbl.seats = page.tbl.seats.map((x) => (msg.ratings[x.seat]
            ? { ...x, rating: { rating: msg.ratings[x.seat].after, provisional: msg.ratings[x.seat].provisional }, rating_change: msg.ratings[x.seat].change }
            : x));
        }
        if (page.clockBase) page.clockBase = { ...page.clockBase, remaining: [page.currentClock('a'), page.currentClock('b')], running: null, at: performance.now() };
        page.sending = false;
        page.confirmResign = false;
        if (msg.status === 'finished') playSound('end');
        renderAll();
        break;
      case 'offer':
        // Our offer withdrawn by the other side's answer: it was declined, and we say so.
        if (!msg.by && page.tbl.you && page.tbl[`${msg.kind}_offer`] === page.tbl.you) toast(t(`table.${msg.kind}.declined`), 'info', 6000);
        page.tbl[`${msg.kind}_offer`] = msg.by;
        if (msg.by && msg.by !== page.tbl.you && page.tbl.you) toast(t(`table.${msg.kind}.offered`));
        page.renderActions();
        break;
      case 'takeback':
        // The snapshot that follows carries the position. Earlier positions after the
        // takeback's ply are no longer the game's.
        if (page.positions) page.positions = page.positions.slice(0, msg.ply + 1);
        if (page.view !== null && page.view > msg.ply) page.view = null;
        toast(t('table.takeback.done'));
        break;
      case 'rematch':
        page.tbl.rematch = msg.next;
        if (page.tbl.you) navigate(`/table/${msg.next}`);
        else page.renderActions();
        break;
      case 'chat':
        page.tbl.chat = [...(page.tbl.chat || []), msg.line];
        page.appendChatLine(msg.line);
        break;
      case 'table':
        applySnapshot(msg.table);
        break;
      case 'seats':
        page.tbl.seats = msg.seats;
        page.tbl.status = msg.status;
        renderAll();
        break;
      case 'voice':
        page.voice?.signal(msg.signal);
        break;
      case 'berserk': {
        // An arena player went berserk: their clock is halved, and everyone sees it.
        const index = msg.seat === 'a' ? 0 : 1;
        if (page.tbl.berserk) {
          page.tbl.berserk.seats[index] = true;
          if (msg.seat === page.tbl.you) page.tbl.berserk.can = false;
        }
        if (msg.clock) {
          page.tbl.clock = msg.clock;
          page.setClock(msg.clock.remaining_ms, page.tbl.status === 'playing' ? msg.clock.running : null);
        }
        if (page.tbl.you && msg.seat !== page.tbl.you) toast(t('table.berserk.opponent'), 'info', 6000);
        renderAll();
        break;
      }
      default:
    }
  }

  for (const type of ['move', 'end', 'offer', 'rematch', 'takeback', 'chat', 'seats', 'voice', 'berserk']) offs.push(socket.on(type, onEvent));
  // Seat changes arrive as whole snapshots (type 'table' with a `table` object).
  offs.push(socket.on('table', (msg) => {
    if (page.tbl && msg.table && msg.table.id === page.tbl.id) applySnapshot(msg.table);
  }));

  async function subscribe() {
    const since = page.tbl ? page.tbl.ply : undefined;
    try {
      const reply = await socket.request({ type: 'table.subscribe', table: id, token: token || undefined, since });
      if (page.disposed) return;
      if (reply.type === 'catchup') {
        const fresh = reply.moves.filter((m) => m.ply > (since || 0));
        if (fresh.length) {
          for (const m of fresh) page.missed.add(m.ply);
          toast(t('net.missed', { moves: fresh.map((m) => (boards[page.tbl?.game]?.moveWords || moveText)(m.move)).join(', ') }), 'info', 6000);
        }
        applySnapshot(reply.state);
      } else if (reply.type === 'table') {
        applySnapshot(reply.table);
      }
    } catch (err) {
      if (page.disposed || err.code === 'disconnected') return;
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
    if (!page.myTurn()) return;
    page.sending = true;
    page.renderBoard();
    try {
      await socket.request({ type: 'move', table: id, move: mv, ply: page.tbl.ply });
      // The move event renders the new position; it may already have arrived.
    } catch (err) {
      page.sending = false;
      toast(errorText(err), 'error');
      if (err.code === 'stale_ply') subscribe();
      else page.renderBoard();
    }
  }

  // ---- life cycle ------------------------------------------------------------------------

  skeleton();
  el.board.append(h('p', { class: 'loading' }, t('loading')));
  api
    .games()
    .then((list) => {
      page.games = list;
      if (page.tbl) renderAll();
    })
    .catch(() => {});
  const ticker = setInterval(page.tick, 100);
  document.addEventListener('keydown', page.onKey);
  offs.push(socket.onOpen(() => subscribe()));
  offs.push(onTurns(() => { if (page.tbl) page.renderActions(); }));
  offs.push(
    socket.onState((state) => {
      if (state !== 'open') page.freezeClock();
      if (page.tbl) page.renderStatus();
    }),
  );

  return {
    unmount() {
      page.disposed = true;
      clearInterval(ticker);
      document.removeEventListener('keydown', page.onKey);
      for (const off of offs) off();
      page.voice?.destroy();
      if (socket.state === 'open') socket.request({ type: 'table.unsubscribe', table: id }).catch(() => {});
      window.__stolik = undefined;
    },
    relabel() {
      skeleton();
      renderAll();
    },
  };
}
