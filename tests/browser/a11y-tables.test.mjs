// axe-core on tables waiting and being played (a11y.mjs says how, a11y-states.mjs lists the states).

import { checkGroup } from './a11y.mjs';

checkGroup('tables');
