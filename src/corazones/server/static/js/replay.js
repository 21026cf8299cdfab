// @ts-check
// Finished games: the list, and the replay viewer trick by trick (GET /api/games/{id}/replay,
// built by the server from the game record of docs/records.md).
import { openAnalysis, openTypedAnalysis } from "./analysis.js";
import * as api from "./api.js";
import { cardChip, cardElement, cardName, cardValue, sortCards, suitName } from "./cards.js";
import { currentLang, ngettext, t } from "./i18n.js";
import { presetTitle } from "./lobby.js";
import { playerName } from "./names.js";
import { profileView } from "./ratings.js";
import { ReplayReview } from "./review.js";
import { directionName, tableTitle } from "./table.js";
import { announce, h, keepFocus, toast } from "./ui.js";

/**
 * A finished game as listed (GET /api/games): names as stored, scores, winners' seats.
 * @typedef {{id: string, name: string, preset: string, finished: string | null, players: string[], scores: number[],
 *   winners: number[], record_url: string, replay_url: string}} GameSummary
 */
/**
 * One hand of a replay: the deal, the passes, the bids, every trick and the result.
 * @typedef {{index: number, dealer: number, pass_direction: string, hands: string[][], passes: (string[] | null)[],
 *   bids?: [number, number][], declare?: string | null, tricks: import("./state.js").Trick[],
 *   result: import("./state.js").HandResult}} ReplayHand
 */
/**
 * A finished game, hand by hand (GET /api/games/{id}/replay).
 * @typedef {{id: string, players: string[], rules: import("./state.js").Rules, seed: string | number,
 *   commitment: string | null, hands: ReplayHand[], final: any}} Replay
 */

export class GamesList {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.load();
  }

  destroy() {}

  async load() {
    const mine = api.me();
    const panel = h("section.panel", null, h("h2", null, t("Finished games")), h("p", null, t("Loading…")));
    this.root.replaceChildren(h("div.page", null, panel));
    let games = [];
    try {
      games = await api.listGames(null);
    } catch (e) {
      toast(e.message, "error");
    }
    const items = gameItems(games);
    panel.replaceChildren(h("h2", null, t("Finished games")),
      items.length ? h("ul.game-list", null, items) : h("p.empty", null, t("No finished game yet.")));
    if (mine) panel.append(h("p", null, h("a", { href: "#/stats" }, t("Your statistics"))));
    panel.append(h("p", null, h("button.btn", { type: "button", id: "typed-analysis", onclick: () => openTypedAnalysis() }, t("Analysis board: type a position"))));
  }
}

/**
 * Finished games as a list of cards: name, rules, when, everyone's score (winners starred), replay and record.
 * @param {GameSummary[]} games
 */
function gameItems(games) {
  return games.map((g) => h("li.game-item", null,
      // The rules' title once: a table named after its rules ("Pat · Quick: one hand") does not repeat it.
      h("div", null, h("strong", null, tableTitle(g)),
        tableTitle(g).endsWith(presetTitle(g.preset)) ? null : h("span.muted", null, " " + presetTitle(g.preset)),
        g.finished ? h("span.muted", null, " · " + new Date(g.finished).toLocaleString(currentLang())) : null),
      h("div.game-scores", null, g.players.map((p, i) => h(g.winners.includes(i) ? "span.tag.win" : "span.tag", null,
        (g.winners.includes(i) ? "★ " : "") + `${playerName(p, i)} ${g.scores[i]}`))),
      h("div", null, h("a.btn.small.primary", { href: `#/replay/${encodeURIComponent(g.id)}` }, t("Replay")), " ",
        h("a.btn.small", { href: g.record_url, download: `corazones-${g.id}.json` }, t("Record")))));
}

