// @ts-check
// Presets and rule options as people read them, shared by the lobby (a new table) and the score pad
// (a new sheet): titles and descriptions of the presets, a label for every option and choice, and the
// form fields that edit options and read them back as the overrides the server takes (docs/rules.md).
import { t } from "./i18n.js";

/** @param {string} name a preset's name ("standard", "kitty", …) */
export function presetTitle(name) {
  switch (name) {
    case "standard": return t("Standard Hearts");
    case "black_lady": return t("Black Lady");
    case "kitty": return t("Hearts with a kitty");
    case "quick": return t("Quick: one hand");
    case "hearts_1887": return t("Hearts of 1887 (chips)");
    case "arnold_2011": return t("Plain Hearts (Arnold)");
    case "spot_hearts": return t("Spot Hearts");
    case "eagle_hearts": return t("Eagle Hearts");
    case "black_jack": return t("Black Jack");
    case "black_maria": return t("Black Maria");
    case "omnibus": return t("Omnibus Hearts");
    case "partnership": return t("Partnership Hearts");
    case "auction_hearts": return t("Auction Hearts");
    case "cancellation_hearts": return t("Cancellation Hearts (two decks)");
    case "four_jacks": return t("Four Jacks");
    case "chasse_coeur": return t("Chasse-Cœur");
    default: return name;
  }
}

/**
 * @param {string} name
 * @param {string | null | undefined} [fallback] the server's English description
 */
export function presetDescription(name, fallback) {
  switch (name) {
    case "standard": return t("The modern game: Q♠ 13, each heart 1; pass left, right, across, hold; to 100.");
    case "black_lady": return t("Same as standard (1909 'discard hearts').");
    case "kitty": return t("No cards stripped; the leftover cards form a kitty (12 each with four).");
    case "quick": return t("A single hand decides the game (ties play on).");
    case "hearts_1887": return t("The original of 1887: hearts only, no passing, eldest hand leads, scored in chips.");
    case "arnold_2011": return t("Plain Hearts: hearts only, no passing, eldest hand leads, to 80.");
    case "spot_hearts": return t("Hearts cost their spot value: A 14, K 13, Q 12, J 11, 10 to 2 face value.");
    case "eagle_hearts": return t("Hearts A 5, K 4, Q 3, J 2, the others 1.");
    case "black_jack": return t("J♠ (10 points) instead of Q♠.");
    case "black_maria": return t("British: Q♠ 13, A♠ 10, K♠ 7, hearts 1; pass right; usually 3 players.");
    case "omnibus": return t("Standard plus J♦ worth -10 to whoever takes it.");
    case "partnership": return t("Fixed partnerships in alternate seats; team scores.");
    case "auction_hearts": return t("Bid chips to name the penalty suit; the pool goes to a clean hand.");
    case "cancellation_hearts": return t("Two decks, 5 to 11 players; identical cards in a trick cancel each other.");
    case "four_jacks": return t("Every jack costs 1 and J♠ 2; hearts cost nothing.");
    case "chasse_coeur": return t("All four queens cost 13, hearts 1; if you cannot follow, discard a heart, else a queen.");
    default: return fallback || "";
  }
}

/** @param {string} key a rule's name */
export function optionLabel(key) {
  switch (key) {
    case "players": return t("Players");
    case "target": return t("Game ends at (points)");
    case "hands": return t("Number of hands");
    case "moon": return t("Shooting the moon");
    case "passes": return t("Passing");
    case "pass_count": return t("Cards passed");
    case "strip": return t("Cards removed for the player count");
    case "kitty_to": return t("Kitty goes to");
    case "first_lead": return t("First lead");
    case "no_points_first_trick": return t("No points on the first trick");
    case "must_break_hearts": return t("Hearts must be broken before they are led");
    case "queen_breaks_hearts": return t("The Q♠ breaks hearts");
    case "hearts": return t("Value of hearts");
    case "moon_needs": return t("The moon needs");
    case "tie_break": return t("A tie for the lowest score");
    case "settlement": return t("Scoring");
    case "stake": return t("Chips each");
    case "partnership": return t("Partnerships");
    case "auction": return t("Auction for the penalty suit");
    case "cancel_whole_trick": return t("Two-deck trick annulled when");
    case "decks": return t("Decks");
    default: return key;
  }
}

/**
 * @param {string} key a rule's name
 * @param {string} value one of its words
 */
