// @ts-check
// The table's state, fed by the socket: the table and its seats, your view of the game, the tricks of
// this hand, the hands played, chat, log and the fairness proof. Game events wait in a queue and are
// applied one by one at the chosen speed, so a trick stays in view long enough to be seen even when the
// bots play at once; the screen (table.js) is told when to draw through `hooks`. No DOM here.
import * as api from "./api.js";
import { cardName, cardValue, sortCards, suitName } from "./cards.js";
import { t } from "./i18n.js";
import { playerName } from "./names.js";
import { applyPlay, chipTotals, settleView, wonPiles } from "./state.js";
import { announce } from "./ui.js";
import { eventLine, gameOverSaid, seatLine } from "./words.js";

/** @typedef {import("./state.js").View} View */
/** @typedef {import("./state.js").TableInfo} TableInfo */
/** @typedef {import("./state.js").Trick} Trick */
/** @typedef {import("./state.js").HandResult} HandResult */
/** @typedef {import("./state.js").TableEvent} TableEvent */
/** @typedef {import("./state.js").Action} Action */
/** @typedef {{type: string, seq?: number, event: TableEvent, view?: View | null}} EventMessage */
/** @typedef {{seat: number | null, name: string, text: string}} ChatLine */
/** @typedef {{seed: string, commitment: string | null | undefined, record_url: string, winners: number[], scores: number[]}} Reveal */
/** @typedef {{action: Action, reason: string, text: string}} Hint */
/**
 * What the store asks of the screen: draw everything, draw the side panel, sweep a finished trick to its
 * winner within `ms`, move the focus to `selector` once drawn, a chat line came.
 * @typedef {{render: () => void, renderSide: () => void, sweep: (trick: Trick, ms: number) => void,
 *   focus: (selector: string) => void, chat: (line: ChatLine) => void}} StoreHooks
 */

/** Pauses per speed, in milliseconds: after each card, and with a finished trick on the table. */
export const SPEEDS = {
  slow: { play: 900, trick: 3000 },
  normal: { play: 500, trick: 1800 },
  fast: { play: 220, trick: 900 },
  instant: { play: 0, trick: 0 },
};

/** The chosen speed, a key of SPEEDS ("normal" unless another was chosen). */
export function getSpeed() {
  const s = localStorage.getItem("corazones.speed");
  return s && s in SPEEDS ? /** @type {keyof typeof SPEEDS} */ (s) : "normal";
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * What this browser has seen of each table's hands (localStorage, the last tables only): the last hand whose
 * summary went by (Continue), and the tricks of the last hand seen to end, so that a summary not gone by
 * yet is shown again after a reload, or when the player comes back to a hand that ended without them.
 * @typedef {{seen: number, ended?: {index: number, tricks: Trick[]} | null}} HandsSeen
 */
const SEEN_KEY = "corazones.handsSeen";
const SEEN_TABLES = 20;

/** @returns {Record<string, HandsSeen>} */
function readSeen() {
  try {
    const all = JSON.parse(localStorage.getItem(SEEN_KEY) || "{}");
    return all && typeof all === "object" ? all : {};
  } catch (e) {
    return {};
  }
}

/**
 * Change what is kept for table `id` (it becomes the most recent; the oldest tables beyond the last few go).
 * @param {string} id
 * @param {(rec: HandsSeen | undefined) => HandsSeen} change
 */
function writeSeen(id, change) {
  const all = readSeen();
  const rec = change(all[id]);
  delete all[id];
  all[id] = rec;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - SEEN_TABLES))) delete all[old];
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify(all));
  } catch (e) {
    /* storage full or off: a reload then shows no summary */
  }
}

