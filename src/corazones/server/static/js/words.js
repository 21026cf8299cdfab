// @ts-check
// The table's words: speeds, bot levels, pass directions, table titles, and every move said as a
// sentence ("Bot 2 plays the queen of spades", "You pass …") for the log and the live region.
// Text only (no DOM): the table screen, the lobby and the replays share them.
import { cardName, suitName } from "./cards.js";
import { t } from "./i18n.js";
import { presetTitle } from "./options.js";

/** @typedef {import("./state.js").Action} Action */
/** @typedef {import("./state.js").TableEvent} TableEvent */
/** @typedef {import("./state.js").SeatInfo} SeatInfo */

/** @param {string} key a speed of SPEEDS */
export function speedName(key) {
  switch (key) {
    case "slow": return t("Slow");
    case "fast": return t("Fast");
    case "instant": return t("Instant");
    default: return t("Normal");
  }
}

/** @param {string | null | undefined} level a bot level ("random", "expert", …) */
export function levelName(level) {
  switch (level) {
    case "random": return t("random");
    case "beginner": return t("beginner");
    case "standard": return t("standard");
    case "expert": return t("expert");
    case "shooter": return t("moon shooter");
    case "moonshot": return t("searching moon shooter");
    case "learned": return t("learned");
    default: return level || "";
  }
}

/**
 * How a bot level plays, in a few words (the lobby lists the levels it offers), or "" for a level it does not know.
 * @param {string} level
 */
export function levelHelp(level) {
  switch (level) {
    case "random": return t("plays any legal card, at random");
    case "beginner": return t("plays the first rules of thumb: passes its highest cards, plays low");
    case "standard": return t("counts cards and defends against the moon");
    case "expert": return t("searches thousands of deals before each card");
    case "shooter": return t("goes for the moon whenever its hand makes it plausible");
    case "moonshot": return t("the expert's search, going for the moon only when the search finds that it pays");
    case "learned": return t("a small network trained on the expert's choices: quick");
    default: return "";
  }
}

/**
 * Where a pass goes, as the phrase after "Pass" ("to the left"), which reads well in every language.
 * @param {string | null | undefined} dir
 */
export function passWay(dir) {
  switch (dir) {
    case "left": return t("to the left");
    case "right": return t("to the right");
    case "across": return t("across the table");
    default: return t("no pass");
  }
}

/** @param {string | null | undefined} dir */
export function directionName(dir) {
  switch (dir) {
    case "left": return t("left");
    case "right": return t("right");
    case "across": return t("across");
    default: return t("no pass");
  }
}

/**
 * A table's name as shown: a name the server made from its host and an internal preset name
 * ("Lola · kitty") gets the preset's title in the reader's language instead.
 * @param {{name?: string | null, preset?: string | null}} table
 */
export function tableTitle(table) {
  const name = table.name || t("Table");
  const tail = ` · ${table.preset}`;
  return table.preset && name.endsWith(tail) ? name.slice(0, -tail.length) + " · " + presetTitle(table.preset) : name;
}

/**
 * Glue each number to the word before it (a no-break space), so that "score 0" never wraps between them.
 * @param {string} text
 */
export function glue(text) {
  return text.replace(/ (\d)/g, "\u00a0$1");
}

/**
 * The first characters of a hash, enough to recognise it.
 * @param {string | null | undefined} hex
 */
export function short(hex) {
  return hex ? hex.slice(0, 8) + "…" : "";
}

/**
 * A move said as a sentence: in the second person for your own ("You play …"), else with the mover's name.
 * @param {Action} a
 * @param {number | null} mySeat
 * @param {(seat: number) => string} nameOf
 */
export function describeAction(a, mySeat, nameOf) {
  if (mySeat !== null && a.seat === mySeat) return describeMine(a);
  const who = nameOf(a.seat);
  if (a.play) return t("{name} plays {card}", { name: who, card: cardName(a.play) });
  if ("pass" in a) {
    if (a.pass && a.pass.length) return t("{name} passes {cards}", { name: who, cards: a.pass.map(cardName).join(", ") });
    return t("{name} has passed", { name: who });
  }
  if ("bid" in a) return a.bid ? t("{name} bids {n}", { name: who, n: a.bid }) : t("{name} does not bid", { name: who });
  if (a.declare) return t("{name} names {suit} as the penalty suit", { name: who, suit: suitName(a.declare) });
  if (a.moon) {
    return a.moon === "add_to_others"
      ? t("{name} shot the moon and adds the points to everyone else", { name: who })
      : t("{name} shot the moon and subtracts the points from their own score", { name: who });
  }
  return who;
}

