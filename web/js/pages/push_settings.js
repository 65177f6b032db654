// The profile's "Notifications on this device" panel: "Notify me" (the browser's permission
// and this device's push subscription) and a switch for each kind of notification.

import { h, clear, toast } from '../ui.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { pushSupported, deviceSubscription, enablePush, disablePush } from '../push.js';

function errorText(err) {
  const key = 'error.' + err.code;
  const text = err.code ? t(key) : key;
  return text === key ? err.message || err.code || String(err) : text;
}

export function pushSection() {
  const root = h('section', { class: 'panel push-settings' });
  let settings = null;
  let subscribed = false;
  let problem = null;
  let busy = false;

  async function load() {
    settings = await api.pushSettings().catch(() => null);
    subscribed = !!(await deviceSubscription().catch(() => null));
    render();
  }

  async function toggleDevice() {
    busy = true;
    problem = null;
    render();
    try {
      if (subscribed) {
        await disablePush();
        subscribed = false;
        settings = await api.pushSettings().catch(() => settings);
      } else {
        settings = await enablePush();
        subscribed = true;
      }
    } catch (err) {
      problem = err.denied ? t('profile.push.denied')
        : err.noService ? t('profile.push.noservice')
          : t('profile.push.failed', { error: errorText(err) });
    }
    busy = false;
    render();
  }

  async function setKind(kind, on) {
    const off = new Set(settings.off);
    if (on) off.delete(kind);
    else off.add(kind);
    try {
      settings = await api.setPushOff([...off]);
    } catch (err) {
      toast(errorText(err), 'error');
    }
    render();
  }

  function render() {
    clear(root);
    root.append(h('h2', {}, t('profile.push')));
    if (!pushSupported()) {
      root.append(h('p', { class: 'small push-status' }, t('profile.push.unsupported')));
      return;
    }
    const denied = typeof Notification !== 'undefined' && Notification.permission === 'denied';
    root.append(
      h('p', { class: 'small push-status' }, t(subscribed ? 'profile.push.status.on' : 'profile.push.status.off')),
      h('button', { class: ['btn', subscribed ? '' : 'primary', 'push-device'], type: 'button', disabled: busy, onClick: toggleDevice },
        t(subscribed ? 'profile.push.off' : 'profile.push.on')),
    );
    if (problem || denied) root.append(h('p', { class: 'small push-problem', role: 'status' }, problem || t('profile.push.denied')));
    if (!settings) return;
    root.append(h('fieldset', { class: 'push-kinds' },
      h('legend', {}, t('profile.push.kinds')),
      ...settings.kinds.map((kind) => {
        const box = h('input', { type: 'checkbox', name: 'push-' + kind, checked: !settings.off.includes(kind),
          onChange: () => setKind(kind, box.checked) });
        return h('label', { class: 'toggle push-kind' }, box, ' ', t('push.kind.' + kind));
      })));
  }

  render();
  load();
  return { node: () => root, relabel: render };
}