export class TableStore {
  /**
   * @param {string} id the table's id
   * @param {StoreHooks} hooks
   */
  constructor(id, hooks) {
    this.id = id;
    this.hooks = hooks;
    /** @type {TableInfo | null} */
    this.table = null;
    this.role = "spectator";
    /** @type {number | null} your seat, null when watching */
    this.seat = null;
    /** @type {{id: number, name: string, kind?: string} | null} */
    this.player = null;
    /** @type {View | null} */
    this.view = null;
    /** @type {Trick[]} the tricks of this hand */
    this.tricks = [];
    /** @type {Trick[]} the tricks of the hand whose result is the last of `history` */
    this.lastHandTricks = [];
    /** @type {HandResult[]} */
    this.history = [];
    /** @type {ChatLine[]} */
    this.chat = [];
    /** @type {string[]} */
    this.log = [];
    /** @type {EventMessage[]} game events not shown yet */
    this.queue = [];
    this.busy = false;
    /** Held on a hand summary until the player goes on (Continue). */
    this.held = false;
    /** @type {Trick | null} a finished trick held in the middle for a moment */
    this.shownTrick = null;
    /** @type {string | null} */
    this.commitment = null;
    /** @type {Reveal | null} */
    this.reveal = null;
    /** @type {{result: HandResult, tricks: Trick[] | null} | null} the last hand result, shown until dismissed (tricks: null when unknown) */
    this.summary = null;
    /** @type {View | null} the view that came with a hand's last event, kept back while its summary is up */
    this.pendingView = null;
    /** @type {Set<string>} cards chosen for the pass, each with which copy it is ("QS#0") */
    this.selected = new Set();
    /** @type {Hint | null} */
    this.hint = null;
    this.connected = false;
    /** A move of yours is on its way to the server: no other until it answers (a double click sends one). */
    this.sent = false;
    /** @type {number | null} the hand whose cards passed to you have been said */
    this.receivedSaid = null;
    /** @type {number | null} the hand whose moon was said with the shooter's choice (not said again at its end) */
    this.moonSaid = null;
  }

  // ------------------------------------------------------------------ naming

  /** @param {number | null | undefined} seat */
  nameOf(seat) {
    if (seat === null || seat === undefined) return "";
    if (seat === this.seat) return t("You");
    return this.seatName(seat);
  }

  /**
   * A seat's name; bots and namesakes get their seat number so that every column differs.
   * @param {number} seat
   */
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

  /**
   * Whether the table is still showing events (a card on its way, a finished trick) or waits for the
   * server's answer to your move: no decision then.
   */
  showing() {
    return this.sent || this.queue.length > 0 || !!this.shownTrick;
  }

  /** Tricks each seat has won this hand, and the penalty cards in them (annulled tricks go to the next winner). */
  piles() {
    const rules = /** @type {TableInfo} */ (this.table).rules;
    const suit = this.view ? this.view.penalty_suit : "H";
    return wonPiles(this.tricks, this.nPlayers(), (c) => cardValue(c, rules, suit) !== 0, false);
  }

  // ------------------------------------------------------------------ messages

  /** @param {{role: string, seat?: number | null, player: any}} msg */
  welcome(msg) {
    this.role = msg.role;
    this.seat = msg.role === "seat" ? (msg.seat ?? null) : null;
    this.player = msg.player;
  }

  /**
   * The whole state again (on connecting and after a reconnection): the queue is dropped.
   * @param {any} s the snapshot message
   * @returns {{reconnect: boolean, missed: number}}
   */
  applySnapshot(s) {
    const reconnect = this.connected === false && this.table !== null;
    const before = { view: this.view, tricks: this.tricks };
    this.connected = true;
    this.sent = false;
    this.queue = [];
    this.shownTrick = null;
    this.held = false;
    this.pendingView = null;
    this.table = s.table;
    this.role = s.role;
    this.seat = s.role === "seat" ? s.seat : null;
    this.view = s.view;
    this.tricks = s.tricks || [];
    this.history = s.history || [];
    this.chat = (s.chat || []).map((/** @type {ChatLine} */ c) => ({ seat: c.seat, name: c.name, text: c.text }));
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
    const missed = s.missed || [];
    for (const ev of missed) this.logEvent(ev.event, true);
    this.summaryAfterGap(missed.map((/** @type {{event: TableEvent}} */ m) => m.event), before);
    this.summaryNotSeen();
    this.sayReceived();
    return { reconnect, missed: missed.length };
  }

