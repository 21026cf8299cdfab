// @ts-check
// The table screen: it builds the page (the felt with its top bar, the seats and trick, your hand; the side
// panel), feeds the socket's messages to the store (store.js: the state, the event queue and its pacing)
// and draws the store with the view modules: topbar.js, arena.js (seats, trick, summary and game over
// through results.js), hand.js, side.js, dialogs.js. What you do (play, pass, bid, sit, chat…) goes back
// to the server through here.
import * as api from "./api.js";
import { cardName, suitName } from "./cards.js";
import { ngettext, t } from "./i18n.js";
import { started as motionStarted } from "./motion.js";
import { TableSocket } from "./net.js";
import { renderArena, sweepTrick } from "./arena.js";
import { confirmRemove, maybeDialog } from "./dialogs.js";
import { playCard, renderHand, sendPass, toggleSelect } from "./hand.js";
import { reasonText } from "./review.js";
import { renderSide } from "./side.js";
import { TableStore } from "./store.js";
import { renderTop } from "./topbar.js";
import { announce, banner, closeDialogs, h, keepFocus, toast } from "./ui.js";

export { SPEEDS, getSpeed } from "./store.js";
export { directionName, levelName, passWay, speedName, tableTitle } from "./words.js";

/** @typedef {import("./state.js").Action} Action */
/** @typedef {import("./state.js").View} View */

export class TableScreen {
  /**
   * @param {HTMLElement} root
   * @param {string} tableId
   * @param {{invite?: string | null}} [opts]
   */
  constructor(root, tableId, { invite = null } = {}) {
    this.root = root;
    this.id = tableId;
    this.invite = invite;
    this.store = new TableStore(tableId, {
      render: () => this.render(),
      renderSide: () => renderSide(this),
      sweep: (trick, ms) => sweepTrick(this, trick, ms),
      focus: focusSoon,
      chat: () => {
        if (this.tab !== "chat") this.unread += 1;
        renderSide(this);
      },
    });
    // What the page shows beside the state: the open tab, the focused and armed card, the dialog open.
    /** @type {string | null} the card that had the focus, to give it back after drawing the hand again */
    this.focusCard = null;
    /** @type {string | null} how the last card was touched ("touch" arms a card first) */
    this.pointer = null;
    /** @type {string | null} the card a first touch armed */
    this.armed = null;
    /** @type {string | null} the card chosen while the last trick was being swept, played once it has gone */
    this.early = null;
    this.tab = "scores";
    /** @type {string | null} the decision whose dialog was opened */
    this.dialogFor = null;
    this.unread = 0;
    this.lastTrickShown = false;
    /** Whether the game over box is folded to its heading (on a phone it covers the side panel). */
    this.gameOverFolded = false;
    /** @type {string | null} the decision announced last */
    this.turnKey = null;
    /** @type {string[]} the trick's cards drawn last ("seat:card"), to move only the new ones */
    this.drawnPlays = [];
    /** @type {number | null} the hand whose received cards have arrived */
    this.arrivedFor = null;
    // Keys pressed with nothing focused (the lobby's button that opened the table is gone) go to the hand.
    this.onPageKey = (/** @type {KeyboardEvent} */ e) => this.keysToHand(e);
    document.addEventListener("keydown", this.onPageKey);
    this.sock = new TableSocket(tableId, {
      onMessage: (/** @type {any} */ m) => this.onMessage(m),
      onStatus: (/** @type {string} */ s) => this.onStatus(s),
    });
    window.__corazones = window.__corazones || {};
    window.__corazones.table = this;
    window.__corazones.motion = motionStarted;
    const felt = h("section.felt", { "aria-label": t("Card table") });
    this.felt = felt;
    this.top = h("div.felt-top");
    this.arena = h("div.arena");
    this.handZone = h("div.hand-zone");
    felt.append(this.top, this.arena, this.handZone);
    this.side = h("aside.side", { "aria-label": t("Scores, chat and game log") });
    this.root.replaceChildren(h("div.table-view", null, felt, this.side));
    this.arena.append(h("div.center-msg", null, t("Connecting to the table…")));
    this.resizeObs = new ResizeObserver(() => renderArena(this));
    this.resizeObs.observe(this.arena);
    // A phone turned on its side (or a window resized) while waiting for your card: the hand is laid out
    // again for the new width and height at once (its cards' size and rows), not at the next event.
    /** @type {number} */
    this.resizeFrame = 0;
    this.onResize = () => {
      cancelAnimationFrame(this.resizeFrame);
      this.resizeFrame = requestAnimationFrame(() => { if (this.store.table) this.render(); });
    };
    window.addEventListener("resize", this.onResize);
    this.sock.connect();
  }