export function choiceLabel(key, value) {
  /** @type {Record<string, string>} */
  const map = {
    choice: t("the shooter chooses"), add_to_others: t("add to the others"), subtract_from_self: t("subtract from the shooter"),
    off: t("off"), player: t("one player"), team: t("the team"), play_on: t("play on"), shared: t("shared win"),
    points: t("points"), chips_1887: t("chips (1887)"), chips_pool: t("chips with a pool"), average_stakes: t("stakes by average"),
    first_penalty: t("the first to take a penalty card"), first_trick: t("the winner of the first trick"),
    lowest_club: t("the lowest club"), eldest: t("the eldest hand"), kitty: t("none: a kitty"),
    one: t("1 each"), spot: t("spot value"), eagle: t("eagle values"), none: t("nothing"),
    two_pairs: t("two pairs cancel"), no_winner: t("no card can win"),
    eagle_face: t("eagle, the others at face value"), play_on_always: t("play on, after the agreed hands too"),
  };
  if (key === "strip" && value === "seed_003") return t("the usual cards (2♦, 2♣, …)");
  if (key === "strip" && value === "arnold_2011") return t("Arnold's cards (2♣, 2♦, …)");
  return map[value] || value;
}

/** @type {[string[] | null, () => string][]} */
export const PASS_CYCLES = [
  [null, () => t("default of the preset")],
  [["left", "right", "across", "hold"], () => t("left, right, across, hold")],
  [["left", "right"], () => t("left, right")],
  [["left"], () => t("left")],
  [["right"], () => t("right")],
  [["across"], () => t("across")],
  [["hold"], () => t("no passing")],
];

export const MAIN = ["players", "target", "hands", "moon", "passes", "pass_count"];
export const SKIP = new Set(["name", "description", "card_points", "discard_order"]);

/**
 * A form field for option `key` whose value in the preset is `value`: a select for the passing cycle
 * and for words (`choices`, from /api/options), a checkbox for yes/no, a number otherwise (blank is
 * "none" for target and hands). Each carries data-opt and data-kind for readOptions.
 * `idPrefix` keeps ids unique on a page; `onPlayers` runs when the number of players changes.
 */
/**
 * @param {string} key
 * @param {any} value
 * @param {any} choices
 * @param {{idPrefix?: string, onPlayers?: (() => void) | null}} [opts]
 */
export function optionField(key, value, choices, { idPrefix = "opt-", onPlayers = null } = {}) {
  const id = `${idPrefix}${key}`;
  const field = (/** @type {HTMLElement} */ control) => {
    const box = document.createElement("div");
    box.className = "field";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = optionLabel(key);
    box.append(label, control);
    return box;
  };
  const select = (/** @type {string} */ kind, /** @type {string[][]} */ items, /** @type {string} */ selected) => {
    const sel = document.createElement("select");
    sel.id = id;
    sel.dataset.opt = key;
    sel.dataset.kind = kind;
    for (const [v, text] of items) {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = text;
      if (v === selected) o.selected = true;
      sel.append(o);
    }
    return sel;
  };
  if (key === "passes") {
    const at = PASS_CYCLES.findIndex(([v]) => JSON.stringify(v) === JSON.stringify(value));
    return field(select("passes", PASS_CYCLES.map(([, label], i) => [String(i), label()]), String(Math.max(0, at))));
  }
  if (typeof value === "boolean") {
    const box = document.createElement("label");
    box.className = "check";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = id;
    input.checked = value;
    input.dataset.opt = key;
    input.dataset.kind = "bool";
    box.append(input, optionLabel(key));
    return box;
  }
  if (choices[key]) return field(select("word", choices[key].map((/** @type {string} */ c) => [c, choiceLabel(key, c)]), value));
  if (typeof value === "number" || value === null || key === "target" || key === "hands") {
    const input = document.createElement("input");
    Object.assign(input, { type: "number", id, min: key === "players" ? 3 : key === "pass_count" ? 0 : 1 });
    if (key === "players") input.max = "11";
    if (key === "decks") input.max = "2";
    input.inputMode = "numeric";
    input.dataset.opt = key;
    input.dataset.kind = "int";
    input.value = value === null ? "" : String(value);
    if (value === null) input.placeholder = t("none");
    if (key === "players" && onPlayers) input.addEventListener("input", onPlayers);
    return field(input);
  }
  return null;
}

/**
 * The options edited in `root` that differ from the preset's `rules` (what the server takes as overrides).
 * @param {ParentNode} root
 * @param {Record<string, any>} rules
 */
export function readOptions(root, rules) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const node of root.querySelectorAll("[data-opt]")) {
    const el = /** @type {HTMLInputElement} */ (node);
    const key = el.dataset.opt || "";
    const kind = el.dataset.kind;
    let v;
    if (kind === "passes") {
      v = PASS_CYCLES[Number(el.value)][0];
      if (v === null) continue;
    } else if (kind === "bool") v = el.checked;
    else if (kind === "int") {
      if (el.value.trim() === "") v = null;
      else {
        v = Number(el.value);
        if (!Number.isInteger(v)) throw new Error(t("{option}: a whole number, please", { option: optionLabel(key) }));
      }
    } else v = el.value;
    if (JSON.stringify(v) !== JSON.stringify(rules[key])) out[key] = v;
  }
  return out;
}

