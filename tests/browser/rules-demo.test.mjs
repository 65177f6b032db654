// The rules shown on the board: a demonstration stepped forward and back, and "try it
// yourself" answered wrong, then right — all in the browser, on the boards of the table page.

import assert from 'node:assert/strict';
import { test, serverAndBrowser, newPlayer } from './helpers.mjs';

const env = serverAndBrowser(['--limits', 'off']);

test('a perekati demonstration steps through a roll, and the reader tries one', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url);
  await page.goto(`${env.server.url}/#/rules/perekati`);
  const demo = page.locator('figure.demo[data-demo="perekati.roll"]');
  const count = demo.locator('.demo-count');
  const caption = demo.locator('.demo-caption');
  const hatOf = (cell) => demo.locator(`.demo-board [data-cell="${cell}"] title`).textContent();
  await count.waitFor();
  assert.equal(await count.innerText(), 'Step 1 of 5');
  assert.match(await caption.innerText(), /hat is on top/);
  assert.match(await hatOf('c1'), /c1: hat on top/);
  assert.equal(await demo.locator('.demo-prev').isDisabled(), true);

  // Forward: the cube reaches c2 with its hat facing forward, and the caption follows.
  await demo.locator('.demo-next').click();
  assert.equal(await count.innerText(), 'Step 2 of 5');
  assert.match(await caption.innerText(), /c2/);
  assert.doesNotMatch(await hatOf('c2'), /hat on top/);
  assert.equal(await demo.locator('.demo-board .cell.last-to').count(), 1, 'the roll is highlighted');
  await demo.locator('.demo-next').click();
  assert.match(await hatOf('c3'), /underneath/);
  // Back one, forward to the end: the hat is on top again on c5, and "next" stops there.
  await demo.locator('.demo-prev').click();
  assert.equal(await count.innerText(), 'Step 2 of 5');
  for (let k = 0; k < 3; k++) await demo.locator('.demo-next').click();
  assert.equal(await count.innerText(), 'Step 5 of 5');
  assert.match(await hatOf('c5'), /c5: hat on top/);
  assert.equal(await demo.locator('.demo-next').isDisabled(), true);
  // A demonstration is a picture until the reader tries.
  assert.equal(await demo.locator('.demo-board .hit').count(), 0);

  // Try it yourself: a wrong roll (to the left) is refused with a hint, the board waits again.
  await demo.locator('.demo-try').click();
  assert.equal(await count.innerText(), 'Your turn');
  assert.match(await caption.innerText(), /facing right/);
  await demo.locator('.demo-board [data-cell="c5"]').click();
  await demo.locator('.demo-board [data-cell="b5"]').click();
  const verdict = demo.locator('.demo-verdict');
  assert.equal(await verdict.getAttribute('class'), 'demo-verdict wrong');
  assert.match(await verdict.innerText(), /^Not quite\./);
  assert.match(await hatOf('c5'), /hat on top/, 'the wrong move is not played');
  // The right one: rolled to d5, the hat faces east.
  await demo.locator('.demo-board [data-cell="c5"]').click();
  await demo.locator('.demo-board [data-cell="d5"]').click();
  assert.equal(await verdict.getAttribute('class'), 'demo-verdict right');
  assert.match(await verdict.innerText(), /^Right!/);
  assert.match(await hatOf('d5'), /d5: hat facing right/);
  assert.equal(await demo.locator('.demo-board .hit').count(), 0, 'answered: the board rests');
  assert.equal(await demo.locator('.demo-try').innerText(), 'Once more');
  // "Previous" leads back to the demonstration's last step.
  await demo.locator('.demo-prev').click();
  assert.equal(await count.innerText(), 'Step 5 of 5');
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});

test('a cephalopod capture is chosen on the demo board, in Russian', async () => {
  const { context, page } = await newPlayer(env.browser, env.server.url, { lang: 'ru' });
  await page.goto(`${env.server.url}/#/rules/cephalopod`);
  const demo = page.locator('figure.demo[data-demo="cephalopod.capture"]');
  await demo.locator('.demo-count').waitFor();
  assert.equal(await demo.locator('.demo-count').innerText(), 'Шаг 1 из 2');
  await demo.locator('.demo-next').click();
  assert.match(await demo.locator('.demo-caption').innerText(), /берут 1 и 2/);
  assert.equal(await demo.locator('.demo-board .die').count(), 2, 'two dice left after the capture');

  await demo.locator('.demo-try').click();
  // Taking two of the three is legal but not what was asked.
  await demo.locator('.demo-board [data-cell="b2"]').click();
  await demo.locator('.demo-board .capture-option[data-move="b2:a2,c2"]').click();
  assert.match(await demo.locator('.demo-verdict.wrong').innerText(), /^Не совсем\./);
  await demo.locator('.demo-board [data-cell="b2"]').click();
  await demo.locator('.demo-board .capture-option[data-move="b2:a2,b3,c2"]').click();
  assert.match(await demo.locator('.demo-verdict.right').innerText(), /^Верно!/);
  assert.equal(await demo.locator('.demo-board .die').count(), 1);
  assert.match(await demo.locator('.demo-board [data-cell="b2"] title').textContent(), /6$/);

  // A language switch keeps the demonstration where it is.
  await page.locator('.lang-select').selectOption('uk');
  await demo.locator('.demo-verdict.right', { hasText: 'Правильно!' }).waitFor();
  assert.deepEqual(page.__errors || [], []);
  await context.close();
});
