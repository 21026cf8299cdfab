// @ts-check
// The score pad page: a sheet for a game played with real cards, made for a phone on the table.
// #/           a new pad (game, players' names)
// #ID          follow a pad live (the share link: read only)
// #ID.KEY      the editor's link: enter, edit and undo hands
// Every number comes from the server, which scores with the engine's own code (corazones.core.pad).
import { request } from "../js/api.js";
import { t, ngettext, loadLang, preferredLang, currentLang } from "../js/i18n.js";
import { h } from "../js/ui.js";
import { readFields, restoreFields } from "../js/fields.js";
import { SKIP, choiceLabel, optionField, optionLabel, presetDescription, presetTitle, readOptions } from "../js/options.js";

const main = /** @type {HTMLElement} */ (document.getElementById("pad-main"));
/** @type {Record<string, string>} */
const SUITS = { C: "♣", D: "♦", S: "♠", H: "♥" };
/** @type {Record<string, string>} */
const DIRECTIONS = { left: t("left"), right: t("right"), across: t("across"), hold: t("no pass") };
const MAX_PLAYERS = 11;

/**
 * A penalty card the hand form asks about, and the cards counted by number (hearts), per penalty suit.
 * @typedef {{named: {card: string, glyph: string, value: number, copies: number}[], counted_in_play: number,
 *   counted_value: number, counted_name: string, pos_total: number, pen_total: number}} Layout
 */
/**
 * One hand of the sheet: what was entered, and the scores (or chips) it gave.
 * @typedef {{hand: number, entry: any, chips: number[], totals: number[], chips_delta: number[], scores: number[],
 *   shooter: number | null, revokes: any[]}} PadRow
 */
/**
 * The sheet as the server sends it (GET /api/pads/{id}, docs/pad.md).
 * @typedef {{version: number, names: string[], rules: Record<string, any>, rows: PadRow[],
 *   layouts: Record<string, Layout>, leaders: number[], winners: number[], near: number[], sides: string[],
 *   side_totals: number[], stakes: number[] | null, uses_chips: boolean, over: boolean, pool: number,
 *   carry_declarer?: number | null, next_pass?: string | null}} PadSheet
 */
/**
 * The hand being entered: by cards (counts and who took each named card) or by points.
 * @typedef {{mode: string, suit: string, counts: number[], cards: Record<string, number[]>, points: (number | string)[],
 *   moon: string | null, shooter: number | null, declarer: number | null, bid: number, note: string,
 *   revokes: {seat: number, to_avoid_all: boolean}[], showRevoke: boolean, hand: number, blank: string}} PadForm
 *   (hand: the number of the new hand being entered; blank: its entry before anything was entered)
 */

/** @type {PadSheet} the sheet from the server: null (cast) until loaded, and only read once it is */
let state = /** @type {any} */ (null);
/** @type {string | null} */
let padId = null;
/** @type {string | null} the editing key, when this page may edit */
let padKey = null;
let follow = 0; // generation of the live loop (a new pad stops the old loop)
/** @type {PadForm} the hand being entered: set by resetForm before the form is drawn */
let form = /** @type {any} */ (null);
/** @type {number | null} hand number being edited, or null */
let editing = null;
/** The sheet's version when the hand being edited was opened: the edit is refused if the pad changed since. */
let editingSeen = 0;
/** What was entered for the hands up to the one being edited, when it was opened (see sendEdit). */
let editingRows = "";

/**
 * el("div", {class, text, ...attrs}, ...children): the shared element builder (ui.h) with a text shorthand.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {any}
 */
function el(tag, attrs = {}, ...children) {
  const { text, ...rest } = attrs;
  return h(tag, rest, text === undefined ? null : text, ...children);
}

/** The shared API client (api.request), with the editing key when this page holds one. */
/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
function api(method, path, body) {
  return request(method, path, body, padKey ? { "X-Pad-Key": padKey } : {});
}

// ------------------------------------------------------------ routing
function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  follow += 1;
  state = /** @type {any} */ (null);
  editing = null;
  copied = null;
  if (!hash) {
    padId = padKey = null;
    showCreate();
    return;
  }
  const [id, key] = hash.split(".");
  padId = id;
  padKey = key || null;
  load();
}

async function load() {
  try {
    state = await readSheet();
  } catch (e) {
    main.replaceChildren(el("p", { class: "pad-error", role: "alert", text: e.message }), el("a", { href: "#", class: "btn primary", text: t("New score pad") }));
    return;
  }
  resetForm();
  render();
  live(follow);
}

/** @param {number} generation */
async function live(generation) {
  while (generation === follow && state) {
    try {
      const next = await readSheet(state.version);
      if (generation !== follow) return;
      if (next.version !== state.version) followed(next);
    } catch (e) {
      await new Promise((r) => setTimeout(r, 3000));
      if (e.status === 429 && generation === follow && state) {
        // Too many pages wait from this address (docs/server.md): read without waiting instead.
        try {
          const now = await readSheet();
          if (generation === follow && now.version !== state.version) followed(now);
        } catch (e2) {
          // the next round tries again
        }
      }
    }
  }
}

/**
 * The pad's sheet as the server has it now, or (with `after`) once it is newer than that version.
 * @param {number} [after]
 * @returns {Promise<PadSheet>}
 */
function readSheet(after) {
  return api("GET", `/api/pads/${encodeURIComponent(padId || "")}` + (after === undefined ? "" : `?after=${after}`));
}

