// @ts-check
// Ratings in the browser (services/ratings.py, docs/review.md): the change a finished game made to your rating
// (the game-over box), a leaderboard per rule family (the lobby), and a player's profile with the rating
// history drawn as a small inline SVG chart.
import * as api from "./api.js";
import { ngettext, num, t } from "./i18n.js";
import { presetTitle } from "./options.js";
import { h, openDialog } from "./ui.js";

/** @typedef {{seat: number, player: number, family: string, before: number, after: number, change: number, mu: number, sigma: number}} Change */
/** @typedef {{rank: number, player: number, name: string, rating: number, mu: number, sigma: number, games: number}} Row */
/** @typedef {{game: string, family: string, finished: string, rating: number, change: number}} HistoryPoint */
/**
 * @typedef {{player: {id: number, name: string, kind: string}, ratings: {family: string, rating: number, mu: number,
 *   sigma: number, games: number}[], history: HistoryPoint[], games: number, wins: number, moons: number,
 *   reviewed_games: number, mean_review_loss: number | null}} Profile
 */

/** Rating families in the order the server lists them (GET /api/ratings), with the presets in each. */
const FAMILIES = ["standard", "black_maria", "omnibus", "partnership", "chips", "plain", "cancellation", "four_jacks", "chasse_coeur", "other"];

/** A family's name for people: the preset it is named after, or what it groups. @param {string} family */
export function familyTitle(family) {
  switch (family) {
    case "standard": return t("Standard Hearts and alike");
    case "chips": return t("Chip games");
    case "plain": return presetTitle("arnold_2011");
    case "cancellation": return presetTitle("cancellation_hearts");
    case "other": return t("Other games");
    default: return presetTitle(family);
  }
}

/** A signed figure written as `num` writes the others ("+1.25", "-0.40", "±0.00"). @param {number} x */
function signedFixed(x) {
  return x > 0 ? "+" + num(x, 2) : x < 0 ? num(x, 2) : "±" + num(0, 2);
}

/** @type {Map<string, Promise<Change[]>>} the changes of each finished game, asked once per page */
const asked = new Map();

/** @param {string} id */
function changesOf(id) {
  let p = asked.get(id);
  if (!p) {
    p = api.request("GET", `/api/games/${encodeURIComponent(id)}/ratings`).then((r) => /** @type {Change[]} */ (r.changes), () => []);
    asked.set(id, p);
  }
  return p;
}

/**
 * A line for the game-over box: the rating change of `seat` in the game `id` ("Your rating (Standard Hearts):
 * 3.10 → 5.42 (+2.32)"), filled in when the server answers; empty when the game was not rated for that seat.
 * @param {string} id @param {number | null} seat
 */
export function ratingChange(id, seat) {
  const line = h("p.rating-change", { id: "rating-change", hidden: true });
  if (seat === null) return line;
  changesOf(id).then((changes) => {
    const c = changes.find((x) => x.seat === seat);
    if (!c) return;
    const tone = c.change > 0 ? "up" : c.change < 0 ? "down" : "same";
    line.replaceChildren(
      t("Your rating ({family}): {before} → {after}", { family: familyTitle(c.family), before: num(c.before, 2), after: num(c.after, 2) }), " ",
      h(`strong.rating-delta.${tone}`, null, `(${signedFixed(c.change)})`), " ",
      h("button.btn.small.ghost", { type: "button", onclick: () => openProfile(c.player) }, t("Profile")));
    line.hidden = false;
  });
  return line;
}

/** The leaderboard of one family at a time, for the lobby: rank, name (opens the profile), rating, games. */
export function leaderboardPanel() {
  const panel = h("section.panel.leaderboard", { "aria-labelledby": "ratings-h", id: "leaderboard" });
  const body = h("div");
  const sel = h("select", { id: "rating-family", onchange: () => show(/** @type {HTMLSelectElement} */ (sel).value) },
    FAMILIES.map((f) => h("option", { value: f }, familyTitle(f))));
  const show = async (/** @type {string} */ family) => {
    body.replaceChildren(h("p.muted", null, t("Loading…")));
    try {
      const board = await api.request("GET", `/api/ratings/${encodeURIComponent(family)}?limit=20`);
      const rows = /** @type {Row[]} */ (board.players);
      const me = api.me();
      body.replaceChildren(rows.length
        ? h("div.table-scroll", null, h("table.list.ratings", null,
          h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("Player")), h("th", null, t("Rating")), h("th", null, t("Games")))),
          h("tbody", null, rows.map((r) => h(me && me.id === r.player ? "tr.me" : "tr", { dataset: { player: String(r.player) } },
            h("td", null, String(r.rank)),
            h("td", null, h("button.link", { type: "button", onclick: () => openProfile(r.player) }, r.name)),
            h("td", null, num(r.rating, 2)), h("td", null, String(r.games)))))))
        : h("p.empty", null, t("Nobody is rated in this family yet.")));
    } catch (e) {
      body.replaceChildren(h("p", null, e.message));
    }
  };
  panel.append(h("h2", { id: "ratings-h" }, t("Ratings")),
    h("div.field", null, h("label", { for: "rating-family" }, t("Rule family")), sel),
    body,
    h("p.muted.small", null, t("A rating is what the player is very likely worth at least (mu − 3 sigma); everyone starts at 0. Games against bots count: each bot level has a fixed rating.")));
  show(FAMILIES[0]);
  return panel;
}