  /**
   * After a reload, or back at a table whose hand ended while the page was closed (a bot played for you): the
   * summary of the last hand that ended since this browser last went past one, held until Continue as
   * always (a spectator's goes by itself), over that hand's settled view. Its cards are those this browser
   * saw taken when it saw the hand end, else how many penalty cards each took. A table opened here for the
   * first time shows none (what was seen is kept from then on).
   */
  summaryNotSeen() {
    const table = /** @type {TableInfo} */ (this.table);
    const last = this.history.length ? this.history[this.history.length - 1] : null;
    const rec = readSeen()[this.id];
    if (!rec) {
      writeSeen(this.id, () => ({ seen: last ? last.index : -1, ended: null }));
      return;
    }
    if (this.summary || !last || last.index <= rec.seen || table.status === "finished") return;
    const tricks = rec.ended && rec.ended.index === last.index ? rec.ended.tricks : null;
    this.pendingView = this.view;
    this.openSummary(last, tricks, this.view);
    this.held = true;
    if (this.seat === null) {
      const shown = this.summary;
      setTimeout(() => { if (this.summary === shown) this.continueAfterSummary(); }, this.speed().trick * 2.5);
    }
  }

  /** The summary up now has been seen (Continue, or a spectator's pause): a reload does not show it again. */
  summarySeen() {
    const index = this.summary ? this.summary.result.index : null;
    if (index === null) return;
    writeSeen(this.id, (rec) => ({ ...(rec || {}), seen: Math.max(index, rec ? rec.seen : -1) }));
  }

  /**
   * After a reconnection, the hand summary the player would have seen had the connection held: the one of a
   * hand that ended while it was down, or the one that was up when it dropped. It is held until Continue (a
   * spectator's goes by itself), over that hand's settled view; the snapshot's view comes after it.
   * @param {TableEvent[]} missed the events while the connection was down
   * @param {{view: View | null, tricks: Trick[]}} before the view and tricks held when it dropped
   */
  summaryAfterGap(missed, before) {
    const table = /** @type {TableInfo} */ (this.table);
    if (table.status === "finished") {
      this.summary = null;
      return;
    }
    let tricks = before.tricks.slice();
    /** @type {{result: HandResult, tricks: Trick[]} | null} the last hand that ended in the gap */
    let ended = null;
    for (const e of missed) {
      if (e.kind === "hand_start") tricks = [];
      else if (e.kind === "action" && e.trick) tricks.push(e.trick);
      else if (e.kind === "hand_end" && e.result) ended = { result: e.result, tricks };
    }
    if (!ended && !this.summary) return;
    this.pendingView = this.view;
    if (ended) {
      const same = before.view && before.view.hand_index === ended.result.index;
      this.openSummary(ended.result, ended.tricks, same ? before.view : this.view);
    } else {
      if (before.view) this.view = before.view; // the summary that was up stays over the view it had settled
      this.hooks.focus("#continue-btn");
    }
    this.held = true;
    if (this.seat === null) {
      const shown = this.summary;
      // (Unless a pause that was running when it dropped has taken it down already: then only go on.)
      const goOn = () => { if (this.summary === shown || this.summary === null) this.continueAfterSummary(); };
      setTimeout(goOn, this.speed().trick * 2.5);
    }
  }

  /**
   * Open the summary of the hand that ended with `result`, over `view` settled by it, so that every number
   * on the table agrees with the summary; the focus goes to Continue and the end is said.
   * @param {HandResult} result
   * @param {Trick[] | null} tricks that hand's tricks (null: not known here)
   * @param {View | null} view the hand's last view
   */
  openSummary(result, tricks, view) {
    const table = /** @type {TableInfo} */ (this.table);
    this.lastHandTricks = tricks || [];
    if (tricks) writeSeen(this.id, (rec) => ({ seen: rec ? rec.seen : result.index - 1, ended: { index: result.index, tricks } }));
    if (view) this.view = settleView(view, result, chipTotals(table.rules, this.history, this.nPlayers()));
    this.summary = { result, tricks };
    this.hooks.focus("#continue-btn");
    // Said here, once, whichever way the summary came (the hand's last event, a reconnection, a reload):
    // the log's line for the hand's end is kept quiet.
    announce(this.handEndLine(result));
  }

  /**
   * The end of a hand in words, everything the summary shows a sighted player: the points each took, a moon,
   * and the totals after it (the chips and the pool in chip games).
   * @param {HandResult} result
   */
  handEndLine(result) {
    const table = /** @type {TableInfo} */ (this.table);
    const each = (/** @type {number[]} */ xs) => xs.map((x, s) => `${this.nameOf(s)} ${x}`).join(", ");
    const parts = [t("Hand {n} is over. Points taken: {points}", { n: result.index + 1, points: each(result.points) }) + "."];
    if (result.shooter !== null && result.shooter !== undefined && this.moonSaid !== result.index) {
      parts.push(t("{name} shot the moon!", { name: this.nameOf(result.shooter) }));
    }
    if (table.rules.settlement !== "points") {
      // The chips after this hand: the hands before it and this one (history may not hold it yet, or hold later ones).
      const upTo = this.history.filter((r) => r.index < result.index).concat([result]);
      parts.push(t("Chips: {values}; pool {pool}", { values: each(chipTotals(table.rules, upTo, this.nPlayers())), pool: result.pool }) + ".");
    } else {
      parts.push(t("Totals: {scores}", { scores: each(result.totals) }) + ".");
    }
    return parts.join(" ");
  }

