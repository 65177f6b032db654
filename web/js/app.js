// Start-up and the router: identity first (so that the socket carries our cookie), then the
// socket, then the page for the current hash route.

import './theme.js';
import { h, clear, fill, icon, toast } from './ui.js';
import { theme, toggleTheme, onTheme } from './theme.js';
import { isMuted, setMuted, onMuted } from './sound.js';
import { t, lang, setLang, onLang, langChosen } from './i18n.js';
import { api } from './api.js';
import { socket } from './socket.js';
import { session } from './session.js';
import { currentRoute, gamePath } from './router.js';
import './quickmatch.js';
import './tournament-calls.js';
import './challenge_notice.js';
import { notifications, onNotifications } from './notifications.js';
import { pageModule, prefetchPages } from './routes.js';
import { turns, onTurns } from './turns.js';
import { registerServiceWorker, siteUpdated } from './pwa.js';

const main = document.getElementById('main');
let page = null;
// Counts routes, so that a page whose chunk arrives after the visitor moved on is not drawn.
let routed = 0;

async function route() {
  const r = currentRoute();
  const ticket = ++routed;
  if (page) {
    page.unmount?.();
    page = null;
  }
  // A page the server wrote (a game's page, readable before any script ran) stays until the
  // client's own is drawn, so that its text does not blink away.
  const served = main.querySelector(':scope > .served-page');
  clear(main);
  if (served) main.append(served);
  let mod = null;
  try {
    mod = await pageModule(r.parts[0] || '');
  } catch {
    if (ticket === routed) toast(t('net.failed'), 'error');
    return;
  }
  if (ticket !== routed) return;
  if (!mod) {
    served?.remove();
    main.append(h('section', { class: 'page narrow' }, h('h1', {}, '404'), h('p', {}, t('page.notfound')), h('p', {}, h('a', { href: '#/' }, t('nav.games')))));
    return;
  }
  // Each page draws into a container of its own: an answer that arrives after the visitor has
  // moved on then draws into a container no longer on the page, never over the next page.
  const root = h('div', { class: 'page-root' });
  main.append(root);
  if (served) keepUntilDrawn(served, root);
  page = mod.mount(root, r);
  renderNav();
}

function keepUntilDrawn(served, root) {
  root.hidden = true;
  new MutationObserver((_, observer) => {
    if (!root.firstChild) return;
    served.remove();
    root.hidden = false;
    observer.disconnect();
  }).observe(root, { childList: true });
}

function renderNav() {
  const nav = document.querySelector('.main-nav');
  const r = currentRoute();
  const here = r.parts[0] || '';
  clear(nav).append(
    h('a', { href: '#/', class: here === '' || here === 'rules' || here === 'games' ? 'active' : '' }, t('nav.games')),
    h('a', { href: '#/lobby', class: here === 'lobby' ? 'active' : '' }, t('nav.lobby')),
    h('a', { href: '#/live', class: ['live-nav', here === 'live' ? 'active' : ''] }, t('nav.live')),
    h('a', { href: '#/playing', class: ['playing-nav', here === 'playing' ? 'active' : ''] }, t('nav.playing'),
      turns() ? h('span', { class: 'turn-count', title: t('playing.count', { n: turns() }) }, String(turns())) : null),
    h('a', { href: '#/tournaments', class: ['tournaments-nav', here === 'tournaments' || here === 'tournament' ? 'active' : ''] }, t('nav.tournaments')),
    h('a', { href: '#/daily', class: here === 'daily' ? 'active' : '' }, t('nav.daily')),
    h('a', { href: '#/leaderboard', class: ['leaderboard-nav', here === 'leaderboard' || here === 'player' ? 'active' : ''] }, t('nav.leaderboard')),
    h('a', { href: '#/profile', class: here === 'profile' || here === 'replay' ? 'active' : '' }, t('nav.profile')),
  );
  const user = document.querySelector('.user-link');
  user.textContent = session.user ? session.user.name : '';
  user.title = session.user ? (session.user.guest ? t('account.guest') : t('account.member')) : '';
  const sel = document.querySelector('.lang-select');
  sel.value = lang();
  sel.setAttribute('aria-label', t('nav.language'));
  document.getElementById('skip-link').textContent = t('nav.skip');
  renderSwitches();
  renderBell();
  document.querySelector('.logo-text').textContent = t('app.name');
}

