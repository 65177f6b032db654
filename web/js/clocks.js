// Clocks as the pages show and ask for them: the one-click controls of the home page and the
// lobby, the body a table or the queue takes, and a table's clock in a line.

import { t } from './i18n.js';

/** The one-click time controls: minutes+seconds, and days a move for correspondence. */
export const TIME_CONTROLS = ['1+0', '3+2', '5+3', '10+5', '15+10', '3d'];

/** `{clock}` for a table or the queue from a control's id ('' or undefined: no clock). */
export function clockBody(id) {
  if (!id) return {};
  if (id.endsWith('d')) return { clock: { days: Number(id.slice(0, -1)) } };
  const [minutes, increment] = id.split('+').map(Number);
  return { clock: { initial: minutes * 60, increment } };
}

/** How a control reads on its button: "5+3", "3 d". */
export function clockChipLabel(id) {
  return id.endsWith('d') ? t('clock.days.short', { n: id.slice(0, -1) }) : id;
}

/** "5+3", "3 d a move", or null for no clock. */
export function clockLabel(initialMs, incrementMs, days) {
  if (days) return t('clock.days', { n: days });
  if (!initialMs) return null;
  return `${Math.round((initialMs / 60000) * 100) / 100}+${Math.round((incrementMs || 0) / 1000)}`;
}
