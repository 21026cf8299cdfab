// @ts-check
// The bar above the felt: the table's name, the hand, the pass, the penalty suit and whether it is
// broken, the pool and the winning bid (chip games), the kitty, the fair-shuffle commitment, and the
// speed and motion settings. A view of the table screen (`tb`, the TableScreen of table.js).
import { suitName } from "./cards.js";
import { ngettext, t } from "./i18n.js";
import { motionSetting, setMotion } from "./motion.js";
import { esc } from "./state.js";
import { SPEEDS, getSpeed } from "./store.js";
import { h, suitIcon } from "./ui.js";
import { passWay, short, speedName, tableTitle } from "./words.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */

const LOCK = '<svg class="lock" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 0 0-4 0v2z"/></svg>';

/** @param {TableScreen} tb */
export function renderTop(tb) {
  const st = tb.store;
  if (!st.table) return;
  const v = st.view;
  const r = st.table.rules;
  const items = [h("span.chip.table-name", null, tableTitle(st.table))];
  if (v) {
    if (!v.game_over) items.push(h("span.chip", null, t("Hand {n}", { n: v.hand_index + 1 })));
    // (Not under a hand's summary: the pass shown would be the next hand's.)
    if (!st.summary && (v.phase === "pass" || (v.pass_direction && v.pass_direction !== "hold" && st.tricks.length === 0 && v.tricks_played === 0))) {
      const to = v.pass_to !== undefined && v.pass_to !== null ? st.nameOf(v.pass_to) : null;
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
    if (r.settlement !== "points") items.push(h("span.chip", null, ngettext("Pool: {n} chip", "Pool: {n} chips", v.pool)));
    // The auction's winning bid is paid into the pool when the hand is settled: shown until then.
    if (r.auction && v.declarer !== null && v.declarer !== undefined && !v.game_over && !st.summary) {
      const high = (v.bids || []).reduce((m, b) => Math.max(m, b[1]), 0);
      if (high) items.push(h("span.chip", null, ngettext("{name} bid {n} chip", "{name} bid {n} chips", high, { name: st.nameOf(v.declarer) })));
    }
    if (v.kitty_size) {
      items.push(h("span.chip", null, v.kitty_owner === null
        ? ngettext("Kitty: {n} card face down", "Kitty: {n} cards face down", v.kitty_size)
        : t("Kitty taken by {name}", { name: st.nameOf(v.kitty_owner) })));
    }
  }
  if (st.commitment) {
    // On a phone only the lock and the hash show (one row less); the name says it all.
    const fair = t("Fair shuffle {c}", { c: short(st.commitment) });
    items.push(h("button.chip.fair-chip", {
      type: "button", id: "fair-chip", title: t("Fair shuffle: see the commitment"), "aria-label": fair, onclick: () => tb.showTab("fair"),
      html: `${LOCK} <span class="long">${esc(fair)}</span><span class="short">${esc(short(st.commitment))}</span>`,
    }));
  }
  const [speedChip, motionChip] = settings(tb);
  // Only the chips before the settings are drawn anew: the settings stay in the page, so a *Speed* list
  // opened with the mouse is not closed by the next card (a list whose select leaves the page closes).
  while (tb.top.firstChild && tb.top.firstChild !== speedChip) tb.top.firstChild.remove();
  if (speedChip.parentNode !== tb.top) tb.top.append(speedChip, motionChip);
  speedChip.before(...items);
}

/** The speed and motion chips of each table screen, made once (settings). */
const kept = new WeakMap();

/**
 * The *Speed* and *Motion* chips: made once per table screen, then brought up to date (the language, a
 * setting changed in another tab) rather than made again.
 * @param {TableScreen} tb
 * @returns {[HTMLElement, HTMLElement]}
 */
function settings(tb) {
  /** @type {{speedChip: HTMLElement, motionChip: HTMLElement, label: HTMLElement, text: HTMLElement, select: HTMLSelectElement, box: HTMLInputElement} | undefined} */
  let k = kept.get(tb);
  if (!k) {
    const select = /** @type {HTMLSelectElement} */ (h("select", {
      id: "speed", onchange: (/** @type {Event} */ e) => { localStorage.setItem("corazones.speed", /** @type {HTMLSelectElement} */ (e.target).value); },
    }, Object.keys(SPEEDS).map((s) => h("option", { value: s }, speedName(s)))));
    const label = h("label.speed-label", { for: "speed" }, t("Speed"));
    // Cards that move, or not (the system's reduced-motion setting turns them off too).
    const box = /** @type {HTMLInputElement} */ (h("input", {
      type: "checkbox", id: "motion",
      onchange: (/** @type {Event} */ e) => setMotion(/** @type {HTMLInputElement} */ (e.target).checked ? "on" : "off"),
    }));
    const text = h("span", null, t("Motion"));
    k = {
      speedChip: h("span.chip", null, label, " ", select),
      // The whole chip is the switch's label: a target as large as a button on a touch screen.
      motionChip: h("label.chip.motion-chip", null, box, text),
      label, text, select, box,
    };
    kept.set(tb, k);
  }
  const { label, text, select, box } = k;
  if (label.textContent !== t("Speed")) label.textContent = t("Speed");
  if (text.textContent !== t("Motion")) text.textContent = t("Motion");
  for (const o of select.options) if (o.textContent !== speedName(o.value)) o.textContent = speedName(o.value);
  if (select.value !== getSpeed()) select.value = getSpeed();
  const on = motionSetting() === "on";
  if (box.checked !== on) box.checked = on;
  return [k.speedChip, k.motionChip];
}
