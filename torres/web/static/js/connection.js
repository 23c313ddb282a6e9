// The websocket to /ws/<game>: hello with the last version seen, automatic reconnect with backoff,
// client action ids and pending-action tracking (docs/server.md).

import { t } from "./i18n.js";

let counter = 0;
function newId() {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `${Date.now().toString(36)}-${rnd}-${counter}`;
}

export class Connection {
  /**
   * @param {string} gameId
   * @param {object} handlers  onMessage(msg) for every server message; onStatus(state) with
   *   "connecting" | "open" | "lost"
   */
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.handlers = handlers;
    this.seat = null;
    this.token = null;
    this.version = null;     // the last version this page has seen
    this.pending = new Map(); // client id -> the message sent, until its ack or rejection
    this.resent = new Set();
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.state = "connecting";
    this.welcomed = false;
    this.pingTimer = null;
    this.retryTimer = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.gameId)}`;
  }

  /** Connect as `seat` with `token` (both null: a spectator). */
  start(seat, token) {
    this.seat = seat;
    this.token = token;
    this.open();
  }

  open() {
    if (this.closed) return;
    this.setState(this.attempt === 0 ? "connecting" : "lost");
    let ws;
    try { ws = new WebSocket(this.url()); } catch (e) { this.scheduleRetry(); return; }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.sendHello();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.raw({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      this.receive(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      if (!this.closed) this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleRetry() {
    this.setState("lost");
    this.attempt += 1;
    const delay = Math.min(10000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    if (this.handlers.onStatus) this.handlers.onStatus(state);
  }

  sendHello() {
    this.raw({ type: "hello", seat: this.seat, token: this.token, version: this.version });
  }

  /** Switch this connection to another seat (hot-seat): a new hello; the welcome brings that seat's view. */
  switchSeat(seat, token) {
    this.seat = seat;
    this.token = token;
    this.welcomed = false;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.sendHello();
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.welcomed = true;
        this.version = msg.version;
        this.setState("open");
        this.resendPending();
        break;
      case "update":
        if (this.version !== null && msg.version <= this.version) return; // already seen
        if (this.version !== null && msg.version > this.version + 1) {
          // missed something: ask for the whole current view
          this.version = null;
          this.sendHello();
          return;
        }
        this.version = msg.version;
        break;
      case "ack":
        this.pending.delete(msg.id);
        this.resent.delete(msg.id);
        break;
      case "rejected":
        this.pending.delete(msg.id);
        if (this.resent.has(msg.id)) { this.resent.delete(msg.id); return; } // a stale resend: not news
        break;
      case "hint":
        this.pending.delete(msg.id);
        break;
      case "pong":
        return;
      default:
        break;
    }
    if (this.handlers.onMessage) this.handlers.onMessage(msg);
  }

  resendPending() {
    for (const [id, msg] of this.pending) {
      if (msg.type === "hint") { this.pending.delete(id); continue; }
      this.resent.add(id);
      this.raw(msg);
    }
  }

  raw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Send an action in notation; returns its client id. */
  act(action) { return this.track({ type: "act", id: newId(), version: this.version, action }); }
  undo() { return this.track({ type: "undo", id: newId(), version: this.version }); }
  hint() { return this.track({ type: "hint", id: newId() }); }
  speed(value) { this.raw({ type: "speed", value }); }
  /** Give up this seat: a bot plays it to the end. */
  resign() { return this.track({ type: "resign", id: newId() }); }

  track(msg) {
    this.pending.set(msg.id, msg);
    this.raw(msg); // if closed, it goes out again after the next welcome
    return msg.id;
  }

  hasPending() { for (const m of this.pending.values()) if (m.type !== "hint") return true; return false; }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(); }
  }
}

/** The banner shown while the connection is down. */
export function statusBanner(state) {
  const el = document.getElementById("conn-banner");
  if (!el) return;
  if (state === "lost") { el.textContent = t("conn_lost"); el.hidden = false; el.className = "banner lost"; }
  else if (state === "connecting") { el.textContent = t("connecting"); el.hidden = false; el.className = "banner connecting"; }
  else { el.hidden = true; }
}
