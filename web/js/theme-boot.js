// Loaded (not as a module) in <head>, before the first paint: the saved or system theme is
// set at once, so a dark page never flashes light first. theme.js takes over from here.
(function () {
  var saved = null;
  try {
    saved = localStorage.getItem('stolik.theme');
  } catch (e) {
    saved = null;
  }
  var dark = saved === 'dark' || (saved !== 'light' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
})();
