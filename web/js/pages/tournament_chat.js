// A tournament's chat room, on the arena's and the round robin's page alike: the last lines and
// the new ones as they are said, over the socket (`tournament.chat.subscribe`); accounts write,
// guests are asked to log in. The panel is made once and moved into each render of its page,
// so what is being typed, and the focus, survive the page's redraws.

import { h, clear, toast } from '../ui.js';
import { t, lang } from '../i18n.js';
import { api } from '../api.js';
import { socket } from '../socket.js';
import { session } from '../session.js';
import { playerLink } from '../players.js';

/** Lines kept on the page (the server sends its last 50 on following). */
const KEPT = 100;

export function tournamentChat(id) {
  /** The lines known, by id. */
  const lines = new Map();
  const list = h('ul', { class: 'chat-list tour-chat-list', 'aria-live': 'polite' });
  const input = h('input', { type: 'text', maxlength: 500, class: 'chat-input', 'aria-label': t('chat.title') });
  const sendButton = h('button', { class: 'btn', type: 'submit' }, t('chat.send'));
  const form = h('form', { class: 'chat-form', onSubmit: send }, input, sendButton);
  const note = h('p', { class: 'small tour-chat-note' });
  const heading = h('h2', { id: `tour-chat-${id}` }, t('chat.title'));
  const panel = h('section', { class: 'panel chat tour-chat', 'aria-labelledby': `tour-chat-${id}` }, heading, list, note, form);

  function canWrite() {
    const user = session.user;
    return !!user && !user.guest && !user.bot;
  }

  function renderForm() {
    input.placeholder = t('chat.placeholder');
    sendButton.textContent = t('chat.send');
    heading.textContent = t('chat.title');
    form.hidden = !canWrite();
    const user = session.user;
    note.textContent = canWrite() ? '' : t(user?.bot ? 'tour.chat.bot' : 'tour.chat.login');
    note.hidden = canWrite();
  }

  function renderLines() {
    clear(list);
    const shown = [...lines.values()].sort((a, b) => a.id - b.id);
    if (!shown.length) {
      list.append(h('li', { class: 'empty small' }, t('tour.chat.empty')));
      return;
    }
    const me = session.user?.id;
    for (const line of shown) {
      const mine = me && line.user === me;
      const mute = !mine && line.user && canWrite()
        ? h('span', { class: 'chat-actions' }, h('button', {
          type: 'button', class: 'chat-act mute', title: t('chat.mute', { name: line.author }), 'aria-label': t('chat.mute', { name: line.author }), onClick: () => muteAuthor(line),
        }, t('chat.mute.short')))
        : null;
      list.append(h('li', { class: ['chat-line', mine && 'mine'], title: new Date(line.at).toLocaleString(lang()) },
        h('b', {}, line.user ? playerLink({ id: line.user, name: line.author }) : line.author, ': '), line.text, mute));
    }
    list.scrollTop = list.scrollHeight;
  }

  function take(incoming) {
    for (const line of incoming) lines.set(line.id, line);
    // Only the newest lines are kept.
    const extra = lines.size - KEPT;
    if (extra > 0) [...lines.keys()].sort((a, b) => a - b).slice(0, extra).forEach((k) => lines.delete(k));
    renderLines();
  }

  async function send(e) {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      const msg = await socket.request({ type: 'tournament.chat', tournament: id, text });
      input.value = '';
      take(msg.lines || []);
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async function muteAuthor(line) {
    try {
      await api.mute(line.user);
      for (const [k, l] of lines) if (l.user === line.user) lines.delete(k);
      renderLines();
      toast(t('chat.muted', { name: line.author }), 'ok');
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  const offs = [
    socket.on('tournament.chat', (msg) => {
      if (msg.tournament === id) take(msg.lines);
    }),
    socket.onOpen(() => {
      socket.request({ type: 'tournament.chat.subscribe', tournament: id })
        .then((msg) => take(msg.lines || []))
        .catch(() => {});
    }),
    session.onChange(() => { renderForm(); renderLines(); }),
  ];
  renderForm();
  renderLines();

  return {
    /** Puts the panel at the end of `parent`, keeping the focus and the caret of the input. */
    attach(parent) {
      const focused = document.activeElement === input;
      const [start, end] = [input.selectionStart, input.selectionEnd];
      parent.append(panel);
      if (focused) {
        input.focus();
        input.setSelectionRange(start, end);
      }
    },
    relabel() {
      renderForm();
      renderLines();
    },
    unmount() {
      for (const off of offs) off();
      if (socket.state === 'open') socket.request({ type: 'tournament.chat.unsubscribe', tournament: id }).catch(() => {});
    },
  };
}