/**
 * Another page changed the sheet. A new hand not begun here yet becomes the next hand of the new sheet; one
 * begun keeps its number, and adding it says the sheet changed (both people entered it?) instead of
 * adding it under the next number without a word.
 * @param {PadSheet} next
 */
function followed(next) {
  state = next;
  if (!editing && form && JSON.stringify(formEntry()) === form.blank) resetForm();
  render(false);
}

// ------------------------------------------------------------ a new pad
/** @type {any} what the server offers (GET /api/options) */
let options = null;
/** The preset chosen last on the new-pad form (kept when the form is drawn again). */
let lastPreset = "standard";

// The options that change a score sheet, as the terminal pad takes them (`corazones pad -o`): how a
// hand scores, when the game ends, the passing shown for the next hand. How the cards are played
// (the first lead, breaking hearts, points on the first trick...) does not change the sheet.
const PAD_MAIN = ["target", "hands", "moon", "passes"];
const PAD_SKIP = new Set([...SKIP, "players", "pass_count", "first_lead", "no_points_first_trick", "must_break_hearts", "queen_breaks_hearts", "cancel_whole_trick"]);
const DEFAULT_REVOKE_PENALTY = 13;

/** @param {any[] | null} [kept] */
async function showCreate(kept = null) {
  document.title = t("Corazones — score pad");
  if (!options) {
    try {
      options = await (await fetch("/api/options")).json();
    } catch (e) {
      options = { presets: [{ name: "standard", rules: { players: 4, target: 100 } }], choices: {} };
    }
  }
  /** @type {{name: string, description?: string, rules: Record<string, any>}[]} */
  const presets = options.presets;
  const choices = options.choices || {};
  const chosen = presets.some((p) => p.name === lastPreset) ? lastPreset : "standard";
  const preset = el("select", { id: "pad-preset", class: "pad-input" }, presets.map((p) => el("option", { value: p.name, text: presetTitle(p.name), selected: p.name === chosen })));
  const playersBox = el("div", { class: "pad-players" });
  const names = el("div", { class: "pad-names" });
  const mainBox = el("div", { class: "options-grid pad-options" });
  const moreBox = el("div", { class: "options-grid pad-options" });
  const penalty = el("input", { id: "pad-revoke-penalty", type: "number", inputmode: "numeric", min: 0, max: 1000000, value: DEFAULT_REVOKE_PENALTY });
  const penaltyBox = el("div", { class: "field" }, el("label", { for: "pad-revoke-penalty", text: t("Revoke penalty (chips, 1887 scoring)") }), penalty);
  const error = el("p", { class: "pad-error", role: "alert", id: "pad-create-error" });
  const described = el("p", { class: "pad-muted" });

  function presetRules() {
    return (presets.find((p) => p.name === preset.value) || presets[0]).rules;
  }
  function playerCount() {
    const input = playersBox.querySelector("#pad-players");
    return Math.max(3, Math.min(MAX_PLAYERS, Number(input && input.value) || presetRules().players));
  }
  function drawNames() {
    const n = playerCount();
    const old = [...names.querySelectorAll("input")].map((i) => i.value);
    names.replaceChildren(
      ...Array.from({ length: n }, (_, i) =>
        el("input", { class: "pad-input", id: `pad-name-${i}`, type: "text", maxlength: 40, autocomplete: "off", "aria-label": t("Player {n}", { n: i + 1 }), placeholder: t("Player {n}", { n: i + 1 }), value: old[i] || "" }),
      ),
    );
  }
  function showPenalty() {
    const settlement = moreBox.querySelector("#pad-settlement");
    penaltyBox.hidden = !(settlement && settlement.value === "chips_1887");
  }
  function presetChanged() {
    const r = presetRules();
    lastPreset = preset.value;
    error.textContent = "";
    described.textContent = presetDescription(preset.value, (presets.find((p) => p.name === preset.value) || { description: "" }).description);
    const field = (/** @type {string} */ k) => optionField(k, r[k], choices, { idPrefix: "pad-", onPlayers: drawNames });
    playersBox.replaceChildren(field("players"));
    mainBox.replaceChildren(...PAD_MAIN.filter((k) => k in r).map(field).filter(Boolean));
    moreBox.replaceChildren(...Object.keys(r).filter((k) => !PAD_MAIN.includes(k) && !PAD_SKIP.has(k)).map(field).filter(Boolean), penaltyBox);
    const settlement = moreBox.querySelector("#pad-settlement");
    if (settlement) settlement.addEventListener("change", showPenalty);
    showPenalty();
    drawNames();
  }
  preset.addEventListener("change", presetChanged);

  /** @param {SubmitEvent} ev */
  async function create(ev) {
    ev.preventDefault();
    error.textContent = "";
    const given = [...names.querySelectorAll("input")].map((i, k) => i.value.trim() || t("Player {n}", { n: k + 1 }));
    /** @type {Record<string, unknown>} */
    const body = { preset: preset.value, names: given };
    try {
      body.options = readOptions(/** @type {HTMLFormElement} */ (ev.target), presetRules());
      if (!penaltyBox.hidden) {
        const chips = Number(penalty.value);
        if (penalty.value.trim() === "" || !Number.isInteger(chips)) throw new Error(t("{option}: a whole number, please", { option: t("Revoke penalty (chips, 1887 scoring)") }));
        if (chips !== DEFAULT_REVOKE_PENALTY) body.revoke_penalty = chips;
      }
      const made = await api("POST", "/api/pads", body);
      location.hash = `${made.id}.${made.key}`;
    } catch (e) {
      error.textContent = e.message;
    }
  }

  const setup = el(
    "form",
    { class: "pad-card pad-create", onsubmit: create },
    el("h2", { text: t("A score sheet for a game with real cards") }),
    el("label", { for: "pad-preset", text: t("Game") }),
    preset,
    described,
    playersBox,
    el("label", { text: t("Names") }),
    names,
    mainBox,
    el("details", { class: "options pad-more", id: "pad-more" }, el("summary", { text: t("More rules") }), moreBox),
    error,
    el("button", { type: "submit", class: "btn primary pad-big", id: "pad-create", text: t("Start the sheet") }),
  );
  main.replaceChildren(setup);
  presetChanged();
  // What was typed before the language changed (readFields of the old setup): the preset, every option,
  // the names (pad-name-N, drawn for the number of players put back first), the revoke penalty, "More rules".
  restoreFields(setup, kept);
}

