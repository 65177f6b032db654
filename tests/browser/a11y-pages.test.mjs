// axe-core on the catalogue, the game pages and the rules (a11y.mjs says how, a11y-states.mjs lists the states).

import { checkGroup } from './a11y.mjs';

checkGroup('pages');