  // The state the tests and the hooks read, as the store holds it.
  get view() { return this.store.view; }
  get seat() { return this.store.seat; }
  get history() { return this.store.history; }
  get shownTrick() { return this.store.shownTrick; }
  get connected() { return this.store.connected; }
  get commitment() { return this.store.commitment; }
  get selected() { return this.store.selected; }

  /** @param {number | null | undefined} seat */
  nameOf(seat) {
    return this.store.nameOf(seat);
  }

  /**
   * Draw everything again in the language just loaded, in place: the connection, the cards chosen for
   * the pass, the open tab and the chat being typed stay as they are (no new screen, no reconnection).
   */
  relang() {
    this.felt.setAttribute("aria-label", t("Card table"));
    this.side.setAttribute("aria-label", t("Scores, chat and game log"));
    if (this.store.table) this.render();
    else this.arena.replaceChildren(h("div.center-msg", null, t("Connecting to the table…")));
  }

  destroy() {
    document.removeEventListener("keydown", this.onPageKey);
    window.removeEventListener("resize", this.onResize);
    cancelAnimationFrame(this.resizeFrame);
    this.sock.close();
    this.resizeObs.disconnect();
    banner(null);
    closeDialogs();
    if (window.__corazones && window.__corazones.table === this) window.__corazones.table = null;
  }

  // ------------------------------------------------------------------ messages

  /** @param {string} state */
  onStatus(state) {
    if (state === "revoked") {
      this.store.connected = false;
      api.forget();
      banner(t("You were signed out everywhere: this sign-in no longer works. Choose a name in the lobby to play again."));
    } else if (state === "removed") {
      this.store.connected = false;
      banner(t("The host removed you from this table."));
    } else if (state === "reconnecting") {
      this.store.connected = false;
      banner(t("Connection lost. Reconnecting… your seat is kept for you."));
    }
  }

  /** @param {any} msg */
  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.store.welcome(msg);
        break;
      case "snapshot": {
        const { reconnect, missed } = this.store.applySnapshot(msg);
        banner(null);
        if (reconnect) {
          announce(t("Reconnected."));
          toast(missed ? ngettext("Reconnected: {n} move caught up", "Reconnected: {n} moves caught up", missed) : t("Reconnected."));
        }
        closeDialogs();
        this.dialogFor = null;
        this.render();
        break;
      }
      case "event":
        this.store.onEvent(msg);
        break;
      case "hint":
        this.showHint(msg);
        break;
      case "error":
        this.store.sent = false;
        if (msg.code === "not_your_turn" && this.store.view && this.store.view.decision === null) return;
        toast(msg.message || msg.code, "error");
        this.render();
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------ drawing

  render() {
    if (!this.store.table) return;
    // Every event draws the bar, the felt, the hand and the side panel anew (but the bar's *Speed* and
    // *Motion*, made once: an open list stays open): a keyboard user on *Hint*, a pile or a tab stays there
    // (found by its id), not sent back to the page's top.
    keepFocus(this.root, () => {
      renderTop(this);
      renderArena(this);
      renderHand(this);
      renderSide(this);
    });
    maybeDialog(this);
  }

