// The installable site: registers the service worker (web/sw.js). When a new version of the
// site takes over while a page is open, the next page the visitor goes to is loaded fresh
// rather than drawn by the old code.

let updated = false;

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const hadController = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // The first install takes over a page that is already current.
    if (hadController) updated = true;
  });
  navigator.serviceWorker.register('/sw.js').catch((e) => {
    // The site works without it, only not offline nor installed.
    console.warn('service worker not registered:', e);
  });
}

/** Whether a newer version of the site has taken over since this page was loaded. */
export function siteUpdated() {
  return updated;
}
