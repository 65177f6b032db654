// The profile's personal API tokens: the list with each token's scopes and last use, a form
// to make one (its secret shown once, with a copy button), and revoking.

import { h, fill, toast, copyText, formatDate } from '../ui.js';
import { t, lang } from '../i18n.js';
import { api } from '../api.js';

const SCOPES = ['read', 'play', 'challenge', 'bot'];

/** The panel: `node` is kept across the profile's renders (what is typed survives them). */
export function tokensPanel(errorText) {
  let tokens = null;
  let limit = 0;
  let made = null; // {name, secret}: the token just made, until the page is left
  const name = h('input', { name: 'token-name', class: 'token-name', required: true, maxlength: 40, autocomplete: 'off' });
  const boxes = SCOPES.map((scope) => h('input', { type: 'checkbox', name: 'scope', value: scope, checked: scope === 'read' || scope === 'play' }));
  const node = h('section', { class: 'panel api-tokens' });

  async function load() {
    try {
      const reply = await api.tokens();
      tokens = reply.tokens;
      limit = reply.limit;
    } catch {
      tokens = null;
    }
    draw();
  }

  async function make(e) {
    e.preventDefault();
    const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!scopes.length) {
      toast(t('tokens.scopes.none'), 'error');
      return;
    }
    try {
      const reply = await api.makeToken(name.value, scopes);
      made = { name: reply.token.name, secret: reply.secret };
      name.value = '';
      await load();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  async function revoke(token) {
    try {
      await api.revokeToken(token.id);
      if (made && made.name === token.name) made = null;
      toast(t('tokens.revoked', { name: token.name }), 'ok');
      await load();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  }

  function madeBox() {
    if (!made) return null;
    const field = h('input', { class: 'token-secret', readonly: true, value: made.secret, 'aria-label': t('tokens.secret') });
    return h('div', { class: 'token-made', role: 'status' },
      h('p', {}, h('strong', {}, t('tokens.made', { name: made.name })), ' ', t('tokens.once')),
      h('p', { class: 'token-secret-row' }, field,
        h('button', { class: 'btn copy-token', type: 'button', onClick: async () => {
          toast(t(await copyText(made.secret) ? 'tokens.copied' : 'tokens.copy.failed'), 'ok');
        } }, t('tokens.copy'))));
  }

  function row(token) {
    const used = token.last_used_at ? t('tokens.used', { when: formatDate(token.last_used_at, lang()) }) : t('tokens.unused');
    return h('li', { class: 'token' },
      h('span', { class: 'token-label' }, h('strong', {}, token.name), ' ',
        h('span', { class: 'small' }, token.scopes.map((s) => t('tokens.scope.' + s)).join(', '))),
      h('span', { class: 'small token-dates' }, t('tokens.created', { when: formatDate(token.created_at, lang()) }), ' · ', used),
      h('button', { class: 'btn small revoke-token', type: 'button', onClick: () => revoke(token) }, t('tokens.revoke')));
  }

  function draw() {
    const full = tokens && tokens.length >= limit;
    fill(node,
      h('h2', {}, t('tokens.title')),
      h('p', { class: 'small' }, t('tokens.about')),
      madeBox(),
      tokens === null ? h('p', { class: 'error' }, t('tokens.unavailable'))
        : tokens.length ? h('ul', { class: 'token-list' }, ...tokens.map(row))
          : h('p', { class: 'small token-none' }, t('tokens.none')),
      h('form', { class: 'account-form token-form', onSubmit: make },
        h('label', { class: 'field' }, h('span', {}, t('tokens.name')), name),
        h('fieldset', { class: 'token-scopes' }, h('legend', {}, t('tokens.scopes')),
          ...boxes.map((box) => h('label', { class: 'toggle' }, box, ' ', t('tokens.scope.' + box.value)))),
        h('button', { class: 'btn', type: 'submit', disabled: full }, t('tokens.make')),
        full ? h('p', { class: 'small' }, t('tokens.full', { n: limit })) : null));
  }

  draw();
  return { node, load, relabel: draw };
}
