// The account page: who you are, register / log in / log out, password, finished games.

import { h, clear, toast } from '../ui.js';
import { t, lang } from '../i18n.js';
import { gamesTable } from '../gamelist.js';
import { api } from '../api.js';
import { session } from '../session.js';
import { socket } from '../socket.js';
import { tokensPanel } from './profile_tokens.js';
import { pushSection } from './push_settings.js';

function errorText(err) {
  const key = 'error.' + err.code;
  const text = t(key);
  return text === key ? err.message || err.code : text;
}

/** Identity changed: the socket must reconnect to carry the new cookie. */
export function identityChanged(user) {
  session.set(user);
  socket.restart();
}

export function mount(root) {
  let games = [];
  let list = null;
  let listError = null;
  let muted = null;
  let vacation = null;
  // An account's API tokens (guests have none).
  let tokens = null;
  // Kept across renders: it loads its own state and redraws itself.
  const pushPanel = pushSection();

  function form(kind) {
    const user = h('input', { name: 'username', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]{3,20}' });
    const pass = h('input', { name: 'password', type: 'password', autocomplete: kind === 'register' ? 'new-password' : 'current-password', required: true, minlength: kind === 'register' ? 8 : 1, maxlength: 128 });
    const submit = async (e) => {
      e.preventDefault();
      try {
        const reply = kind === 'register' ? await api.register(user.value, pass.value) : await api.login(user.value, pass.value);
        identityChanged(reply.user);
        toast(t(kind === 'register' ? 'account.registered' : 'account.loggedin', { name: reply.user.name }), 'ok');
        load();
      } catch (err) {
        toast(errorText(err), 'error');
      }
    };
    return h('form', { class: ['account-form', kind + '-form'], onSubmit: submit },
      h('h2', {}, t(kind === 'register' ? 'account.register' : 'account.login')),
      kind === 'register' ? h('p', { class: 'small' }, t('account.register.hint')) : null,
      h('label', { class: 'field' }, h('span', {}, t('account.username')), user),
      h('label', { class: 'field' }, h('span', {}, t('account.password')), pass),
      h('button', { class: 'btn primary', type: 'submit' }, t(kind === 'register' ? 'account.register' : 'account.login')),
    );
  }

  function passwordForm() {
    const old = h('input', { type: 'password', name: 'old', autocomplete: 'current-password', required: true });
    const next = h('input', { type: 'password', name: 'new', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128 });
    return h('form', { class: 'account-form password-form', onSubmit: async (e) => {
      e.preventDefault();
      try {
        await api.changePassword(old.value, next.value);
        old.value = '';
        next.value = '';
        toast(t('account.password.changed'), 'ok');
      } catch (err) {
        toast(errorText(err), 'error');
      }
    } },
      h('h2', {}, t('account.password.change')),
      h('label', { class: 'field' }, h('span', {}, t('account.password.old')), old),
      h('label', { class: 'field' }, h('span', {}, t('account.password.new')), next),
      h('button', { class: 'btn', type: 'submit' }, t('account.password.change')),
    );
  }

  async function logout() {
    try {
      await api.logout();
      const me = await api.me();
      identityChanged(me.user);
      toast(t('account.loggedout'), 'ok');
      load();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  function gamesPanel() {
    if (listError) return h('p', { class: 'error' }, listError);
    if (!list) return h('p', { class: 'loading' }, t('loading'));
    return gamesTable(list, games, session.user?.id);
  }

  // The forms are built once per identity and language and reused by every render, so that
  // what the visitor is typing survives the games list arriving (a render replaces the page).
  let accountKey = null;
  let accountNodes = [];
  function accountSection(u) {
    const key = `${u.id}:${u.guest}:${lang()}`;
    if (key !== accountKey) {
      accountKey = key;
      accountNodes = u.guest
        ? [h('div', { class: 'account-forms' }, form('register'), form('login'))]
        : [
          h('p', { class: 'logout-buttons' },
            h('button', { class: 'btn logout', onClick: logout }, t('account.logout')),
            h('button', { class: 'btn logout-everywhere', onClick: logoutEverywhere }, t('account.logout.everywhere'))),
          h('div', { class: 'account-forms' }, passwordForm()),
        ];
    }
    return accountNodes;
  }

  /** An account's vacation days for correspondence games, and the switch of their automatic use. */
  function vacationSection() {
    if (!vacation || session.user?.guest) return null;
    const box = h('input', { type: 'checkbox', class: 'vacation-auto', checked: vacation.auto, onChange: async () => {
      try {
        vacation = await api.setVacation(box.checked);
      } catch (err) {
        toast(errorText(err), 'error');
      }
      render();
    } });
    return h('section', { class: 'panel vacation-settings' }, h('h2', {}, t('profile.vacation')),
      h('label', { class: 'toggle' }, box, ' ', t('profile.vacation.auto')),
      h('p', { class: 'small vacation-left' }, t('profile.vacation.left', { n: vacation.days_left, of: vacation.days_a_year })));
  }

  function mutedSection() {
    if (!muted || !muted.length) return null;
    return h('section', { class: 'panel muted-players' }, h('h2', {}, t('profile.muted')),
      h('ul', { class: 'muted-list' }, ...muted.map((m) => h('li', {},
        h('span', {}, m.name || m.user), ' ',
        h('button', { class: 'btn small unmute', onClick: () => unmute(m) }, t('profile.unmute')),
      ))));
  }

  async function unmute(m) {
    try {
      await api.unmute(m.user);
      muted = muted.filter((x) => x.user !== m.user);
      render();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  async function logoutEverywhere() {
    try {
      await api.logoutEverywhere();
      toast(t('account.logout.everywhere.done'), 'ok');
      socket.restart();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  function render() {
    if (!root.isConnected) return; // the visitor has moved on (app.js takes a page's root away)
    // A render moves the reused account forms out of the page and back: the field being typed
    // in would lose the focus (and the keystrokes after it), so it gets it back.
    const typing = root.contains(document.activeElement) ? document.activeElement : null;
    const caret = typing?.selectionStart != null ? [typing.selectionStart, typing.selectionEnd] : null;
    clear(root);
    document.title = `${t('nav.profile')} — ${t('app.name')}`;
    const u = session.user;
    const page = h('section', { class: 'page profile' }, h('h1', {}, u ? u.name : t('nav.profile')));
    if (u) {
      page.append(h('p', { class: 'lead' }, u.guest ? t('account.guest') : t('account.member'), ' ',
        h('a', { class: 'public-page', href: `#/player/${encodeURIComponent(u.id)}` }, t('profile.public'))));
      page.append(...accountSection(u));
    }
    const vacationPanel = vacationSection();
    if (vacationPanel) page.append(vacationPanel);
    if (u) page.append(pushPanel.node());
    if (tokens && u && !u.guest) page.append(tokens.node);
    const mutedPanel = mutedSection();
    if (mutedPanel) page.append(mutedPanel);
    page.append(h('section', { class: 'panel' }, h('h2', {}, t('profile.games')), gamesPanel()));
    root.append(page);
    if (typing?.isConnected) {
      typing.focus();
      if (caret) typing.setSelectionRange(caret[0], caret[1]);
    }
  }

  async function load() {
    list = null;
    listError = null;
    render();
    try {
      list = await api.myGames();
    } catch (err) {
      listError = errorText(err);
    }
    muted = await api.mutes().then((m) => m.muted).catch(() => null);
    // Guests have no vacation days (the server answers 409).
    vacation = session.user && !session.user.guest ? await api.vacation().catch(() => null) : null;
    tokens = session.user && !session.user.guest ? tokensPanel(errorText) : null;
    await tokens?.load();
    render();
  }

  const off = session.onChange(render);
  api.games().then((g) => { games = g; render(); }).catch(() => {});
  load();
  return { unmount() { off(); }, relabel() { tokens?.relabel(); pushPanel.relabel(); render(); } };
}
