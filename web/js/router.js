// Hash routes: #/, #/lobby, #/rules/GAME, #/table/ID?token=…, #/profile, #/replay/ID,
// #/player/ID, #/leaderboard/GAME?class=…, #/live?game=….
// Hash routes need nothing from the server, and an invite link survives any static host.
// The game pages have real paths, for search engines (the server fills in their head):
// /games/GAME in Russian, /uk/games/GAME and /en/games/GAME; a hash, even #/, goes first.

const GAME_PATH = /^\/(?:(uk|en)\/)?games\/([a-z0-9-]+)\/?$/;

/** The game page at this path, with the language the path names, or null. */
export function gamePath(pathname = location.pathname) {
  const m = GAME_PATH.exec(pathname);
  return m ? { game: m[2], lang: m[1] || 'ru' } : null;
}

/** The path of a game's page in a language. */
export function gamePagePath(game, lang) {
  return `${lang === 'ru' ? '' : '/' + lang}/games/${encodeURIComponent(game)}`;
}

export function currentRoute() {
  const page = location.hash ? null : gamePath();
  if (page) return { path: `/games/${page.game}`, parts: ['games', page.game], query: new URLSearchParams(location.search) };
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, qs] = raw.split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { path, parts, query: new URLSearchParams(qs || '') };
}

export function navigate(path) {
  const target = '#' + path;
  if (location.hash === target) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = target;
}
