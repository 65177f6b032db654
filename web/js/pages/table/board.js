// The board: the live position to play on, or an earlier one while looking back.

import { h, fill } from '../../ui.js';
import { boards } from '../../registry/index.js';

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function board(page) {
  const { el } = page;

  function myTurn() {
    return page.tbl.status === 'playing' && page.tbl.you && page.tbl.to_move === page.tbl.you && !page.sending;
  }

  function boardState() {
    return {
      game: page.tbl.game,
      variant: page.tbl.variant,
      position: page.tbl.position,
      legal: page.tbl.legal,
      legal_truncated: page.tbl.legal_truncated,
      last: page.tbl.moves.length ? page.tbl.moves[page.tbl.moves.length - 1] : null,
      you: page.tbl.you,
      flip: turned(),
      interactive: myTurn(),
      over: page.tbl.status !== 'playing',
      hinted: page.currentHint()?.action || null,
    };
  }

  // Perekati turns its board for the second seat by itself; the flip button turns it (and every
  // other board) round for whoever asks.
  function turned() {
    return (page.tbl.you === 'b') !== page.flipped;
  }

  function renderBoard() {
    const mod = boards[page.tbl.game];
    if (!mod) {
      fill(el.board, h('p', {}, page.tbl.position));
      return;
    }
    el.board.dataset.game = page.tbl.game;
    el.board.classList.toggle('flipped', page.flipped && page.tbl.game !== 'perekati');
    const back = page.looking();
    el.board.classList.toggle('looking-back', back);
    if (back) {
      // An earlier position: a picture, whoever is to move in the live game.
      mod.render(el.board, {
        game: page.tbl.game, variant: page.tbl.variant, position: page.positions[page.view], legal: [],
        last: page.view > 0 ? page.tbl.moves[page.view - 1] : null, you: page.tbl.you, flip: turned(), interactive: false, over: true,
      }, { interactive: false });
      return;
    }
    const st = boardState();
    mod.render(el.board, st, { interactive: st.interactive, onMove: page.sendMove });
  }

  return { myTurn, renderBoard };
}
