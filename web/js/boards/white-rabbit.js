// White Rabbit, the solo dice puzzle: six dice on the table, five in the hand, the green
// counter. Position: 'k1=3,…' (table) 'k4=4,…' (hand) counter banned-swap rerollable-die.
// Actions: 'k4~r2' (hand die ~ table die), 'reroll', 'end'. Players never see those letters:
// dice are named in words (../rabbit-words.js), and the hand keeps its order between swaps (the
// die that comes in takes the place of the one that left).

import { s, h, clickable } from '../ui.js';
import { t } from '../i18n.js';
import { svgRoot, uiState, mount, die } from './common.js';
import { dieWords, actionWords } from '../rabbit-words.js';

const SZ = 64;
const GAP = 18;

function dice(text) {
  if (!text || text === '-') return [];
  return text.split(',').map((pair) => {
    const [id, v] = pair.split('=');
    return { id, value: parseInt(v, 10), colour: id[0] };
  });
}

export function parse(position) {
  const [table, hand, counter, banned, reroll] = position.trim().split(/\s+/);
  return {
    table: dice(table),
    hand: dice(hand),
    counter: parseInt(counter, 10),
    banned: banned && banned !== '-' ? banned : null,
    reroll: reroll && reroll !== '-' ? reroll : null,
  };
}

/**
 * The hand in the order it was last shown in: dice still in the hand keep their places, a die
 * that came in takes a freed place. The position lists the hand in the engine's order, which
 * would make dice jump around after every swap.
 */
function steadyHand(container, hand) {
  const before = container.__rabbitHand || [];
  const byId = new Map(hand.map((d) => [d.id, d]));
  const places = before.map((id) => (byId.has(id) ? id : null));
  const newcomers = hand.filter((d) => !places.includes(d.id)).map((d) => d.id);
  for (let i = 0; i < places.length && newcomers.length; i++) if (places[i] === null) places[i] = newcomers.shift();
  const order = [...places.filter((id) => id !== null), ...newcomers];
  container.__rabbitHand = order;
  return order.map((id) => byId.get(id));
}

/** A move in words; with the position it was played from, its dice's values too. */
export function moveWords(m, position) {
  return actionWords(m, position);
}

export function render(container, state, opts = {}) {
  const p = parse(state.position);
  p.hand = steadyHand(container, p.hand);
  const ui = uiState(container, state);
  const interactive = !!opts.interactive;
  const legal = interactive ? state.legal || [] : [];
  const swaps = legal.filter((m) => m.includes('~')).map((m) => {
    const [hd, td] = m.split('~');
    return { m, hand: hd, table: td };
  });
  const handMovable = new Set(swaps.map((x) => x.hand));
  const targets = new Map(swaps.filter((x) => x.hand === ui.sel).map((x) => [x.table, x.m]));
  const last = state.last && state.last.includes('~') ? state.last.split('~') : null;
  // The solver's suggestion, when the player asked for a hint: [hand die, table die] or a word.
  const hinted = state.hinted && state.hinted.includes('~') ? state.hinted.split('~') : null;

  const W = 6 * SZ + 7 * GAP + SZ + GAP * 2;
  const H = 2 * SZ + 3 * GAP + 60;
  const svg = svgRoot(W, H, 'white-rabbit', t('board.label'));
  svg.append(s('rect', { class: 'felt', x: 4, y: 4, width: 6 * (SZ + GAP) + GAP, height: SZ + 2 * GAP + 16, rx: 14 }));
  svg.append(s('text', { class: 'area-label', x: 16, y: 20 }, t('rabbit.table')));

  const yTable = GAP + 16 + SZ / 2;
  const yHand = yTable + SZ + 2 * GAP + 24;
  svg.append(s('text', { class: 'area-label', x: 16, y: yHand - SZ / 2 - 8 }, t('rabbit.hand')));

  p.table.forEach((d, k) => {
    const x = GAP + k * (SZ + GAP) + SZ / 2;
    const g = s('g', { class: ['slot', last && last[0] === d.id && 'last-to', targets.has(d.id) && 'target', hinted && hinted[1] === d.id && 'hinted'], 'data-die': d.id });
    g.append(die(x, yTable, SZ, d.value, [`dc-${d.colour}`]));
    if (targets.has(d.id)) {
      g.append(s('rect', { class: 'target-ring', x: x - SZ / 2 - 5, y: yTable - SZ / 2 - 5, width: SZ + 10, height: SZ + 10, rx: 14 }));
      clickable(g, actionWords(`${ui.sel}~${d.id}`, state.position), () => {
        const mv = targets.get(d.id);
        ui.sel = null;
        opts.onMove?.(mv);
      });
    }
    g.append(s('title', {}, dieWords(d.id, state.position)));
    svg.append(g);
  });

  p.hand.forEach((d, k) => {
    const x = GAP + k * (SZ + GAP) + SZ / 2;
    const g = s('g', { class: ['slot', ui.sel === d.id && 'selected', p.reroll === d.id && 'rerollable', last && last[1] === d.id && 'last-from', hinted && hinted[0] === d.id && 'hinted'], 'data-die': d.id });
    g.append(die(x, yHand, SZ, d.value, [`dc-${d.colour}`]));
    if (handMovable.has(d.id)) {
      g.classList.add('movable');
      clickable(g, dieWords(d.id, state.position), () => {
        ui.sel = ui.sel === d.id ? null : d.id;
        render(container, state, opts);
        container.querySelector(`[data-die="${d.id}"]`)?.focus();
      });
    }
    g.append(s('title', {}, dieWords(d.id, state.position)));
    svg.append(g);
  });

  // The green counter, to the right of the table row.
  const cx = 6 * (SZ + GAP) + GAP + GAP + SZ / 2 + 4;
  svg.append(s('text', { class: 'area-label', x: cx, y: 20, 'text-anchor': 'middle' }, t('rabbit.counter')));
  svg.append(die(cx, yTable, SZ, p.counter, ['dc-g', 'counter'], { role: 'img', 'aria-label': `${t('rabbit.counter')}: ${p.counter}` }));

  const controls = h('div', { class: 'board-controls' });
  if (interactive) {
    controls.append(h('p', { class: 'hint' }, ui.sel ? t('rabbit.hint.table', { die: dieWords(ui.sel, state.position) }) : t('rabbit.hint.hand')));
    const canReroll = legal.includes('reroll');
    controls.append(
      h('button', { class: ['btn reroll', state.hinted === 'reroll' && 'hinted'], disabled: !canReroll, onClick: () => opts.onMove?.('reroll') }, canReroll ? t('rabbit.reroll', { die: dieWords(p.reroll, state.position) }) : t('rabbit.reroll.none')),
      h('button', { class: ['btn end', state.hinted === 'end' && 'hinted'], disabled: !legal.includes('end'), onClick: () => opts.onMove?.('end') }, t('rabbit.end')),
    );
  }
  if (p.banned && !state.over) controls.append(h('p', { class: 'hint small' }, t('rabbit.banned', { swap: actionWords(p.banned, state.position) })));
  mount(container, svg, controls);
}
