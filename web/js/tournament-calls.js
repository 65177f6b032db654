// "Your next game" wherever the player is: when a tournament pairs them (`tournament.game`)
// while they are at a table (the game they just finished), they are taken to the new one; on
// another page but the tournament's own (which goes there itself) a notice says so.

import { toast } from './ui.js';
import { t } from './i18n.js';
import { socket } from './socket.js';
import { currentRoute, navigate } from './router.js';

socket.on('tournament.game', (msg) => {
  const [page, id] = currentRoute().parts;
  if (page === 'tournament' && id === msg.tournament) return;
  if (page === 'table') navigate(`/table/${msg.table}`);
  else toast(t('tour.paired'), 'info', 8000);
});
