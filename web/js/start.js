// Ways into a game that several pages offer: a new table (from the home page, a game's page,
// the lobby, a table's "new game"), and the day's deal.

import { h, toast } from './ui.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { navigate } from './router.js';

export async function createTable(body) {
  try {
    const snap = await api.createTable(body);
    const q = snap.invite ? `?token=${encodeURIComponent(snap.invite)}` : '';
    navigate(`/table/${snap.id}${q}`);
  } catch (err) {
    toast(refusal(err), 'error', 8000);
  }
}

/**
 * What a refused table says, in the player's language, with the way on: the games to finish
 * first, the open tables to start or close, the account a rated game needs.
 */
export function refusal(err) {
  if (err.reason === 'bot_games') return [t('refusal.bot_games'), ' ', h('a', { href: '#/playing' }, t('refusal.to_games'))];
  if (err.reason === 'open_tables') return [t('refusal.open_tables'), ' ', h('a', { href: '#/playing' }, t('refusal.to_games'))];
  if (err.code === 'forbidden' && /account/.test(err.message || '')) return [t('rated.guest.refused'), ' ', h('a', { href: '#/profile' }, t('refusal.to_account'))];
  if (err.code === 'forbidden') return t('refusal.restricted');
  const key = 'error.' + err.code;
  const text = t(key);
  return text === key ? err.message || String(err) : text;
}

/** Starts (or resumes) the caller's attempt at a day's deal and opens its table. */
export async function playDaily(day) {
  try {
    const snap = await api.playDaily(day);
    navigate(`/table/${snap.id}`);
  } catch (err) {
    toast(err.message || String(err), 'error');
  }
}
