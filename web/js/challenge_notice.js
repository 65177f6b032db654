// Wherever the player is on the site, a challenge to them is announced with a toast that
// points to the challenges page (#/challenges), where it is answered.

import { toast } from './ui.js';
import { t } from './i18n.js';
import { socket } from './socket.js';
import { session } from './session.js';
import { currentRoute } from './router.js';

socket.on('challenge', (msg) => {
  const c = msg.challenge;
  if (msg.event !== 'created' || !session.user || c.dest.id !== session.user.id) return;
  // The challenges page shows it already.
  if (currentRoute().parts[0] === 'challenges') return;
  toast(t('challenge.incoming', { name: c.challenger.name }), 'info', 8000);
});
