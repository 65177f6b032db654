// The chat: the players' and the spectators' rooms, and muting or reporting a line.

import { h, clear, toast, remembered, remember } from '../../ui.js';
import { t, lang } from '../../i18n.js';
import { socket } from '../../socket.js';
import { api } from '../../api.js';
import { session } from '../../session.js';
import { playerLink } from '../../players.js';

/** Whether a player has chosen to read the spectators' chat too (remembered). */
const SPECTATOR_CHAT_KEY = 'stolik.spectatorChat';

/** Made once per table page over its shared `page` (see table.js); returns what the other parts call. */
export function chat(page) {
  const { id, el } = page;

  // Two rooms: seated players write in the players' room, everyone else in the spectators'.
  // Spectators read both; players read the spectators' only when they ask to.
  function renderChat() {
    clear(el.chatOptions);
    if (page.tbl.you && !page.solo()) {
      el.chatOptions.append(h('label', { class: 'spectator-toggle small' },
        h('input', { type: 'checkbox', class: 'show-spectators', checked: remembered(SPECTATOR_CHAT_KEY), onChange: (e) => {
          remember(SPECTATOR_CHAT_KEY, e.target.checked);
          renderChat();
        } }), ' ', t('chat.spectators.show')));
    } else if (!page.tbl.you) {
      el.chatOptions.append(h('p', { class: 'small spectator-room' }, t('chat.spectators.room')));
    }
    el.chatInput.placeholder = page.tbl.you ? t('chat.placeholder') : t('chat.spectators.placeholder');
    clear(el.chatList);
    for (const line of page.tbl.chat || []) appendChatLine(line);
  }

  function lineShown(line) {
    return !page.tbl.you || line.room !== 'spectators' || remembered(SPECTATOR_CHAT_KEY);
  }

  function appendChatLine(line) {
    if (!lineShown(line)) return;
    const mine = line.user && session.user && line.user === session.user.id;
    // Someone else's line can be muted (for you only) or reported to the moderators.
    const actions = !mine && line.user && !line.user.startsWith('bot:')
      ? h('span', { class: 'chat-actions' },
        h('button', { type: 'button', class: 'chat-act mute', title: t('chat.mute', { name: line.author }), 'aria-label': t('chat.mute', { name: line.author }), onClick: () => muteAuthor(line) }, t('chat.mute.short')),
        h('button', { type: 'button', class: 'chat-act report', title: t('chat.report'), 'aria-label': t('chat.report'), onClick: () => reportLine(line) }, t('chat.report.short')))
      : null;
    el.chatList.append(
      h('li', { class: ['chat-line', mine && 'mine', line.room === 'spectators' && 'from-spectator'], title: new Date(line.at).toLocaleTimeString(lang()) },
        line.room === 'spectators' ? h('span', { class: 'room-tag' }, t('chat.spectator.tag')) : null,
        h('b', {}, line.user ? playerLink({ id: line.user, name: line.author }) : line.author, ': '), line.text, actions),
    );
    el.chatList.scrollTop = el.chatList.scrollHeight;
  }

  async function muteAuthor(line) {
    try {
      await api.mute(line.user);
      page.tbl.chat = (page.tbl.chat || []).filter((l) => l.user !== line.user);
      renderChat();
      toast(t('chat.muted', { name: line.author }), 'ok');
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async function reportLine(line) {
    const reason = window.prompt(t('chat.report.prompt', { name: line.author }), '');
    if (!reason || !reason.trim()) return;
    try {
      await api.report(line.user, line.id, reason.trim().slice(0, 500));
      toast(t('chat.reported'), 'ok');
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async function sendChat(e) {
    e.preventDefault();
    const text = el.chatInput.value.trim();
    if (!text) return;
    try {
      await socket.request({ type: 'chat', table: id, text });
      el.chatInput.value = '';
    } catch (err) {
      toast(page.errorText(err), 'error');
    }
  }

  return { appendChatLine, renderChat, sendChat };
}
