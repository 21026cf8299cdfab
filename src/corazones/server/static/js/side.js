// @ts-check
// The side panel: its tabs, the score sheet, the chat, the log and the fairness panel (the commitment,
// the revealed seed checked in the browser). Views of the table screen (`tb`, the TableScreen of table.js).
import { ngettext, t } from "./i18n.js";
import { tookTable } from "./results.js";
import { chipTotals, signed, teamOf } from "./state.js";
import { copyText, h } from "./ui.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */

/**
 * The tabs and the open one, drawn again in place: a chat message being typed and its focus stay.
 * @param {TableScreen} tb
 */
export function renderSide(tb) {
  if (!tb.store.table) return;
  const tabs = [
    ["scores", t("Scores")],
    ["chat", tb.unread ? t("Chat ({n})", { n: tb.unread }) : t("Chat")],
    ["log", t("Log")],
    ["fair", t("Fairness")],
  ];
  const bar = h("div.tabs", { role: "tablist" }, tabs.map(([k, label]) => h("button", {
    type: "button", role: "tab", "aria-selected": tb.tab === k ? "true" : "false", id: `tab-${k}`,
    onclick: () => tb.showTab(k),
  }, label)));
  let body;
  if (tb.tab === "chat") body = chatPanel(tb);
  else if (tb.tab === "log") body = h("ol.log", null, tb.store.log.slice(-200).map((l) => h("li", null, l)));
  else if (tb.tab === "fair") body = fairPanel(tb);
  else body = scoreSheet(tb);
  const panel = h("div.tab-panel", { role: "tabpanel", tabindex: "-1", id: "tab-panel", "aria-labelledby": `tab-${tb.tab}` }, body);
  const keepInput = /** @type {HTMLInputElement | null} */ (tb.side.querySelector("#chat-input"));
  const draft = keepInput ? keepInput.value : "";
  const focused = keepInput && document.activeElement === keepInput;
  // A tab, the panel or a Copy button with the focus keeps it (a chat line arrives, a card is played).
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusedId = active && active !== keepInput && tb.side.contains(active) ? active.id : "";
  tb.side.replaceChildren(bar, panel);
  const refocus = focusedId ? document.getElementById(focusedId) : null;
  if (refocus) refocus.focus({ preventScroll: true });
  if (tb.tab === "log") panel.scrollTop = panel.scrollHeight;
  const input = /** @type {HTMLInputElement | null} */ (tb.side.querySelector("#chat-input"));
  if (input) {
    input.value = draft;
    if (focused) input.focus();
    const list = /** @type {HTMLElement} */ (tb.side.querySelector(".chat-msgs"));
    list.scrollTop = list.scrollHeight;
  }
}

/**
 * The score sheet: a row per hand, a column per player, the totals (the leader, or the leading team,
 * marked), the rules' end, and who took what in the last hand.
 * @param {TableScreen} tb
 */
export function scoreSheet(tb) {
  const n = tb.store.nPlayers();
  const r = /** @type {import("./state.js").TableInfo} */ (tb.store.table).rules;
  const chips = r.settlement !== "points";
  const head = h("tr", null, h("th", { scope: "col" }, t("Hand")),
    Array.from({ length: n }, (_, s) => h("th", { scope: "col" }, tb.store.nameOf(s))));
  const rows = tb.store.history.map((res) => h("tr", null, h("td", null, String(res.index + 1)),
    Array.from({ length: n }, (_, s) => {
      const moon = res.shooter === s;
      const txt = chips ? signed(res.chips_delta[s]) : String(res.scores[s]);
      return h(moon ? "td.moon" : "td", { title: moon ? t("shot the moon") : null }, txt + (moon ? " ☾" : ""));
    })));
  const lastTotals = tb.store.history.length ? tb.store.history[tb.store.history.length - 1].totals : null;
  /** @type {number[]} */
  const totals = chips ? chipTotals(r, tb.store.history, n)
    : lastTotals || (tb.store.view ? tb.store.view.scores : Array(n).fill(0));
  // Partners score together: the leading team is marked, not its better player.
  const teamSum = (/** @type {string} */ team) => totals.reduce((acc, x, s) => acc + (teamOf(s) === team ? x : 0), 0);
  const value = (/** @type {number} */ s) => (r.partnership ? teamSum(teamOf(s)) : totals[s]);
  const values = Array.from({ length: n }, (_, s) => value(s));
  const best = chips ? Math.max(...values) : Math.min(...values);
  const foot = h("tr", null, h("td", null, chips ? t("Chips") : t("Total")),
    totals.map((x, s) => h(values[s] === best && tb.store.history.length ? "td.lead" : "td", null, String(x))));
  const parts = [h("div.table-scroll", null,
    h("table.scores", { "aria-label": t("Score sheet") }, h("thead", null, head), h("tbody", null, rows), h("tfoot", null, foot)))];
  if (r.partnership) {
    // Partners sit in alternate seats and score together: the target applies to the team totals.
    for (const team of ["A", "B"]) {
      const seats = Array.from({ length: n }, (_, s) => s).filter((s) => teamOf(s) === team);
      const lead = tb.store.history.length && teamSum(team) === best;
      parts.push(h(lead ? "p.team-total.lead" : "p.team-total", null, t("Team {team} ({names}): {n}", {
        team, names: seats.map((s) => tb.store.nameOf(s)).join(", "), n: teamSum(team),
      })));
    }
  }
  if (!tb.store.history.length) parts.push(h("p.empty", null, t("No hand finished yet.")));
  if (r.target && !chips) parts.push(h("p.muted", null, t("The game ends when someone reaches {n}; the lowest score wins.", { n: r.target })));
  if (r.hands) parts.push(h("p.muted", null, ngettext("The game lasts {n} hand.", "The game lasts {n} hands.", r.hands)));
  if (r.tie_break && r.tie_break.startsWith("play_on")) parts.push(h("p.muted", null, t("A tie for the lowest score plays on.")));
  if (tb.store.history.length) {
    const last = tb.store.history[tb.store.history.length - 1];
    const tricks = tb.store.lastHandTricks && tb.store.lastHandTricks.length ? tb.store.lastHandTricks : null;
    parts.push(h("h3", null, t("Last hand: who took what")));
    parts.push(tookTable(tb, last, tricks, true));
  }
  return h("div", null, parts);
}