// ------------------------------------------------------------ the hand form
/** @param {string} suit */
function layoutOf(suit) {
  return state.layouts[suit] || state.layouts.H;
}

/**
 * Start the hand form afresh, or from a hand's entry (to edit it).
 * @param {any} [entry]
 */
function resetForm(entry) {
  const n = state.names.length;
  const suit = (entry && entry.suit) || "H";
  form = {
    mode: entry && entry.points ? "points" : "cards",
    suit,
    counts: entry && entry.counts ? [...entry.counts] : Array(n).fill(0),
    cards: {},
    points: entry && entry.points ? [...entry.points] : Array(n).fill(0),
    moon: (entry && entry.moon) || null,
    shooter: entry && entry.shooters && entry.shooters.length ? entry.shooters[0] : null,
    declarer: entry && entry.declarer !== undefined ? entry.declarer : null,
    bid: (entry && entry.bid) || 0,
    note: (entry && entry.note) || "",
    revokes: entry && entry.revokes ? entry.revokes.map((/** @type {object} */ r) => ({ ...r })) : [],
    showRevoke: Boolean(entry && entry.revokes && entry.revokes.length),
    hand: state.rows.length + 1,
    blank: "",
  };
  if (entry && entry.cards) for (const [c, seats] of Object.entries(entry.cards)) form.cards[c] = [...seats];
  if (state.carry_declarer !== null && state.carry_declarer !== undefined && !entry) form.declarer = state.carry_declarer;
  form.blank = JSON.stringify(formEntry());
}

function formEntry() {
  /** @type {Record<string, any>} */
  const e = {};
  if (form.mode === "points") {
    e.points = form.points.map((x) => Number(x) || 0);
    if (form.shooter !== null) e.shooters = [form.shooter];
  } else {
    e.counts = form.counts;
    e.cards = {};
    for (const card of layoutOf(form.suit).named) e.cards[card.card] = form.cards[card.card] || [];
  }
  if (form.moon) e.moon = form.moon;
  if (state.rules.auction) {
    if (form.declarer !== null) {
      e.declarer = form.declarer;
      e.suit = form.suit;
      if (form.bid) e.bid = form.bid;
    }
  }
  if (form.note) e.note = form.note;
  if (form.revokes.length) e.revokes = form.revokes;
  return e;
}

/** Who took every penalty card according to the form (the page asks for the moon choice then). */
function shooterInForm() {
  if (state.rules.moon === "off") return null;
  const lay = layoutOf(form.suit);
  if (form.mode === "points") {
    const i = form.points.findIndex((p) => Number(p) === lay.pos_total);
    return i >= 0 ? i : form.shooter;
  }
  const n = state.names.length;
  for (let s = 0; s < n; s++) {
    const counted = lay.counted_value > 0 ? form.counts[s] === lay.counted_in_play : true;
    const named = lay.named.filter((c) => c.value > 0).every((c) => (form.cards[c.card] || []).length === c.copies && form.cards[c.card].every((x) => x === s));
    if (counted && named && (lay.counted_in_play > 0 || lay.named.some((c) => c.value > 0))) return s;
  }
  return null;
}

/**
 * A number with − and + buttons (and "rest": all that is left, when `rest` is given).
 * The buttons read the number when tapped, not when drawn: a count typed into the box and then
 * changed with + (before the panel is drawn again) goes on from what was typed.
 * @param {string} label
 * @param {() => number} get the number now (in the form)
 * @param {(value: number, draw?: boolean) => void} onChange called with draw false while a number is typed
 * @param {() => number} [rest] how many are left now
 */
function stepper(label, get, onChange, rest) {
  const input = el("input", { class: "pad-count", type: "number", inputmode: "numeric", value: get(), "aria-label": label });
  // What is typed goes into the form at once, and the panel is drawn again only once the tap or the Tab that
  // ended the typing is over: drawn at "change", it would take away the box or the button just tapped (the
  // next player's box, "Add hand"), and the tap would be lost.
  input.addEventListener("input", () => onChange(Number(input.value) || 0, false));
  input.addEventListener("change", redrawSoon);
  selectWhenEntered(input);
  return el(
    "div",
    { class: "pad-stepper" },
    el("span", { class: "pad-name", text: label }),
    el("button", { type: "button", class: "btn pad-step", "aria-label": t("{name}: one less", { name: label }), text: "−", onclick: () => onChange(Math.max(rest === undefined ? -999 : 0, get() - 1)) }),
    input,
    el("button", { type: "button", class: "btn pad-step", "aria-label": t("{name}: one more", { name: label }), text: "+", onclick: () => onChange(get() + 1) }),
    rest === undefined ? null : el("button", { type: "button", class: "btn ghost pad-rest", text: t("rest"), "aria-label": t("{name}: the rest", { name: label }), onclick: () => onChange(get() + rest()) }),
  );
}

