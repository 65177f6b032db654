// White Rabbit in words: dice named by colour and value in the player's language
// ("black 4 ↔ red 2"), never by the engine's letters (k, r, w: a Russian or Ukrainian reader
// takes к for красный / червоний), and the one number format of hints and reviews.

import { t, lang, moveText } from './i18n.js';

function dice(text) {
  if (!text || text === '-') return [];
  return text.split(',').map((pair) => {
    const [id, v] = pair.split('=');
    return { id, value: parseInt(v, 10), colour: id[0] };
  });
}

/** The dice of a position text, table and hand, by id. */
function diceOf(position) {
  const [table, hand] = (position || '').trim().split(/\s+/);
  return new Map([...dice(table), ...dice(hand)].map((d) => [d.id, d]));
}

/**
 * A die in words: its colour and, when the position is known, its value ("black 4"); without
 * it, its number among the dice of its colour ("black die no. 4"; the white one is alone).
 */
export function dieWords(id, position) {
  const colour = t('rabbit.colour.' + id[0]);
  const d = position ? diceOf(position).get(id) : null;
  if (d) return t('rabbit.die', { colour, value: d.value });
  if (id === 'w' || !id.slice(1)) return t('rabbit.die.white');
  return t('rabbit.die.numbered', { colour, n: id.slice(1) });
}

/** An action in words: a swap as "hand die ↔ table die", or the word for reroll and end. */
export function actionWords(action, position) {
  if (!action || !action.includes('~')) return moveText(action);
  const [hand, table] = action.split('~');
  return t('rabbit.swap', { hand: dieWords(hand, position), table: dieWords(table, position) });
}

const formats = new Map();
function format(kind) {
  const key = `${lang()}|${kind}`;
  if (!formats.has(key)) {
    const opts = {
      win: { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 },
      score: { minimumFractionDigits: 2, maximumFractionDigits: 2 },
      actions: { minimumFractionDigits: 1, maximumFractionDigits: 1 },
    }[kind];
    formats.set(key, new Intl.NumberFormat(lang(), opts));
  }
  return formats.get(key);
}

/**
 * The three values of a hint or a decision, one format everywhere: win probability in
 * percent with two decimals (a chance short of certainty never reads as 100 %), expected
 * score with two, expected actions with one, in the player's language.
 */
export const numbers = {
  win(p) {
    if (p < 1 && p >= 0.99995) return `> ${format('win').format(0.9999)}`;
    if (p > 0 && p < 0.00005) return `< ${format('win').format(0.0001)}`;
    return format('win').format(p);
  },
  score: (x) => format('score').format(x),
  actions: (x) => format('actions').format(x),
};