/**
 * The chat: the messages (as text) and the box to write one.
 * @param {TableScreen} tb
 */
export function chatPanel(tb) {
  const list = h("ul.chat-msgs", { "aria-label": t("Chat messages") }, tb.store.chat.map((c) => h("li", null,
    h("span.from", null, (c.seat === tb.store.seat && c.seat !== null ? t("You") : c.name) + ": "), c.text)));
  const input = h("input", { type: "text", id: "chat-input", maxlength: "300", "aria-label": t("Message"), placeholder: t("Say something nice") });
  const form = h("form.chat-form", {
    onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); tb.sendChat(input.value); input.value = ""; },
  }, input, h("button.btn.primary", { type: "submit" }, t("Send")));
  return h("div.chat-box", null, list, form);
}

/**
 * The fairness panel: the commitment from the start, the seed once revealed and checked here.
 * @param {TableScreen} tb
 */
export function fairPanel(tb) {
  const box = h("div.fair");
  box.append(h("p", null, t("The deck is shuffled from a secret seed chosen by the server before the first card. Its fingerprint (a SHA-256 hash, the commitment) is shown from the start; the seed is revealed when the game ends, so anyone can check that the cards were not changed during the game.")));
  box.append(h("p.muted", null, t("The commitment is the SHA-256 of \"{prefix}\" followed by the seed.", { prefix: SEED_PREFIX })));
  // Long hashes wrap inside the panel (never widening it) and each has a copy button.
  const hash = (/** @type {string} */ id, /** @type {string} */ text, /** @type {string} */ label) => h("div.hash", null, h("code", { id }, text),
    h("button.btn.small", { type: "button", "aria-label": t("Copy: {what}", { what: label }), onclick: () => copyText(text) }, t("Copy")));
  box.append(h("p", null, h("strong", null, t("Commitment"))));
  box.append(tb.store.commitment ? hash("commitment", tb.store.commitment, t("Commitment"))
    : h("p", null, h("code", { id: "commitment" }, t("not yet published (the game has not started)"))));
  if (tb.store.reveal) {
    const rv = tb.store.reveal;
    const check = h("span", { id: "seed-check" }, t("checking…"));
    box.append(h("p", null, h("strong", null, t("Seed, revealed"))), hash("seed", rv.seed, t("Seed, revealed")));
    box.append(h("p", null, check));
    sha256hex(SEED_PREFIX + rv.seed).then((hex) => {
      if (hex === null) check.textContent = t("This browser cannot compute SHA-256 here; use the command below.");
      else if (hex === rv.commitment) { check.className = "ok"; check.textContent = "✓ " + t("SHA-256 of the seed matches the commitment."); }
      else check.textContent = "✗ " + t("SHA-256 of the seed does NOT match the commitment!");
    });
    box.append(h("p", null, h("a.btn.gold", { href: rv.record_url, download: `corazones-${tb.id}.json` }, t("Download the record"))));
    box.append(h("p", null, t("Check every deal, move and score yourself:")));
    box.append(h("pre.cmd", null, `corazones verify corazones-${tb.id}.json\nprintf '%s' '${SEED_PREFIX}${rv.seed}' | sha256sum`));
  } else {
    box.append(h("p.muted", null, t("The seed will be revealed here when the game ends.")));
  }
  return box;
}

/** The commitment is SHA-256 of this prefix and the seed (corazones.core.commitment). */
const SEED_PREFIX = "corazones-seed-v1:";

/**
 * @param {string} text
 * @returns {Promise<string | null>} null where the browser has no SubtleCrypto (plain http)
 */
async function sha256hex(text) {
  if (!(window.crypto && crypto.subtle)) return null;
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

