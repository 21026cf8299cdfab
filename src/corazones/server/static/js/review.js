// @ts-check
// Game review in the replay viewer: "Review this game" starts the server's review of one seat (or of every
// seat, one after the other: POST /api/games/{id}/review), shows its progress (GET the same path), then marks
// each reviewed decision of the replay with its label, the better choice and the reason, with a summary per
// seat and buttons that step from marked decision to marked decision (docs/review.md, docs/web.md).
import { me, request } from "./api.js";
import { cardShort, GLYPH, suitName } from "./cards.js";
import { ngettext, num, t } from "./i18n.js";
import { announce, h, keepFocus, toast } from "./ui.js";

/** @typedef {{template: string, params?: Record<string, any>}} Reason */
/** @typedef {{play?: string, pass?: string[], bid?: number, declare?: string, moon?: string}} ActionJson */
/** @typedef {{best: ActionJson, chosen_value: number, best_value: number, loss: number}} Hindsight */
/**
 * One reviewed decision, as the server stores it (players.review.Review.full_json).
 * @typedef {{hand: number, trick: number | null, seat: number, kind: string, chosen: ActionJson, best: ActionJson,
 *   loss: number, label: string | null, why: Reason[], index: number, chosen_value: number, best_value: number,
 *   chosen_points: number, best_points: number, options: number, worlds: number, hindsight: Hindsight | null}} Decision
 */
/** @typedef {{seat: number, decisions: number, mean_loss: number, total_loss: number, labels: Record<string, number>, worst: number[]}} Summary */
/**
 * @typedef {{worlds: number, pass_worlds: number, stake: number, units: string, thresholds: Record<string, number>,
 *   decisions: Decision[], summary: Summary[]}} Review
 */
/**
 * What the review route answers.
 * @typedef {{status: string, review?: Review, done?: number, total?: number | null, message?: string}} ReviewState
 */
/** @typedef {{plays: [number, string][], winner: number | null}} ReplayTrick */
/** @typedef {{tricks: ReplayTrick[]}} ReplayHand */
/**
 * What the review needs of the replay viewer: its game, its hands, names, and a way to go to a position.
 * @typedef {{id: string, data: {hands: ReplayHand[], players: string[]} | undefined, hand: number, step: number,
 *   name: (seat: number) => string, goTo: (hand: number, step: number) => void,
 *   analyse: (where: {step?: number, hand?: number, trick?: number, played?: number}) => void}} Viewer
 */

/** Sampled deals per option at each depth the page offers (the server allows at most its default, 400). */
export const DEPTHS = { quick: 40, normal: 150, thorough: 400 };
/** Milliseconds between two looks at a running review. */
const POLL = 800;
/** Milliseconds before asking again when the server is reviewing as many games as it may (429). */
const RETRY = 10000;

