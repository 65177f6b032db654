// Hash routes: #/, #/lobby, #/rules/GAME, #/table/ID?token=…, #/profile, #/replay/ID,
// #/player/ID, #/leaderboard/GAME?class=…, #/live?game=….
// Hash routes need nothing from the server, and an invite link survives any static host.

export function currentRoute() {
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