/** True while the page itself puts the focus back after drawing (see render): the box keeps its caret. */
let refocusing = false;

/**
 * A tap, a click or a Tab into a count selects what it shows, so the digits typed replace it: the caret a
 * tap leaves before the "0" would make a typed 3 into 30.
 * @param {HTMLInputElement} input
 */
function selectWhenEntered(input) {
  let entered = false;
  input.addEventListener("focus", () => {
    if (refocusing) return;
    input.select();
    entered = true;
  });
  // The mouseup of the click that gave the focus would put the caret where it was clicked, undoing the selection.
  input.addEventListener("mouseup", (ev) => {
    if (entered) ev.preventDefault();
    entered = false;
  });
  input.addEventListener("blur", () => (entered = false));
}

function entryPanel() {
  const names = state.names;
  const n = names.length;
  const lay = layoutOf(form.suit);
  const parts = [];
  const title = editing ? t("Edit hand {n}", { n: editing }) : t("Hand {n}", { n: form.hand });
  parts.push(el("h2", { text: title }));
  if (!editing && form.hand === state.rows.length + 1 && state.next_pass) parts.push(el("p", { class: "pad-muted", text: t("Pass: {direction}", { direction: DIRECTIONS[state.next_pass] || state.next_pass }) }));
  parts.push(
    el(
      "div",
      { class: "pad-tabs", role: "group" },
      el("button", { type: "button", class: "btn " + (form.mode === "cards" ? "primary" : "ghost"), "aria-pressed": String(form.mode === "cards"), text: t("Cards taken"), onclick: () => setForm({ mode: "cards" }) }),
      el("button", { type: "button", class: "btn " + (form.mode === "points" ? "primary" : "ghost"), "aria-pressed": String(form.mode === "points"), text: t("Points"), onclick: () => setForm({ mode: "points" }) }),
    ),
  );
  if (state.rules.auction) {
    const carried = state.carry_declarer !== null && state.carry_declarer !== undefined && !editing;
    parts.push(el("h3", { text: carried ? t("The pool carried over: {player} names the suit", { player: names[/** @type {number} */ (state.carry_declarer)] }) : t("Auction") }));
    if (!carried) {
      parts.push(
        el(
          "div",
          { class: "pad-choices" },
          el("button", { type: "button", class: "btn " + (form.declarer === null ? "primary" : "ghost"), text: t("Nobody bid"), onclick: () => setForm({ declarer: null, suit: "H", bid: 0 }) }),
          names.map((name, s) => el("button", { type: "button", class: "btn " + (form.declarer === s ? "primary" : "ghost"), text: name, onclick: () => setForm({ declarer: s, bid: Math.max(1, form.bid) }) })),
        ),
      );
      if (form.declarer !== null) parts.push(stepper(t("Bid"), () => form.bid, (v, draw) => setForm({ bid: Math.max(0, v) }, draw)));
    }
    if (form.declarer !== null) {
      parts.push(el("div", { class: "pad-choices", role: "group", "aria-label": t("Penalty suit") }, Object.entries(SUITS).map(([k, g]) => el("button", { type: "button", class: "btn pad-suit " + (form.suit === k ? "primary" : "ghost"), "aria-label": t("Penalty suit") + " " + g, text: g, onclick: () => setForm({ suit: k, counts: Array(n).fill(0), cards: {} }) }))));
    }
  }
  if (form.mode === "points") {
    parts.push(el("p", { class: "pad-muted", text: t("Each player's points for the hand (they add up to {total}).", { total: lay.pen_total }) }));
    names.forEach((name, s) => parts.push(stepper(name, () => Number(form.points[s]) || 0, (v, draw) => setPoints(s, v, draw))));
    if (state.rules.moon !== "off" && lay.named.some((c) => c.value < 0)) {
      parts.push(el("h3", { text: t("Who shot the moon (only if unclear)") }));
      parts.push(el("div", { class: "pad-choices" }, el("button", { type: "button", class: "btn " + (form.shooter === null ? "primary" : "ghost"), text: t("Nobody"), onclick: () => setForm({ shooter: null }) }), names.map((name, s) => el("button", { type: "button", class: "btn " + (form.shooter === s ? "primary" : "ghost"), text: name, onclick: () => setForm({ shooter: s }) }))));
    }
  } else {
    if (lay.counted_in_play) {
      const left = () => lay.counted_in_play - form.counts.reduce((a, b) => a + b, 0);
      parts.push(el("h3", { text: t("{cards} cards taken ({left} left of {total})", { cards: lay.counted_name, left: left(), total: lay.counted_in_play }) }));
      names.forEach((name, s) => parts.push(stepper(name, () => form.counts[s], (v, draw) => setCount(s, v, draw), left)));
    }
    for (const card of lay.named) {
      const takers = form.cards[card.card] || [];
      parts.push(el("h3", { class: "pad-card-name", text: card.copies > 1 ? t("Who took {card} (×{copies})", { card: card.glyph, copies: card.copies }) : t("Who took {card}", { card: card.glyph }) }));
      parts.push(
        el(
          "div",
          { class: "pad-choices", role: "group", "aria-label": t("Who took {card}", { card: card.glyph }) },
          names.map((name, s) => {
            const times = takers.filter((x) => x === s).length;
            return el("button", { type: "button", class: "btn " + (times ? "primary" : "ghost"), "aria-pressed": String(times > 0), text: times > 1 ? `${name} ×${times}` : name, onclick: () => takeCard(card, s) });
          }),
        ),
      );
    }
  }
  const shooter = shooterInForm();
  if (shooter !== null && shooter !== undefined && state.rules.moon === "choice") {
    parts.push(el("h3", { text: t("{player} shot the moon!", { player: names[shooter] }) }));
    parts.push(
      el(
        "div",
        { class: "pad-choices" },
        el("button", { type: "button", class: "btn " + (form.moon === "subtract_from_self" ? "primary" : "ghost"), text: t("Subtract {total} from {player}", { total: lay.pos_total, player: names[shooter] }), onclick: () => setForm({ moon: "subtract_from_self" }) }),
        el("button", { type: "button", class: "btn " + (form.moon === "add_to_others" ? "primary" : "ghost"), text: t("Add {total} to the others", { total: lay.pos_total }), onclick: () => setForm({ moon: "add_to_others" }) }),
      ),
    );
  } else if (form.moon) {
    form.moon = null;
  }
  parts.push(revokePanel());
  const note = el("input", { class: "pad-input", type: "text", maxlength: 200, placeholder: t("Note (optional)"), value: form.note, "aria-label": t("Note (optional)") });
  note.addEventListener("input", () => (form.note = note.value));
  parts.push(note);
  parts.push(el("p", { class: "pad-error", id: "pad-error", role: "alert" }));
  const actions = el("div", { class: "pad-actions" });
  if (editing) {
    actions.append(
      el("button", { type: "button", class: "btn primary pad-big", id: "pad-save", text: t("Save hand {n}", { n: editing }), onclick: saveEdit }),
      el("button", { type: "button", class: "btn ghost", text: t("Cancel"), onclick: () => { editing = null; resetForm(); render(); } }),
      el("button", { type: "button", class: "btn ghost", text: t("Delete hand {n}", { n: editing }), onclick: deleteEdited }),
    );
  } else {
    actions.append(el("button", { type: "button", class: "btn primary pad-big", id: "pad-add", text: t("Add hand"), onclick: addHand }));
    if (state.rows.length) actions.append(el("button", { type: "button", class: "btn ghost", id: "pad-undo", text: t("Undo last hand"), onclick: undo }));
  }
  parts.push(actions);
  return el("section", { class: "pad-card pad-entry", "aria-label": t("Enter a hand") }, parts);
}