export class ReplayViewer {
  /**
   * @param {HTMLElement} root
   * @param {string} id the game's table id
   */
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.hand = 0;
    this.step = 0; // 0 = the deal (and passes), k = after trick k
    /** @type {Replay | undefined} loaded by load() */
    this.data = undefined;
    /** @type {{name?: string | null, preset?: string | null} | null} the table, for its name (null: not known) */
    this.info = null;
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    /** The game review shown on this replay (review.js). */
    this.review = new ReplayReview(this);
    this.load();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.review.destroy();
  }

  /** Show hand `hand` (from 0) at step `step` (0: the deal, k: after trick k). @param {number} hand @param {number} step */
  goTo(hand, step) {
    if (!this.data) return;
    this.hand = hand;
    this.step = step;
    this.render();
  }

  /** The plays of trick `trick` of hand `hand` (both from 1), for the analysis board. @param {number} hand @param {number} trick */
  trickOf(hand, trick) {
    const hd = this.data && this.data.hands[hand - 1];
    const tr = hd && hd.tricks[trick - 1];
    return tr ? tr.plays : null;
  }

  /** Open the analysis board at a point of this game. @param {{step?: number, hand?: number, trick?: number, played?: number}} where */
  analyse(where) {
    openAnalysis(this.id, where, { trickOf: (hd, tr) => this.trickOf(hd, tr), name: (s) => this.name(s) });
  }

  /**
   * "Analyse from here": the board before the next trick's lead (after the last trick, before its lead).
   * @param {{tricks: any[]}} hd
   */
  analyseButton(hd) {
    const trick = Math.min(this.step + 1, hd.tricks.length);
    if (!trick) return null;
    const where = { hand: this.hand + 1, trick, played: 0 };
    return h("p.replay-tools", null, h("button.btn", { type: "button", id: "analyse-here", onclick: () => this.analyse(where) }, t("Analyse from here")));
  }

  /** Draw the replay again in the language just loaded, at the same hand and trick (or load it again). */
  relang() {
    if (this.data) this.render();
    else this.load();
  }

  async load() {
    this.root.replaceChildren(h("div.page", null, h("section.panel", null, h("p", null, t("Loading…")))));
    // The table's name heads the replay; a game whose table is not known any more is named by its rules.
    const info = api.getTable(this.id).catch(() => null);
    try {
      this.data = await api.getReplay(this.id);
      this.info = await info;
    } catch (e) {
      this.root.replaceChildren(h("div.page", null, h("section.panel", null, h("h2", null, t("Replay")), h("p", null, e.message))));
      return;
    }
    this.render();
    this.review.loadStored();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {Element | null} */ (e.target);
    if (!this.data || (target && target.closest("input, select, textarea"))) return;
    // A dialog over the replay (the analysis board, a profile) has the keys: the trick behind it stays put.
    if (document.querySelector("dialog[open]")) return;
    if (e.key === "ArrowRight") { this.move(1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { this.move(-1); e.preventDefault(); }
    // N and P step between the review's marked decisions (review.js), once a review is shown.
    if ((e.key === "n" || e.key === "p") && this.review.reviews.size && !e.ctrlKey && !e.metaKey && !e.altKey) {
      this.review.stepMark(e.key === "n" ? 1 : -1);
      e.preventDefault();
    }
  }

  /** @param {number} d trick steps, forward or back */
  move(d) {
    if (!this.data) return;
    const hands = this.data.hands;
    let { hand, step } = this;
    step += d;
    if (step > hands[hand].tricks.length) {
      if (hand + 1 < hands.length) { hand += 1; step = 0; } else step = hands[hand].tricks.length;
    }
    if (step < 0) {
      if (hand > 0) { hand -= 1; step = hands[hand].tricks.length; } else step = 0;
    }
    this.hand = hand;
    this.step = step;
    this.render();
    const tr = hands[hand].tricks[step - 1];
    if (tr) {
      announce(t("Trick {n}: {plays}", { n: step, plays: tr.plays.map(([s, c]) => `${this.name(s)} ${cardName(c)}`).join(", ") }));
    }
  }

  /** @param {number} s */
  name(s) {
    return playerName(this.data ? this.data.players[s] : null, s);
  }

  render() {
    if (!this.data) return;
    const d = this.data;
    const hd = d.hands[this.hand];
    const rules = d.rules;
    const n = rules.players;
    const penaltySuit = hd.result.penalty_suit;
    const shown = hd.tricks.slice(0, this.step);
    const taken = Array(n).fill(0);
    for (const tr of shown) {
      if (tr.winner === null) continue;
      for (const [, c] of tr.plays) taken[tr.winner] += cardValue(c, rules, penaltySuit);
    }
    // Cards each seat still holds after the shown tricks (dealt, minus passed, plus received).
    const holding = hd.hands.map((cards) => [...cards]);
    if (hd.passes && hd.passes.some((p) => p)) {
      const dir = hd.pass_direction;
      const shift = dir === "left" ? 1 : dir === "right" ? n - 1 : dir === "across" ? Math.floor(n / 2) : 0;
      hd.passes.forEach((cards, s) => {
        if (!cards) return;
        for (const c of cards) {
          const i = holding[s].indexOf(c);
          if (i >= 0) holding[s].splice(i, 1);
          holding[(s + shift) % n].push(c);
        }
      });
    }
    for (const tr of shown) for (const [s, c] of tr.plays) {
      const i = holding[s].indexOf(c);
      if (i >= 0) holding[s].splice(i, 1);
    }
    const controls = h("div.replay-controls", null,
      h("label", { for: "replay-hand" }, t("Hand")),
      h("select", { id: "replay-hand", onchange: (/** @type {Event} */ e) => { this.hand = Number(/** @type {HTMLSelectElement} */ (e.target).value); this.step = 0; this.render(); } },
        d.hands.map((x, i) => h("option", { value: String(i), selected: i === this.hand ? "selected" : null }, String(i + 1)))),
      h("button.btn", { type: "button", onclick: () => this.move(-1), id: "replay-prev" }, "◀ " + t("Previous")),
      h("button.btn.primary", { type: "button", onclick: () => this.move(1), id: "replay-next" }, t("Next") + " ▶"),
      h("span.muted", { "aria-live": "polite" }, this.step === 0 ? t("The deal") : t("Trick {n} of {m}", { n: this.step, m: hd.tricks.length })));
    const current = shown[shown.length - 1];
    let middle;
    if (current) {
      middle = h("div.replay-trick", { role: "group", "aria-label": t("Trick {n}", { n: this.step }) },
        current.plays.map(([s, c]) => h(s === current.winner ? "figure.win" : "figure", null, cardElement(c),
          h("figcaption", null, this.name(s) + (s === current.winner ? " ✓" : "")), this.review.badge(this.hand, this.step, s))));
    } else {
      const info = [t("Dealer: {name}", { name: this.name(hd.dealer) }), t("Pass: {dir}", { dir: directionName(hd.pass_direction) })];
      if (hd.bids && hd.bids.length) info.push(t("Bids: {bids}", { bids: hd.bids.map(([s, b]) => `${this.name(s)} ${b || "—"}`).join(", ") }));
      if (hd.declare) info.push(t("Penalty suit: {suit}", { suit: suitName(hd.declare) }));
      middle = h("p", null, info.join(" · "));
    }
    const narrow = window.innerWidth < 600;
    const passed = hd.passes && hd.passes.some((p) => p && p.length);
    const show = (/** @type {string} */ c) => (narrow ? cardChip(c) : cardElement(c));
    const seatRows = Array.from({ length: n }, (_, s) => h("tr", null,
      h("th", { scope: "row" }, this.name(s)),
      h("td.took", null, h("div.card-row", null, sortCards(holding[s]).map(show))),
      h("td", null, String(taken[s])),
      passed ? h("td.took", null, h("div.card-row", null, (hd.passes[s] || []).map((c) => cardChip(c)))) : null));
    const hands = h("table.scores.summary", null,
      h("thead", null, h("tr", null, h("th", null, t("Player")), h("th", null, t("Cards held")), h("th", null, t("Points")),
        passed ? h("th", null, t("Passed")) : null)),
      h("tbody", null, seatRows));
    const done = this.step === hd.tricks.length;
    const result = done ? h("p", null, t("Hand result: {scores}", { scores: hd.result.scores.map((x, s) => `${this.name(s)} ${x}`).join(", ") }),
      hd.result.shooter !== null ? " · " + t("{name} shot the moon!", { name: this.name(hd.result.shooter) }) : "",
      h("br"), t("Totals: {scores}", { scores: hd.result.totals.map((x, s) => `${this.name(s)} ${x}`).join(", ") })) : null;
    const fair = h("p.fair", null, t("Seed: {seed}", { seed: String(d.seed) }), h("br"), t("Commitment: {c}", { c: d.commitment || "—" }));
    keepFocus(this.root, () => this.root.replaceChildren(h("div.page", null, h("section.panel.replay-board", { "aria-label": t("Replay") },
      h("h2", null, t("Replay of {table}", { table: this.info ? tableTitle(this.info) : presetTitle(rules.name || "") })),
      h("p.muted", null, ngettext("{n} hand", "{n} hands", d.hands.length) + " · " + t("Use the arrow keys to step through the tricks.")),
      controls, middle, this.analyseButton(hd), this.review.draw(), result, h("div.table-scroll", null, hands), fair,
      h("p", null, h("a.btn", { href: `/api/games/${encodeURIComponent(this.id)}/record`, download: `corazones-${this.id}.json` }, t("Download the record")))))));
  }
}

export class StatsScreen {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.load();
  }

  destroy() {}

  async load() {
    const player = api.me();
    const panel = h("section.panel", null, h("h2", null, t("Your statistics")));
    this.root.replaceChildren(h("div.page", null, panel));
    if (!player) {
      panel.append(h("p", null, t("Play a game first: statistics belong to your name.")));
      return;
    }
    try {
      const s = await api.getStats(player.id);
      const stat = (/** @type {string} */ label, /** @type {string | number} */ value) => h("div.stat", null, h("b", null, String(value)), label);
      // Numbers written the reader's way ("1,25" and "50 %" in Spanish).
      const lang = currentLang();
      const rate = s.games ? (s.wins / s.games).toLocaleString(lang, { style: "percent" }) : "—";
      panel.append(h("p", null, s.player.name),
        h("div.stat-grid", null,
          stat(t("games"), s.games), stat(t("wins"), s.wins), stat(t("win rate"), rate), stat(t("hands"), s.hands),
          stat(t("points taken"), s.points), stat(t("points per hand"), s.points_per_hand === null ? "—"
            : s.points_per_hand.toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 })),
          stat(t("moons shot"), s.moons)));
    } catch (e) {
      panel.append(h("p", null, e.message));
    }
    try {
      const games = await api.listGames(player.id);
      panel.append(h("h3", null, t("Your last games")),
        games.length ? h("ul.game-list", null, gameItems(games.slice(0, 10))) : h("p.empty", null, t("No finished game yet.")));
    } catch (e) {
      /* the list is a bonus */
    }
    try {
      const prof = await api.request("GET", `/api/players/${player.id}/profile`);
      panel.append(h("h3", null, t("Your ratings")), profileView(prof));
    } catch (e) {
      /* ratings are a bonus too */
    }
    panel.append(h("p", null, h("a.btn", { href: "#/games" }, t("Finished games"))));
  }
}
