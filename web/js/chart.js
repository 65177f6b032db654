// A rating-history chart drawn as SVG in the page: one point per rated game, joined by a line,
// a few labels on each axis, and each point's title (and link) naming the game it stands for.

import { s } from './ui.js';

const H = 220;
const PAD = { left: 46, right: 14, top: 12, bottom: 28 };

/** Round numbers between lo and hi for the y axis: three to five of them. */
function ticks(lo, hi) {
  const span = Math.max(1, hi - lo);
  const step = [10, 20, 25, 50, 100, 200, 250, 500].find((x) => span / x <= 4) || 1000;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}

/**
 * points: [{at, rating, title, href}] oldest first. `dateLabel(ms)` writes an x-axis label;
 * `width` is about the width the chart will have on screen, so that its text stays readable.
 * Returns an <svg class="rating-chart"> whose circles are `.point`, one per entry.
 */
export function ratingChart(points, { label, dateLabel, width = 640 }) {
  const W = Math.max(280, Math.round(width));
  const values = points.map((p) => p.rating);
  const lo = Math.floor((Math.min(...values) - 15) / 10) * 10;
  const hi = Math.ceil((Math.max(...values) + 15) / 10) * 10;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  // Evenly spaced by game, not by date: a burst of games in one evening stays readable.
  const x = (i) => PAD.left + (points.length === 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (v) => PAD.top + innerH - ((v - lo) * innerH) / (hi - lo);
  const svg = s('svg', { class: 'rating-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, preserveAspectRatio: 'xMidYMid meet' });
  for (const v of ticks(lo, hi)) {
    svg.append(
      s('line', { class: 'grid', x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
      s('text', { class: 'axis-label', x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v)),
    );
  }
  svg.append(s('line', { class: 'axis', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom }));
  svg.append(s('line', { class: 'axis', x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom }));
  // Dates under the first, the middle and the last game.
  const marks = [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])];
  marks.forEach((i, k) => {
    const anchor = points.length === 1 ? 'middle' : k === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle';
    svg.append(s('text', { class: 'axis-label', x: x(i), y: H - 8, 'text-anchor': anchor }, dateLabel(points[i].at)));
  });
  if (points.length > 1) {
    svg.append(s('polyline', { class: 'line', points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(' ') }));
  }
  points.forEach((p, i) => {
    const dot = s('circle', { class: ['point', p.change > 0 ? 'up' : p.change < 0 ? 'down' : ''], cx: x(i), cy: y(p.rating), r: 4.5 },
      s('title', {}, p.title));
    svg.append(p.href ? s('a', { href: p.href, class: 'point-link' }, dot) : dot);
  });
  return svg;
}