function revokePanel() {
  const box = el("div", { class: "pad-revoke" });
  if (!form.showRevoke) {
    box.append(el("button", { type: "button", class: "btn ghost small", text: t("Record a revoke"), onclick: () => setForm({ showRevoke: true }) }));
    return box;
  }
  const chips1887 = state.rules.settlement === "chips_1887";
  box.append(el("h3", { text: t("Revoke") }));
  if (!chips1887) box.append(el("p", { class: "pad-muted", text: t("Recorded on the sheet; enter the hand's points as the table agrees.") }));
  box.append(
    el(
      "div",
      { class: "pad-choices", role: "group", "aria-label": t("Who revoked") },
      state.names.map((name, s) => {
        const found = form.revokes.find((r) => r.seat === s);
        return el("button", { type: "button", class: "btn " + (found ? "primary" : "ghost"), "aria-pressed": String(Boolean(found)), text: name, onclick: () => toggleRevoke(s) });
      }),
    ),
  );
  if (chips1887) {
    for (const r of form.revokes) {
      const box2 = el("input", { type: "checkbox", id: `pad-avoid-${r.seat}` });
      box2.checked = Boolean(r.to_avoid_all);
      box2.addEventListener("change", () => {
        r.to_avoid_all = box2.checked;
      });
      box.append(el("label", { class: "pad-check", for: `pad-avoid-${r.seat}` }, box2, " ", t("{player} revoked to avoid taking all the hearts (pays 8 to each opponent)", { player: state.names[r.seat] })));
    }
  }
  return box;
}

/** @param {number} s */
function toggleRevoke(s) {
  const i = form.revokes.findIndex((r) => r.seat === s);
  if (i >= 0) form.revokes.splice(i, 1);
  else form.revokes.push({ seat: s, to_avoid_all: false });
  render(false);
}

/**
 * @param {Partial<PadForm>} change
 * @param {boolean} [draw] false: only the form changes (a number being typed; see stepper)
 */
function setForm(change, draw = true) {
  Object.assign(form, change);
  if (draw) render(false);
}

/**
 * @param {number} s
 * @param {number} v
 * @param {boolean} [draw]
 */
function setCount(s, v, draw = true) {
  const lay = layoutOf(form.suit);
  form.counts[s] = Math.max(0, Math.min(lay.counted_in_play, v));
  if (draw) render(false);
}

/**
 * @param {number} s
 * @param {number} v
 * @param {boolean} [draw]
 */
function setPoints(s, v, draw = true) {
  form.points[s] = v;
  if (draw) render(false);
}

