// The client's per-game data (js/registry/<game>.js: rules, diagrams, page texts and
// demonstrations) as Node reads it: for the build, which renders the game pages' texts for the
// server, and for the tests that check the data without a browser. The data modules import
// nothing that needs a browser.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const GAMES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'js', 'registry');

/** The ids of the games the client's registry (registry/index.js) imports data for. */
export function registeredGames() {
  const registry = readFileSync(join(GAMES_DIR, 'index.js'), 'utf8');
  return [...registry.matchAll(/^import \* as \w+ from '\.\/([a-z-]+)\.js';$/gm)].map((m) => m[1]);
}

/** Each registered game's data module by id. */
export async function clientGames() {
  const ids = registeredGames();
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await import(pathToFileURL(join(GAMES_DIR, `${id}.js`)).href)])));
}
