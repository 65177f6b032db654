// Light or dark: the system's preference (prefers-color-scheme) until the visitor flips the
// switch, which is remembered. The theme is the `data-theme` attribute of <html>.

const STORE_KEY = 'stolik.theme';
const listeners = new Set();
const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

function saved() {
  try {
    const v = localStorage.getItem(STORE_KEY);
    return v === 'dark' || v === 'light' ? v : null;
  } catch {
    return null;
  }
}

export function theme() {
  return saved() || (query && query.matches ? 'dark' : 'light');
}

// The browser's bar takes the header's colour of the theme shown (index.html's theme-color
// metas follow the system's preference until the visitor chooses).
const BAR = { light: '#3b2a1a', dark: '#120e0b' };

function apply() {
  document.documentElement.dataset.theme = theme();
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.content = BAR[theme()];
  for (const fn of listeners) fn(theme());
}

export function setTheme(value) {
  try {
    localStorage.setItem(STORE_KEY, value);
  } catch {
    // Not remembered, but still switched.
  }
  apply();
}

export function toggleTheme() {
  setTheme(theme() === 'dark' ? 'light' : 'dark');
}

export function onTheme(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

query?.addEventListener?.('change', () => {
  if (!saved()) apply();
});
apply();
