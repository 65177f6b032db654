// The analysis board's engine switch: while it is on, the server thinks about the position
// shown (POST /api/positions/think), and each finished stage of its search (a growing budget)
// replaces the last. Stepping to another position aborts the request, which stops the
// server's search, and asks again after a short pause, so that running through a game with the
// arrow keys does not ask about every position on the way.

import { api } from '../api.js';

/** How long a position must stay shown before the engine is asked about it. */
const SETTLE_MS = 300;

/**
 * Thinks about the positions it is shown. `onChange(state)` is called with
 * `{ node, stage, stages, unit, amount, evaluation, line }` as stages arrive and
 * `{ node, error }` when the server refuses.
 */
export function engineWatch(onChange) {
  let controller = null;
  let timer = null;
  let node = null;

  function stop() {
    clearTimeout(timer);
    controller?.abort();
    controller = null;
    node = null;
  }

  async function run(n, body) {
    const mine = new AbortController();
    controller = mine;
    try {
      const res = await api.thinkPosition(body, mine.signal);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done || controller !== mine) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, end).trim();
          buffer = buffer.slice(end + 1);
          if (!line) continue;
          const message = JSON.parse(line);
          if (message.type === 'stage' && controller === mine) onChange({ node: n, ...message });
        }
      }
    } catch (err) {
      if (err.name !== 'AbortError' && controller === mine) onChange({ node: n, error: err.message });
    }
  }

  return {
    /** Shows the engine `n` (reached by `body`); nothing happens if it is already on it. */
    show(n, body) {
      if (n === node) return;
      stop();
      node = n;
      timer = setTimeout(() => run(n, body), SETTLE_MS);
    },
    stop,
  };
}