/** @param {string} id @param {number} seat @param {number} worlds */
export const startReview = (id, seat, worlds) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/review?seat=${seat}&worlds=${worlds}&pass_worlds=${worlds}`);
/** @param {string} id @param {number} seat */
export const readReview = (id, seat) => request("GET", `/api/games/${encodeURIComponent(id)}/review?seat=${seat}`);

/** A label as people read it ("good" when the loss is under every threshold). @param {string | null} label */
export function labelName(label) {
  switch (label) {
    case "inaccuracy": return t("inaccuracy");
    case "mistake": return t("mistake");
    case "blunder": return t("blunder");
    default: return t("good");
  }
}

/** A moon choice in words. @param {string} choice */
function moonName(choice) {
  return choice === "add_to_others" ? t("add the points to the others") : t("subtract the points from your score");
}

/** An action of a review ({"play": "QS"}, {"pass": [...]}, a bid, a suit, a moon choice) as short text. @param {ActionJson} a */
export function actionText(a) {
  if (a.play !== undefined) return cardShort(a.play);
  if (a.pass !== undefined) return a.pass.map(cardShort).join(" ");
  if (a.bid !== undefined) return a.bid ? t("bid {n}", { n: a.bid }) : t("no bid");
  if (a.declare !== undefined) return suitName(a.declare);
  if (a.moon !== undefined) return moonName(a.moon);
  return "—";
}

/**
 * Fill a reason's template: `{name}` and Python's `{name:.1f}` / `{name:+.1f}` (the review's figures).
 * @param {string} text
 * @param {Record<string, string | number>} params
 */
export function fillSpec(text, params) {
  return text.replace(/\{(\w+)(?::(\+)?\.(\d)f)?\}/g, (m, k, plus, digits) => {
    if (!(k in params)) return m;
    const v = params[k];
    if (digits === undefined || typeof v !== "number") return String(v);
    const s = num(v, Number(digits));
    return plus && v >= 0 ? "+" + s : s;
  });
}

/**
 * A review's reason in the page's language: cards as "Q♠", seats by name, suits by name.
 * @param {Reason} reason
 * @param {(seat: number) => string} name
 */
export function reasonText(reason, name) {
  /** @type {Record<string, string | number>} */
  const params = {};
  for (const [k, v] of Object.entries(reason.params || {})) {
    if (Array.isArray(v)) params[k] = v.map((c) => cardShort(String(c))).join(" ");
    else if (v && typeof v === "object" && "seat" in v) params[k] = name(Number(v.seat));
    else if (v && typeof v === "object" && "suit" in v) params[k] = GLYPH[/** @type {"C" | "D" | "S" | "H"} */ (v.suit)] || String(v.suit);
    else if (typeof v === "string" && /^(10|[2-9TJQKA])[CDSH]$/.test(v)) params[k] = cardShort(v);
    else if (v === "add_to_others" || v === "subtract_from_self") params[k] = moonName(v);
    else params[k] = typeof v === "number" ? v : String(v);
  }
  return fillSpec(t(reason.template), params);
}

/**
 * The replay step where a decision shows: a card with its trick, a pass, bid or suit at the deal (step 0),
 * the moon choice after the last trick.
 * @param {Decision} d
 * @param {ReplayHand[]} hands
 */
export function stepOf(d, hands) {
  if (d.kind === "play" && d.trick !== null) return d.trick;
  if (d.kind === "moon") return hands[d.hand - 1] ? hands[d.hand - 1].tricks.length : 0;
  return 0;
}

/** The review of one replay: the stored reviews per seat, the one running, and what the viewer shows of them. */
export class ReplayReview {
  /** @param {Viewer} viewer */
  constructor(viewer) {
    this.viewer = viewer;
    /** @type {Map<number, Review>} reviews done, by seat */
    this.reviews = new Map();
    /** @type {{seat: number, done: number, total: number | null} | null} the seat under review now */
    this.running = null;
    /** @type {number[]} seats still to review after the running one (a review of everyone) */
    this.queue = [];
    /** @type {string | null} */
    this.error = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.gone = false;
    /** Sampled deals per option of the reviews this page starts. */
    this.worlds = DEPTHS.normal;
    /** The review's box in the page, kept across renders so that progress updates in place. */
    this.box = h("section.review-box", { "aria-label": t("Game review"), id: "review-box" });
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
  }

  /** Pick up the reviews already stored (or running) for this game (GET /api/games/{id}/reviews). */
  async loadStored() {
    const data = this.viewer.data;
    if (!data) return;
    let found = [];
    try {
      found = (await request("GET", `/api/games/${encodeURIComponent(this.viewer.id)}/reviews`)).seats;
    } catch (e) {
      return; // the review box still offers to start one
    }
    if (this.gone) return;
    found.forEach((/** @type {ReviewState | null} */ state, /** @type {number} */ s) => {
      if (state && state.status === "done" && state.review) this.reviews.set(s, state.review);
      else if (state && state.status === "running" && !this.running) {
        this.running = { seat: s, done: state.done || 0, total: state.total ?? null };
        this.poll();
      }
    });
    // Come from the game-over box's "Review this game" (#/replay/ID/review): review your own seat at once.
    const mine = data.players.findIndex((_, s) => this.isMe(s));
    if (location.hash.endsWith("/review") && mine >= 0 && !this.running && !this.reviews.has(mine)) this.start(String(mine), "normal");
    else if (this.reviews.size || this.running) this.viewer.goTo(this.viewer.hand, this.viewer.step);
  }

  /** Every reviewed decision, in the order of the game. */
  decisions() {
    /** @type {Decision[]} */
    const all = [];
    for (const r of this.reviews.values()) all.push(...r.decisions);
    return all.sort((a, b) => a.index - b.index);
  }

  /** The reviewed decisions shown at a replay position. @param {number} hand @param {number} step */
  at(hand, step) {
    const data = this.viewer.data;
    if (!data) return [];
    return this.decisions().filter((d) => d.hand - 1 === hand && stepOf(d, data.hands) === step);
  }

  /** Positions ([hand, step]) that hold a marked decision (one with a label), in order. */
  markedPositions() {
    const data = this.viewer.data;
    if (!data) return [];
    /** @type {[number, number][]} */
    const out = [];
    for (const d of this.decisions()) {
      if (!d.label) continue;
      const p = /** @type {[number, number]} */ ([d.hand - 1, stepOf(d, data.hands)]);
      if (!out.some(([a, b]) => a === p[0] && b === p[1])) out.push(p);
    }
    return out.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  }

  /** Go to the next (`dir` 1) or previous (-1) position with a marked decision. @param {number} dir */
  stepMark(dir) {
    const { hand, step } = this.viewer;
    const marks = this.markedPositions();
    const here = hand * 1000 + step;
    const pick = dir > 0 ? marks.find(([a, b]) => a * 1000 + b > here) : [...marks].reverse().find(([a, b]) => a * 1000 + b < here);
    if (!pick) return;
    this.viewer.goTo(pick[0], pick[1]);
    // Keep the focus on the button pressed, or on the other one when this end has no more marks.
    const ids = dir > 0 ? ["review-next", "review-prev"] : ["review-prev", "review-next"];
    const focus = ids.map((id) => /** @type {HTMLButtonElement | null} */ (document.getElementById(id))).find((b) => b && !b.disabled);
    if (focus) focus.focus();
    const shown = this.at(pick[0], pick[1]).filter((d) => d.label);
    announce(shown.map((d) => this.itemText(d)).join(". "));
  }

  /** A decision in one line, for the screen reader. @param {Decision} d */
  itemText(d) {
    return t("{name} chose {chosen}: {label}", { name: this.viewer.name(d.seat), chosen: actionText(d.chosen), label: labelName(d.label) });
  }

  /** Start reviewing `who` ("all" or a seat number as text) at `depth` (a key of DEPTHS). @param {string} who @param {string} depth */
  start(who, depth) {
    const data = this.viewer.data;
    if (!data || this.running) return;
    const seats = who === "all" ? data.players.map((_, s) => s) : [Number(who)];
    this.queue = seats.filter((s) => !this.reviews.has(s));
    this.worlds = DEPTHS[/** @type {keyof typeof DEPTHS} */ (depth)] || DEPTHS.normal;
    this.error = null;
    if (!this.queue.length) { this.viewer.goTo(this.viewer.hand, this.viewer.step); return; }
    this.next();
  }

  /** Start the next seat of the queue. */
  async next() {
    const seat = this.queue.shift();
    if (seat === undefined) { this.running = null; this.viewer.goTo(this.viewer.hand, this.viewer.step); return; }
    this.running = { seat, done: 0, total: null };
    this.draw();
    try {
      this.take(seat, /** @type {ReviewState} */ (await startReview(this.viewer.id, seat, this.worlds)));
    } catch (e) {
      if (e.status !== 429 || this.gone) { this.fail(e.message); return; }
      // The server runs as many reviews as it may (other games'): ask again in a while, saying so.
      this.error = e.message;
      this.queue.unshift(seat);
      this.draw();
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.error = null; if (!this.gone) this.next(); }, RETRY);
    }
  }

  /** Look at the running review again in a moment. */
  poll() {
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      if (this.gone || !this.running) return;
      const seat = this.running.seat;
      try {
        this.take(seat, /** @type {ReviewState} */ (await readReview(this.viewer.id, seat)));
      } catch (e) {
        this.fail(e.message);
      }
    }, POLL);
  }

  /** What the server said of `seat`'s review. @param {number} seat @param {ReviewState} state */
  take(seat, state) {
    if (this.gone) return;
    if (state.status === "done" && state.review) {
      this.reviews.set(seat, state.review);
      announce(t("The review of {name} is ready.", { name: this.viewer.name(seat) }));
      this.next();
    } else if (state.status === "failed") {
      this.fail(state.message || "");
    } else {
      this.running = { seat, done: state.done || 0, total: state.total ?? null };
      this.draw();
      this.poll();
    }
  }

  /** @param {string} message */
  fail(message) {
    const seat = this.running ? this.running.seat : 0;
    this.running = null;
    this.queue = [];
    this.error = t("The review of {name} stopped: {error}", { name: this.viewer.name(seat), error: message });
    toast(this.error, "error");
    this.viewer.goTo(this.viewer.hand, this.viewer.step);
  }

  /** Fill the review box for the viewer's current position (the viewer puts `this.box` in its page). */
  draw() {
    const data = this.viewer.data;
    if (!data) return this.box;
    const parts = [h("h3", null, t("Game review"))];
    if (this.running) parts.push(this.progress(this.running));
    else parts.push(this.starter(data.players));
    if (this.error) parts.push(h("p.review-error", { role: "alert" }, this.error));
    if (this.reviews.size) {
      parts.push(this.nav(), this.here(), this.summaries());
    }
    // Drawn again at every look at a running review: the control in use keeps the focus, and the box its
    // name in the page's language.
    this.box.setAttribute("aria-label", t("Game review"));
    keepFocus(this.box, () => this.box.replaceChildren(...parts));
    return this.box;
  }

  /** The button that starts a review, with the seat and the depth to review at. @param {string[]} players */
  starter(players) {
    const mine = players.findIndex((_, s) => this.isMe(s));
    const left = players.map((_, s) => s).filter((s) => !this.reviews.has(s));
    if (!left.length) return h("p.muted", null, t("Every seat is reviewed."));
    const who = h("select", { id: "review-seat" },
      left.map((s) => h("option", { value: String(s), selected: s === mine ? "selected" : null }, this.viewer.name(s))),
      left.length > 1 ? h("option", { value: "all" }, t("Every seat")) : null);
    const depth = h("select", { id: "review-depth" },
      h("option", { value: "quick" }, t("Quick")),
      h("option", { value: "normal", selected: "selected" }, t("Normal")),
      h("option", { value: "thorough" }, t("Thorough (slow)")));
    return h("div.review-start", null,
      h("div.field", null, h("label", { for: "review-seat" }, t("Seat to review")), who),
      h("div.field", null, h("label", { for: "review-depth" }, t("Depth")), depth),
      h("button.btn.primary", {
        type: "button", id: "review-go",
        onclick: () => this.start(/** @type {HTMLSelectElement} */ (who).value, /** @type {HTMLSelectElement} */ (depth).value),
      }, t("Review this game")));
  }

  /** Is seat `s` the person looking (by the name they play under)? @param {number} s */
  isMe(s) {
    const player = me();
    return !!(player && this.viewer.data && this.viewer.data.players[s] === player.name);
  }

  /** @param {{seat: number, done: number, total: number | null}} run */
  progress(run) {
    const name = this.viewer.name(run.seat);
    const text = run.total === null
      ? t("Reviewing {name}…", { name })
      : t("Reviewing {name}: {done} of {total} decisions", { name, done: run.done, total: run.total });
    const bar = h("progress", { id: "review-progress", max: String(run.total || 1), "aria-label": text });
    if (run.total !== null) /** @type {HTMLProgressElement} */ (bar).value = run.done;
    return h("div.review-progress", { role: "status" }, h("p", null, text), bar,
      this.queue.length ? h("p.muted", null, t("Then: {names}", { names: this.queue.map((s) => this.viewer.name(s)).join(", ") })) : null);
  }

  /** Previous / next marked decision, and how many there are. */
  nav() {
    const marks = this.markedPositions();
    const { hand, step } = this.viewer;
    const here = hand * 1000 + step;
    const k = marks.findIndex(([a, b]) => a === hand && b === step);
    const count = k >= 0 ? t("Mark {n} of {m}", { n: k + 1, m: marks.length }) : ngettext("{m} marked decision", "{m} marked decisions", marks.length, { m: marks.length });
    return h("div.review-nav", null,
      h("button.btn", { type: "button", id: "review-prev", disabled: !marks.some(([a, b]) => a * 1000 + b < here), onclick: () => this.stepMark(-1) },
        "◀ " + t("Previous mark")),
      h("button.btn", { type: "button", id: "review-next", disabled: !marks.some(([a, b]) => a * 1000 + b > here), onclick: () => this.stepMark(1) },
        t("Next mark") + " ▶"),
      h("span.muted", { id: "review-count" }, marks.length ? count : t("No marked decision: every choice was close to the best.")),
      marks.length ? h("span.muted.small", null, t("Keys: N next mark, P previous mark.")) : null);
  }

  /** The reviewed decisions at the viewer's position, each with its label, the better choice and why. */
  here() {
    const list = this.at(this.viewer.hand, this.viewer.step);
    if (!list.length) return h("p.muted.review-here", null, t("No reviewed decision at this point."));
    return h("ul.review-here", null, list.map((d) => this.item(d)));
  }

  /** @param {Decision} d */
  item(d) {
    const review = this.reviews.get(d.seat);
    const unit = review && review.units === "chips" ? "chips" : "points";
    const cost = unit === "chips" ? t("cost {loss} chips", { loss: num(d.loss, 2) }) : t("cost {loss} points", { loss: num(d.loss, 2) });
    const kind = d.label || "good";
    const why = d.why.map((r) => reasonText(r, (s) => this.viewer.name(s))).join("; ");
    const canAnalyse = d.kind === "play";
    return h(`li.review-item.mark-${kind}`, { dataset: { index: String(d.index), seat: String(d.seat) } },
      h("p", null, h("span.review-label", null, labelName(d.label)), " ",
        h("strong", null, t("{name} chose {chosen}", { name: this.viewer.name(d.seat), chosen: actionText(d.chosen) })),
        d.label ? h("span.muted", null, " · " + cost) : null),
      d.label ? h("p", null, t("Better: {best}", { best: actionText(d.best) })) : null,
      why ? h("p.review-why", null, why) : null,
      d.hindsight && d.hindsight.loss > 0
        ? h("p.muted.hindsight", null, t("Hindsight, every card face up: {best} was best (not part of the score)", { best: actionText(d.hindsight.best) }))
        : null,
      canAnalyse ? h("button.btn.small", { type: "button", onclick: () => this.viewer.analyse({ step: d.index }) }, t("Analyse this decision")) : null);
  }

  /**
   * One row per reviewed seat (decisions, mean and total loss, the count of each label), then each seat's
   * worst moments as buttons that go to them (a list under the table, so a phone need not scroll sideways).
   */
  summaries() {
    const rows = [];
    const worstLines = [];
    const byIndex = new Map(this.decisions().map((d) => [d.index, d]));
    const data = this.viewer.data;
    for (const [seat, review] of [...this.reviews.entries()].sort((a, b) => a[0] - b[0])) {
      for (const s of review.summary) {
        const n = (/** @type {string} */ l) => s.labels[l] || 0;
        const marks = [
          ngettext("{n} inaccuracy", "{n} inaccuracies", n("inaccuracy")),
          ngettext("{n} mistake", "{n} mistakes", n("mistake")),
          ngettext("{n} blunder", "{n} blunders", n("blunder")),
        ].join(" · ");
        const worst = s.worst.map((i) => byIndex.get(i)).filter((d) => d !== undefined).map((d, k) => {
          const dd = /** @type {Decision} */ (d);
          const where = dd.trick !== null ? t("hand {hand}, trick {trick}", { hand: dd.hand, trick: dd.trick }) : t("hand {hand}", { hand: dd.hand });
          return h("button.btn.small.ghost.worst", {
            type: "button", id: `worst-${seat}-${k}`,
            onclick: () => { if (data) this.viewer.goTo(dd.hand - 1, stepOf(dd, data.hands)); },
          }, `${where}: ${actionText(dd.chosen)} (${num(-dd.loss, 1)})`);
        });
        rows.push(h("tr", { dataset: { seat: String(seat) } }, h("th", { scope: "row" }, this.viewer.name(s.seat)),
          h("td", null, String(s.decisions)), h("td", null, num(s.mean_loss, 2)), h("td", null, num(s.total_loss, 1)),
          h("td.review-marks", null, marks)));
        if (worst.length) {
          worstLines.push(h("div.worst-line", { dataset: { seat: String(seat) } },
            h("span", null, t("Worst moments of {name}:", { name: this.viewer.name(s.seat) })), " ", worst));
        }
      }
    }
    const first = [...this.reviews.values()][0];
    const unit = first && first.units === "chips" ? t("Losses are in chips.") : t("Losses are in points.");
    return h("div.review-summary-box", null,
      h("div.table-scroll", null, h("table.scores.review-summary", { "aria-label": t("Review summary") },
        h("thead", null, h("tr", null, h("th", null, t("Player")), h("th", null, t("Decisions")), h("th", null, t("Mean loss")),
          h("th", null, t("Total loss")), h("th", null, t("Marks")))),
        h("tbody", null, rows))),
      worstLines,
      h("p.muted.small", null, unit + " " + t("{worlds} sampled deals per choice.", { worlds: first ? first.worlds : 0 })));
  }

  /** The label badge of seat `seat`'s card in the trick shown (null: none). @param {number} hand @param {number} step @param {number} seat */
  badge(hand, step, seat) {
    const d = this.at(hand, step).find((x) => x.seat === seat && x.kind === "play");
    if (!d) return null;
    return h(`span.mark-badge.mark-${d.label || "good"}`, { title: labelName(d.label) }, labelName(d.label));
  }
}
