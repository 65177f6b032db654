// The boards from the keyboard: the arrow keys move the focus (a ring) to the nearest cell in
// that direction on screen, Enter and Space act on the focused cell as a click does (see
// ui.js's clickable), and the focus stays on the same cell when the board is redrawn — after
// a selection, a move, or the opponent's reply. It works from the drawing alone, so it is the
// same for square grids, hexagons, the mill's points and White Rabbit's dice.

const CELL = '[data-cell], [data-die]';
const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function cellKey(el) {
  return el.getAttribute('data-cell') || el.getAttribute('data-die');
}

function find(svg, key) {
  return key ? [...svg.querySelectorAll(CELL)].find((el) => cellKey(el) === key) || null : null;
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/**
 * The cell nearest to `from` in direction `d`: among those within about 37° of it (straight
 * ahead on a grid or the mill, the next column on the hexagons, half a step up or down), or
 * failing those within 60°; null at the edge.
 */
function next(cells, from, [dx, dy]) {
  const [x0, y0] = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const el of cells) {
    if (el === from) continue;
    const [x, y] = centre(el);
    const along = (x - x0) * dx + (y - y0) * dy;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along <= 1 || across > along * 1.74) continue;
    const score = (across > along * 0.75 ? 1e6 : 0) + along + across;
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  return best;
}

/**
 * The cell of `container`'s board that has the keyboard's focus now, if any (called before a
 * redraw). A cell focused by a pointer does not count: after a click the focus is let go, so
 * the table page's arrow keys step through the game again.
 */
export function focusedCell(container) {
  const active = document.activeElement;
  if (!active || !container.contains(active) || !active.closest || !active.matches(':focus-visible')) return null;
  const cell = active.closest(CELL);
  return cell ? cellKey(cell) : null;
}

/**
 * Makes every cell of a freshly drawn `svg` reachable with the arrows (cells that take a
 * click stay in the Tab order as well), and gives the focus back to cell `key`, the one that
 * had it before the redraw.
 */
export function keyboard(svg, key) {
  const cells = [...svg.querySelectorAll(CELL)];
  for (const el of cells) {
    el.classList.add('kb-cell');
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    if (!el.hasAttribute('aria-label')) el.setAttribute('aria-label', el.querySelector('title')?.textContent || cellKey(el));
    // A name is read (and allowed) only with a role: a cell that takes no click is a picture.
    if (!el.hasAttribute('role')) el.setAttribute('role', 'img');
  }
  svg.addEventListener('keydown', (e) => {
    const d = DIRECTIONS[e.key];
    if (!d || e.altKey || e.ctrlKey || e.metaKey) return;
    const from = e.target.closest && e.target.closest(CELL);
    if (!from) return;
    // The arrows belong to the board while it has the focus (the table page's own use of
    // them, stepping through earlier positions, is for when it has not).
    e.preventDefault();
    e.stopPropagation();
    const to = next(cells, from, d);
    if (to) to.focus();
  });
  if (key) find(svg, key)?.focus({ preventScroll: true });
}
