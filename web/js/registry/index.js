// Every game the client can show, one entry each: its board renderer (`boards/<game>.js`) and
// its rules, diagrams, page texts and demonstrations (`registry/<game>.js`). The games' names and
// variants are the server's catalogue's (`GET /api/games`), not the client's. (Not `js/games/`:
// the server reads `/{lang}/games/{game}` as a game's page.)

import * as perekatiBoard from '../boards/perekati.js';
import * as tumbleweedBoard from '../boards/tumbleweed.js';
import * as cephalopodBoard from '../boards/cephalopod.js';
import * as millBoard from '../boards/mill.js';
import * as whiteRabbitBoard from '../boards/white-rabbit.js';
import * as perekati from './perekati.js';
import * as tumbleweed from './tumbleweed.js';
import * as cephalopod from './cephalopod.js';
import * as mill from './mill.js';
import * as whiteRabbit from './white-rabbit.js';

export const GAMES = {
  perekati: { board: perekatiBoard, ...perekati },
  tumbleweed: { board: tumbleweedBoard, ...tumbleweed },
  cephalopod: { board: cephalopodBoard, ...cephalopod },
  mill: { board: millBoard, ...mill },
  'white-rabbit': { board: whiteRabbitBoard, ...whiteRabbit },
};

/** Each game's renderer by id: `render(container, state, opts)` and the game's own helpers. */
export const boards = Object.fromEntries(Object.entries(GAMES).map(([id, game]) => [id, game.board]));

/** Game `id`'s entry, or null when the client has none (an id from an address may be anything). */
export function gameEntry(id) {
  return Object.hasOwn(GAMES, id) ? GAMES[id] : null;
}