// A pointer held down on the page: drawing the page again now would replace the element under it, and
// its click would never come. A redraw asked for meanwhile waits until the pointer is lifted (and the
// click, dispatched with it, has run).
let pressed = false;
let redrawWhenLifted = false;
// A tap's mousedown (which moves the focus, so ends the typing) comes after its pointerup; its click after its mouseup.
for (const type of ["pointerdown", "mousedown"]) document.addEventListener(type, () => (pressed = true), true);
for (const type of ["pointerup", "pointercancel", "mouseup"]) {
  document.addEventListener(
    type,
    () => {
      pressed = false;
      if (redrawWhenLifted) {
        redrawWhenLifted = false;
        setTimeout(() => render(false));
      }
    },
    true,
  );
}

/** Draw the page again once what is under way ends: the tap lifted, or the focus moved on (Tab). */
function redrawSoon() {
  if (pressed) redrawWhenLifted = true;
  else setTimeout(() => render(false));
}

/**
 * Seat `s` took (one copy of) `card`; with one copy a second tap takes it back.
 * @param {Layout["named"][number]} card
 * @param {number} s
 */
function takeCard(card, s) {
  const takers = form.cards[card.card] || [];
  if (card.copies === 1) form.cards[card.card] = takers[0] === s ? [] : [s];
  else if (takers.length < card.copies) form.cards[card.card] = [...takers, s].sort((a, b) => a - b);
  else form.cards[card.card] = takers.includes(s) ? takers.filter((x, i) => i !== takers.indexOf(s)) : [s];
  render(false);
}

/** @param {string} text */
function showError(text) {
  const box = document.getElementById("pad-error");
  if (box) box.textContent = text;
}

/**
 * Send a change of the sheet; true when the server took it (the sheet it returns is drawn).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
async function change(method, path, body) {
  try {
    state = await api(method, path, body);
  } catch (e) {
    showError(e.message);
    return false;
  }
  return true;
}

async function addHand() {
  try {
    state = await api("POST", `/api/pads/${padId}/hands?hand=${form.hand}`, formEntry());
  } catch (e) {
    if (e.status === 409) {
      // Another editor changed the sheet first: show it as it is now, and this hand, kept, under the number
      // it would have now (adding it again adds it as that hand).
      try {
        state = await readSheet();
      } catch (e2) {
        // the live loop brings the sheet
      }
      form.hand = state.rows.length + 1;
      render(false);
    }
    showError(e.message);
    return;
  }
  resetForm();
  render();
}

async function undo() {
  if (await change("DELETE", `/api/pads/${padId}/hands/${state.rows.length}?seen=${state.version}`)) {
    resetForm();
    render();
  }
}

async function saveEdit() {
  if (await sendEdit("PUT", formEntry())) {
    editing = null;
    resetForm();
    render();
  }
}

async function deleteEdited() {
  if (await sendEdit("DELETE")) {
    editing = null;
    resetForm();
    render();
  }
}

/**
 * The hands up to `hand` as entered, to tell whether hand `hand` is still the same hand.
 * @param {number} hand
 */
function rowsUpTo(hand) {
  return JSON.stringify(state.rows.slice(0, hand).map((r) => r.entry));
}

/**
 * Send the edit (PUT) or the deletion (DELETE) of the hand being edited; true when the server took it.
 * The server refuses it (409) when the sheet changed since the hand was opened, as a deleted hand renumbers
 * the later ones. When that change left this hand and every hand before it as they were (a hand added
 * after it, a later hand corrected), it is still the same hand: it is sent again on the sheet as it is now,
 * instead of being refused at every try. Otherwise the edit ends and the sheet shows what changed.
 * @param {string} method
 * @param {unknown} [body]
 */
async function sendEdit(method, body) {
  let error = null;
  for (let tries = 0; tries < 3; tries++) {
    try {
      state = await api(method, `/api/pads/${padId}/hands/${editing}?seen=${editingSeen}`, body);
      return true;
    } catch (e) {
      error = e;
      if (e.status !== 409) break;
      try {
        state = await readSheet();
      } catch (e2) {
        break;
      }
      if (editing === null || state.rows.length < editing || rowsUpTo(editing) !== editingRows) {
        editing = null;
        resetForm();
        render(false);
        break;
      }
      editingSeen = state.version;
    }
  }
  showError(error ? error.message : "");
  return false;
}

/** @param {number} hand counted from 1 */
function startEdit(hand) {
  if (!padKey) return;
  editing = hand;
  editingSeen = state.version;
  editingRows = rowsUpTo(hand);
  resetForm(state.rows[hand - 1].entry);
  render();
  document.querySelector(".pad-entry")?.scrollIntoView({ behavior: "smooth", block: "start" });
}

