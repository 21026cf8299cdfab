// @ts-check
// Cards drawn as SVG: our own clean deck (corner indices, pips, framed court cards).
// A card is a string as in the records ("QS", "10H"); suits C D S H.
// Suit symbols are paths (no font needed), defined once in index.html as <symbol id="suit-X">.
import { t } from "./i18n.js";

export const SUITS = ["C", "D", "S", "H"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
/** @type {Record<string, string>} */
export const GLYPH = { C: "♣", D: "♦", S: "♠", H: "♥" };
/** @type {Record<string, boolean>} */
const RED = { D: true, H: true };

/**
 * Parse "QS" / "10H" / "TH" into {rank, suit, r (0..12), s (0..3)}.
 * @param {string} card
 */
export function parseCard(card) {
  const suit = card.slice(-1).toUpperCase();
  let rank = card.slice(0, -1).toUpperCase();
  if (rank === "T") rank = "10";
  return { rank, suit, r: RANKS.indexOf(rank), s: SUITS.indexOf(suit) };
}

/**
 * Sort key: by suit (clubs, diamonds, spades, hearts: alternating colours), then rank.
 * @param {string} card
 */
export function cardOrder(card) {
  const c = parseCard(card);
  return c.s * 13 + c.r;
}

/**
 * The cards in hand order (a copy).
 * @param {string[]} cards
 */
export function sortCards(cards) {
  return [...cards].sort((a, b) => cardOrder(a) - cardOrder(b));
}

/** @param {string} rank */
function rankName(rank) {
  switch (rank) {
    case "2": return t("two");
    case "3": return t("three");
    case "4": return t("four");
    case "5": return t("five");
    case "6": return t("six");
    case "7": return t("seven");
    case "8": return t("eight");
    case "9": return t("nine");
    case "10": return t("ten");
    case "J": return t("jack");
    case "Q": return t("queen");
    case "K": return t("king");
    default: return t("ace");
  }
}

/** @param {string} suit a suit letter: C, D, S or H */
export function suitName(suit) {
  switch (suit) {
    case "C": return t("clubs");
    case "D": return t("diamonds");
    case "S": return t("spades");
    default: return t("hearts");
  }
}

/**
 * The card in words, for screen readers and announcements: "queen of spades".
 * @param {string} card
 */
export function cardName(card) {
  const c = parseCard(card);
  return t("{rank} of {suit}", { rank: rankName(c.rank), suit: suitName(c.suit) });
}

/**
 * Short visible text: "Q♠".
 * @param {string} card
 */
export function cardShort(card) {
  const c = parseCard(card);
  return c.rank + GLYPH[c.suit];
}

// Pip positions on a 100 x 140 card: [x, y, upside down].
/** @type {Record<string, [number, number, number][]>} */
const PIPS = {
  2: [[50, 30, 0], [50, 110, 1]],
  3: [[50, 30, 0], [50, 70, 0], [50, 110, 1]],
  4: [[35, 30, 0], [65, 30, 0], [35, 110, 1], [65, 110, 1]],
  5: [[35, 30, 0], [65, 30, 0], [50, 70, 0], [35, 110, 1], [65, 110, 1]],
  6: [[35, 30, 0], [65, 30, 0], [35, 70, 0], [65, 70, 0], [35, 110, 1], [65, 110, 1]],
  7: [[35, 30, 0], [65, 30, 0], [50, 50, 0], [35, 70, 0], [65, 70, 0], [35, 110, 1], [65, 110, 1]],
  8: [[35, 30, 0], [65, 30, 0], [50, 50, 0], [35, 70, 0], [65, 70, 0], [50, 90, 1], [35, 110, 1], [65, 110, 1]],
  9: [[35, 30, 0], [65, 30, 0], [35, 57, 0], [65, 57, 0], [50, 70, 0], [35, 83, 1], [65, 83, 1], [35, 110, 1], [65, 110, 1]],
  10: [[35, 30, 0], [65, 30, 0], [50, 43, 0], [35, 57, 0], [65, 57, 0], [35, 83, 1], [65, 83, 1], [50, 97, 1],
       [35, 110, 1], [65, 110, 1]],
};

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {number} flip
 */
function pip(suit, x, y, size, flip) {
  const h = size / 2;
  const tr = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${tr}/>`;
}

/** @param {{rank: string, suit: string}} c */
function face(c) {
  // Court cards: a framed panel with the letter and the suit, point-symmetric like a real card.
  const crown = c.rank === "K" ? "M38 40 L42 28 L50 36 L58 28 L62 40 Z"
    : c.rank === "Q" ? "M40 40 Q50 24 60 40 Z" : "M42 40 L50 30 L58 40 Z";
  return `<rect x="22" y="18" width="56" height="104" rx="5" class="c-frame"/>
    <path d="${crown}" class="c-crown"/>
    <text x="50" y="76" class="c-court" text-anchor="middle">${c.rank}</text>
    ${pip(c.suit, 50, 100, 24, 0)}`;
}

/**
 * The SVG markup of a face-up card.
 * @param {string} card
 */
export function cardSVG(card) {
  const c = parseCard(card);
  const cls = RED[c.suit] ? "red" : "black";
  let middle;
  if (c.rank === "A") middle = pip(c.suit, 50, 70, c.suit === "S" ? 46 : 38, 0);
  else if (PIPS[c.rank]) middle = PIPS[c.rank].map(([x, y, f]) => pip(c.suit, x, y, 21, f)).join("");
  else middle = face(c);
  const idx = (/** @type {number} */ x, /** @type {number} */ y, /** @type {boolean} */ rot) => `<g${rot ? ` transform="rotate(180 50 70)"` : ""}>
      <text x="${x}" y="${y}" class="c-idx" text-anchor="middle"${c.rank === "10" ? ' textLength="19" lengthAdjust="spacingAndGlyphs"' : ""}>${c.rank}</text>
      ${pip(c.suit, x, y + 12, 14, 0)}</g>`;
  return `<svg class="card-svg ${cls}" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="98" height="138" rx="8" class="c-bg"/>
    ${idx(12, 22, false)}${idx(12, 22, true)}${middle}</svg>`;
}

/** The back of a card (other hands, the kitty). */
export function backSVG() {
  return `<svg class="card-svg back" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="98" height="138" rx="8" class="c-bg"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#card-back)"/>
    <use href="#suit-H" x="38" y="58" width="24" height="24" class="c-back-heart"/></svg>`;
}

/**
 * A card element: a <button> in a hand (focusable), a <div> elsewhere.
 * @param {string} card
 * @param {{button?: boolean}} [opts]
 */
export function cardElement(card, { button = false } = {}) {
  const el = document.createElement(button ? "button" : "div");
  el.className = "card";
  el.dataset.card = card;
  el.innerHTML = cardSVG(card);
  if (button) {
    el.setAttribute("type", "button");
    el.setAttribute("aria-label", cardName(card));
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(card));
  }
  return el;
}

// Value of each rank of the penalty suit under the rules' `hearts` scheme (as core/rules.py).
/** @type {Record<string, number[]>} */
const SCHEMES = {
  one: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  spot: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
  eagle: [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5],
  eagle_face: [2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 3, 4, 5],
  none: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
};

/**
 * Points a card carries under `rules` (a Rules dict) with `penaltySuit` ("H" unless named in an auction).
 * @param {string} card
 * @param {{card_points?: Record<string, number> | null, hearts?: string, [key: string]: any}} rules
 * @param {string} [penaltySuit]
 */
export function cardValue(card, rules, penaltySuit = "H") {
  const c = parseCard(card);
  const canon = c.rank + c.suit;
  if (rules.card_points && canon in rules.card_points) return rules.card_points[canon];
  if (c.suit === penaltySuit) return (SCHEMES[rules.hearts || "one"] || SCHEMES.one)[c.r];
  return 0;
}

/**
 * A card as short coloured text ("Q♠") named for screen readers: for tight places.
 * @param {string} card
 */
export function cardChip(card) {
  const c = parseCard(card);
  const el = document.createElement("span");
  el.className = `card-text ${RED[c.suit] ? "red" : "black"}`;
  el.dataset.card = card;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(card));
  el.textContent = cardShort(card);
  return el;
}
