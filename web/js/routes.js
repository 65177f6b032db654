// The pages by the first part of their route. The catalogue, where most visits start, is part
// of the main script; every other page is in one chunk (pages/later.js), fetched the first time
// one of them is visited, so that a first visit downloads only what the catalogue needs. Once
// the first page is drawn and its pictures are in, that chunk is fetched in the background.

import * as catalogue from './pages/catalogue.js';

const later = () => import('./pages/later.js');

/** The page module for a route's first part, or null for a route that names no page. */
export async function pageModule(name) {
  if (name === '') return catalogue;
  const pages = await later();
  return Object.hasOwn(pages, name) ? pages[name] : null;
}

/** Fetches the other pages' chunk once the document and its pictures have loaded. */
export function prefetchPages() {
  const fetchLater = () => later().catch(() => {});
  if (document.readyState === 'complete') setTimeout(fetchLater, 0);
  else window.addEventListener('load', () => setTimeout(fetchLater, 0), { once: true });
}
