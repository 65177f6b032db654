// Voice between the two players of a game (js/voice.js carries the call).

import { h, clear, icon, toast } from '../../ui.js';
import { t } from '../../i18n.js';
import { socket } from '../../socket.js';
import { Voice } from '../../voice.js';

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function voicePanel(page) {
  const { id, el } = page;

  function renderVoice() {
    clear(el.voice);
    const both = page.tbl.seats.length === 2 && page.tbl.seats.every((x) => x.user);
    if (!page.tbl.you || page.solo() || !both || page.vsBot() || page.tbl.status === 'aborted') {
      el.voice.hidden = true;
      return;
    }
    el.voice.hidden = false;
    const on = page.voice && page.voice.enabled;
    el.voice.append(
      h(
        'button',
        { class: ['btn', 'voice-toggle', on && 'on'], 'aria-pressed': on ? 'true' : 'false', onClick: toggleVoice },
        icon(on ? 'mic' : 'micoff'),
        t(on ? 'voice.off' : 'voice.on'),
      ),
      h('span', { class: ['voice-state', 'vs-' + page.voiceState] }, t('voice.state.' + page.voiceState)),
    );
  }

  function ensureVoice() {
    const both = page.tbl.seats.length === 2 && page.tbl.seats.every((x) => x.user);
    if (!page.voice && page.tbl.you && both && !page.vsBot()) {
      page.voice = new Voice({
        polite: page.tbl.you === 'b',
        send: (signal) => socket.request({ type: 'voice', table: id, signal }),
        onState: (st) => {
          page.voiceState = st;
          if (window.__stolik) window.__stolik.voice = st;
          if (page.tbl) renderVoice();
          if (st === 'ringing') toast(t('voice.ringing'));
        },
      });
    }
  }

  async function toggleVoice() {
    if (!page.voice) return;
    if (page.voice.enabled) page.voice.off();
    else await page.voice.on();
    renderVoice();
  }

  return { ensureVoice, renderVoice };
}
