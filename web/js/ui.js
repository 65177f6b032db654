// Small DOM helpers shared by the pages and the board renderers.

const SVG_NS = 'http://www.w3.org/2000/svg';

function applyAttrs(el, attrs, isSvg) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.flat(Infinity).filter(Boolean).join(' ') : v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (!isSvg && (k === 'value' || k === 'checked' || k === 'disabled' || k === 'selected')) el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function appendChildren(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** h('div', {class: 'x', onClick: fn}, 'text', child…) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs, false);
  appendChildren(el, children);
  return el;
}

/** The same for SVG elements. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs, true);
  appendChildren(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replaces an element's children (skipping null and false, unlike Element.append). */
export function fill(el, ...children) {
  clear(el);
  appendChildren(el, children);
  return el;
}

const ICONS = {
  // Simple line icons: system emoji fonts are not everywhere.
  link: 'M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1.5 1.5 M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1.5-1.5',
  mic: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z M5 11a7 7 0 0 0 14 0 M12 18v3',
  micoff: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z M5 11a7 7 0 0 0 14 0 M12 18v3 M4 4l16 16',
  clock: 'M12 3a9 9 0 1 0 0.01 0z M12 7v5l3 2',
  sound: 'M4 9h4l5-4v14l-5-4H4z M16 9a4 4 0 0 1 0 6 M18.5 6.5a8 8 0 0 1 0 11',
  soundoff: 'M4 9h4l5-4v14l-5-4H4z M16 9l5 6 M21 9l-5 6',
  moon: 'M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4z M10 20a2 2 0 0 0 4 0',
  flame: 'M12 22c4 0 7-3 7-7 0-4-3-6-4-10-2 2-3 4-3 6-1-1-2-2-2-4-2 2-5 5-5 8 0 4 3 7 7 7z',
  sun: 'M12 8a4 4 0 1 0 0.01 0z M12 2v2 M12 20v2 M2 12h2 M20 12h2 M4.9 4.9l1.4 1.4 M17.7 17.7l1.4 1.4 M4.9 19.1l1.4-1.4 M17.7 6.3l1.4-1.4',
};

export function icon(name) {
  return s('svg', { class: 'icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', width: 18, height: 18 },
    s('path', { d: ICONS[name], fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }));
}

/**
 * Makes an SVG element act as a button: focusable, Enter/Space activate it, with a label for
 * screen readers. Board cells use it so the boards work from the keyboard.
 */
export function clickable(el, label, fn) {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  if (label) el.setAttribute('aria-label', label);
  el.classList.add('hit');
  el.addEventListener('click', (e) => {
    e.preventDefault();
    fn(e);
  });
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      fn(e);
    }
  });
  return el;
}

let toastBox = null;

/** A short message at the bottom of the screen. */
export function toast(text, kind = 'info', ms = 3500) {
  if (!toastBox) {
    toastBox = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(toastBox);
  }
  const el = h('div', { class: ['toast', kind] }, text);
  toastBox.append(el);
  setTimeout(() => el.remove(), ms);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API needs a secure context; fall back to a hidden textarea.
    const ta = h('textarea', { style: { position: 'fixed', left: '-1000px' } }, text);
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}

/** A probability as a percentage: two decimals close to certainty, where they matter. */
export function formatPercent(p) {
  return `${(100 * p).toFixed(p > 0.999 && p < 1 ? 2 : 1)}%`;
}

export function formatClock(ms) {
  const t = Math.max(0, ms);
  const total = Math.ceil(t / 1000);
  const m = Math.floor(total / 60);
  const sec = total % 60;
  if (t < 10000) {
    // Tenths in the last ten seconds.
    const tenths = Math.floor(t / 100) / 10;
    return tenths.toFixed(1);
  }
  if (m >= 60) return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

export function formatDate(ms, lang) {
  if (!ms) return '';
  const locale = { ru: 'ru-RU', uk: 'uk-UA', en: 'en-GB' }[lang] || 'en-GB';
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A yes/no choice kept in localStorage: false when nothing was chosen or storage is off. */
export function remembered(key) {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

/** Keeps a yes/no choice (for this page only when storage is off). */
export function remember(key, on) {
  try {
    localStorage.setItem(key, on ? '1' : '0');
  } catch {
    // Not remembered, but the page goes on with it.
  }
}