// ------------------------------------------------------------ the sheet
function sheet() {
  const s = state;
  const chips = s.uses_chips;
  const head = el("tr", {}, el("th", { scope: "col", text: "#" }), s.names.map((name, i) => el("th", { scope: "col", class: s.leaders.includes(i) && !s.rules.partnership ? "pad-lead" : "", text: name })));
  const body = s.rows.map((r) => {
    const cells = s.names.map((_, i) => {
      const total = chips ? r.chips[i] : r.totals[i];
      const delta = chips ? r.chips_delta[i] : r.scores[i];
      return el("td", {}, el("span", { class: "pad-total", text: String(total) }), el("span", { class: "pad-delta", text: (delta > 0 ? "+" : "") + delta }));
    });
    const marks = [];
    if (r.shooter !== null) marks.push("🌙");
    if (r.revokes.length) marks.push("⚠");
    const label = el("th", { scope: "row" }, String(r.hand), marks.length ? el("span", { class: "pad-mark", title: r.shooter !== null ? t("{player} shot the moon", { player: s.names[r.shooter] }) : "", text: " " + marks.join("") }) : null);
    const row = el("tr", { class: padKey ? "pad-row editable" : "pad-row", "data-hand": r.hand }, label, cells);
    if (padKey) {
      row.tabIndex = 0;
      row.setAttribute("aria-label", t("Edit hand {n}", { n: r.hand }));
      row.addEventListener("click", () => startEdit(r.hand));
      row.addEventListener("keydown", (/** @type {KeyboardEvent} */ ev) => {
        if (ev.key === "Enter") startEdit(r.hand);
      });
    }
    return row;
  });
  const table = el("table", { class: "pad-table" }, el("caption", { class: "sr-only", text: t("Running totals, one row per hand") }), el("thead", {}, head), el("tbody", {}, body));
  return el("div", { class: "pad-card pad-sheet" }, table, s.rows.length ? null : el("p", { class: "pad-muted", text: t("No hand yet.") }));
}

function standing() {
  const s = state;
  const lines = [];
  const sideNames = s.uses_chips ? s.names : s.sides;
  if (s.over) {
    lines.push(el("p", { class: "pad-winner", role: "status", text: t("Game over. Winner(s): {players}", { players: s.winners.map((i) => s.names[i]).join(", ") }) }));
  } else if (s.rows.length) {
    lines.push(el("p", { text: t("Leading: {players}", { players: s.leaders.map((i) => sideNames[i]).join(", ") }) }));
    if (s.near.length) lines.push(el("p", { class: "pad-near", text: t("Close to {target}: {players}", { target: s.rules.target, players: s.near.map((i) => sideNames[i]).join(", ") }) }));
  }
  if (s.rules.partnership) lines.push(el("p", { text: s.sides.map((name, i) => `${name}: ${s.side_totals[i]}`).join(" · ") }));
  if (s.uses_chips) lines.push(el("p", { text: ngettext("Pool: {n} chip", "Pool: {n} chips", s.pool) }));
  const stakes = s.stakes;
  if (stakes && s.rows.length) lines.push(el("p", { text: t("Average stakes (pays + / draws -): {values}", { values: s.names.map((name, i) => `${name} ${stakes[i] > 0 ? "+" : ""}${stakes[i]}`).join(", ") }) }));
  if (s.rules.target && !s.uses_chips) lines.push(el("p", { class: "pad-muted", text: t("The game ends at {target}; lowest wins.", { target: s.rules.target }) }));
  if (s.rules.hands && !s.uses_chips) lines.push(el("p", { class: "pad-muted", text: ngettext("The game ends after {n} hand; lowest wins.", "The game ends after {n} hands; lowest wins.", s.rules.hands) }));
  return el("div", { class: "pad-card pad-standing", "aria-live": "polite" }, lines);
}

/**
 * The last "Copy" tapped on this pad: which link, and whether the browser let the page copy it. A copy that
 * failed keeps its link shown and selected (drawn again with every change of the sheet), to copy by hand.
 * @type {{which: "follow" | "editor", ok: boolean} | null}
 */
let copied = null;

function share() {
  const base = `${location.origin}${location.pathname}`;
  const follow = `${base}#${padId}`;
  const said = copied;
  if (copied && copied.ok) copied = null; // "copied" is said once; a failure stays until the next copy
  /**
   * What became of the copy of this link, said under its button.
   * @param {"follow" | "editor"} which
   */
  function outcome(which) {
    if (!said || said.which !== which) return null;
    if (!said.ok) return el("p", { class: "pad-error", id: "pad-copied", role: "alert", text: t("The browser did not let the page copy the link: it is selected above; copy it by hand.") });
    return el("p", { class: "pad-muted", id: "pad-copied", role: "status", text: which === "editor" ? t("Editor's link copied.") : t("Link copied.") });
  }
  const box = el("div", { class: "pad-card pad-share" });
  box.append(el("h2", { text: t("Share") }), el("p", { class: "pad-muted", text: t("Everyone at the table can follow this sheet live on their own phone:") }));
  const link = el("input", { class: "pad-input", id: "pad-share-link", readonly: true, value: follow, "aria-label": t("Share link") });
  box.append(link, el("button", { type: "button", class: "btn ghost", id: "pad-copy", text: t("Copy link"), onclick: () => copy("follow", link) }), outcome("follow") || "");
  if (padKey) {
    const editor = el("input", { class: "pad-input", id: "pad-editor-link", readonly: true, value: `${base}#${padId}.${padKey}`, "aria-label": t("Editor's link") });
    // The editor's link is shown only when it could not be copied: it is also in this page's address.
    editor.hidden = !(said && said.which === "editor" && !said.ok);
    box.append(
      el("p", { class: "pad-muted", text: t("Whoever keeps score with you needs the editor's link:") }),
      editor,
      el("button", { type: "button", class: "btn ghost", id: "pad-copy-editor", text: t("Copy editor's link"), onclick: () => copy("editor", editor) }),
      outcome("editor") || "",
    );
  } else {
    box.append(el("p", { class: "pad-muted", text: t("You are following this sheet; it updates by itself.") }));
  }
  box.append(
    el(
      "p",
      { class: "pad-downloads" },
      el("a", { href: `/api/pads/${padId}/sheet.csv`, download: "", text: t("Download the sheet (CSV)") }),
      " · ",
      el("a", { href: `/api/pads/${padId}/pad.json`, download: "", text: t("Download the pad (for corazones pad --load)") }),
    ),
  );
  return box;
}