  /**
   * An arrow, Home or End pressed while nothing has the keys moves them to the hand's card, so a table
   * can be played from the keyboard at once. The hand is not focused when the table opens: focus given
   * by a script shows as keyboard focus, a lifted and outlined card that a mouse or touch player never
   * chose. Without scrolling, so a phone's table stays at its top.
   * @param {KeyboardEvent} e
   */
  keysToHand(e) {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) return;
    const active = document.activeElement;
    if ((active && active !== document.body) || document.querySelector("dialog[open]")) return;
    const card = /** @type {HTMLElement | null} */ (this.handZone.querySelector(".hand .card[tabindex='0']"));
    if (!card) return;
    e.preventDefault();
    card.focus({ preventScroll: true });
  }

  /** @param {string} name a tab of the side panel: scores, chat, log, fair */
  showTab(name) {
    this.tab = name;
    if (name === "chat") this.unread = 0;
    renderSide(this);
    const panel = /** @type {HTMLElement | null} */ (this.side.querySelector(".tab-panel"));
    if (panel) panel.focus();
  }

  // ------------------------------------------------------------------ actions

  /** @param {Action} action */
  act(action) {
    if (this.sock.act(action)) this.store.sent = true;
    else toast(t("Not connected: wait for the reconnection"), "error");
  }

  /** @param {string} card */
  playCard(card) {
    playCard(this, card);
  }

  /** @param {string} key */
  toggleSelect(key) {
    toggleSelect(this, key);
  }

  sendPass() {
    sendPass(this);
  }

  continueAfterSummary() {
    this.store.continueAfterSummary();
  }

  askHint() {
    const level = localStorage.getItem("corazones.hintLevel") || "standard";
    this.sock.send({ type: "hint", level });
  }

  /** @param {{action: Action, reason: string, reasons?: import("./review.js").Reason[]}} msg */
  showHint(msg) {
    const a = msg.action;
    // The reasons as templates, drawn here: seats by the names this table shows (the server's sentence
    // can only say "seat 2", counted from 0).
    const st = this.store;
    const parts = (msg.reasons || []).map((r) => reasonText(r, (s) => st.nameOf(s)));
    const reason = parts.length ? parts[0] + (parts.length > 1 ? ": " + parts.slice(1).join("; ") : "") : msg.reason;
    let text;
    if (a.play) text = t("Hint: play {card}", { card: cardName(a.play) });
    else if (a.pass) text = t("Hint: pass {cards}", { cards: a.pass.map(cardName).join(", ") });
    else if ("bid" in a) text = a.bid ? t("Hint: bid {n}", { n: a.bid }) : t("Hint: do not bid");
    else if (a.declare) text = t("Hint: name {suit}", { suit: suitName(a.declare) });
    else if (a.moon) text = a.moon === "add_to_others" ? t("Hint: add the points to the others") : t("Hint: subtract the points from your score");
    else text = t("Hint");
    st.hint = { action: a, reason, text };
    if (a.pass && st.view && st.view.decision === "pass") {
      /** @type {Record<string, number>} */
      const seen = {};
      st.selected = new Set(a.pass.map((c) => { seen[c] = (seen[c] || 0) + 1; return `${c}#${seen[c] - 1}`; }));
    }
    announce(text + " — " + reason); // as the page shows it: the reason goes on in lower case
    // A decision asked in a dialog (bid, suit, moon): the page behind it is inert, so the hint goes in it.
    const inDialog = document.querySelector("dialog[open] #dlg-hint");
    if (inDialog) inDialog.textContent = text + " — " + reason;
    renderHand(this);
  }

  /** @param {string} text */
  sendChat(text) {
    text = text.trim();
    if (!text) return;
    this.sock.send({ type: "chat", text: text.slice(0, 300) });
  }

  /** @param {number} seat */
  async sit(seat) {
    try {
      await this.ensureGuest();
      this.sock.send({ type: "sit", seat, invite: this.invite });
    } catch (e) {
      toast(e.message, "error");
    }
  }

  async ensureGuest() {
    if (api.token()) return;
    const name = prompt(t("Your name at the table")) || t("Guest");
    await api.guest(name.slice(0, 40));
    this.sock.drop(); // say hello again with the new token
  }

  stand() {
    this.sock.send({ type: "stand" });
  }

  /**
   * The owner takes a seat away from its player (a lost or shared sign-in, a player gone for good).
   * @param {number} seat
   * @param {string} name
   */
  async removeSeat(seat, name) {
    const table = this.store.table;
    if (!(await confirmRemove(name, !!table && table.status === "open"))) return;
    try {
      await api.removeFromTable(this.id, seat);
    } catch (e) {
      toast(e.message, "error");
    }
  }

  async startNow() {
    try {
      await api.startTable(this.id);
    } catch (e) {
      toast(e.message, "error");
    }
  }
}

/**
 * Focus the first element matching `selector` once the screen is drawn (a summary's Continue, the game over's).
 * @param {string} selector
 */
function focusSoon(selector) {
  setTimeout(() => {
    const el = /** @type {HTMLElement | null} */ (document.querySelector(selector));
    if (el && !document.querySelector("dialog[open]")) el.focus();
  }, 0);
}

// Touch or mouse: decides whether a tap on a card arms it or plays it.
window.addEventListener("pointerdown", (e) => {
  const tbl = window.__corazones && window.__corazones.table;
  if (tbl) tbl.pointer = e.pointerType;
}, true);
