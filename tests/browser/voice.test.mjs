// Voice: with Chromium's fake microphone the two seated players' peer connection comes up.

import assert from 'node:assert/strict';
import {
  test, serverAndBrowser, newPlayer, waitStatus, createPrivateTable, joinByInvite,
} from './helpers.mjs';

const env = serverAndBrowser();

test('voice: two players connect over WebRTC signalled through the table', async () => {
  const A = await newPlayer(env.browser, env.server.url);
  const B = await newPlayer(env.browser, env.server.url);
  const a = A.page;
  const b = B.page;
  const invite = await createPrivateTable(a, env.server.url, 'cephalopod', '3x3');
  await joinByInvite(b, invite);
  await waitStatus(a, 'playing');

  await a.locator('.voice-toggle').click();
  await b.locator('.voice-state.vs-ringing').waitFor();
  await b.locator('.voice-toggle').click();
  const connected = () => window.__stolikVoice && window.__stolikVoice.state === 'connected';
  // Generous: on a loaded CI machine ICE over loopback once took more than 20 s.
  await a.waitForFunction(connected, null, { timeout: 60000 });
  await b.waitForFunction(connected, null, { timeout: 60000 });
  assert.equal(await a.evaluate(() => window.__stolikVoice.connectionState), 'connected');

  // Turning it off on one side tells the other.
  await b.locator('.voice-toggle').click();
  await a.waitForFunction(() => window.__stolikVoice.state !== 'connected', null, { timeout: 20000 });
  await A.context.close();
  await B.context.close();
});
