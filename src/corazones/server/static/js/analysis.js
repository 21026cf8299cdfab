// @ts-check
// The analysis board: every legal card of the seat to act with its expected points, from a replay position
// ("Analyse from here", POST /api/games/{id}/analysis) or from a position typed in (POST /api/analysis).
// The server values the cards with the expert's search in its worker pool (players.analysis, docs/review.md).
import * as api from "./api.js";
import { cardChip, cardName, parseCard, RANKS, sortCards, SUITS } from "./cards.js";
import { explain, num, t } from "./i18n.js";
import { presetTitle } from "./options.js";
import { playerName } from "./names.js";
import { announce, h, openDialog } from "./ui.js";

/** @typedef {{card: string, value: number, points: number, loss: number}} CardValue */
/** @typedef {{seat: number, open_hands: boolean, worlds: number, cards: CardValue[]}} Analysis */
/**
 * What the analysis routes answer (server/routes/analysis.py).
 * @typedef {{seat: number, hand: number, trick: number, played: number, step: number | null, game: string | null,
 *   cards_held: string[], trick_cards: [number, string][], scores: number[], points_taken: number[],
 *   chosen: string | null, players: string[], rules: {name?: string, settlement?: string}, analysis: Analysis}} Board
 */
/** Where on a replay: the record's action number, or the hand and trick (from 1) and the cards already in it. */
/** @typedef {{step?: number, hand?: number, trick?: number, played?: number}} ReplayPoint */
/**
 * What the board may know of the replay it was opened from: the full trick at hand `hand`, trick `trick`
 * (so that it can step within it) and the names of the seats.
 * @typedef {{trickOf?: (hand: number, trick: number) => [number, string][] | null, name?: (seat: number) => string}} Context
 */

/** @param {string} id @param {ReplayPoint} where @param {boolean} open */
function replayBoard(id, where, open) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(where)) if (v !== undefined) q.set(k, String(v));
  if (open) q.set("open_hands", "true");
  return request(`/api/games/${encodeURIComponent(id)}/analysis?${q}`, undefined);
}

/** @param {string} path @param {any} body @returns {Promise<Board>} */
async function request(path, body) {
  return /** @type {Board} */ (await api.request("POST", path, body));
}

/** The board of a replay position in a dialog; the dialog can move within the trick and turn the cards face up.
 * @param {string} id @param {ReplayPoint} where @param {Context} [ctx] */
export function openAnalysis(id, where, ctx = {}) {
  const body = h("div.analysis", { id: "analysis-board", "aria-live": "polite" });
  let point = where;
  let open = false;
  const load = async () => {
    body.replaceChildren(h("p", { role: "status" }, t("Analysing: the expert plays each card out on many deals…")));
    try {
      const board = await replayBoard(id, point, open);
      const name = ctx.name || ((/** @type {number} */ s) => playerName(board.players[s], s));
      point = { hand: board.hand, trick: board.trick, played: board.played };
      const full = ctx.trickOf ? ctx.trickOf(board.hand, board.trick) : null;
      body.replaceChildren(boardView(board, name, {
        steps: full ? full.map(([s, c], k) => ({ label: k === 0 ? t("Lead") : cardShortOf(full[k - 1][1]), seat: s, card: c, played: k })) : [],
        onStep: (k) => { point = { hand: board.hand, trick: board.trick, played: k }; load(); },
        open,
        onOpen: (v) => { open = v; load(); },
      }));
      const best = board.analysis.cards[0];
      if (best) announce(t("Best: {card}, about {points} points", { card: cardName(best.card), points: num(best.points, 1) }));
    } catch (e) {
      body.replaceChildren(h("p.review-error", { role: "alert" }, e.message));
    }
  };
  load();
  return openDialog((close) => h("div.analysis-dialog", null,
    h("div.dialog-head", null, h("h2", null, t("Analysis board")),
      h("button.btn.small", { type: "button", id: "analysis-close", onclick: () => close(null) }, t("Close"))),
    body), { label: t("Analysis board") });
}

/** @param {string} card */
function cardShortOf(card) {
  const c = parseCard(card);
  return c.rank + ({ C: "♣", D: "♦", S: "♠", H: "♥" })[/** @type {"C" | "D" | "S" | "H"} */ (c.suit)];
}

