// @ts-check
// The end of a hand and of the game: the hand summary (who took what, points, the hand and the totals,
// in chips for chip games) and the game over box with the final standings. Views of the table screen
// (`tb`, the TableScreen of table.js): they read its state and return elements.
import { cardChip, cardElement, cardShort, cardValue, sortCards } from "./cards.js";
import { ngettext, t } from "./i18n.js";
import { ratingChange } from "./ratings.js";
import { chipTotals, signed, teamOf, wonPiles } from "./state.js";
import { h, shortScreen } from "./ui.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {import("./state.js").HandResult} HandResult */
/** @typedef {import("./state.js").TableInfo} TableInfo */
/** @typedef {import("./state.js").Trick} Trick */

/**
 * The hand summary in the middle of the felt, with Continue (a spectator's goes on by itself).
 * @param {TableScreen} tb
 */
export function summaryPanel(tb) {
  if (!tb.store.summary) return h("div");
  const { result } = tb.store.summary;
  const box = h("div.center-msg.summary", { role: "region", "aria-label": t("Hand summary"), id: "hand-summary" });
  box.append(h("h2", null, t("Hand {n} over", { n: result.index + 1 })));
  // The table scrolls inside the box; the heading and Continue always stay in view.
  const body = h("div.summary-body");
  // Cards as short text where the felt is narrow or short (a phone, held either way), or has many seats.
  const compact = tb.arena.clientWidth < 600 || tb.store.nPlayers() > 5 || shortScreen();
  body.append(tookTable(tb, result, tb.store.summary.tricks, compact));
  if (result.shooter !== null) {
    body.append(h("p", null, t("{name} shot the moon!", { name: tb.store.nameOf(result.shooter) })));
  }
  if (result.kitty && result.kitty.length) {
    body.append(h("p", null, t("Kitty: {cards} (to {name})", {
      cards: result.kitty.map(cardShort).join(" "), name: result.kitty_owner === null ? "—" : tb.store.nameOf(result.kitty_owner),
    })));
  }
  box.append(body);
  if (tb.store.seat !== null) {
    box.append(h("div.summary-foot", null,
      h("button.btn.primary", { type: "button", id: "continue-btn", onclick: () => tb.store.continueAfterSummary() }, t("Continue"))));
  } else {
    box.append(h("p.muted", null, t("The next hand follows by itself.")));
  }
  return box;
}

/** Who took what tb hand: the penalty cards each seat won, its points and its score. */
/**
 * @param {TableScreen} tb
 * @param {HandResult} result
 * @param {Trick[] | null} tricks the hand's tricks, or null: then only how many penalty cards each took
 * @param {boolean} [compact] cards as short text (narrow places)
 */
export function tookTable(tb, result, tricks, compact = false) {
  const n = tb.store.nPlayers();
  const rules = /** @type {TableInfo} */ (tb.store.table).rules;
  const chips = rules.settlement !== "points";
  const upTo = tb.store.history.findIndex((x) => x.index === result.index);
  const chipsAfter = chipTotals(rules, upTo >= 0 ? tb.store.history.slice(0, upTo + 1) : tb.store.history, n);
  const penalty = (/** @type {string} */ c) => cardValue(c, rules, result.penalty_suit) !== 0;
  const won = wonPiles(tricks || [], n, penalty, true).map((p) => p.cards);
  if (result.kitty_owner !== null && result.kitty) for (const c of result.kitty) if (penalty(c)) won[result.kitty_owner].push(c);
  const rows = [];
  for (let s = 0; s < n; s++) {
    const cards = h("div.card-row");
    for (const c of sortCards(won[s])) cards.append(compact ? cardChip(c) : cardElement(c));
    if (!tricks) cards.append(h("span.muted", null, ngettext("{n} penalty card", "{n} penalty cards", result.penalty_cards[s])));
    else if (!won[s].length) cards.append(h("span.muted", null, t("nothing")));
    // Chip games settle in chips: the hand's change of chips and the chips held after it.
    const hand = chips ? signed(result.chips_delta[s]) : signed(result.scores[s]);
    const total = chips ? String(chipsAfter[s]) : String(result.totals[s]);
    rows.push(h("tr", { dataset: { seat: String(s) } }, h("th", { scope: "row" }, tb.store.nameOf(s)), h("td.took", null, cards),
      h("td.points", null, String(result.points[s])), h("td.delta", null, hand), h("td.total", null, total)));
  }
  return h("div.table-scroll", null, h("table.scores", null,
    h("thead", null, h("tr", null, h("th", null, t("Player")), h("th", null, t("Took")), h("th", null, t("Points")),
      h("th", null, chips ? t("Chips won") : t("Hand")), h("th", null, chips ? t("Chips") : t("Total")))),
    h("tbody", null, rows)));
}

/**
 * The game over box: who won, the final standings, the revealed seed, what to do next.
 * @param {TableScreen} tb
 */
