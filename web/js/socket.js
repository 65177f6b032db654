// The one WebSocket of this tab: request ids matched to replies, events fanned out to
// handlers, automatic reconnection with backoff. Pages re-subscribe from `onOpen` handlers,
// because the server forgets a connection's subscriptions when it drops.

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const REQUEST_TIMEOUT_MS = 15000;
// The server drops a client it has not heard from for 30 s; the browser answers its pings at
// the protocol level, but an application ping also detects half-open connections sooner.
const PING_EVERY_MS = 20000;

export class SocketError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

class Socket {
  constructor() {
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, timer}
    this.handlers = new Map(); // type -> Set(fn)
    this.openHandlers = new Set();
    this.stateHandlers = new Set();
    this.attempt = 0;
    this.wanted = false;
    this.state = 'closed'; // 'connecting' | 'open' | 'closed'
    this.user = null;
    this.everOpened = false;
    this.pingTimer = null;
    this.reconnectTimer = null;
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws`;
  }

  connect() {
    this.wanted = true;
    if (this.ws) return;
    this.setState('connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      this.failPending('disconnected');
      this.setState('closed');
      if (this.wanted) this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and handles it.
    };
  }

  scheduleReconnect() {
    clearTimeout(this.reconnectTimer);
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    // Jitter so that many tabs do not all come back in the same millisecond.
    const delay = base + Math.floor(Math.random() * base * 0.3);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  /** Closes and opens again, e.g. after logging in so the socket carries the new cookie. */
  restart() {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      old.close();
    }
    clearInterval(this.pingTimer);
    this.failPending('disconnected');
    this.setState('closed');
    this.attempt = 0;
    this.connect();
  }

  /** For tests and debugging: drop the connection as a network failure would. */
  drop() {
    if (this.ws) this.ws.close();
  }

  setState(state) {
    this.state = state;
    for (const fn of this.stateHandlers) fn(state);
  }

  failPending(code) {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new SocketError(code, code));
    }
    this.pending.clear();
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === 'hello') {
      this.user = msg.user;
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.setState('open');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => {
        this.request({ type: 'ping' }).catch(() => {});
      }, PING_EVERY_MS);
      for (const fn of this.openHandlers) {
        try {
          fn({ reconnected });
        } catch (err) {
          console.error(err);
        }
      }
    }
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.type === 'error') p.reject(new SocketError(msg.code, msg.message));
      else p.resolve(msg);
      return;
    }
    const set = this.handlers.get(msg.type);
    if (set) {
      for (const fn of [...set]) {
        try {
          fn(msg);
        } catch (err) {
          console.error(err);
        }
      }
    }
  }

  /** Sends a request; resolves with its reply, rejects with a SocketError. */
  request(body) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.state !== 'open') {
        reject(new SocketError('disconnected', 'disconnected'));
        return;
      }
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new SocketError('timeout', 'timeout'));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...body, id }));
    });
  }

  /** Subscribes to an event type; returns the function that unsubscribes. */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  /** Runs fn on every (re)connection, and at once when already connected. */
  onOpen(fn) {
    this.openHandlers.add(fn);
    if (this.state === 'open') fn({ reconnected: false });
    return () => this.openHandlers.delete(fn);
  }

  onState(fn) {
    this.stateHandlers.add(fn);
    fn(this.state);
    return () => this.stateHandlers.delete(fn);
  }
}

export const socket = new Socket();
