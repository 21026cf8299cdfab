// @ts-check
// The decisions asked in a dialog: the auction's bid, the penalty suit, the moon (each resolves with the
// choice and sends it through the table screen, `tb`, the TableScreen of table.js), and the host's
// confirmation before taking a seat away from its player.
import { cardElement, sortCards, suitName } from "./cards.js";
import { ngettext, t } from "./i18n.js";
import { esc } from "./state.js";
import { h, openDialog, suitIcon, toast } from "./ui.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {import("./state.js").View} View */

/**
 * @param {TableScreen} tb
 * @param {View} v
 */
export async function bidDialog(tb, v) {
  const amounts = v.legal.map((a) => a.bid).filter((x) => x !== undefined);
  const positive = amounts.filter((x) => x > 0);
  const min = positive.length ? Math.min(...positive) : 0;
  const max = positive.length ? Math.max(...positive) : 0;
  const high = v.bids.reduce((m, b) => Math.max(m, b[1]), 0);
  const value = await openDialog((close) => {
    const input = h("input", { type: "number", min, max, value: min, id: "bid-amount", inputmode: "numeric" });
    const hand = h("div.card-row", null, sortCards(v.hand || []).map((c) => cardElement(c)));
    const form = h("form.dlg", {
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < min || n > max) { toast(t("Bid a whole number from {min} to {max}", { min, max }), "error"); return; }
        close(n);
      },
    },
    h("h2", null, t("Auction: your bid")),
    h("p", null, high ? ngettext("The highest bid is {n} chip. The winner pays the bid into the pool and names the penalty suit.", "The highest bid is {n} chips. The winner pays the bid into the pool and names the penalty suit.", high)
      : t("Nobody has bid yet. The winner pays the bid into the pool and names the penalty suit.")),
    hand,
    positive.length ? h("div.field", null, h("label", { for: "bid-amount" }, t("Chips (from {min} to {max})", { min, max })), input) : h("p", null, t("You cannot top the highest bid.")),
    h("div.actions",
      null,
      h("button.btn", { type: "button", onclick: () => close(0) }, t("No bid")),
      h("button.btn", { type: "button", onclick: () => tb.askHint() }, t("Hint")),
      positive.length ? h("button.btn.primary", { type: "submit" }, t("Bid")) : null),
    hintLine());
    return form;
  }, { label: t("Auction: your bid"), cancellable: false });
  if (value !== null && value !== undefined) tb.act({ seat: mySeat(tb), bid: value });
}

/**
 * @param {TableScreen} tb
 * @param {View} v
 */
export async function declareDialog(tb, v) {
  const suits = /** @type {string[]} */ (v.legal.map((a) => a.declare).filter(Boolean));
  const value = await openDialog((close) => h("div.dlg", null,
    h("h2", null, t("Name the penalty suit")),
    h("p", null, t("Every card of the suit you name costs one point (one chip) to whoever takes it.")),
    h("div.card-row", null, sortCards(v.hand || []).map((c) => cardElement(c))),
    h("div.choices", null, suits.map((s) => h(`button.btn.suit-btn.${s === "H" || s === "D" ? "red" : "black"}`, {
      type: "button", onclick: () => close(s), html: suitIcon(s) + " " + esc(suitName(s)),
    }))),
    h("div.actions", null, h("button.btn", { type: "button", onclick: () => tb.askHint() }, t("Hint"))),
    hintLine()),
  { label: t("Name the penalty suit"), cancellable: false });
  if (value) tb.act({ seat: mySeat(tb), declare: value });
}

/**
 * @param {TableScreen} tb
 * @param {View} v
 */
export async function moonDialog(tb, v) {
  const pts = v.points_taken[mySeat(tb)];
  const choices = v.legal.filter((a) => a.moon).map((a) => a.moon);
  const value = await openDialog((close) => h("div.dlg", null,
    h("h2", null, t("You shot the moon!")),
    h("p", null, t("You took every penalty card ({n} points). Choose:", { n: pts })),
    h("div.choices", null,
      choices.includes("subtract_from_self") ? h("button.btn.primary", { type: "button", onclick: () => close("subtract_from_self") },
        t("Subtract {n} from my score", { n: pts })) : null,
      choices.includes("add_to_others") ? h("button.btn.gold", { type: "button", onclick: () => close("add_to_others") },
        t("Add {n} to everyone else", { n: pts })) : null),
    h("p.muted", null, t("Scores now: {scores}", { scores: v.scores.map((x, s) => `${tb.store.nameOf(s)} ${x}`).join(", ") })),
    h("div.actions", null, h("button.btn", { type: "button", onclick: () => tb.askHint() }, t("Hint"))),
    hintLine()),
  { label: t("You shot the moon!"), cancellable: false });
  if (value) tb.act({ seat: mySeat(tb), moon: value });
}

/**
 * Where a dialog's hint is written (by showHint, table.js): a modal dialog makes the rest of the page inert,
 * so the hand zone's hint and the page's live region would be neither seen nor heard while it is open.
 */
function hintLine() {
  return h("p.dlg-hint", { role: "status", id: "dlg-hint" });
}

/**
 * Your seat (the dialogs are only opened to a seated player).
 * @param {TableScreen} tb
 */
function mySeat(tb) {
  return /** @type {number} */ (tb.store.seat);
}

/**
 * Open the dialog of a decision that needs one (bid, penalty suit, moon) once the table has caught up
 * with the events and no summary is up; each decision opens its dialog once.
 * @param {TableScreen} tb
 */
export function maybeDialog(tb) {
  const st = tb.store;
  const v = st.view;
  if (!v || st.seat === null || st.showing() || st.summary) return;
  const d = v.decision;
  const key = d ? `${v.hand_index}:${d}:${v.bids.length}` : null;
  if (!d || !["bid", "declare", "moon"].includes(d) || tb.dialogFor === key) return;
  tb.dialogFor = key;
  if (d === "bid") bidDialog(tb, v);
  else if (d === "declare") declareDialog(tb, v);
  else moonDialog(tb, v);
}

/**
 * Ask the host whether to take a seat away from its player; resolves true to go ahead.
 * @param {string} name
 * @param {boolean} open the table has not started (the seat is free again; else a bot plays it)
 * @returns {Promise<boolean>}
 */
export async function confirmRemove(name, open) {
  const ok = await openDialog((close) => h("div.dlg", null,
    h("h2", null, t("Remove {name}?", { name })),
    h("p", null, open
      ? t("{name} loses the seat and cannot come back to this table. The seat is free again.", { name })
      : t("{name} loses the seat and cannot come back to this table. Until someone else takes the seat, a bot plays it.", { name })),
    h("div.choices", null,
      h("button.btn.primary", { type: "button", id: "remove-confirm", onclick: () => close(true) }, t("Remove")),
      h("button.btn", { type: "button", onclick: () => close(false) }, t("Cancel")))),
  { label: t("Remove {name}?", { name }) });
  return ok === true;
}
