// One renderer per game, all with the same signature: render(container, state, opts).

import * as perekati from './perekati.js';
import * as tumbleweed from './tumbleweed.js';
import * as cephalopod from './cephalopod.js';
import * as mill from './mill.js';
import * as whiteRabbit from './white-rabbit.js';

export const boards = {
  perekati,
  tumbleweed,
  cephalopod,
  mill,
  'white-rabbit': whiteRabbit,
};

export const GAME_IDS = ['perekati', 'tumbleweed', 'cephalopod', 'mill', 'white-rabbit'];
