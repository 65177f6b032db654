// Sounds, made on the spot with the Web Audio API (no audio files): a move, a capture or
// removal, the start and the end of a game, and a warning when your time runs low. Muting is
// remembered. Every sound played is also listed in window.__stolikSounds, for the tests.

const STORE_KEY = 'stolik.sound';
const listeners = new Set();

let muted = false;
try {
  muted = localStorage.getItem(STORE_KEY) === 'off';
} catch {
  muted = false;
}

const played = [];
if (typeof window !== 'undefined') window.__stolikSounds = played;

let ctx = null;

function audio() {
  if (ctx) return ctx;
  const Ctor = typeof window !== 'undefined' ? window.AudioContext || window.webkitAudioContext : null;
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    ctx = null;
  }
  return ctx;
}

// Browsers start audio only after a gesture: the first tap or key press wakes it up.
if (typeof window !== 'undefined') {
  const wake = () => {
    const a = audio();
    if (a && a.state === 'suspended') a.resume().catch(() => {});
  };
  window.addEventListener('pointerdown', wake, { capture: true });
  window.addEventListener('keydown', wake, { capture: true });
}

// Each sound: notes of [frequency Hz, start s, length s, wave, volume].
const SOUNDS = {
  move: [[520, 0, 0.07, 'triangle', 0.35]],
  capture: [[660, 0, 0.07, 'square', 0.12], [440, 0.07, 0.12, 'triangle', 0.3]],
  start: [[523, 0, 0.12, 'sine', 0.25], [784, 0.12, 0.18, 'sine', 0.25]],
  end: [[784, 0, 0.14, 'sine', 0.25], [659, 0.14, 0.14, 'sine', 0.25], [523, 0.28, 0.3, 'sine', 0.25]],
  lowtime: [[880, 0, 0.08, 'square', 0.1], [880, 0.16, 0.08, 'square', 0.1]],
};

function tone(name) {
  const a = audio();
  if (!a || a.state !== 'running') return;
  const now = a.currentTime;
  for (const [freq, start, length, wave, volume] of SOUNDS[name] || []) {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(volume, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(a.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

/** Plays one of: move, capture, start, end, lowtime (unless muted). */
export function play(name) {
  if (muted || !SOUNDS[name]) return;
  played.push(name);
  try {
    tone(name);
  } catch {
    // No sound is no reason to break the page.
  }
}

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = !!value;
  try {
    localStorage.setItem(STORE_KEY, muted ? 'off' : 'on');
  } catch {
    // Not remembered, but still switched.
  }
  for (const fn of listeners) fn(muted);
}

export function onMuted(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
