// @ts-check
// The table: seats around a felt, the trick in the middle, your hand, dialogs for the pass,
// bids, the penalty suit and the moon; score sheet, hand summary, chat, log and the fairness
// panel beside it. Events are queued and shown at the chosen speed, so a trick stays in view
// long enough to be seen even when the bots play at once.
import * as api from "./api.js";
import { cardElement, cardName, cardShort, cardValue, parseCard, sortCards, suitName } from "./cards.js";
import { ngettext, t } from "./i18n.js";
import { summaryPanel as summaryPanelView, tookTable as tookTableView, gameOverPanel as gameOverPanelView, standings as standingsView } from "./results.js";
import { scoreSheet as scoreSheetView, chatPanel as chatPanelView, fairPanel as fairPanelView } from "./side.js";
import { bidDialog as bidDialogView, declareDialog as declareDialogView, moonDialog as moonDialogView } from "./dialogs.js";
import { playerName } from "./names.js";
import { applyPlay, chipTotals, copyKey, esc, settleView, teamOf, wonPiles } from "./state.js";
import { presetTitle } from "./options.js";
import { TableSocket } from "./net.js";
import { arrive, centre, leave, motionSetting, setMotion, started as motionStarted } from "./motion.js";
import { announce, banner, closeDialogs, copyText, h, openDialog, suitIcon, toast } from "./ui.js";

/** Pauses per speed, in milliseconds: after each card, and with a finished trick on the table. */
export const SPEEDS = {
  slow: { play: 900, trick: 3000 },
  normal: { play: 500, trick: 1800 },
  fast: { play: 220, trick: 900 },
  instant: { play: 0, trick: 0 },
};

export function speedName(key) {
  switch (key) {
    case "slow": return t("Slow");
    case "fast": return t("Fast");
    case "instant": return t("Instant");
    default: return t("Normal");
  }
}

export function getSpeed() {
  const s = localStorage.getItem("corazones.speed");
  return SPEEDS[s] ? s : "normal";
}

export function levelName(level) {
  switch (level) {
    case "random": return t("random");
    case "beginner": return t("beginner");
    case "standard": return t("standard");
    case "expert": return t("expert");
    case "shooter": return t("moon shooter");
    case "learned": return t("learned");
    default: return level || "";
  }
}

/** Where a pass goes, as the phrase after "Pass" ("to the left"), which reads well in every language. */
export function passWay(dir) {
  switch (dir) {
    case "left": return t("to the left");
    case "right": return t("to the right");
    case "across": return t("across the table");
    default: return t("no pass");
  }
}