/**
 * The rating history as a small inline SVG chart: one line per family, the latest rating labelled.
 * @param {HistoryPoint[]} history
 */
export function historyChart(history) {
  const NS = "http://www.w3.org/2000/svg";
  const W = 320;
  const H = 120;
  const pad = 24;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  const last = history[history.length - 1];
  svg.setAttribute("aria-label", last
    ? ngettext("Rating history: {n} rated game, now {rating}", "Rating history: {n} rated games, now {rating}", history.length, { rating: num(last.rating, 2) })
    : t("No rated game yet"));
  if (!history.length) return svg;
  // Slot 0 holds each family's rating before its first rated game; event i sits at slot i + 1.
  const values = history.map((p) => p.rating).concat(history.map((p) => p.rating - p.change), [0]);
  const lo = Math.min(...values);
  const hi = Math.max(...values, lo + 1);
  const x = (/** @type {number} */ i) => pad + (i * (W - 2 * pad)) / history.length;
  const y = (/** @type {number} */ v) => H - pad / 2 - ((v - lo) * (H - pad)) / (hi - lo);
  /** @param {string} tag @param {Record<string, string | number>} attrs */
  const el = (tag, attrs) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    svg.append(e);
    return e;
  };
  el("line", { x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "zero" });
  const families = [...new Set(history.map((p) => p.family))];
  families.forEach((f, k) => {
    /** @type {[number, number][]} */
    const pts = [];
    history.forEach((p, i) => {
      if (p.family !== f) return;
      if (!pts.length) pts.push([x(i), y(p.rating - p.change)]);
      pts.push([x(i + 1), y(p.rating)]);
    });
    el("polyline", { points: pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "), class: `line f${k % 4}` });
    for (const [cx, cy] of pts.slice(1)) el("circle", { cx: cx.toFixed(1), cy: cy.toFixed(1), r: 2.5, class: `dot f${k % 4}` });
  });
  const label = el("text", { x: x(history.length), y: Math.max(10, y(last.rating) - 6), "text-anchor": "end", class: "label" });
  label.textContent = num(last.rating, 1);
  const zero = el("text", { x: 2, y: y(0) + 4, class: "axis" });
  zero.textContent = "0";
  return svg;
}

/** A player's profile: ratings per family, the history chart, games, wins, moons and mean review loss. @param {Profile} p */
export function profileView(p) {
  /** @param {string} label @param {string | number} value */
  const stat = (label, value) => h("div.stat", null, h("b", null, String(value)), label);
  const families = [...new Set(p.history.map((x) => x.family))];
  return h("div.profile", { id: "profile" },
    h("div.stat-grid", null,
      stat(t("games"), p.games), stat(t("wins"), p.wins), stat(t("moons shot"), p.moons),
      stat(t("mean review loss"), p.mean_review_loss === null ? "—" : num(p.mean_review_loss, 2)),
      stat(t("games reviewed"), p.reviewed_games)),
    p.ratings.length
      ? h("div.table-scroll", null, h("table.list.ratings", null,
        h("thead", null, h("tr", null, h("th", null, t("Rule family")), h("th", null, t("Rating")), h("th", null, t("Games")))),
        h("tbody", null, p.ratings.map((r) => h("tr", null, h("td", null, familyTitle(r.family)), h("td", null, num(r.rating, 2)),
          h("td", null, String(r.games)))))))
      : h("p.empty", null, t("No rated game yet")),
    p.history.length ? h("figure.chart", null, historyChart(p.history),
      h("figcaption.muted.small", null, families.map((f, k) => h(`span.legend.f${k % 4}`, null, familyTitle(f))))) : null);
}

/** Open a player's profile in a dialog. @param {number} player */
export function openProfile(player) {
  const body = h("div", null, h("p", null, t("Loading…")));
  api.request("GET", `/api/players/${player}/profile`).then((p) => {
    const prof = /** @type {Profile} */ (p);
    body.replaceChildren(h("h3", null, prof.player.name), profileView(prof));
  }, (e) => body.replaceChildren(h("p", null, e.message)));
  return openDialog((close) => h("div.profile-dialog", null,
    h("div.dialog-head", null, h("h2", null, t("Player profile")),
      h("button.btn.small", { type: "button", id: "profile-close", onclick: () => close(null) }, t("Close"))),
    body), { label: t("Player profile") });
}