/**
 * Your own decisions, in the second person ("You play the queen of spades").
 * @param {Action} a
 */
function describeMine(a) {
  if (a.play) return t("You play {card}", { card: cardName(a.play) });
  if ("pass" in a) return a.pass && a.pass.length ? t("You pass {cards}", { cards: a.pass.map(cardName).join(", ") }) : t("You have passed");
  if ("bid" in a) return a.bid ? t("You bid {n}", { n: a.bid }) : t("You do not bid");
  if (a.declare) return t("You name {suit} as the penalty suit", { suit: suitName(a.declare) });
  if (a.moon) {
    return a.moon === "add_to_others"
      ? t("You shot the moon and add the points to everyone else")
      : t("You shot the moon and subtract the points from your own score");
  }
  return t("You");
}

/**
 * The log's line for a game event, or null for events the log leaves out.
 * @param {TableEvent} e
 * @param {number | null} mySeat
 * @param {(seat: number) => string} nameOf
 * @returns {string | null}
 */
export function eventLine(e, mySeat, nameOf) {
  switch (e.kind) {
    case "game_start": return t("The game starts. Shuffle commitment {c}", { c: short(e.commitment) });
    case "hand_start": {
      const n = (e.hand_index || 0) + 1;
      const dealer = nameOf(/** @type {number} */ (e.dealer));
      // A hand without a pass says so, not "pass no pass".
      if (!e.pass_direction || e.pass_direction === "hold") return t("Hand {n}: {dealer} deals; no pass", { n, dealer });
      return t("Hand {n}: {dealer} deals; pass {way}", { n, dealer, way: passWay(e.pass_direction) });
    }
    case "action": {
      let line = describeAction(/** @type {Action} */ (e.action), mySeat, nameOf);
      if (e.trick) {
        const w = e.trick.winner;
        line += ". " + (w === null || w === undefined
          ? t("Nobody wins the trick: it is annulled")
          : w === mySeat ? t("You win the trick") : t("{name} wins the trick", { name: nameOf(w) }));
      }
      return line;
    }
    // A hand's end with its result is the store's line (TableStore.handEndLine: points, a moon, totals).
    case "hand_end": return t("Hand {n} is over", { n: (e.result ? e.result.index : 0) + 1 });
    case "game_over": {
      const names = winnerNames(e, mySeat, nameOf);
      return names
        ? t("Game over, won by {names}. The shuffle seed is revealed: {seed}", { names, seed: e.seed || "" })
        : t("Game over. The shuffle seed is revealed: {seed}", { seed: e.seed || "" });
    }
    default: return null;
  }
}

/**
 * @param {TableEvent} e
 * @param {number | null} mySeat
 * @param {(seat: number) => string} nameOf
 */
function winnerNames(e, mySeat, nameOf) {
  return (e.winners || []).map((s) => (s === mySeat ? t("You") : nameOf(s))).join(", ");
}

/**
 * What is said aloud at the game's end: who won. The log's line also holds the shuffle seed, forty-odd
 * random characters that mean nothing read out (the Fairness tab checks it).
 * @param {TableEvent} e
 * @param {number | null} mySeat
 * @param {(seat: number) => string} nameOf
 */
export function gameOverSaid(e, mySeat, nameOf) {
  const names = winnerNames(e, mySeat, nameOf);
  return names ? t("Game over, won by {names}.", { names }) : t("Game over");
}

/**
 * The log's line when a seat changes hands (lost connection, a bot standing in, back, sat down), or null.
 * @param {SeatInfo | null} before
 * @param {SeatInfo} s
 * @returns {string | null}
 */
export function seatLine(before, s) {
  if (s.status === "away") return t("{name} lost the connection; the seat is kept for them", { name: s.name });
  if (s.status === "bot" && before && before.status === "away") return t("A bot plays for {name} until they come back", { name: s.name });
  if (s.status === "human" && before && before.status !== "human" && before.status !== "empty") return t("{name} is back", { name: s.name });
  if (s.status === "human") return t("{name} sits down", { name: s.name });
  return null;
}
