// HTTP calls to the server. Identity travels in the HttpOnly cookie the server sets, so
// nothing here handles tokens.

export class ApiError extends Error {
  constructor(status, code, message, reason = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    // Which refusal of its code this is (`bot_games`, `open_tables`), when the server says.
    this.reason = reason;
  }
}

/** A server that has just started answers 503 `restoring` for a moment: ask again this often, this many times. */
const RESTORING_RETRY_MS = 1000;
const RESTORING_TRIES = 30;

async function call(method, path, body, tries = RESTORING_TRIES) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, 'network', String(err));
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (res.status === 503 && data?.code === 'restoring' && tries > 1) {
    await new Promise((r) => setTimeout(r, RESTORING_RETRY_MS));
    return call(method, path, body, tries - 1);
  }
  if (!res.ok) {
    throw new ApiError(res.status, data?.code || 'http_' + res.status, data?.message || res.statusText, data?.reason || null);
  }
  return data;
}

let gamesCache = null;

export const api = {
  me: () => call('GET', '/api/me'),
  register: (username, password) => call('POST', '/api/register', { username, password }),
  login: (username, password) => call('POST', '/api/login', { username, password }),
  logout: () => call('POST', '/api/logout'),
  changePassword: (old, next) => call('POST', '/api/password', { old, new: next }),
  /** The catalogue never changes while the page lives: fetch it once. */
  games() {
    if (!gamesCache) {
      gamesCache = call('GET', '/api/games').catch((err) => {
        gamesCache = null;
        throw err;
      });
    }
    return gamesCache;
  },
  lobby: () => call('GET', '/api/tables'),
  createTable: (body) => call('POST', '/api/tables', body),
  table: (id, token) => call('GET', `/api/tables/${encodeURIComponent(id)}` + (token ? `?token=${encodeURIComponent(token)}` : '')),
  record: (id, token) => call('GET', `/api/records/${encodeURIComponent(id)}` + (token ? `?token=${encodeURIComponent(token)}` : '')),
  /** The position after each ply, index 0 being the start (asked of the server team). */
  recordPositions: (id, token) =>
    call('GET', `/api/records/${encodeURIComponent(id)}/positions` + (token ? `?token=${encodeURIComponent(token)}` : '')),
  myGames: () => call('GET', '/api/me/games'),
  /** Games not ended yet, those waiting for our move first. */
  playing: () => call('GET', '/api/me/playing'),
  notifications: () => call('GET', '/api/notifications'),
  /** White Rabbit: a finished game judged decision by decision. */
  review: (id, token) => call('GET', `/api/records/${encodeURIComponent(id)}/review` + (token ? `?token=${encodeURIComponent(token)}` : '')),
  /** The engine's review of a finished two-player game: where it is, or the review itself. */
  analysis: (id, token) => call('GET', `/api/records/${encodeURIComponent(id)}/analysis` + (token ? `?token=${encodeURIComponent(token)}` : '')),
  /** A position (the variant's start when absent) and a line from it, checked by the engine. */
  checkPosition: (body) => call('POST', '/api/positions/check', body),
  /** The engine's value of the position a line reaches, and its line from there. */
  evaluatePosition: (body) => call('POST', '/api/positions/evaluate', body),
  /** The engine thinking, streamed: the open response (NDJSON), or an ApiError. */
  async thinkPosition(body, signal) {
    let res;
    try {
      res = await fetch('/api/positions/think', {
        method: 'POST', credentials: 'same-origin', signal,
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      });
    } catch (err) {
      if (err.name === 'AbortError') throw err;
      throw new ApiError(0, 'network', String(err));
    }
    if (!res.ok) {
      const data = await res.json().catch(() => null);
      throw new ApiError(res.status, data?.code || 'http_' + res.status, data?.message || res.statusText, data?.reason || null);
    }
    return res;
  },
  askAnalysis: (id, token) => call('POST', `/api/records/${encodeURIComponent(id)}/analysis` + (token ? `?token=${encodeURIComponent(token)}` : ''), {}),
  /** Marks these notifications read, or all of them. */
  markRead: (ids) => call('POST', '/api/notifications/read', ids ? { ids } : {}),
  /** White Rabbit: every legal action with the solver's values, best first. */
  hints: (table) => call('GET', `/api/tables/${encodeURIComponent(table)}/hints`),
  daily: (day) => call('GET', '/api/daily' + (day ? `?day=${encodeURIComponent(day)}` : '')),
  playDaily: (day) => call('POST', '/api/daily', day ? { day } : {}),
  vacation: () => call('GET', '/api/me/vacation'),
  setVacation: (auto) => call('PUT', '/api/me/vacation', { auto }),
  /** Personal API tokens: {tokens: [{id, name, scopes, created_at, last_used_at}], limit}. */
  tokens: () => call('GET', '/api/me/tokens'),
  /** A new token: {token, secret}; the secret is not shown again. */
  makeToken: (name, scopes) => call('POST', '/api/me/tokens', { name, scopes }),
  revokeToken: (id) => call('DELETE', `/api/me/tokens/${encodeURIComponent(id)}`),
  /** Players whose chat you do not see: [{user, name}]. */
  pushKey: () => call('GET', '/api/push/key'),
  pushSettings: () => call('GET', '/api/me/push'),
  subscribePush: (subscription) => call('POST', '/api/me/push', subscription),
  unsubscribePush: (endpoint) => call('DELETE', '/api/me/push', { endpoint }),
  setPushOff: (off) => call('PUT', '/api/me/push', { off }),
  mutes: () => call('GET', '/api/mutes'),
  mute: (user) => call('PUT', `/api/mutes/${encodeURIComponent(user)}`),
  unmute: (user) => call('DELETE', `/api/mutes/${encodeURIComponent(user)}`),
  report: (user, chat, reason) => call('POST', '/api/reports', { user, chat, reason }),
  logoutEverywhere: () => call('POST', '/api/logout/everywhere'),
  /** Accounts whose username starts with `q`. */
  searchUsers: (q) => call('GET', `/api/users?q=${encodeURIComponent(q)}`),
  userGames: (id) => call('GET', `/api/users/${encodeURIComponent(id)}/games`),
  /** A player's public page: name, kind, ratings per game and class, wins, draws, losses. */
  user: (id) => call('GET', `/api/users/${encodeURIComponent(id)}`),
  /** Every rated game of a player, oldest first: the rating after it and the change. */
  ratingHistory: (id) => call('GET', `/api/users/${encodeURIComponent(id)}/rating-history`),
  userTournaments: (id, page) => call('GET', `/api/users/${encodeURIComponent(id)}/tournaments?page=${page}`),
  leaderboard: (game, cls, bots = false) => call('GET', `/api/leaderboard/${encodeURIComponent(game)}?class=${encodeURIComponent(cls)}${bots ? '&bots=true' : ''}`),
  /** The bot ladder: its bots with their ratings, and its last games. */
  ladder: () => call('GET', '/api/ladder'),
  /** The bots' levels with their ratings per game and class. */
  bots: () => call('GET', '/api/bots'),
  /** Upcoming, running and finished tournaments, with the server's clock. */
  tournaments: () => call('GET', '/api/tournaments'),
  /** One tournament: summary, a page of standings, games in progress, the caller's part. */
  tournament: (id, page = 1) => call('GET', `/api/tournaments/${encodeURIComponent(id)}?page=${page}`),
  createArena: (body) => call('POST', '/api/tournaments', body),
  /** `join`, `withdraw`, `pause` or `resume`. */
  tournamentAction: (id, action) => call('POST', `/api/tournaments/${encodeURIComponent(id)}/${action}`),
  /** Challenges waiting for an answer: {incoming: [challenge], outgoing: [challenge]}. */
  challenges: () => call('GET', '/api/challenge'),
  challenge: (user, body) => call('POST', `/api/challenge/${encodeURIComponent(user)}`, body),
  acceptChallenge: (id) => call('POST', `/api/challenge/${encodeURIComponent(id)}/accept`, {}),
  declineChallenge: (id, reason) => call('POST', `/api/challenge/${encodeURIComponent(id)}/decline`, { reason }),
  cancelChallenge: (id) => call('POST', `/api/challenge/${encodeURIComponent(id)}/cancel`, {}),
};
