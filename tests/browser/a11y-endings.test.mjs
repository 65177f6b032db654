// axe-core on finished tables, the replay and the review (a11y.mjs says how, a11y-states.mjs lists the states).

import { checkGroup } from './a11y.mjs';

checkGroup('endings');
