// @ts-check
// One WebSocket per table (docs/protocol.md): hello with the last event seen, snapshot + missed
// events after a reconnect, a keep-alive ping, and reconnection with backoff when the socket drops.
import { token } from "./api.js";
import { currentLang } from "./i18n.js";

/**
 * What the socket tells its owner: each message the server sends, and changes of the connection
 * ("reconnecting", "revoked", "removed", with the close code).
 * @typedef {{onMessage: (msg: any) => void, onStatus: (state: string, code?: number) => void}} SocketHandlers
 */

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {SocketHandlers} handlers
   */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    /** @type {number | null} */
    this.lastSeq = null;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    this.awaitingPong = false;
    this.url = null;
    this.refs = 0;
  }

  defaultUrl() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  /**
   * A `moved` target as a WebSocket address of this table, or null when it is not an address.
   * @param {string} url
   */
  socketUrl(url) {
    try {
      const u = new URL(url, location.href);
      if (u.protocol === "http:") u.protocol = "ws:";
      if (u.protocol === "https:") u.protocol = "wss:";
      if (!u.pathname.includes("/ws/")) u.pathname = `/ws/tables/${encodeURIComponent(this.tableId)}`;
      return u.toString();
    } catch (e) {
      return null;
    }
  }

  connect() {
    if (this.closed) return;
    // A `moved` target (another server process) is tried until a connection to it fails: then the
    // page's own address again, which answers with the table or a fresh `moved`.
    const target = this.url;
    let opened = false;
    const ws = new WebSocket(target || this.defaultUrl());
    this.ws = ws;
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.sentToken = token() || "";
      ws.send(JSON.stringify({ type: "hello", token: this.sentToken, last_seq: this.lastSeq, lang: currentLang() }));
      this.startPing();
    };
    ws.onmessage = (m) => {
      let msg;
      try {
        msg = JSON.parse(m.data);
      } catch (e) {
        return;
      }
      this.awaitingPong = false;
      if (msg.type === "snapshot") this.lastSeq = msg.seq;
      if (msg.type === "event" && (this.lastSeq === null || msg.seq > this.lastSeq)) this.lastSeq = msg.seq;
      if (msg.type === "error" && msg.code === "moved") {
        // Another server process owns the table: go there (its base address or socket address).
        this.url = msg.url ? this.socketUrl(msg.url) : null;
        ws.close();
        return;
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (e) => {
      this.stopPing();
      if (target && !opened && this.url === target) this.url = null;
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      // Revoked, but this browser holds a newer token already (another tab signed the *other*
      // devices out and kept this one): say hello again with it.
      const renewed = e.code === 4003 && token() && token() !== this.sentToken;
      if ((e.code === 4003 && !renewed) || e.code === 4004) {
        // 4003: this sign-in was revoked; 4004: the host removed this player from the table.
        // Reconnecting cannot help: say why and stop.
        this.closed = true;
        this.handlers.onStatus(e.code === 4003 ? "revoked" : "removed", e.code);
        return;
      }
      this.handlers.onStatus("reconnecting", e.code);
      const wait = Math.min(5000, 300 * 2 ** this.attempt);
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), wait);
    };
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (this.awaitingPong) {
        // No answer for a whole period: the connection is dead even if the browser has not noticed.
        this.ws.close();
        return;
      }
      this.awaitingPong = true;
      this.send({ type: "ping", t: Date.now() });
    }, 15000);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.awaitingPong = false;
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** @param {object} msg */
  send(msg) {
    if (!this.ws || !this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** @param {object} action */
  act(action) {
    this.refs += 1;
    return this.send({ type: "act", action, ref: String(this.refs) });
  }

  /** Drop the connection as a network failure would (the reconnect logic takes over). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.stopPing();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
