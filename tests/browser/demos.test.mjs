// The rules demonstrations are real games: every position, move, legal list and answer of
// each game's demonstrations (web/js/registry/<game>.js) is checked against the engines through
// `stolik referee`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientGames } from './client-games.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.STOLIK_BIN || join(root, 'target', 'debug', 'stolik');
const GAMES = await clientGames();
const DEMOS = Object.assign({}, ...Object.values(GAMES).map((g) => g.demos));

let referee;
let lines;

before(() => {
  referee = spawn(BIN, ['referee'], { stdio: ['pipe', 'pipe', 'inherit'] });
  lines = createInterface({ input: referee.stdout })[Symbol.asyncIterator]();
});
after(() => {
  referee.stdin.write('quit\n');
});

async function ask(command) {
  referee.stdin.write(command + '\n');
  const { value } = await lines.next();
  return value;
}

async function setPosition(demo, position) {
  const reply = await ask(`position ${demo.game} ${demo.variant} ${position}`);
  assert.equal(reply, `ok ${position}`, `${demo.game}: the position is legal and written as the engine writes it`);
}

async function legal() {
  return (await ask('legal')).split(' ').slice(1);
}

test('every demonstration step follows from the one before by legal moves', async () => {
  for (const [id, demo] of Object.entries(DEMOS)) {
    await setPosition(demo, demo.steps[0].position);
    assert.equal(demo.steps[0].moves, undefined, `${id} starts from a position`);
    for (let k = 1; k < demo.steps.length; k++) {
      const step = demo.steps[k];
      await setPosition(demo, demo.steps[k - 1].position);
      assert.ok(step.moves.length >= 1, `${id} step ${k} has moves`);
      const reply = await ask(`play ${step.moves.join(' ')}`);
      assert.ok(reply.startsWith('ok '), `${id} step ${k}: ${reply}`);
      const got = reply.slice(3);
      if (step.moves.includes('reroll')) {
        // The dice of a reroll are the demo's own: only that die's value may differ.
        const die = demo.steps[k - 1].position.split(' ')[4];
        assert.match(die, /^[kr][1-5]$|^w$/, `${id} step ${k}: a die may be rerolled`);
        const mask = (p) => p.replace(new RegExp(`\\b${die}=\\d`), `${die}=?`);
        assert.equal(mask(step.position), mask(got), `${id} step ${k}`);
        await setPosition(demo, step.position);
      } else {
        assert.equal(got, step.position, `${id} step ${k}`);
      }
      if (step.last) assert.ok(step.moves.includes(step.last), `${id} step ${k}: the highlighted move was played`);
    }
  }
});

test('the positions to try list their legal moves, and each answer leads where the demo says', async () => {
  for (const [id, demo] of Object.entries(DEMOS)) {
    const tr = demo.try;
    await setPosition(demo, tr.position);
    const engine = await legal();
    assert.deepEqual([...tr.legal, ...(tr.omitted || [])].sort(), [...engine].sort(), `${id}: the legal moves`);
    const answers = Object.keys(tr.answers);
    assert.ok(answers.length >= 1 && answers.length < tr.legal.length, `${id}: some moves are right and some wrong`);
    for (const mv of answers) {
      assert.ok(tr.legal.includes(mv), `${id}: ${mv} is offered`);
      await setPosition(demo, tr.position);
      assert.equal(await ask(`play ${mv}`), `ok ${tr.answers[mv]}`, `${id}: ${mv}`);
    }
  }
});

test('every demonstration has its captions in three languages and sits in the rules of its game', () => {
  const used = new Set();
  for (const [game, { rules, demos }] of Object.entries(GAMES)) {
    const per = ['ru', 'uk', 'en'].map((l) => rules[l].flatMap((sec) => sec.demos || []));
    assert.deepEqual(per[0], per[2], `${game}: ru shows the demonstrations en shows`);
    assert.deepEqual(per[1], per[2], `${game}: uk shows the demonstrations en shows`);
    for (const key of per[2]) {
      assert.ok(demos[key], `${game}: ${key} exists`);
      assert.equal(demos[key].game, game);
      used.add(key);
    }
  }
  assert.deepEqual([...used].sort(), Object.keys(DEMOS).sort(), 'every demonstration is shown somewhere');
  for (const [id, demo] of Object.entries(DEMOS)) {
    const texts = [...demo.steps.map((s) => s.caption), demo.try.prompt, demo.try.right, demo.try.wrong];
    for (const text of texts) for (const l of ['ru', 'uk', 'en']) assert.ok(text[l] && text[l].length > 10, `${id}: ${l}`);
  }
});
