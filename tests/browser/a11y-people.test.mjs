// axe-core on the lobby, live games, profiles, players, leaderboards, the daily deal and my games (a11y.mjs says how, a11y-states.mjs lists the states).

import { checkGroup } from './a11y.mjs';

checkGroup('people');