// The header's two switches: sound and theme. Each shows what it is now and says, on hover
// and to screen readers, what a press does.
function renderSwitches() {
  const sound = document.querySelector('.sound-toggle');
  const muted = isMuted();
  fill(sound, icon(muted ? 'soundoff' : 'sound'));
  sound.setAttribute('aria-pressed', muted ? 'false' : 'true');
  sound.setAttribute('aria-label', t(muted ? 'sound.off' : 'sound.on'));
  sound.title = t(muted ? 'sound.off' : 'sound.on');
  const dark = theme() === 'dark';
  const th = document.querySelector('.theme-toggle');
  fill(th, icon(dark ? 'sun' : 'moon'));
  th.setAttribute('aria-label', t(dark ? 'theme.light' : 'theme.dark'));
  th.title = t(dark ? 'theme.light' : 'theme.dark');
}

// The header's bell: the unread notifications' count, a link to the list (under My games).
function renderBell() {
  const bell = document.querySelector('.bell');
  const { unread } = notifications();
  const label = unread ? t('notify.bell.unread', { n: unread }) : t('notify.bell');
  fill(bell, icon('bell'), unread ? h('span', { class: 'bell-count' }, unread > 99 ? '99+' : String(unread)) : null);
  bell.setAttribute('aria-label', label);
  bell.title = label;
  bell.classList.toggle('unread', unread > 0);
}

function relabel() {
  renderNav();
  if (page?.relabel) page.relabel();
  else route();
}

// "(2) Mill — Stolik": the tab says how many games wait, whatever page sets the title.
function showCountInTitle() {
  const bare = document.title.replace(/^\(\d+\) /, '');
  document.title = turns() ? `(${turns()}) ${bare}` : bare;
}
new MutationObserver(() => {
  if (turns() && !/^\(\d+\) /.test(document.title)) showCountInTitle();
}).observe(document.querySelector('title'), { childList: true });

async function identify() {
  // Retry until the server answers: without an identity nothing else works.
  for (let attempt = 0; ; attempt++) {
    try {
      const me = await api.me();
      session.set(me.user);
      return;
    } catch (err) {
      if (attempt === 1) toast(t('net.failed'), 'error');
      await new Promise((res) => setTimeout(res, Math.min(8000, 500 * 2 ** attempt)));
    }
  }
}

async function start() {
  // Invite links may arrive as /table/ID?token=… (the server serves index.html for unknown
  // paths): turn them into hash routes.
  // A game page keeps its real path; its language is the path's unless the reader chose one.
  const gamePage = gamePath();
  if (gamePage && !langChosen()) setLang(gamePage.lang, { remember: false });
  if (!gamePage && location.pathname !== '/' && location.pathname !== '/index.html' && !location.hash) {
    const target = location.pathname + location.search;
    history.replaceState(null, '', '/#' + target);
  }
  document.querySelector('.lang-select').addEventListener('change', (e) => setLang(e.target.value));
  document.querySelector('.sound-toggle').addEventListener('click', () => setMuted(!isMuted()));
  document.querySelector('.theme-toggle').addEventListener('click', toggleTheme);
  onMuted(renderSwitches);
  onNotifications(renderBell);
  onTheme(renderSwitches);
  onLang(relabel);
  session.onChange(renderNav);
  onTurns(() => {
    renderNav();
    showCountInTitle();
  });
  socket.onState((state) => {
    const dot = document.querySelector('.net-dot');
    dot.className = 'net-dot ' + state;
    dot.title = state === 'open' ? t('net.online') : t('net.offline');
  });
  socket.on('hello', async (msg) => {
    // The socket may know a newer name (e.g. after registering in another tab). A hello can
    // also be stale (sent before this tab logged in), so ask the server who we are now.
    if (!session.user || msg.user.id !== session.user.id || msg.user.name === session.user.name) return;
    try {
      const me = await api.me();
      const u = session.user;
      if (!u || me.user.id !== u.id || me.user.name !== u.name || me.user.guest !== u.guest) session.set(me.user);
    } catch {
      // Offline: the next hello tries again.
    }
  });
  renderNav();
  if (!main.querySelector('.served-page')) main.append(h('p', { class: 'loading' }, t('loading')));
  // Every page needs the catalogue: ask for it beside who we are, not after (it is kept).
  api.games().catch(() => {});
  await identify();
  socket.connect();
  // After a new version of the site took over, the next page comes from it.
  window.addEventListener('hashchange', () => (siteUpdated() ? location.reload() : route()));
  route();
  prefetchPages();
  registerServiceWorker();
}

// For tests and debugging.
window.__stolikSocket = socket;

start();