/**
 * A card's loss as a bar, 60 px for the worst card; its width set through the style property, not a `style`
 * attribute, which the server's Content-Security-Policy (no inline style) would refuse.
 * @param {number} loss
 * @param {number} worst
 */
function lossBar(loss, worst) {
  const bar = h("span.loss-bar", { "aria-hidden": "true" });
  bar.style.width = `${Math.round((60 * loss) / worst)}px`;
  return bar;
}

/**
 * The board: who is to play, the trick so far, the cards held, and each legal card's figures, best first.
 * @param {Board} board
 * @param {(seat: number) => string} name
 * @param {{steps: {label: string, seat: number, card: string, played: number}[], onStep: (k: number) => void,
 *   open: boolean, onOpen: (v: boolean) => void} | null} nav
 */
export function boardView(board, name, nav) {
  const a = board.analysis;
  const chips = board.rules && board.rules.settlement && board.rules.settlement !== "points";
  const worst = Math.max(0.01, ...a.cards.map((c) => c.loss));
  const rows = a.cards.map((c, i) => h(i === 0 ? "tr.best" : "tr", { dataset: { card: c.card } },
    h("th", { scope: "row" }, cardChip(c.card), c.card === board.chosen ? h("span.tag.played", null, t("played")) : null),
    h("td", null, num(c.points, 2)),
    h("td", null, num(c.value, 2)),
    h("td.loss", null, lossBar(c.loss, worst), c.loss ? num(-c.loss, 2) : t("best"))));
  const trick = board.trick_cards.length
    ? h("p", null, t("Trick so far:") + " ", board.trick_cards.map(([s, c]) => h("span.trick-play", null, name(s) + " ", cardChip(c), " ")))
    : h("p", null, t("{name} leads.", { name: name(board.seat) }));
  const scores = board.scores.map((x, s) => `${name(s)} ${x}${board.points_taken[s] ? ` (+${board.points_taken[s]})` : ""}`).join(", ");
  const note = a.open_hands
    ? t("Hindsight: each card played out once with every card face up. What was best had you known; no player could know it.")
    : t("{name} to play: each card played out on {worlds} deals that fit what {name} had seen, never the hidden hands.", { name: name(a.seat), worlds: a.worlds });
  const parts = [
    h("p", null, h("strong", null, t("{name} to play", { name: name(board.seat) })), " · ",
      t("hand {hand}, trick {trick}", { hand: board.hand, trick: board.trick })),
    trick,
    h("p", null, t("Cards held:") + " ", h("span.card-row.inline", null, sortCards(board.cards_held).map((c) => cardChip(c)))),
    h("div.table-scroll", null, h("table.scores.analysis-cards", { "aria-label": t("Each card's expected points") },
      h("thead", null, h("tr", null, h("th", null, t("Card")),
        h("th", null, chips ? t("Chips lost (expected)") : t("Points taken (expected)")),
        h("th", null, t("Value for the game")), h("th", null, t("Loss")))),
      h("tbody", null, rows))),
    h("p.muted.small", null, note),
    h("p.muted.small", null, t("Scores before this hand (points this hand): {scores}", { scores })),
  ];
  if (nav) {
    const steps = nav.steps.length > 1 ? h("div.analysis-steps", { role: "group", "aria-label": t("Before which card of the trick") },
      h("span.muted", null, t("Before the card of:") + " "),
      nav.steps.map((st) => h(st.played === board.played ? "button.btn.small.primary" : "button.btn.small", {
        type: "button", "aria-pressed": st.played === board.played ? "true" : "false", dataset: { played: String(st.played) },
        onclick: () => nav.onStep(st.played),
      }, name(st.seat)))) : null;
    const openBox = h("input", { type: "checkbox", id: "analysis-open", checked: nav.open, onchange: (/** @type {Event} */ e) => nav.onOpen(/** @type {HTMLInputElement} */ (e.target).checked) });
    parts.push(h("div.analysis-tools", null, steps,
      h("label.check", null, openBox, t("Every card face up (hindsight)"))));
  }
  return h("div", null, ...parts);
}

// ---------------------------------------------------------------- a typed position

/** Every card of a 52-card deck, as the server writes them. */
function deck() {
  return SUITS.flatMap((s) => RANKS.map((r) => r + s));
}

