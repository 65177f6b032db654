// How many games wait for this player's move: the count comes with the socket's hello and
// then with every change ('turns' messages), whatever tab or table the change came from.

import { socket } from './socket.js';

let count = 0;
const listeners = new Set();

function set(n) {
  if (typeof n !== 'number' || n === count) return;
  count = n;
  for (const fn of listeners) fn(count);
}

socket.on('hello', (msg) => set(msg.turns ?? 0));
socket.on('turns', (msg) => set(msg.count));

export function turns() {
  return count;
}

/** Calls `fn(count)` on every change; returns the function that stops it. */
export function onTurns(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