/**
 * Copy a link, and say whether it worked. The clipboard API exists only on https (or this computer's own
 * address) and may be refused; a page opened over http on the home network falls back to copying the
 * selected field, and when that fails too the link is left shown and selected, to copy by hand.
 * @param {"follow" | "editor"} which
 * @param {HTMLInputElement} field the field that holds the link
 */
async function copy(which, field) {
  let ok = false;
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(field.value);
    ok = true;
  } catch (e) {
    field.hidden = false;
    selectLink(field);
    try {
      ok = document.execCommand("copy");
    } catch (e2) {
      ok = false;
    }
  }
  copied = { which, ok };
  const box = document.querySelector(".pad-share");
  if (!box) return;
  box.replaceWith(share());
  if (!ok) selectLink(/** @type {HTMLInputElement} */ (document.getElementById(which === "editor" ? "pad-editor-link" : "pad-share-link")));
}

/**
 * Select the whole link in its field (on a phone too, where select() alone may select nothing).
 * @param {HTMLInputElement | null} field
 */
function selectLink(field) {
  if (!field) return;
  field.focus({ preventScroll: false });
  field.select();
  field.setSelectionRange(0, field.value.length);
}

function render(scroll = true) {
  if (!state) return;
  const had = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = had && main.contains(had) ? had.getAttribute("aria-label") : null;
  const title = t("{preset} · {players} players", { preset: presetTitle(state.rules.name), players: state.names.length });
  document.title = t("Score pad") + " — " + title;
  const parts = [el("p", { class: "pad-muted pad-title", text: title }), el("p", { class: "pad-muted pad-title pad-rules", text: rulesLine(state.rules) }), standing(), sheet()];
  if (padKey && (!state.over || editing)) parts.push(entryPanel());
  else if (padKey && state.over) parts.push(el("div", { class: "pad-card" }, el("p", { text: t("The game is over. Tap a hand to correct it, or undo the last one.") }), el("button", { type: "button", class: "btn ghost", id: "pad-undo", text: t("Undo last hand"), onclick: undo })));
  parts.push(share());
  parts.push(el("a", { href: "#", class: "pad-new", text: t("New score pad") }));
  const y = window.scrollY;
  main.replaceChildren(...parts);
  if (!scroll) window.scrollTo(0, y);
  if (focused && had) {
    let again = /** @type {HTMLElement | undefined} */ ([...main.querySelectorAll("[aria-label]")].find((n) => n.getAttribute("aria-label") === focused));
    // The box being typed into stays the same box (it shows the same number): its caret or selection, and
    // a key pressed just before this drawing, stay as they were.
    if (again && sameField(had, again)) {
      again.replaceWith(had);
      again = had;
    }
    refocusing = true;
    try {
      again?.focus({ preventScroll: true });
    } finally {
      refocusing = false;
    }
  }
}

/**
 * The field being typed into and the one just drawn in its place hold the same thing.
 * @param {Element} had
 * @param {Element} drawn
 */
function sameField(had, drawn) {
  if (!(had instanceof HTMLInputElement) || !(drawn instanceof HTMLInputElement) || had.className !== drawn.className || had.type !== drawn.type) return false;
  return had.type === "number" ? (Number(had.value) || 0) === (Number(drawn.value) || 0) : had.value === drawn.value;
}

/** What the sheet was set up with, in words: the moon and the scoring (the standing says when it ends). */
/** @param {Record<string, any>} r */
function rulesLine(r) {
  const parts = [];
  parts.push(`${optionLabel("moon")}: ${choiceLabel("moon", r.moon)}`);
  parts.push(`${optionLabel("settlement")}: ${choiceLabel("settlement", r.settlement)}`);
  if (r.settlement === "chips_1887") parts.push(ngettext("revoke: {n} chip", "revoke: {n} chips", r.revoke_penalty));
  return parts.join(" · ");
}

// ------------------------------------------------------------ start
/** @param {string} code */
async function setLang(code) {
  await loadLang(code, (l) => `/api/i18n/${l}`);
  /** @type {HTMLElement} */ (document.getElementById("pad-heading")).textContent = t("Score pad");
  document.querySelector(".pad-lang")?.setAttribute("aria-label", t("Language"));
  for (const b of document.querySelectorAll("[data-lang]")) b.setAttribute("aria-pressed", String(b.getAttribute("data-lang") === currentLang()));
  Object.assign(DIRECTIONS, { left: t("left"), right: t("right"), across: t("across"), hold: t("no pass") });
  if (!started) return;
  if (state) render(false);
  else if (!location.hash.replace(/^#\/?/, "")) showCreate(readFields(/** @type {HTMLElement} */ (main.querySelector("form.pad-create"))));
}

let started = false;

for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => setLang(b.getAttribute("data-lang") || "en"));
window.addEventListener("hashchange", route);
const params = new URLSearchParams(location.search);
await setLang(params.get("lang") || preferredLang());
started = true;
route();