/** Cards typed as "QS 10h 2c" (or with ♠♥♦♣): the server checks them; here only spelling is normalised. @param {string} text */
export function readCards(text) {
  const glyph = /** @type {Record<string, string>} */ ({ "♣": "C", "♦": "D", "♠": "S", "♥": "H" });
  return text.split(/[\s,]+/).filter(Boolean).map((w) => {
    const up = w.toUpperCase().replace(/[♣♦♠♥]/g, (g) => glyph[g]);
    return up.startsWith("T") ? "10" + up.slice(1) : up;
  });
}

/**
 * A dialog to type a position in (the hands as dealt, who led, the cards played so far in order, the scores),
 * then its board. Hands left empty are dealt at random from the cards no field names, keeping the cards each
 * seat is seen to play and the suits it is seen to lack: the analysis reads only what the seat to act could
 * know, so knowing your own hand is enough. Every hand typed in is kept (for study with every card known).
 */
export function openTypedAnalysis() {
  const players = 4;
  const hands = Array.from({ length: players }, (_, s) => h("input", { type: "text", id: `typed-hand-${s}`, autocomplete: "off", spellcheck: "false" }));
  const leader = h("select", { id: "typed-leader" }, Array.from({ length: players }, (_, s) => h("option", { value: String(s) }, t("Seat {n}", { n: s + 1 }))));
  const plays = h("input", { type: "text", id: "typed-plays", autocomplete: "off", spellcheck: "false" });
  const scores = h("input", { type: "text", id: "typed-scores", value: "0 0 0 0", inputmode: "numeric" });
  const out = h("div.analysis", { id: "analysis-board", "aria-live": "polite" });
  const go = async () => {
    const typed = hands.map((el) => readCards(/** @type {HTMLInputElement} */ (el).value));
    const played = readCards(/** @type {HTMLInputElement} */ (plays).value);
    const first = Number(/** @type {HTMLSelectElement} */ (leader).value);
    const standing = /** @type {HTMLInputElement} */ (scores).value.split(/[\s,]+/).filter(Boolean).map(Number);
    const problem = typedProblem(typed, played, standing);
    if (problem) {
      out.replaceChildren(h("p.review-error", { role: "alert" }, problem));
      return;
    }
    const { full, actions } = fillHands(typed, played, first);
    const position = { rules: "standard", hands: full, pass_direction: "hold", scores: standing.length ? standing : null };
    out.replaceChildren(h("p", { role: "status" }, t("Analysing: the expert plays each card out on many deals…")));
    try {
      const board = await request("/api/analysis", { position, actions });
      out.replaceChildren(boardView(board, (s) => t("Seat {n}", { n: s + 1 }), null));
    } catch (e) {
      // The server numbers seats and actions from 0; this form shows "Seat 1" to "Seat 4" and the cards in order.
      out.replaceChildren(h("p.review-error", { role: "alert" }, e.reason ? explain(countedFromOne(e.reason)) : e.message));
    }
  };
  return openDialog((close) => h("div.analysis-dialog", null,
    h("div.dialog-head", null, h("h2", null, t("Analysis board")),
      h("button.btn.small", { type: "button", id: "analysis-close", onclick: () => close(null) }, t("Close"))),
    h("form", { id: "typed-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); go(); } },
      h("p.muted.small", null, t("{preset}, no passing. Type the hands as dealt (\"QS 10H 2C\"); a hand left empty is dealt at random from the cards left, which is enough when you know only your own.", { preset: presetTitle("standard") })),
      h("div.typed-hands", null, hands.map((el, s) => h("div.field", null, h("label", { for: `typed-hand-${s}` }, t("Seat {n}", { n: s + 1 })), el))),
      h("div.row", null,
        h("div.field", null, h("label", { for: "typed-leader" }, t("First lead (the 2♣) by")), leader),
        h("div.field", null, h("label", { for: "typed-scores" }, t("Scores before this hand")), scores)),
      h("div.field", null, h("label", { for: "typed-plays" }, t("Cards played so far, in order")), plays),
      h("button.btn.primary", { type: "submit", id: "typed-go" }, t("Analyse"))),
    out), { label: t("Analysis board") });
}

/** A card as the server writes it ("QS", "10H"), after readCards. @param {string} word */
const isCard = (word) => /^(10|[2-9JQKA])[CDSH]$/.test(word);

/**
 * What the typed form cannot send, in words that name its own fields (null: nothing): a word that is not a
 * card, and scores that are not one whole number per seat. Left to the server, a card misspelled among the
 * plays would be blamed on the hand the form deals it to, and a score that is not a number would read "None".
 * @param {string[][]} typed @param {string[]} played @param {number[]} standing
 */
export function typedProblem(typed, played, standing) {
  const fields = [...typed.map((cards, s) => /** @type {[string, string[]]} */ ([t("Seat {n}", { n: s + 1 }), cards])),
    /** @type {[string, string[]]} */ ([t("Cards played so far, in order"), played])];
  for (const [field, words] of fields) {
    const bad = words.find((w) => !isCard(w));
    if (bad !== undefined) {
      return t("{field}: {word} is not a card; write the rank then the suit, as QS, 10H or Q♠", { field, word: JSON.stringify(bad) });
    }
  }
  if (standing.length && (standing.length !== typed.length || !standing.every(Number.isSafeInteger))) {
    return t("Scores before this hand: type {n} whole numbers, one per seat, or leave it empty", { n: typed.length });
  }
  return null;
}

/**
 * A refusal of the server with its seats counted from 1 and its actions (the cards played, in order) too, as
 * the typed form counts them: a `seat` sent as a number (an index) in any part of it, and the `number` of an
 * "action N". A seat sent as text is already counted from 1 (the engine's `Seats`), and shown as it is.
 * @param {any} reason {template, params}, its params possibly refusals themselves
 * @returns {any}
 */
export function countedFromOne(reason) {
  if (!reason || typeof reason !== "object" || !reason.template) return reason;
  const action = String(reason.template).startsWith("action {number}");
  /** @type {Record<string, any>} */
  const params = {};
  for (const [k, v] of Object.entries(reason.params || {})) {
    if (k === "seat" && Number.isInteger(v)) params[k] = v + 1;
    else if (k === "number" && action && Number.isInteger(v)) params[k] = v + 1;
    else params[k] = countedFromOne(v);
  }
  return { ...reason, params };
}

/** Rank of a card within its suit (2 lowest, ace highest). @param {string} c */
const rankOf = (c) => parseCard(c).r;

/**
 * The hands to send and the plays as actions: each play is made by the seat whose turn it is (from the first
 * leader, each trick then led by its winner, standard rules); a hand left empty gets the cards it is seen to
 * play, and the rest at random, never of a suit it was seen not to follow. A typed hand is sent as typed (the
 * server says which card does not fit).
 * @param {string[][]} typed @param {string[]} plays @param {number} first
 */
export function fillHands(typed, plays, first) {
  const n = typed.length;
  const size = 52 / n;
  /** @type {string[][]} */
  const seen = typed.map(() => []);
  /** @type {Set<string>[]} */
  const voids = typed.map(() => new Set());
  const actions = [];
  let lead = first;
  /** @type {[number, string][]} */
  let trick = [];
  for (const c of plays) {
    const seat = (lead + trick.length) % n;
    actions.push({ seat, play: c });
    if (!typed[seat].length) seen[seat].push(c);
    if (trick.length && parseCard(c).suit !== parseCard(trick[0][1]).suit) voids[seat].add(parseCard(trick[0][1]).suit);
    trick.push([seat, c]);
    if (trick.length === n) {
      const suit = parseCard(trick[0][1]).suit;
      lead = trick.filter(([, x]) => parseCard(x).suit === suit).reduce((a, b) => (rankOf(b[1]) > rankOf(a[1]) ? b : a))[0];
      trick = [];
    }
  }
  const named = new Set([...typed.flat(), ...seen.flat()]);
  const rest = deck().filter((c) => !named.has(c));
  for (let attempt = 0; attempt < 50; attempt++) {
    const pool = [...rest];
    for (let i = pool.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [pool[i], pool[j]] = [pool[j], pool[i]]; }
    const full = typed.map((cards, s) => (cards.length ? cards : [...seen[s]]));
    let ok = true;
    // The seats with the most suits ruled out choose first, so a card of a suit few may hold finds one.
    for (const c of pool) {
      const open = full.map((_, s) => s).filter((s) => !typed[s].length && full[s].length < size && !voids[s].has(parseCard(c).suit));
      if (!open.length) { if (full.some((hd, s) => !typed[s].length && hd.length < size)) ok = false; continue; }
      open.sort((a, b) => voids[b].size - voids[a].size || full[a].length - full[b].length);
      full[open[0]].push(c);
    }
    if (ok || attempt === 49) return { full, actions };
  }
  return { full: typed, actions };
}