export function directionName(dir) {
  switch (dir) {
    case "left": return t("left");
    case "right": return t("right");
    case "across": return t("across");
    default: return t("no pass");
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
    this.table = null;
    this.role = "spectator";
    this.seat = null;
    this.view = null;
    this.tricks = [];
    this.history = [];
    this.chat = [];
    this.log = [];
    this.queue = [];
    this.busy = false;
    this.held = false;
    this.shownTrick = null; // a finished trick held in the middle for a moment
    this.selected = new Set();
    this.focusCard = null;
    this.hint = null;
    this.commitment = null;
    this.reveal = null; // {seed, commitment, record_url, winners, scores}
    /** @type {{result: any, tricks: any[]} | null} the last hand result, shown until dismissed */
    this.summary = null;
    /** @type {string | null} how the last card was touched ("touch" arms a card first) */
    this.pointer = null;
    this.tab = "scores";
    this.dialogFor = null;
    this.unread = 0;
    this.connected = false;
    this.sock = new TableSocket(tableId, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (s) => this.onStatus(s),
    });
    window.__corazones = window.__corazones || {};
    window.__corazones.table = this;
    window.__corazones.motion = motionStarted;
    this.build();
    this.sock.connect();
  }

  /**
   * Draw everything again in the language just loaded, in place: the connection, the cards chosen for
   * the pass, the open tab and the chat being typed stay as they are (no new screen, no reconnection).
   */
  relang() {
    this.felt.setAttribute("aria-label", t("Card table"));
    this.side.setAttribute("aria-label", t("Scores, chat and game log"));
    if (this.table) this.render();
    else this.arena.replaceChildren(h("div.center-msg", null, t("Connecting to the table…")));
  }

  destroy() {
    this.sock.close();
    banner(null);
    closeDialogs();
    if (window.__corazones && window.__corazones.table === this) window.__corazones.table = null;
  }

  // ------------------------------------------------------------------ messages

  onStatus(state) {
    if (state === "revoked") {
      this.connected = false;
      api.forget();
      banner(t("You were signed out everywhere: this sign-in no longer works. Choose a name in the lobby to play again."));
      return;
    }
    if (state === "removed") {
      this.connected = false;
      banner(t("The host removed you from this table."));
      return;
    }
    if (state === "reconnecting") {
      this.connected = false;
      banner(t("Connection lost. Reconnecting… your seat is kept for you."));
    }
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.role = msg.role;
        this.seat = msg.role === "seat" ? msg.seat : null;
        this.player = msg.player;
        break;
      case "snapshot":
        this.applySnapshot(msg);
        break;
      case "event":
        this.onEvent(msg);
        break;
      case "hint":
        this.showHint(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      default:
        break;
    }
  }

  onError(msg) {
    if (msg.code === "not_your_turn" && this.view && this.view.decision === null) return;
    toast(msg.message || msg.code, "error");
    this.render();
  }

  applySnapshot(s) {
    const wasReconnect = this.connected === false && this.table !== null;
    this.connected = true;
    banner(null);
    this.queue = [];
    this.shownTrick = null;
    this.held = false;
    this.table = s.table;
    this.role = s.role;
    this.seat = s.role === "seat" ? s.seat : null;
    this.view = s.view;
    this.tricks = s.tricks || [];
    this.history = s.history || [];
    this.chat = (s.chat || []).map((c) => ({ seat: c.seat, name: c.name, text: c.text }));
    this.commitment = s.table.commitment || this.commitment;
    if (s.table.status === "finished" && !this.reveal) {
      if (s.table.seed) {
        const v = s.view || {};
        this.reveal = {
          seed: String(s.table.seed), commitment: s.table.commitment,
          record_url: s.table.record_url || `/api/games/${this.id}/record`, winners: v.winners || [], scores: v.scores || [],
        };
      } else this.loadReveal();
    }
    for (const ev of s.missed || []) this.logEvent(ev.event, true);
    if (wasReconnect) {
      const n = (s.missed || []).length;
      announce(t("Reconnected."));
      toast(n ? ngettext("Reconnected: {n} move caught up", "Reconnected: {n} moves caught up", n) : t("Reconnected."));
    }
    closeDialogs();
    this.dialogFor = null;
    this.render();
  }

  async loadReveal() {
    // A finished table seen after the fact: the replay has the revealed seed.
    try {
      const rep = await api.getReplay(this.id);
      this.reveal = {
        seed: String(rep.seed), commitment: rep.commitment || this.commitment,
        record_url: this.table.record_url || `/api/games/${this.id}/record`,
        winners: rep.final.winners || [], scores: rep.final.scores || [],
      };
      this.render();
    } catch (e) {
      /* not available yet */
    }
  }

  onEvent(msg) {
    const e = msg.event;
    // Events that change no view are shown at once; game events wait their turn in the queue.
    if (e.kind === "chat") {
      this.chat.push({ seat: e.seat, name: e.name, text: e.text });
      if (this.tab !== "chat") this.unread += 1;
      announce(t("{name} says: {text}", { name: e.name, text: e.text }));
      this.renderSide();
      return;
    }
    this.queue.push(msg);
    this.pump();
  }

  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length && !this.held) {
        const msg = this.queue.shift();
        await this.play(msg);
      }
    } finally {
      this.busy = false;
    }
  }

  speed() {
    const s = SPEEDS[getSpeed()];
    // A long backlog (after a pause on a summary) is played faster so the table catches up.
    const k = this.queue.length > 6 ? 0.35 : 1;
    return { play: s.play * k, trick: s.trick * k };
  }

  async play(msg) {
    const e = msg.event;
    this.logEvent(e, false);
    switch (e.kind) {
      case "game_start":
        this.commitment = e.commitment;
        this.table.status = "playing";
        if (e.seats) this.table.seats = e.seats;
        break;
      case "hand_start":
        this.commitment = e.commitment || this.commitment;
        this.tricks = [];
        this.selected.clear();
        this.hint = null;
        break;
      case "hand_end":
        this.history.push(e.result);
        this.lastHandTricks = this.tricks.slice();
        // Every number on the table agrees with the summary that opens now.
        if (this.view) this.view = settleView(this.view, e.result, chipTotals(this.table.rules, this.history, this.nPlayers()));
        this.summary = { result: e.result, tricks: this.lastHandTricks };
        focusSoon("#continue-btn");
        announce(t("Hand {n} over", { n: e.result.index + 1 }));
        break;
      case "game_over":
        this.reveal = { seed: e.seed, commitment: e.commitment, record_url: e.record_url, winners: e.winners, scores: e.scores };
        this.table.status = "finished";
        this.summary = null;
        if (this.view) this.view = { ...this.view, to_act: [], decision: null, legal: [], game_over: true, winners: e.winners };
        focusSoon("#game-over .btn.primary");
        break;
      case "seat": {
        const seats = this.table.seats;
        const i = seats.findIndex((x) => x.seat === e.seat.seat);
        const before = i >= 0 ? seats[i] : null;
        if (i >= 0) seats[i] = e.seat; else seats.push(e.seat);
        this.logSeat(before, e.seat);
        break;
      }
      case "table":
        this.table.status = e.status;
        break;
      default:
        break;
    }
    // The server puts the views on the last event of a batch; a play without one is applied
    // to the view we hold, so the card still appears in its place at once.
    if (msg.view && e.kind !== "hand_end") this.view = msg.view;
    else if (msg.view) this.pendingView = msg.view;
    else if (e.kind === "action" && e.action.play && this.view) this.patchPlay(e);
    if (e.kind === "action" && e.action.play) {
      this.hint = null;
      const mine = this.seat !== null && e.action.seat === this.seat;
      if (e.trick) {
        this.tricks.push(e.trick);
        this.shownTrick = e.trick;
        this.render();
        const pause = this.speed().trick;
        // The finished trick rests, then sweeps to its winner's pile within the same pause.
        if (pause) {
          await sleep(pause * 0.6);
          this.sweepTrick(e.trick, pause * 0.3);
          await sleep(pause * 0.4);
        }
        this.shownTrick = null;
      } else {
        this.render();
        const pause = mine ? 0 : this.speed().play;
        if (pause) await sleep(pause);
        return;
      }
    }
    if (e.kind === "hand_end" && getSpeed() !== "instant" && !(this.view && this.view.game_over)) {
      if (this.seat === null) {
        // A spectator follows by themselves: the summary stays up a while, then the game goes on.
        this.render();
        await sleep(this.speed().trick * 2.5);
        this.summary = null;
        this.takePendingView();
      } else {
        // Hold the table on the summary until the player has seen it (Continue).
        this.held = true;
      }
    } else if (e.kind === "hand_end" && getSpeed() === "instant") {
      this.takePendingView();
    }
    this.render();
  }

  /** The view that came with a hand's last event, kept back while that hand's summary is up. */
  takePendingView() {
    if (this.pendingView) this.view = this.pendingView;
    this.pendingView = null;
  }

  patchPlay(e) {
    this.view = applyPlay(this.view, e, this.seat);
  }

  continueAfterSummary() {
    this.summary = null;
    this.held = false;
    this.takePendingView();
    this.render();
    this.pump();
  }

  // ------------------------------------------------------------------ naming

  nameOf(seat) {
    if (seat === null || seat === undefined) return "";
    if (seat === this.seat) return t("You");
    return this.seatName(seat);
  }

  /** A seat's name; bots and namesakes get their seat number so that every column differs. */
  seatName(seat) {
    const seats = (this.table && this.table.seats) || [];
    const s = seats.find((x) => x.seat === seat);
    if (!s || !s.name) return t("Seat {n}", { n: seat + 1 });
    if (s.kind === "bot" && !s.player) return t("Bot {n}", { n: seat + 1 });
    const name = playerName(s.name, seat); // a free seat a bot took over is named "<level> bot"
    if (name !== s.name) return name;
    const twins = seats.filter((x) => x.name === s.name).length;
    return twins > 1 ? t("{name} {n}", { name: s.name, n: seat + 1 }) : s.name;
  }

  nPlayers() {
    return (this.table && this.table.rules.players) || (this.view && this.view.hand_sizes.length) || 4;
  }

  describeAction(a) {
    if (this.seat !== null && a.seat === this.seat) return this.describeMine(a);
    const who = this.nameOf(a.seat);
    if (a.play) return t("{name} plays {card}", { name: who, card: cardName(a.play) });
    if ("pass" in a) {
      if (a.pass && a.pass.length) return t("{name} passes {cards}", { name: who, cards: a.pass.map(cardName).join(", ") });
      return t("{name} has passed", { name: who });
    }
    if ("bid" in a) return a.bid ? t("{name} bids {n}", { name: who, n: a.bid }) : t("{name} does not bid", { name: who });
    if (a.declare) return t("{name} names {suit} as the penalty suit", { name: who, suit: suitName(a.declare) });
    if (a.moon) {
      return a.moon === "add_to_others"
        ? t("{name} shot the moon and adds the points to everyone else", { name: who })
        : t("{name} shot the moon and subtracts the points from their own score", { name: who });
    }
    return who;
  }

  /** Your own decisions, in the second person ("You play the queen of spades"). */
  describeMine(a) {
    if (a.play) return t("You play {card}", { card: cardName(a.play) });
    if ("pass" in a) return a.pass && a.pass.length ? t("You pass {cards}", { cards: a.pass.map(cardName).join(", ") }) : t("You have passed");
    if ("bid" in a) return a.bid ? t("You bid {n}", { n: a.bid }) : t("You do not bid");
    if (a.declare) return t("You name {suit} as the penalty suit", { suit: suitName(a.declare) });
    if (a.moon) {
      return a.moon === "add_to_others"
        ? t("You shot the moon and add the points to everyone else")
        : t("You shot the moon and subtract the points from your own score");
    }
    return t("You");
  }

  winsText(seat) {
    return seat === this.seat ? t("You win the trick") : t("{name} wins the trick", { name: this.nameOf(seat) });
  }

  logEvent(e, missed) {
    let line = null;
    switch (e.kind) {
      case "game_start": line = t("The game starts. Shuffle commitment {c}", { c: short(e.commitment) }); break;
      case "hand_start":
        line = t("Hand {n}: {dealer} deals; pass {way}", {
          n: e.hand_index + 1, dealer: this.nameOf(e.dealer), way: passWay(e.pass_direction),
        });
        break;
      case "action":
        line = this.describeAction(e.action);
        if (e.trick) {
          line += ". " + (e.trick.winner === null
            ? t("Nobody wins the trick: it is annulled")
            : this.winsText(e.trick.winner));
        }
        break;
      case "hand_end": line = t("Hand {n} is over", { n: e.result.index + 1 }); break;
      case "game_over": line = t("Game over. The shuffle seed is revealed: {seed}", { seed: e.seed }); break;
      default: break;
    }
    if (!line) return;
    this.log.push(line);
    if (this.log.length > 400) this.log.shift();
    if (!missed) announce(line);
  }

  logSeat(before, s) {
    let line = null;
    if (s.status === "away") line = t("{name} lost the connection; the seat is kept for them", { name: s.name });
    else if (s.status === "bot" && before && before.status === "away") line = t("A bot plays for {name} until they come back", { name: s.name });
    else if (s.status === "human" && before && before.status !== "human" && before.status !== "empty") line = t("{name} is back", { name: s.name });
    else if (s.status === "human") line = t("{name} sits down", { name: s.name });
    if (line) {
      this.log.push(line);
      announce(line);
    }
  }

  // ------------------------------------------------------------------ actions

  act(action) {
    if (!this.sock.act(action)) toast(t("Not connected: wait for the reconnection"), "error");
  }

  playCard(card) {
    const v = this.view;
    if (!v || v.decision !== "play" || this.queue.length || this.shownTrick) return;
    if (!v.legal.some((a) => a.play === card)) {
      toast(this.whyNot(card), "error");
      return;
    }
    this.act({ seat: this.seat, play: card });
  }

  whyNot(card) {
    const v = this.view;
    const c = parseCard(card);
    const plays = v.legal.filter((a) => a.play).map((a) => a.play);
    if (v.tricks_played === 0 && !v.trick.length && plays.length === 1) {
      return t("The first trick is led with {card}: play it", { card: cardName(plays[0]) });
    }
    if (v.trick.length) {
      const led = parseCard(v.trick[0][1]).suit;
      if (c.suit !== led && v.hand.some((x) => parseCard(x).suit === led)) {
        return t("You must follow suit: play a card of {suit}", { suit: suitName(led) });
      }
    } else if (c.suit === v.penalty_suit && !v.hearts_broken) {
      return t("{suit} are not broken yet: lead another suit", { suit: suitName(c.suit) });
    }
    return t("{card} cannot be played now", { card: cardName(card) });
  }

  /** Choose or put back one card for the pass; `key` is the card and which copy of it ("QS#0"). */
  toggleSelect(key) {
    const v = this.view;
    if (!v || v.decision !== "pass") return;
    const card = key.split("#")[0];
    if (this.selected.has(key)) this.selected.delete(key);
    else if (this.selected.size < v.pass_count) this.selected.add(key);
    else {
      toast(ngettext("Choose exactly {n} card", "Choose exactly {n} cards", v.pass_count), "error");
      return;
    }
    this.focusCard = card;
    this.renderHand();
  }

  sendPass() {
    const v = this.view;
    if (!v || v.decision !== "pass" || this.selected.size !== v.pass_count) return;
    const keys = [...this.selected];
    // The chosen cards slide away toward the seat they go to.
    const els = keys.map((k) => this.handZone.querySelector(`.hand .card[data-key="${CSS.escape(k)}"]`)).filter(Boolean);
    const to = centre(this.arena.querySelector(`.seat[data-seat="${v.pass_to}"]`)) || centre(this.top);
    leave(/** @type {HTMLElement[]} */ (els), to, "pass", 600);
    this.act({ seat: this.seat, pass: keys.map((k) => k.split("#")[0]) });
    this.selected.clear();
  }

  askHint() {
    const level = localStorage.getItem("corazones.hintLevel") || "standard";
    this.sock.send({ type: "hint", level });
  }

  showHint(msg) {
    const a = msg.action;
    this.hint = { action: a, reason: msg.reason };
    let text;
    if (a.play) text = t("Hint: play {card}", { card: cardName(a.play) });
    else if (a.pass) text = t("Hint: pass {cards}", { cards: a.pass.map(cardName).join(", ") });
    else if ("bid" in a) text = a.bid ? t("Hint: bid {n}", { n: a.bid }) : t("Hint: do not bid");
    else if (a.declare) text = t("Hint: name {suit}", { suit: suitName(a.declare) });
    else if (a.moon) text = a.moon === "add_to_others" ? t("Hint: add the points to the others") : t("Hint: subtract the points from your score");
    else text = t("Hint");
    this.hint.text = text;
    if (a.pass && this.view && this.view.decision === "pass") {
      const seen = {};
      this.selected = new Set(a.pass.map((c) => { seen[c] = (seen[c] || 0) + 1; return `${c}#${seen[c] - 1}`; }));
    }
    announce(text + ". " + msg.reason);
    this.renderHand();
  }

  sendChat(text) {
    text = text.trim();
    if (!text) return;
    this.sock.send({ type: "chat", text: text.slice(0, 300) });
  }

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

  /** The owner takes a seat away from its player (a lost or shared sign-in, a player gone for good). */
  async removeSeat(seat, name) {
    const ok = await openDialog((close) => h("div.dlg", null,
      h("h2", null, t("Remove {name}?", { name })),
      h("p", null, this.table.status === "open"
        ? t("{name} loses the seat and cannot come back to this table. The seat is free again.", { name })
        : t("{name} loses the seat and cannot come back to this table. Until someone else takes the seat, a bot plays it.", { name })),
      h("div.choices", null,
        h("button.btn.primary", { type: "button", id: "remove-confirm", onclick: () => close(true) }, t("Remove")),
        h("button.btn", { type: "button", onclick: () => close(false) }, t("Cancel")))),
    { label: t("Remove {name}?", { name }) });
    if (!ok) return;
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

  // ------------------------------------------------------------------ rendering

  build() {
    this.root.innerHTML = "";
    this.felt = h("section.felt", { "aria-label": t("Card table") });
    this.top = h("div.felt-top");
    this.arena = h("div.arena");
    this.handZone = h("div.hand-zone");
    this.felt.append(this.top, this.arena, this.handZone);
    this.side = h("aside.side", { "aria-label": t("Scores, chat and game log") });
    this.root.append(h("div.table-view", null, this.felt, this.side));
    this.arena.append(h("div.center-msg", null, t("Connecting to the table…")));
    this.resizeObs = new ResizeObserver(() => this.renderArena());
    this.resizeObs.observe(this.arena);
  }

  render() {
    if (!this.table) return;
    this.renderTop();
    this.renderArena();
    this.renderHand();
    this.renderSide();
    this.maybeDialog();
  }

  renderTop() {
    const v = this.view;
    const r = this.table.rules;
    const items = [h("span.chip.table-name", null, tableTitle(this.table))];
    if (v) {
      if (!v.game_over) items.push(h("span.chip", null, t("Hand {n}", { n: v.hand_index + 1 })));
      if (v.phase === "pass" || (v.pass_direction && v.pass_direction !== "hold" && this.tricks.length === 0 && v.tricks_played === 0)) {
        const to = v.pass_to !== undefined && v.pass_to !== null ? this.nameOf(v.pass_to) : null;
        items.push(h("span.chip", null, v.pass_direction === "hold"
          ? t("No pass this hand")
          : to ? t("Pass {way}, to {name}", { way: passWay(v.pass_direction), name: to })
            : t("Pass {way}", { way: passWay(v.pass_direction) })));
      }
      if (v.penalty_suit !== "H" || r.auction) {
        items.push(h("span.chip", { html: suitIcon(v.penalty_suit) + " " + esc(t("Penalty suit: {suit}", { suit: suitName(v.penalty_suit) })) }));
      }
      const brokenText = v.hearts_broken
        ? t("{suit} broken", { suit: suitName(v.penalty_suit) })
        : t("{suit} not broken", { suit: suitName(v.penalty_suit) });
      if (r.must_break_hearts) {
        items.push(h(v.hearts_broken ? "span.chip.hearts-broken" : "span.chip", { html: suitIcon(v.penalty_suit) + " " + esc(brokenText) }));
      }
      if (r.settlement !== "points") items.push(h("span.chip", null, t("Pool: {n} chips", { n: v.pool })));
      // The auction's winning bid is paid into the pool when the hand is settled: shown until then.
      if (r.auction && v.declarer !== null && v.declarer !== undefined && !v.game_over && !this.summary) {
        const high = (v.bids || []).reduce((m, b) => Math.max(m, b[1]), 0);
        if (high) items.push(h("span.chip", null, t("{name} bid {n} chips", { name: this.nameOf(v.declarer), n: high })));
      }
      if (v.kitty_size) {
        items.push(h("span.chip", null, v.kitty_owner === null
          ? ngettext("Kitty: {n} card face down", "Kitty: {n} cards face down", v.kitty_size)
          : t("Kitty taken by {name}", { name: this.nameOf(v.kitty_owner) })));
      }
    }
    if (this.commitment) {
      items.push(h("button.chip", {
        type: "button", title: t("Fair shuffle: see the commitment"), onclick: () => this.showTab("fair"),
        html: LOCK + " " + esc(t("Fair shuffle {c}", { c: short(this.commitment) })),
      }));
    }
    const speed = h("select", {
      id: "speed", onchange: (e) => { localStorage.setItem("corazones.speed", e.target.value); },
    }, Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: k === getSpeed() ? "selected" : null }, speedName(k))));
    items.push(h("span.chip", null, h("label.speed-label", { for: "speed" }, t("Speed")), " ", speed));
    // Cards that move, or not (the system's reduced-motion setting turns them off too).
    const motion = h("input", {
      type: "checkbox", id: "motion", checked: motionSetting() === "on",
      onchange: (e) => setMotion(e.target.checked ? "on" : "off"),
    });
    items.push(h("span.chip", null, motion, h("label", { for: "motion" }, t("Motion"))));
    this.top.replaceChildren(...items);
  }

  relPos(seat) {
    const n = this.nPlayers();
    const me = this.seat === null ? 0 : this.seat;
    const k = (seat - me + n) % n;
    const angle = (90 + (k * 360) / n) * (Math.PI / 180);
    return { cos: Math.cos(angle), sin: Math.sin(angle), k };
  }

  renderArena() {
    if (!this.table) return;
    const v = this.view;
    const n = this.nPlayers();
    const W = this.arena.clientWidth || 360;
    const H = this.arena.clientHeight || 320;
    // Many seats on a narrow screen: smaller seat boxes, so they do not overlap.
    const compact = W < 600 && n > 5;
    const boxW = compact ? 92 : W < 600 ? 120 : 176;
    const boxH = compact ? 66 : W < 600 ? 84 : 100;
    const rx = Math.max(20, ((W / 2 - boxW / 2 - 6) / W) * 100);
    const ry = Math.max(20, ((H / 2 - boxH / 2 - 4) / H) * 100);
    const nodes = [];
    for (let s = 0; s < n; s++) {
      if (s === this.seat) continue; // your own seat is the hand below
      const p = this.relPos(s);
      const node = this.seatNode(s);
      if (compact) node.classList.add("compact");
      node.style.left = `${50 + rx * p.cos}%`;
      node.style.top = `${50 + ry * p.sin}%`;
      nodes.push(node);
    }
    const trick = h("div.trick", { "aria-label": t("Cards on the table"), role: "group" });
    const plays = this.shownTrick ? this.shownTrick.plays : v ? v.trick : [];
    const winner = this.shownTrick ? this.shownTrick.winner : null;
    const counts = {};
    for (const [, c] of plays) counts[c] = (counts[c] || 0) + 1;
    // The trick: a compact ring in the middle, each card on the side of the seat that played it.
    const tw = Math.round(compact ? 42 : W < 600 ? 52 : Math.min(88, Math.max(62, W * 0.08)));
    const spread = n > 4 ? 1.25 : 1;
    const dx = tw * 1.05 * spread;
    const dy = tw * 1.4 * 0.6 * spread;
    plays.forEach(([s, c], i) => {
      const p = this.relPos(s);
      const el = cardElement(c);
      el.setAttribute("aria-label", t("{name}: {card}", { name: this.nameOf(s), card: cardName(c) }));
      el.style.width = `${tw}px`;
      el.style.left = `calc(50% + ${Math.round(dx * p.cos)}px)`;
      el.style.top = `calc(50% + ${Math.round(dy * p.sin)}px)`;
      el.style.zIndex = String(10 + i);
      if (this.shownTrick && s === winner) el.classList.add("win");
      if (this.table.rules.decks === 2 && counts[c] > 1) el.classList.add("cancelled");
      trick.append(el);
    });
    nodes.push(trick);
    const lastTrick = this.lastTrickShown && v && v.last_trick && !this.shownTrick && !this.summary && !v.game_over;
    if (this.shownTrick) {
      const note = h("div.trick-note", { "aria-hidden": "true" }, winner === null
        ? t("Trick annulled")
        : winner === this.seat ? t("You take the trick") : t("{name} takes the trick", { name: this.nameOf(winner) }));
      note.style.top = `calc(50% + ${Math.round(dy + tw * 0.7 + 24)}px)`;
      nodes.push(note);
    } else if (!v) {
      nodes.push(this.waitingRoom());
    } else if (this.summary) {
      nodes.push(this.summaryPanel());
    } else if (this.reveal || v.game_over) {
      nodes.push(this.gameOverPanel());
    } else if (lastTrick) {
      nodes.push(this.lastTrickPanel(v.last_trick));
    }
    // Cards the hand still shows, where a card of yours starts its way to the trick.
    const fromHand = new Map();
    for (const el of this.handZone.querySelectorAll(".hand .card")) {
      const c = /** @type {HTMLElement} */ (el).dataset.card;
      if (c && !fromHand.has(c)) fromHand.set(c, centre(el));
    }
    this.arena.replaceChildren(...nodes);
    // A card new on the table travels from the seat (or your hand) that played it.
    const keys = plays.map(([s, c]) => `${s}:${c}`);
    const before = this.drawnPlays || [];
    const grows = before.length <= keys.length && before.every((k, i) => keys[i] === k);
    this.drawnPlays = keys;
    if (grows && keys.length > before.length) {
      const els = trick.querySelectorAll(".card");
      for (let i = before.length; i < keys.length; i++) {
        const [s, c] = plays[i];
        const from = s === this.seat ? (fromHand.get(c) || centre(this.handZone)) : centre(this.arena.querySelector(`.seat[data-seat="${s}"]`));
        arrive(/** @type {HTMLElement} */ (els[i]), from, "play", "translate(-50%, -50%)");
      }
    }
  }

  /** The trick just finished sweeps to the pile of whoever took it (an annulled one stays for the next). */
  sweepTrick(trick, ms) {
    if (trick.winner === null || trick.winner === undefined) return;
    const target = trick.winner === this.seat
      ? this.handZone.querySelector(".pile") || this.handZone.querySelector(".chip.mine")
      : this.arena.querySelector(`.seat[data-seat="${trick.winner}"] .pile`) || this.arena.querySelector(`.seat[data-seat="${trick.winner}"]`);
    const els = /** @type {HTMLElement[]} */ ([...this.arena.querySelectorAll(".trick .card")]);
    leave(els, centre(target) || centre(this.handZone), "sweep", ms, "translate(-50%, -50%)");
  }

  /** The previous trick, card by card, and who took it: on demand at any moment of the play. */
  lastTrickPanel(tr) {
    const box = h("div.last-trick", { role: "region", "aria-label": t("Last trick"), id: "last-trick" });
    box.append(h("h3", null, t("Last trick")));
    const row = h("div.card-row");
    for (const [s, c] of tr.plays) {
      const el = cardElement(c);
      el.setAttribute("aria-label", t("{name}: {card}", { name: this.nameOf(s), card: cardName(c) }));
      if (s === tr.winner) el.classList.add("win");
      row.append(h("figure", null, el, h("figcaption", null, this.nameOf(s))));
    }
    box.append(row);
    box.append(h("p", null, tr.winner === null || tr.winner === undefined
      ? t("Nobody won it: it was annulled")
      : tr.winner === this.seat ? t("You took it") : t("{name} took it", { name: this.nameOf(tr.winner) })));
    box.append(h("button.btn.small", { type: "button", onclick: () => { this.lastTrickShown = false; this.render(); } }, t("Close")));
    return box;
  }

  /** Tricks each seat has won this hand, and the penalty cards in them (annulled tricks go to the next winner). */
  piles() {
    const n = this.nPlayers();
    const rules = this.table.rules;
    const suit = this.view ? this.view.penalty_suit : "H";
    return wonPiles(this.tricks, n, (c) => cardValue(c, rules, suit) !== 0, false);
  }

  /** A seat's pile of won tricks: a small stack with its count; a click shows the penalty cards in it. */
  pileNode(s, piles) {
    const p = piles[s];
    if (!p.tricks) return null;
    const name = this.nameOf(s);
    const stack = h("span.pile-stack", { "aria-hidden": "true" });
    for (let i = 0; i < Math.min(p.tricks, 4); i++) stack.append(h("span"));
    return h("button.pile", {
      type: "button",
      "aria-label": ngettext("{name}: {n} trick won; show the penalty cards", "{name}: {n} tricks won; show the penalty cards", p.tricks, { name }),
      onclick: (ev) => { ev.stopPropagation(); this.showPile(s); },
    }, stack, h("span.pile-n", null, String(p.tricks)));
  }

  async showPile(s) {
    const p = this.piles()[s];
    const name = this.nameOf(s);
    const title = s === this.seat ? t("Your tricks") : t("Tricks of {name}", { name });
    await openDialog((close) => h("div.dlg", null,
      h("h2", null, title),
      h("p", null, ngettext("{n} trick won this hand.", "{n} tricks won this hand.", p.tricks)),
      p.cards.length
        ? h("div.card-row", null, sortCards(p.cards).map((c) => cardElement(c)))
        : h("p.muted", null, t("No penalty card.")),
      h("div.actions", null, h("button.btn.primary", { type: "button", onclick: () => close(null) }, t("Close")))),
    { label: title });
  }

  seatNode(s) {
    const info = (this.table.seats || []).find((x) => x.seat === s) || { name: t("Seat {n}", { n: s + 1 }), kind: "bot", status: "bot" };
    const v = this.view;
    const mine = s === this.seat;
    const turn = v && !v.game_over && !this.summary && !this.shownTrick && v.to_act.includes(s);
    const cls = ["seat"];
    if (turn) cls.push("turn");
    if (mine) cls.push("me");
    if (info.status === "away") cls.push("away");
    const who = info.status === "bot" || info.kind === "bot"
      ? (info.player !== null && info.player !== undefined && info.kind === "human"
        ? t("bot for now ({level})", { level: levelName(info.level) })
        : t("bot: {level}", { level: levelName(info.level) }))
      : info.status === "away" ? t("away, seat kept") : info.status === "empty" ? t("free seat") : t("human");
    const name = mine ? t("{name} (you)", { name: info.name }) : this.seatName(s);
    const lines = [h("div.name", null, v && v.dealer === s ? h("span.dealer", { title: t("Dealer"), "aria-label": t("Dealer") }, "D") : null, " ", name)];
    lines.push(h("div.meta", null, h("span.level", null, who)));
    if (this.table.rules.partnership) lines.push(h("div.meta", null, t("Team {team}", { team: teamOf(s) })));
    const data = { seat: String(s) };
    if (v) {
      const cards = v.hand_sizes[s];
      const pts = v.points_taken[s];
      const total = v.scores[s];
      const chips = this.table.rules.settlement !== "points";
      lines.push(h("div.meta", null, h("span", null, ngettext("{n} card", "{n} cards", cards)), this.pileNode(s, this.piles())));
      // Chip games keep no score: the seat shows its chips instead. A number never wraps away from its word.
      lines.push(h("div.meta.nums", null, h("span", null, glue(chips
        ? t("took {p} · {c}", { p: pts, c: ngettext("{n} chip", "{n} chips", v.chips[s]) })
        : t("took {p} · score {s}", { p: pts, s: total })))));
      Object.assign(data, { took: String(pts), score: String(total), chips: String(v.chips[s]) });
      const bid = (v.bids || []).find((b) => b[0] === s);
      if (bid) lines.push(h("div.meta", null, bid[1] ? t("bid {n}", { n: bid[1] }) : t("no bid")));
      if (!mine && cards) {
        const backs = h("div.mini-backs", { "aria-hidden": "true" });
        for (let i = 0; i < Math.min(cards, 13); i++) backs.append(h("span"));
        lines.push(backs);
      }
    }
    if (!v && this.table.status === "open" && (info.status === "empty") && this.seat === null) {
      lines.push(h("button.btn.small.gold", { type: "button", onclick: () => this.sit(s) }, t("Sit here")));
    }
    if (v && this.seat === null && info.kind === "human" && info.status === "bot" && (info.player === null || info.player === undefined)) {
      lines.push(h("button.btn.small.gold", { type: "button", onclick: () => this.sit(s) }, t("Take this seat")));
    }
    if (this.player && this.table.owner === this.player.id && this.table.status !== "finished" && info.kind === "human"
      && info.player !== null && info.player !== undefined && info.player !== this.player.id) {
      lines.push(h("button.btn.small.ghost.seat-remove", { type: "button", onclick: () => this.removeSeat(s, name) }, t("Remove")));
    }
    const label = [name, who, turn ? t("to play") : ""].filter(Boolean).join(", ");
    return h("div." + cls.join("."), { "aria-label": label, role: "group", dataset: data }, ...lines);
  }

  waitingRoom() {
    const tbl = this.table;
    const box = h("div.center-msg");
    box.append(h("h2", null, t("Waiting for players")));
    const free = tbl.seats.filter((s) => s.status === "empty").length;
    box.append(h("p", null, ngettext("{n} seat is free. Send the invite link to a friend.", "{n} seats are free. Send the invite link to a friend.", free)));
    if (tbl.invite_url) {
      const input = h("input", { type: "text", readonly: true, value: tbl.invite_url, "aria-label": t("Invite link") });
      box.append(h("div.invite", null, input, h("button.btn.gold", { type: "button", onclick: () => copyText(tbl.invite_url) }, t("Copy link"))));
    }
    if (this.player && tbl.owner === this.player.id) {
      box.append(h("p", null, h("button.btn.primary", { type: "button", onclick: () => this.startNow() }, t("Start now: bots take the free seats"))));
    }
    if (this.seat !== null) box.append(h("p", null, h("button.btn.ghost.small", { type: "button", onclick: () => this.stand() }, t("Leave the seat"))));
    return box;
  }

  summaryPanel() {
    return summaryPanelView(this);
  }

  /** Who took what this hand: the penalty cards each seat won, its points and its score. */
  tookTable(result, tricks, compact = false) {
    return tookTableView(this, result, tricks, compact);
  }

  gameOverPanel() {
    return gameOverPanelView(this);
  }

  /** The final standings: every player from first to last, with their score (or chips) and team totals. */
  standings(winners) {
    return standingsView(this, winners);
  }

  renderHand() {
    if (!this.table) return;
    const v = this.view;
    const zone = this.handZone;
    zone.dataset.decision = "";
    if (!v || this.seat === null || !v.hand) {
      zone.replaceChildren(this.seat === null && this.table ? h("p.prompt", null, t("You are watching this table.")) : "");
      return;
    }
    const bar = h("div.hand-bar");
    const busy = this.queue.length > 0 || !!this.shownTrick;
    const decision = busy ? null : v.decision;
    // Received cards are marked until the first trick is over (the docs promise no longer).
    const received = new Set(v.tricks_played === 0 && !this.shownTrick ? v.received || [] : []);
    zone.dataset.decision = decision || "";
    let prompt = "";
    if (v.game_over) prompt = t("Game over");
    else if (decision === "pass") {
      prompt = t("Choose {n} cards to pass {way}, to {name} ({k} chosen)", {
        n: v.pass_count, way: passWay(v.pass_direction), name: this.nameOf(v.pass_to), k: this.selected.size,
      });
    } else if (decision === "play") prompt = t("Your turn: play a card");
    else if (decision === "bid") prompt = t("Your turn to bid");
    else if (decision === "declare") prompt = t("Name the penalty suit");
    else if (decision === "moon") prompt = t("You shot the moon! Choose how to score it");
    else if (v.phase === "pass" && v.passed) prompt = t("Waiting for the others to pass…");
    else if (v.to_act.length) prompt = t("Waiting for {name}…", { name: this.nameOf(v.to_act[0]) });
    const me = this.seat;
    const turn = !v.game_over && v.to_act.includes(me);
    const rules = this.table.rules;
    const chips = rules.settlement !== "points";
    const myBid = (v.bids || []).find((b) => b[0] === me);
    const mine = [h("strong", null, this.seatName(me))];
    if (rules.partnership) mine.push(" · ", h("span.nowrap", null, t("Team {team}", { team: teamOf(me) })));
    mine.push(" · ", h("span.nowrap", null, ngettext("took {n} point", "took {n} points", v.points_taken[me])));
    mine.push(" · ", h("span.nowrap", null, chips ? ngettext("{n} chip", "{n} chips", v.chips[me]) : t("score {n}", { n: v.scores[me] })));
    if (myBid) mine.push(" · ", h("span.nowrap", null, myBid[1] ? t("bid {n}", { n: myBid[1] }) : t("no bid")));
    if (v.dealer === me) mine.push(h("span.dealer", { title: t("Dealer") }, "D"));
    bar.append(h(turn ? "span.chip.mine.turn" : "span.chip.mine", {
      "aria-label": t("You"), dataset: { took: String(v.points_taken[me]), score: String(v.scores[me]), chips: String(v.chips[me]) },
    }, ...mine));
    const myPile = this.pileNode(me, this.piles());
    if (myPile) bar.append(myPile);
    bar.append(h("span.prompt", { id: "prompt" }, prompt));
    // Say it once when a decision of yours begins (screen readers do not see the prompt change).
    const turnKey = decision ? `${v.hand_index}:${decision}:${v.tricks_played}:${v.trick.length}` : null;
    if (turnKey && turnKey !== this.turnKey) announce(prompt);
    this.turnKey = turnKey;
    if (decision === "pass") {
      bar.append(h("button.btn.gold", {
        type: "button", disabled: this.selected.size !== v.pass_count ? true : null, onclick: () => this.sendPass(),
        id: "pass-btn",
      }, t("Pass {n} cards", { n: v.pass_count })));
    }
    if (decision && !v.game_over) {
      bar.append(h("button.btn.small.ghost", { type: "button", onclick: () => this.askHint(), id: "hint-btn" }, t("Hint")));
    }
    if (v.last_trick && !v.game_over) {
      bar.append(h("button.btn.small.ghost", {
        type: "button", "aria-pressed": this.lastTrickShown ? "true" : "false",
        onclick: () => { this.lastTrickShown = !this.lastTrickShown; this.render(); },
      }, t("Last trick")));
    }
    const rows = [bar];
    if (this.hint && decision) {
      rows.push(h("p.prompt", { role: "status" }, this.hint.text + " — " + this.hint.reason));
    }
    if (received.size && v.received_from !== null && v.tricks_played === 0 && !v.trick.length) {
      rows.push(h("p.prompt", null, t("Received from {name}: {cards}", {
        name: this.nameOf(v.received_from), cards: sortCards([...received]).map(cardShort).join(" "),
      })));
    }
    const hand = h("div.hand", { role: "toolbar", "aria-label": t("Your hand"), "aria-orientation": "horizontal" });
    const cards = sortCards(v.hand);
    const legal = new Set(decision === "play" ? v.legal.filter((a) => a.play).map((a) => a.play) : []);
    const hintCard = this.hint && this.hint.action.play;
    const focusKey = this.focusCard && cards.includes(this.focusCard) ? this.focusCard : null;
    let tabbable = focusKey || (decision === "play" ? cards.find((c) => legal.has(c)) : cards[0]);
    // Width: overlap the cards so the whole hand fits; two rows when they would be too thin.
    const width = zone.clientWidth || this.felt.clientWidth || 360;
    const cw = width < 600 ? 62 : Math.round(Math.min(100, Math.max(62, width * 0.085)));
    hand.style.setProperty("--card-w", `${cw}px`);
    const per = cards.length > 1 ? (width - 16 - cw) / (cards.length - 1) : cw;
    // Too thin a sliver of each card is hard to read and to touch: then two rows.
    const nrows = per < 34 ? 2 : 1;
    const perRow = Math.ceil(cards.length / nrows);
    const overlap = Math.min(6, (width - 16 - cw) / Math.max(1, perRow - 1) - cw);
    hand.style.setProperty("--overlap", `${overlap}px`);
    const lines = Array.from({ length: nrows }, () => h("div.hand-row"));
    if (nrows > 1) hand.classList.add("two-rows");
    cards.forEach((c, i) => {
      const el = cardElement(c, { button: true });
      let label = cardName(c);
      if (received.has(c)) { el.classList.add("received"); label += ", " + t("received"); }
      const key = copyKey(cards, i);
      el.dataset.key = key;
      if (decision === "pass") {
        // Two decks hold two copies of a card: each copy is chosen by itself.
        const sel = this.selected.has(key);
        if (sel) el.classList.add("selected");
        el.setAttribute("aria-pressed", sel ? "true" : "false");
        el.onclick = () => this.toggleSelect(key);
      } else if (decision === "play") {
        if (!legal.has(c)) el.setAttribute("aria-disabled", "true");
        if (hintCard === c) { el.classList.add("selected"); label += ", " + t("suggested"); }
        el.onclick = () => this.onCardTap(c, el);
      } else {
        el.setAttribute("aria-disabled", "true");
        el.onclick = () => {};
      }
      el.setAttribute("aria-label", label);
      el.tabIndex = c === tabbable ? 0 : -1;
      el.onkeydown = (e) => this.onCardKey(e, cards, i, decision);
      el.onfocus = () => { this.focusCard = c; };
      lines[Math.floor(i / perRow)].append(el);
    });
    hand.append(...lines);
    rows.push(hand);
    const hadFocus = zone.contains(document.activeElement) && /** @type {HTMLElement} */ (document.activeElement).dataset.card;
    zone.replaceChildren(...rows);
    if (received.size && this.arrivedFor !== v.hand_index && v.received_from !== null && v.received_from !== undefined) {
      // The cards passed to you arrive from the seat that passed them.
      this.arrivedFor = v.hand_index;
      const from = centre(this.arena.querySelector(`.seat[data-seat="${v.received_from}"]`));
      for (const el of hand.querySelectorAll(".card.received")) arrive(/** @type {HTMLElement} */ (el), from, "receive");
    }
    if (hadFocus) {
      const again = hand.querySelector(`[data-card="${CSS.escape(hadFocus)}"]`) || hand.querySelector("[tabindex='0']");
      if (again) again.focus();
    }
  }

  onCardTap(card, el) {
    // A touch picks the card up first and plays it on the second touch, so a slip costs nothing;
    // a mouse or a keyboard plays at once.
    if (this.pointer === "touch" && this.armed !== card) {
      this.armed = card;
      for (const x of this.handZone.querySelectorAll(".card.selected")) x.classList.remove("selected");
      el.classList.add("selected");
      return;
    }
    this.armed = null;
    this.playCard(card);
  }

  onCardKey(e, cards, i, decision) {
    let j = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = cards.length - 1;
    else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (decision === "pass") {
        const key = copyKey(cards, i);
        if (e.key === "Enter" && this.view && this.selected.size === this.view.pass_count && this.selected.has(key)) this.sendPass();
        else this.toggleSelect(key);
      } else if (decision === "play") this.playCard(cards[i]);
      return;
    }
    if (j === null) return;
    e.preventDefault();
    const btns = this.handZone.querySelectorAll(".hand .card");
    btns.forEach((b, k) => { b.tabIndex = k === j ? 0 : -1; });
    btns[j].focus();
  }

  // ------------------------------------------------------------------ dialogs

  maybeDialog() {
    const v = this.view;
    if (!v || this.seat === null || this.queue.length || this.shownTrick || this.summary) return;
    const d = v.decision;
    const key = d ? `${v.hand_index}:${d}:${v.bids.length}` : null;
    if (!d || !["bid", "declare", "moon"].includes(d) || this.dialogFor === key) return;
    this.dialogFor = key;
    if (d === "bid") this.bidDialog(v);
    else if (d === "declare") this.declareDialog(v);
    else this.moonDialog(v);
  }

  bidDialog(v) {
    return bidDialogView(this, v);
  }

  declareDialog(v) {
    return declareDialogView(this, v);
  }

  moonDialog(v) {
    return moonDialogView(this, v);
  }

  // ------------------------------------------------------------------ side panel

  showTab(name) {
    this.tab = name;
    if (name === "chat") this.unread = 0;
    this.renderSide();
    const panel = this.side.querySelector(".tab-panel");
    if (panel) panel.focus();
  }

  renderSide() {
    if (!this.table) return;
    const tabs = [
      ["scores", t("Scores")],
      ["chat", this.unread ? t("Chat ({n})", { n: this.unread }) : t("Chat")],
      ["log", t("Log")],
      ["fair", t("Fairness")],
    ];
    const bar = h("div.tabs", { role: "tablist" }, tabs.map(([k, label]) => h("button", {
      type: "button", role: "tab", "aria-selected": this.tab === k ? "true" : "false", id: `tab-${k}`,
      onclick: () => this.showTab(k),
    }, label)));
    let body;
    if (this.tab === "chat") body = this.chatPanel();
    else if (this.tab === "log") body = h("ol.log", null, this.log.slice(-200).map((l) => h("li", null, l)));
    else if (this.tab === "fair") body = this.fairPanel();
    else body = this.scoreSheet();
    const panel = h("div.tab-panel", { role: "tabpanel", tabindex: "-1", "aria-labelledby": `tab-${this.tab}` }, body);
    const keepInput = this.side.querySelector("#chat-input");
    const draft = keepInput ? keepInput.value : "";
    const focused = keepInput && document.activeElement === keepInput;
    this.side.replaceChildren(bar, panel);
    if (this.tab === "log") panel.scrollTop = panel.scrollHeight;
    const input = this.side.querySelector("#chat-input");
    if (input) {
      input.value = draft;
      if (focused) input.focus();
      const list = this.side.querySelector(".chat-msgs");
      list.scrollTop = list.scrollHeight;
    }
  }

  scoreSheet() {
    return scoreSheetView(this);
  }

  chatPanel() {
    return chatPanelView(this);
  }

  fairPanel() {
    return fairPanelView(this);
  }
}

const LOCK = '<svg class="lock" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 0 0-4 0v2z"/></svg>';

function short(hex) {
  return hex ? hex.slice(0, 8) + "…" : "";
}



/**
 * A table's name as shown: a name the server made from its host and an internal preset name
 * ("Lola · kitty") gets the preset's title in the reader's language instead.
 */
export function tableTitle(table) {
  const name = table.name || t("Table");
  const tail = ` · ${table.preset}`;
  return table.preset && name.endsWith(tail) ? name.slice(0, -tail.length) + " · " + presetTitle(table.preset) : name;
}

/** Glue each number to the word before it (a no-break space), so that "score 0" never wraps between them. */
function glue(text) {
  return text.replace(/ (\d)/g, "\u00a0$1");
}

/** Focus the first element matching `selector` once the screen is drawn (a summary's Continue, the game over's). */
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

