// The analysis board: #/analysis/GAME/VARIANT?record=ID&position=…&line=…. A finished game
// (record) gives the start and the game's line; a position (pasted, or set up by hand) gives
// only a start. Moves played on the board are kept as a tree of variations (js/analysis/
// tree.js); the server checks every position and says the legal moves (POST
// /api/positions/check), since the client has no rules engine. The address always holds the
// share link: the start, or the game, and the line to the position shown.

import { h, clear, toast } from '../ui.js';
import { t, gameName, variantName, moveText, sideName, resultText } from '../i18n.js';
import { api } from '../api.js';
import { boards } from '../registry/index.js';
import { newTree, path, child, extend, remove, backToGame, mainLine, depth } from '../analysis/tree.js';
import { setupPanel, editableCells, pasteBox } from '../analysis/setup.js';
import { exercisePanel, exerciseState } from '../analysis/exercises.js';
import { analysisHref } from '../analysis/link.js';
import { engineWatch } from '../analysis/engine.js';
import { valueText } from '../analysis.js';

export function mount(root, params) {
  const game = params.parts[1];
  const query = params.query;
  let record = query.get('record');
  const token = query.get('token') || undefined;
  let variant = params.parts[2] || null;
  let games = [];
  let info = null;
  let tree = null;
  let cur = null;
  let review = null; // the engine's review of the record, when it has one
  let players = null; // the record's seats
  let setup = null; // {position, piece, error} while setting up by hand
  let exercise = null; // learning from the viewer's mistakes (js/analysis/exercises.js)
  let problem = null;
  let engineOn = false; // the engine switch: thinking about every position shown
  let engine = null; // the engine's latest word on a node (js/analysis/engine.js)
  const watch = engineWatch((state) => { engine = state; render(); });
  const boardBox = h('div', { class: 'board-wrap', 'data-game': game });
  const board = () => boards[game];
  const words = (m, position) => (board()?.moveWords || moveText)(m, position);

  /** The start (the root's position) and the line to `n`, as the server's check takes them. */
  const body = (moves) => ({ game, variant, position: tree.root.position, moves });

  /** Keeps on `n` what the server's check said of its position: legal moves, whose turn, the result. */
  function told(n, answer) {
    Object.assign(n, { legal: answer.legal, truncated: answer.legal_truncated, toMove: answer.to_move, turn: answer.turn, result: answer.result });
  }

  /** What the server knows of `n`, asked once. */
  async function learn(n) {
    if (n.legal) return;
    told(n, await api.checkPosition(body(path(n))));
  }

  async function go(n) {
    if (!n) return;
    cur = n;
    render();
    try {
      await learn(n);
    } catch (err) {
      toast(err.message, 'error');
    }
    if (cur === n) render();
  }

  /** A move on the board: a new node of the tree (or the one already there). */
  async function play(mv) {
    const from = cur;
    try {
      const answer = await api.checkPosition(body([...path(from), mv]));
      const next = child(from, mv, answer.positions[answer.positions.length - 1]);
      told(next, answer);
      exercise = await exerciseState.tried(exercise, from, mv, next);
      go(next);
    } catch (err) {
      toast(err.message, 'error');
      render();
    }
  }

  function onKey(e) {
    if (e.target.closest('input, textarea, select') || setup || !cur) return;
    if (e.key === 'ArrowLeft') go(cur.parent);
    else if (e.key === 'ArrowRight') go(cur.children[0]);
    else if (e.key === 'Home') go(tree.root);
    else if (e.key === 'End') go(mainLine(cur).pop() || cur);
    else return;
    e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  /** Keeps the address the share link of what is shown, without a new history entry. */
  function remember() {
    if (!tree) return;
    const href = analysisHref(game, variant, { record, token, position: tree.root.position, line: path(cur) });
    if (location.hash !== href) history.replaceState(history.state, '', href);
  }

  function turnText(n) {
    if (n.result) return resultText({ game, status: 'finished', result: n.result, seats: (players || []).map((p) => ({ seat: p.seat, label: p.seat, user: null })) }, games);
    if (n.turn) return t('analysis.board.tomove', { side: sideName(game, n.turn) });
    return '';
  }

  function moveButton(n) {
    const d = depth(n);
    return h('button', {
      class: ['mv', 'linklike', n === cur && 'current', n.game && 'game-move'],
      'aria-current': n === cur ? 'true' : null,
      onClick: () => go(n),
    }, `${d}. ${words(n.move, n.parent.position)}`);
  }

  /** The moves after `n`: its line, each variation in brackets after the move it replaces. */
  function lineView(n) {
    const out = h('span', { class: 'line' });
    for (let at = n; at.children.length; at = at.children[0]) {
      out.append(moveButton(at.children[0]), ' ');
      for (const v of at.children.slice(1)) {
        out.append(h('span', { class: 'variation' }, '( ', moveButton(v), ' ', lineView(v), ')'), ' ');
      }
    }
    return out;
  }

  function drawBoard() {
    const b = board();
    if (!b) return;
    if (setup) {
      b.render(boardBox, { variant, position: setup.position, legal: [] }, { interactive: false });
      if (b.editor) editableCells(boardBox, b.editor, variant, setup, (next) => { setup = next; render(); });
      return;
    }
    // The engine's move here: its answer on demand, else the review's for a game position.
    const asked = engine && engine.node === cur && engine.evaluation ? engine.evaluation.best : null;
    const best = asked || (cur.game && review ? review.positions[depth(cur)]?.best : null);
    b.render(boardBox, {
      variant,
      position: cur.position,
      legal: cur.legal || [],
      last: cur.move,
      best: exerciseState.hidesBest(exercise) ? null : best,
    }, { interactive: !!(cur.legal && (cur.legal.length || cur.truncated)), onMove: play });
  }

  function render() {
    if (!root.isConnected) return;
    clear(root);
    const page = h('section', { class: ['page', 'analysis-board', setup && 'setting-up'] });
    root.append(page);
    const title = `${t('analysis.board.title')}: ${info ? gameName(info) : game}`;
    document.title = `${title} — ${t('app.name')}`;
    page.append(h('h1', {}, title));
    if (problem) {
      page.append(h('p', { class: 'error' }, problem));
      return;
    }
    if (!tree) {
      page.append(h('p', { class: 'loading' }, t('loading')));
      return;
    }
    page.append(h('p', { class: 'lead' }, info ? variantName(info, variant) : variant,
      record ? [' · ', h('a', { href: `#/replay/${record}${token ? '?token=' + encodeURIComponent(token) : ''}` }, t('analysis.board.replay'))] : null));
    const main = h('div', { class: 'table-main' });
    const boardCol = h('div', { class: 'board-col' }, boardBox);
    const side = h('aside', { class: 'side-col' });
    drawBoard();
    if (setup) {
      side.append(setupPanel(board().editor, variant, setup, {
        change: (next) => { setup = next; render(); },
        done: (position) => start(position),
        cancel: () => { setup = null; render(); },
      }));
    } else {
      boardCol.append(
        h('p', { class: 'analysis-turn', role: 'status' }, turnText(cur)),
        h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': t('analysis.board.title') },
          h('button', { class: 'btn', onClick: () => go(tree.root), disabled: !cur.parent, 'aria-label': t('replay.first') }, '«'),
          h('button', { class: 'btn analysis-prev', onClick: () => go(cur.parent), disabled: !cur.parent, 'aria-label': t('replay.prev') }, '‹'),
          h('button', { class: 'btn analysis-next', onClick: () => go(cur.children[0]), disabled: !cur.children.length, 'aria-label': t('replay.next') }, '›'),
          h('button', { class: 'btn', onClick: () => go(mainLine(cur).pop()), disabled: !cur.children.length, 'aria-label': t('replay.last') }, '»'),
        ),
        h('div', { class: 'analysis-actions' },
          h('button', { class: 'btn analysis-undo', disabled: !cur.parent || cur.game, onClick: () => go(remove(cur)) }, t('analysis.board.undo')),
          record ? h('button', { class: 'btn analysis-back', disabled: cur.game || !cur.parent, onClick: () => go(backToGame(cur)) }, t('analysis.board.back')) : null,
        ),
      );
      if (exercise) {
        side.append(exercisePanel(exercise, {
          go,
          words,
          side: (seat) => sideName(game, seat),
          next: () => { exercise = exerciseState.next(exercise); if (exercise) go(exercise.node); else render(); },
          again: () => { exercise = exerciseState.again(exercise); go(exercise.node); },
          stop: () => { exercise = null; render(); },
        }));
      } else if (review && players) {
        const offer = exerciseState.offer(tree, review, players);
        if (offer) side.append(offer(() => { exercise = exerciseState.start(tree, review, players, { game, variant }); if (exercise) go(exercise.node); }));
      }
      side.append(enginePanel());
      side.append(h('section', { class: 'panel analysis-moves' }, h('h2', {}, t('moves.title')),
        tree.root.children.length ? h('div', { class: 'move-tree' }, lineView(tree.root)) : h('p', { class: 'hint' }, t('analysis.board.nomoves'))));
      const link = new URL(analysisHref(game, variant, { record, token, position: tree.root.position, line: path(cur) }), location.href).href;
      side.append(h('section', { class: 'panel share-panel' }, h('h2', {}, t('analysis.board.share')),
        h('input', { class: 'share-link', readOnly: true, value: link, 'aria-label': t('analysis.board.share'), onFocus: (e) => e.target.select() }),
        h('button', { class: 'btn share-copy', onClick: () => navigator.clipboard?.writeText(link).then(() => toast(t('analysis.board.copied')), () => {}) }, t('analysis.board.copy'))));
      if (board()?.editor) {
        side.append(h('section', { class: 'panel' }, h('button', { class: 'btn setup-open', onClick: () => { setup = { position: cur.position, piece: board().editor.pieces()[0].key, error: null }; render(); } }, t('analysis.setup.open'))));
      }
      side.append(pasteBox((text) => start(text)));
    }
    main.append(boardCol, side);
    page.append(main);
    if (!setup) remember();
    followEngine();
    const current = side.querySelector('.mv.current');
    current?.scrollIntoView?.({ block: 'nearest' });
  }

  /** Keeps the engine on the position shown while the switch is on. */
  function followEngine() {
    if (engineOn && !setup && cur && !cur.result && cur.toMove) watch.show(cur, body(path(cur)));
    else watch.stop();
  }

  function enginePanel() {
    const toggle = h('label', { class: 'engine-switch' },
      h('input', { type: 'checkbox', checked: engineOn, onChange: (e) => { engineOn = e.target.checked; engine = null; render(); } }),
      ` ${t('analysis.engine.switch')}`);
    const panel = h('section', { class: 'panel engine-panel' }, h('div', { class: 'engine-head' }, h('h2', {}, t('analysis.engine.title')), toggle));
    const here = engineOn && engine && engine.node === cur ? engine : null;
    if (!engineOn) panel.append(h('p', { class: 'hint' }, t('analysis.engine.off')));
    else if (cur.result || !cur.toMove) panel.append(h('p', { class: 'hint' }, t('analysis.engine.over')));
    else if (here?.error) panel.append(h('p', { class: 'engine-error', role: 'alert' }, here.error));
    else if (!here?.evaluation) panel.append(h('p', { class: 'analysis-progress', role: 'status' }, t('analysis.engine.thinking')));
    else {
      panel.append(h('p', { class: 'analysis-value' }, valueText(here.evaluation, (seat) => sideName(game, seat))));
      if (here.line.length) panel.append(h('p', { class: 'engine-line' }, `${t('analysis.engine.line')}: `, here.line.map((m) => moveText(m)).join(' ')));
      const work = here.evaluation.exact ? t('analysis.engine.proved')
        : t('analysis.engine.stage', { stage: here.stage, stages: here.stages, amount: here.amount.toLocaleString(), unit: t('analysis.engine.unit.' + here.unit) });
      panel.append(h('p', { class: 'hint engine-work', role: 'status' }, work));
    }
    return panel;
  }

  /** A new start (pasted or set up): checked by the server, or its reason shown. */
  async function start(position) {
    try {
      const answer = await api.checkPosition({ game, variant, position, moves: [] });
      record = null;
      tree = newTree(answer.positions[0]);
      told(tree.root, answer);
      setup = null;
      exercise = null;
      review = null;
      players = null;
      go(tree.root);
    } catch (err) {
      if (setup) {
        setup = { ...setup, error: refusal(err) };
        render();
      } else {
        toast(refusal(err), 'error');
      }
    }
  }

  /**
   * Why a position was refused, in the page's language where the server says it cannot occur
   * (its message is "impossible position: " and the engine's reason, which stays as written).
   */
  function refusal(err) {
    if (err.code !== 'impossible_position') return err.message;
    return t('analysis.setup.impossible', { reason: err.message.replace(/^impossible position: /, '') });
  }

  async function load() {
    render();
    try {
      games = await api.games();
      info = games.find((g) => g.id === game) || null;
      if (!info || info.seats < 2) throw new Error(t('analysis.board.nogame'));
      variant = variant || info.variants[0].id;
      const line = (query.get('line') || '').split(' ').filter(Boolean);
      if (record) {
        const [rec, positions] = await Promise.all([api.record(record, token), api.recordPositions(record, token)]);
        players = rec.players;
        tree = newTree(positions.positions[0]);
        const end = extend(tree.root, rec.moves, positions.positions.slice(1));
        for (let at = end; at; at = at.parent) at.game = true;
        cur = tree.root;
        try {
          const a = await api.analysis(record, token);
          if (a.status === 'done') review = a.review;
        } catch {
          review = null;
        }
      } else {
        const answer = await api.checkPosition({ game, variant, position: query.get('position') || undefined, moves: [] });
        tree = newTree(answer.positions[0]);
        // The start's turn is shown with the first drawing.
        told(tree.root, answer);
      }
      cur = tree.root;
      if (line.length) {
        const answer = await api.checkPosition(body(line));
        cur = extend(tree.root, line, answer.positions.slice(1));
      } else if (record) {
        cur = mainLine(tree.root).pop() || tree.root;
      }
    } catch (err) {
      problem = err.status === 404 ? t('table.notfound') : err.message;
      render();
      return;
    }
    go(cur);
  }

  load();
  return {
    unmount() { document.removeEventListener('keydown', onKey); watch.stop(); },
    relabel: render,
  };
}
