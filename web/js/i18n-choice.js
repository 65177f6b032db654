// Which of the site's languages a visitor gets: their saved choice, else the first of the
// browser's languages that we have, else English. Kept apart from the dictionaries
// (i18n.js) so that the offline page can choose without loading them.

export const STORE_KEY = 'stolik.lang';
export const LANGS = ['ru', 'uk', 'en'];

/**
 * The browser's preferred languages, first to last, mapped onto ours: the first one we have
 * wins (en-GB is English, uk-UA Ukrainian); a browser asking only for others gets English.
 */
export function fromBrowser(languages) {
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/** The saved choice, or the browser's. */
export function initialLanguage() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch {
    // Storage may be disabled: the browser's languages decide.
  }
  const nav = typeof navigator !== 'undefined' ? navigator : null;
  return fromBrowser(nav ? (nav.languages && nav.languages.length ? nav.languages : [nav.language]) : []);
}
