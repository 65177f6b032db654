// The offline page (web/offline.html), shown by the service worker when a page of the site is
// asked for and the server cannot be reached. It shows its text in the visitor's language and
// goes back to the page they asked for as soon as the server answers again.

import { initialLanguage } from './i18n-choice.js';

const RETRY_MS = 5000;

const lang = initialLanguage();
document.documentElement.lang = lang;
document.querySelector('.logo-text').textContent = lang === 'en' ? 'Stolik' : 'Столик';
for (const note of document.querySelectorAll('.offline-note')) note.hidden = note.lang !== lang;
document.title = document.querySelector(`.offline-note[lang="${lang}"] h1`).textContent;

/** Back to the site once the server answers; `/healthz` is never cached. */
async function retry() {
  try {
    const res = await fetch('/healthz', { cache: 'no-store' });
    if (res.ok) location.reload();
  } catch {
    // Still offline: the next try comes by itself.
  }
}

for (const button of document.querySelectorAll('.offline-retry')) button.addEventListener('click', retry);
setInterval(retry, RETRY_MS);