export function gameOverPanel(tb) {
  const rv = tb.store.reveal;
  const v = tb.store.view;
  const winners = (rv && rv.winners) || (v && v.winners) || [];
  const folded = tb.gameOverFolded;
  // Like the summary: the standings scroll inside the box, the heading and the actions stay in view. On a
  // phone it covers the screen: it folds to its heading and winners, and the side panel below is reached.
  const box = h(folded ? "div.center-msg.summary.folded" : "div.center-msg.summary", { role: "region", "aria-label": t("Game over"), id: "game-over" });
  const toggle = h("button.btn.small.ghost", {
    type: "button", id: "game-over-toggle", "aria-expanded": folded ? "false" : "true", "aria-controls": "game-over-body",
    onclick: () => foldGameOver(tb, !folded),
  }, folded ? t("Show the results") : t("Hide the results"));
  box.append(h("div.over-head", null, h("h2", null, t("Game over")), toggle));
  box.append(h("p.over-winners", null, tb.store.seat !== null && winners.includes(tb.store.seat)
    ? t("You win!")
    : ngettext("Winner: {names}", "Winners: {names}", winners.length, { names: winners.map((s) => tb.store.nameOf(s)).join(", ") })));
  const body = h("div.summary-body", { id: "game-over-body", hidden: folded });
  body.append(standings(tb, winners));
  box.append(body);
  if (rv) {
    body.append(ratingChange(tb.id, tb.store.seat));
    body.append(h("p", null, t("The shuffle seed is revealed: check that it matches the commitment shown at the start.")));
    // The fairness panel is in the side panel: on a phone the box folds out of its way first.
    const checkFair = () => {
      if (getComputedStyle(box).position === "fixed") foldGameOver(tb, true, false);
      tb.showTab("fair");
    };
    box.append(h("div.summary-foot", { hidden: folded }, h("a.btn.primary", { href: "#/" }, t("New game")),
      " ", h("button.btn.gold", { type: "button", id: "check-fair", onclick: checkFair }, t("Check the fair shuffle")),
      " ", h("a.btn", { href: rv.record_url, download: `corazones-${tb.id}.json` }, t("Download the record")),
      " ", h("a.btn", { href: `#/replay/${encodeURIComponent(tb.id)}` }, t("Replay")),
      " ", h("a.btn", { href: `#/replay/${encodeURIComponent(tb.id)}/review`, id: "review-link" }, t("Review this game"))));
  }
  return box;
}

/**
 * Fold the game over box to its heading and winners (or open it again), keeping the focus on its button.
 * @param {TableScreen} tb
 * @param {boolean} folded
 * @param {boolean} [focus] give the focus back to the box's button (not when it moves on elsewhere)
 */
export function foldGameOver(tb, folded, focus = true) {
  tb.gameOverFolded = folded;
  tb.render();
  const toggle = /** @type {HTMLElement | null} */ (document.getElementById("game-over-toggle"));
  if (focus && toggle) toggle.focus();
}

/**
 * The final standings: every player from first to last, with their score (or chips) and team totals.
 * @param {TableScreen} tb
 * @param {number[]} winners
 */
export function standings(tb, winners) {
  const n = tb.store.nPlayers();
  const rules = /** @type {TableInfo} */ (tb.store.table).rules;
  const chips = rules.settlement !== "points";
  const totals = chips ? chipTotals(rules, tb.store.history, n)
    : (tb.store.history.length ? tb.store.history[tb.store.history.length - 1].totals : (tb.store.view ? tb.store.view.scores : Array(n).fill(0)));
  /** @param {number} a @param {number} b how much `a` stands below `b` (winners first, then by total) */
  const below = (a, b) => (winners.includes(a) ? 0 : 1) - (winners.includes(b) ? 0 : 1)
    || (chips ? totals[b] - totals[a] : totals[a] - totals[b]);
  const seats = Array.from({ length: n }, (_, s) => s);
  const order = [...seats].sort((a, b) => below(a, b) || a - b);
  // Tied players share a place ("1, 1, 3"), as a score sheet ranks them.
  /** @param {number} s */
  const place = (s) => 1 + seats.filter((o) => below(o, s) < 0).length;
  const rows = order.map((s) => h(winners.includes(s) ? "tr.winner" : "tr", { dataset: { seat: String(s) } },
    h("td", null, String(place(s))), h("th", { scope: "row" }, tb.store.nameOf(s)),
    rules.partnership ? h("td", null, t("Team {team}", { team: teamOf(s) })) : null,
    h("td.total", null, String(totals[s]))));
  return h("div.table-scroll", null, h("table.scores.standings", { "aria-label": t("Final standings") },
    h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("Player")), rules.partnership ? h("th", null, t("Team")) : null,
      h("th", null, chips ? t("Chips") : t("Score")))),
    h("tbody", null, rows)));
}