  /**
   * Say which cards were passed to you, and by whom, once per hand (sighted players see them marked in the
   * hand until the first trick is over; after that the news is stale).
   */
  sayReceived() {
    const v = this.view;
    if (!v || this.summary || this.seat === null || !v.received || !v.received.length || v.tricks_played > 0) return;
    if (v.received_from === null || v.received_from === undefined || this.receivedSaid === v.hand_index) return;
    this.receivedSaid = v.hand_index;
    announce(t("You received from {who}: {cards}", {
      who: this.nameOf(v.received_from), cards: sortCards(v.received).map(cardName).join(", "),
    }));
  }

  /** A finished table seen after the fact: the replay has the revealed seed. */
  async loadReveal() {
    try {
      const rep = await api.getReplay(this.id);
      this.reveal = {
        seed: String(rep.seed), commitment: rep.commitment || this.commitment,
        record_url: (this.table && this.table.record_url) || `/api/games/${this.id}/record`,
        winners: rep.final.winners || [], scores: rep.final.scores || [],
      };
      this.hooks.render();
    } catch (e) {
      /* not available yet */
    }
  }

  /**
   * An event from the socket: chat is shown at once (it changes no view); game events wait their turn.
   * @param {EventMessage} msg
   */
  onEvent(msg) {
    const e = msg.event;
    if (e.kind === "chat") {
      const line = { seat: e.seat, name: e.name || "", text: e.text || "" };
      this.chat.push(line);
      // Your own line is not read back to you.
      if (this.seat === null || line.seat !== this.seat) announce(t("{name} says: {text}", { name: line.name, text: line.text }));
      this.hooks.chat(line);
      return;
    }
    // Any game event answers a move of yours or makes it moot; the view it brings says what is next.
    this.sent = false;
    this.queue.push(msg);
    this.pump();
  }

  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length && !this.held) {
        const msg = /** @type {EventMessage} */ (this.queue.shift());
        await this.play(msg);
      }
    } finally {
      this.busy = false;
    }
  }

  /** The pauses now: a long backlog (after a pause on a summary) is played faster so the table catches up. */
  speed() {
    const s = SPEEDS[getSpeed()];
    const k = this.queue.length > 6 ? 0.35 : 1;
    return { play: s.play * k, trick: s.trick * k };
  }

  /**
   * Apply one game event, draw it, and wait as long as it should stay in view.
   * @param {EventMessage} msg
   */
  async play(msg) {
    const e = msg.event;
    const table = /** @type {TableInfo} */ (this.table);
    this.logEvent(e, false);
    switch (e.kind) {
      case "game_start":
        this.commitment = e.commitment || null;
        table.status = "playing";
        if (e.seats) table.seats = e.seats;
        break;
      case "hand_start":
        this.commitment = e.commitment || this.commitment;
        this.tricks = [];
        this.selected.clear();
        this.hint = null;
        break;
      case "hand_end": {
        const result = /** @type {HandResult} */ (e.result);
        this.history.push(result);
        this.openSummary(result, this.tricks.slice(), this.view);
        break;
      }
      case "game_over":
        this.reveal = {
          seed: e.seed || "", commitment: e.commitment, record_url: e.record_url || `/api/games/${this.id}/record`,
          winners: e.winners || [], scores: e.scores || [],
        };
        table.status = "finished";
        this.summary = null;
        if (this.view) this.view = { ...this.view, to_act: [], decision: null, legal: [], game_over: true, winners: e.winners || [] };
        this.hooks.focus("#game-over .btn.primary");
        break;
      case "seat": {
        const seats = table.seats;
        const i = seats.findIndex((x) => x.seat === e.seat.seat);
        const before = i >= 0 ? seats[i] : null;
        if (i >= 0) seats[i] = e.seat; else seats.push(e.seat);
        this.logLine(seatLine(before, e.seat), false);
        break;
      }
      case "table":
        table.status = e.status || table.status;
        break;
      default:
        break;
    }
    // The server puts the views on the last event of a batch; a play without one is applied
    // to the view we hold, so the card still appears in its place at once.
    const play = e.kind === "action" && e.action && e.action.play;
    const was = this.view;
    if (msg.view && e.kind !== "hand_end") this.view = msg.view;
    else if (msg.view) this.pendingView = msg.view;
    else if (play && this.view) this.view = applyPlay(this.view, e, this.seat);
    this.sayBroken(was);
    this.sayReceived();
    if (play) {
      this.hint = null;
      const mine = this.seat !== null && e.action && e.action.seat === this.seat;
      if (e.trick) {
        this.tricks.push(e.trick);
        this.shownTrick = e.trick;
        this.hooks.render();
        const pause = this.speed().trick;
        // The finished trick rests, then sweeps to its winner's pile within the same pause.
        if (pause) {
          await sleep(pause * 0.6);
          this.hooks.sweep(e.trick, pause * 0.3);
          await sleep(pause * 0.4);
        }
        this.shownTrick = null;
      } else {
        this.hooks.render();
        const pause = mine ? 0 : this.speed().play;
        if (pause) await sleep(pause);
        return;
      }
    }
    if (e.kind === "hand_end" && !(this.view && this.view.game_over)) {
      if (this.seat !== null) {
        // Hold the table on the summary until the player has seen it (Continue), at every speed: the
        // next hand never starts under it.
        this.held = true;
      } else {
        // A spectator follows by themselves: the summary stays up a while (not at all at "instant"),
        // then the game goes on.
        const pause = this.speed().trick * 2.5;
        if (pause) {
          this.hooks.render();
          await sleep(pause);
        }
        this.summarySeen();
        this.summary = null;
        this.takePendingView();
      }
    }
    this.hooks.render();
  }

  /**
   * Say that the penalty suit was just broken (the bar's chip turns red for a sighted player): it decides
   * what may be led.
   * @param {View | null} was the view before this event
   */
  sayBroken(was) {
    const v = this.view;
    const rules = /** @type {TableInfo} */ (this.table).rules;
    if (!rules.must_break_hearts || !v || !was || was.hand_index !== v.hand_index) return;
    if (v.hearts_broken && !was.hearts_broken) announce(t("{suit} broken", { suit: suitName(v.penalty_suit) }));
  }

  /** The view that came with a hand's last event, kept back while that hand's summary is up. */
  takePendingView() {
    if (this.pendingView) this.view = this.pendingView;
    this.pendingView = null;
  }

  /** The player has seen the summary: the next hand comes. */
  continueAfterSummary() {
    this.summarySeen();
    this.summary = null;
    this.held = false;
    this.takePendingView();
    this.sayReceived();
    this.hooks.render();
    // Continue is gone: the keyboard goes on from the hand, not from the top of the page.
    if (this.seat !== null) this.hooks.focus(".hand .card[tabindex='0']");
    this.pump();
  }

  // ------------------------------------------------------------------ log

  /**
   * @param {TableEvent} e
   * @param {boolean} missed caught up after a reconnection: logged, not announced
   */
  logEvent(e, missed) {
    // A hand's end is logged in full and said by its summary (openSummary), not twice.
    if (e.kind === "hand_end" && e.result) this.logLine(this.handEndLine(e.result), true);
    else if (e.kind === "game_over") {
      this.logLine(eventLine(e, this.seat, (s) => this.nameOf(s)), true);
      if (!missed) announce(gameOverSaid(e, this.seat, (s) => this.nameOf(s)));
    } else this.logLine(eventLine(e, this.seat, (s) => this.nameOf(s)), missed);
    // The shooter's choice says the moon ("… shot the moon and adds …"): the hand's end need not say it again.
    if (e.kind === "action" && e.action && e.action.moon && !missed && this.view) this.moonSaid = this.view.hand_index;
  }

  /**
   * @param {string | null} line
   * @param {boolean} quiet
   */
  logLine(line, quiet) {
    if (!line) return;
    this.log.push(line);
    if (this.log.length > 400) this.log.shift();
    if (!quiet) announce(line);
  }
}
