// A demonstration on a real board: the steps of a scripted demo with their captions,
// "previous" / "next", and "try it yourself", where the reader's move is checked against the
// demo's own legal moves and answers — in the browser, without the server.

import { h, fill } from '../ui.js';
import { t, lang } from '../i18n.js';
import { boards } from '../registry/index.js';

function say(text) {
  return text[lang()] || text.en;
}

/** The demonstration `id` of DEMOS as a figure; `relabel()` redraws it in the current language. */
export function demoFigure(id, demo) {
  const mod = boards[demo.game];
  const board = h('div', { class: ['demo-board', 'diagram-' + demo.game] });
  const count = h('p', { class: 'demo-count' });
  const caption = h('p', { class: 'demo-caption', 'aria-live': 'polite' });
  const verdict = h('p', { class: 'demo-verdict', role: 'status' });
  const prev = h('button', { type: 'button', class: 'btn demo-prev', onClick: () => go(trying ? last : step - 1) });
  const next = h('button', { type: 'button', class: 'btn demo-next', onClick: () => go(step + 1) });
  const tryBtn = h('button', { type: 'button', class: 'btn primary demo-try', onClick: () => startTry() });
  const figure = h('figure', { class: 'demo', 'data-demo': id },
    board,
    h('figcaption', { class: 'demo-text' },
      count, caption, verdict,
      h('div', { class: 'demo-controls' }, prev, next, tryBtn)));

  const last = demo.steps.length - 1;
  let step = 0;
  // null while stepping; otherwise {answered: null | 'right' | 'wrong', move}
  let trying = null;

  function draw(state, interactive) {
    mod.render(board, { variant: demo.variant, legal: [], last: null, ...state, interactive }, {
      interactive,
      controls: interactive ? undefined : false,
      onMove: interactive ? answer : undefined,
    });
    figure.dataset.step = trying ? 'try' : String(step);
  }

  function go(k) {
    trying = null;
    step = Math.max(0, Math.min(last, k));
    render();
  }

  function startTry() {
    trying = { answered: null, move: null };
    // A fresh board: no selection left over from an earlier attempt.
    board.__ui = undefined;
    render();
    board.querySelector('[tabindex="0"]')?.focus({ preventScroll: true });
  }

  function answer(move) {
    const right = Object.hasOwn(demo.try.answers, move);
    trying = { answered: right ? 'right' : 'wrong', move };
    if (!right) board.__ui = undefined;
    render();
  }

  function render() {
    const tr = demo.try;
    if (!trying) {
      const s = demo.steps[step];
      draw({ position: s.position, last: s.last || null }, false);
      count.textContent = t('demo.step', { n: step + 1, of: demo.steps.length });
      caption.textContent = say(s.caption);
      fill(verdict);
      verdict.className = 'demo-verdict';
    } else if (trying.answered === 'right') {
      draw({ position: tr.answers[trying.move], last: trying.move }, false);
      count.textContent = t('demo.yourturn');
      caption.textContent = say(tr.prompt);
      verdict.textContent = `${t('demo.right')} ${say(tr.right)}`;
      verdict.className = 'demo-verdict right';
    } else {
      // Waiting for a move, or told it was wrong: the board takes another attempt.
      draw({ position: tr.position, legal: tr.legal }, true);
      count.textContent = t('demo.yourturn');
      caption.textContent = say(tr.prompt);
      if (trying.answered === 'wrong') {
        verdict.textContent = `${t('demo.wrong')} ${say(tr.wrong)}`;
        verdict.className = 'demo-verdict wrong';
      } else {
        fill(verdict);
        verdict.className = 'demo-verdict';
      }
    }
    prev.textContent = `‹ ${t('demo.prev')}`;
    next.textContent = `${t('demo.next')} ›`;
    tryBtn.textContent = trying && trying.answered === 'right' ? t('demo.again') : t('demo.try');
    prev.disabled = !trying && step === 0;
    next.disabled = !!trying || step === last;
  }

  render();
  return { element: figure, relabel: render };
}
