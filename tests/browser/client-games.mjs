// The web client's per-game data (web/js/registry/<game>.js: rules, diagrams, page texts and
// demonstrations) as Node reads it, for the tests that check it without a browser.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GAMES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'js', 'registry');

/** The ids of the games the client's registry (registry/index.js) imports data for. */
export function registeredGames() {
  const registry = readFileSync(join(GAMES_DIR, 'index.js'), 'utf8');
  return [...registry.matchAll(/^import \* as \w+ from '\.\/([a-z-]+)\.js';$/gm)].map((m) => m[1]);
}

/** Each registered game's data module by id. */
export async function clientGames() {
  const ids = registeredGames();
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await import(join(GAMES_DIR, `${id}.js`))])));
}
