// Three languages: Russian, Ukrainian and English. Without a saved choice the browser's
// languages decide (English when it asks for none of ours); a choice is remembered in
// localStorage. Game and variant names come from the server's catalogue in all three.

import ru from '../i18n/ru.json' with { type: 'json' };
import uk from '../i18n/uk.json' with { type: 'json' };
import en from '../i18n/en.json' with { type: 'json' };
import { STORE_KEY, LANGS, fromBrowser, initialLanguage } from './i18n-choice.js';

export { LANGS, fromBrowser };

// The texts themselves are data, one file per language (web/i18n/LANG.json, a flat map of key
// to text, `{name}` marking a parameter), all three part of the bundle: a language switch is
// then immediate, and English fills in a key another language lacks.
const DICTS = { ru, uk, en };
const listeners = new Set();

let current = initialLanguage();

export function lang() {
  return current;
}

export function setLang(l, { remember = true } = {}) {
  if (!LANGS.includes(l) || l === current) return;
  current = l;
  try {
    if (remember) localStorage.setItem(STORE_KEY, l);
  } catch {
    // Not remembered, but still switched.
  }
  if (typeof document !== 'undefined') document.documentElement.lang = l;
  for (const fn of listeners) fn(l);
}

export function onLang(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** t('key', {name: 'x'}): the text in the current language, English as the fallback. */
export function t(key, params) {
  let text = DICTS[current][key] ?? DICTS.en[key] ?? key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
  return text;
}

export function gameName(g) {
  return g?.names?.[current] || g?.names?.en || g?.id || '';
}

export function gameSummary(g) {
  return g?.summary?.[current] || g?.summary?.en || '';
}

export function variantName(g, id) {
  const v = g?.variants?.find((x) => x.id === id);
  return v?.names?.[current] || v?.names?.en || id;
}

/** How a seat is called in a game: 'Light', 'Red', … ('a', 'b' or a colour label). */
export function sideName(game, label) {
  const key = `sides.${game}.${label}`;
  const text = t(key);
  return text === key ? t('side.' + label) : text;
}

/** A bot's name in the current language ('easy', 'medium', 'hard'). */
export function botName(level) {
  const key = 'bot.name.' + level;
  const text = t(key);
  return text === key ? `${t('app.name')} bot (${level})` : text;
}

/** A player's name as shown: bots (user id 'bot:LEVEL') are named in the current language. */
export function userName(user) {
  if (!user) return '';
  if (typeof user.id === 'string' && user.id.startsWith('bot:')) return botName(user.id.slice(4));
  return user.name || '';
}

/**
 * The result of a table snapshot (or anything with game, status, result, seats). The server
 * writes a result one way everywhere: the winning seat's letter (`a`, `b`), `draw`,
 * `won SCORE` or `lost`.
 */
export function resultText(tbl, games) {
  if (tbl.status === 'aborted') return t('result.aborted');
  const r = tbl.result;
  if (!r) return t('result.none');
  if (r === 'draw') return t('result.draw');
  if (r === 'lost') return t('result.lost');
  if (r.startsWith('won')) return t('result.won', { score: r.split(' ')[1] });
  const seat = (tbl.seats || []).find((s) => s.seat === r);
  const label = seat ? seat.label : r;
  return t('result.win', { side: sideName(tbl.game, label), name: userName(seat?.user) || '—' });
}

/** Time left until a correspondence deadline, in days and hours, hours and minutes, or minutes. */
export function timeLeft(ms) {
  const minutes = Math.max(0, Math.floor(ms / 60000));
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor(minutes / 60) % 24, minutes % 60];
  if (d > 0) return t('left.days', { d, h });
  if (h > 0) return t('left.hours', { h, m });
  return t('left.minutes', { m });
}

/** A move as the move list shows it: notation, with the word-moves translated. */
export function moveText(m) {
  if (['pass', 'red', 'white', 'reroll', 'end'].includes(m)) return t('move.' + m);
  return m;
}

if (typeof document !== 'undefined') document.documentElement.lang = current;

/** Whether the reader has chosen a language here (rather than the browser's languages deciding). */
export function langChosen() {
  try {
    return LANGS.includes(localStorage.getItem(STORE_KEY));
  } catch {
    return false;
  }
}
