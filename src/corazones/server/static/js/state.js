// @ts-check
// The table's state, without the page: how a view changes when a card is played or a hand ends,
// who won which tricks, chips held, teams. Pure functions of their arguments (the table screen in
// store.js holds the state; nothing here touches the DOM). The shapes the server sends are typed here
// (docs/protocol.md), loosely: only the fields the page reads.

/**
 * A move as the server sends it: one of play, pass, bid, declare or moon, with the seat that made it.
 * @typedef {{seat: number, play?: string, pass?: string[] | null, bid?: number, declare?: string, moon?: string}} Action
 */
/**
 * A finished trick: who played what in order, who led it, who won it (null: annulled).
 * @typedef {{plays: [number, string][], leader: number, winner: number | null}} Trick
 */
/**
 * A seat of the table: who sits there, a person or a bot, and how they are now.
 * @typedef {{seat: number, name: string, kind: string, status: string, level?: string | null, player?: number | null}} SeatInfo
 */
/**
 * The rules of a table (corazones.core.rules.Rules.to_dict); the page reads these few.
 * @typedef {{name?: string, players: number, decks?: number, settlement: string, stake?: number, partnership?: boolean,
 *   auction?: boolean, must_break_hearts?: boolean, target?: number | null, hands?: number | null,
 *   tie_break?: string | null, [key: string]: any}} Rules
 */
/**
 * A hand's result (HandResult.to_json): points taken, the hand's scores, totals after it, chips moved.
 * @typedef {{index: number, dealer: number, pass_direction: string, penalty_suit: string, declarer: number | null,
 *   bid: number | null, points: number[], scores: number[], shooter: number | null, moon_choice: string | null,
 *   kitty: string[], kitty_owner: number | null, penalty_cards: number[], chips_delta: number[], pool: number,
 *   totals: number[]}} HandResult
 */
/**
 * What one seat (or a spectator) sees of the game: Game.observation(seat).to_json().
 * @typedef {{seat: number | null, hand_index: number, dealer: number, phase: string, to_act: number[],
 *   decision: string | null, legal: Action[], hand: string[] | null, hand_sizes: number[],
 *   pass_direction: string, pass_to: number | null, pass_count: number, passed: string[], received: string[],
 *   received_from: number | null, bids: [number, number][], declarer: number | null, penalty_suit: string,
 *   trick: [number, string][], last_trick: Trick | null, tricks_played: number, hearts_broken: boolean,
 *   points_taken: number[], kitty_size: number, kitty_owner: number | null, scores: number[], chips: number[],
 *   pool: number, game_over: boolean, winners: number[], [key: string]: any}} View
 */
/**
 * A table as the server describes it (GET /api/tables/{id}, the snapshot's `table`).
 * @typedef {{id: string, name: string, preset: string, status: string, owner: number | null, rules: Rules,
 *   seats: SeatInfo[], invite_url?: string | null, commitment?: string | null, seed?: string | number | null,
 *   record_url?: string | null}} TableInfo
 */
/**
 * An event of the table's stream (its `kind` says which fields it has).
 * @typedef {{kind: string, seat?: any, action?: Action, trick?: Trick | null, result?: HandResult,
 *   commitment?: string, seats?: SeatInfo[], hand_index?: number, dealer?: number, pass_direction?: string,
 *   status?: string, seed?: string, record_url?: string, winners?: number[], scores?: number[], name?: string,
 *   text?: string}} TableEvent
 */

/**
 * A view with one play applied (the server sends a fresh view only with the last event of a batch):
 * the card leaves the hand and joins the trick, or closes it; nobody is left to act until the next view.
 * @param {any} view
 * @param {any} e an "action" event with a play (and the finished trick, if it closed one)
 * @param {number | null} mySeat
 */
export function applyPlay(view, e, mySeat) {
  const v = { ...view };
  const seat = e.action.seat;
  v.hand_sizes = v.hand_sizes.map((/** @type {number} */ n, /** @type {number} */ s) => (s === seat ? Math.max(0, n - 1) : n));
  if (v.hand && seat === mySeat) {
    const i = v.hand.indexOf(e.action.play);
    if (i >= 0) v.hand = v.hand.filter((/** @type {string} */ _, /** @type {number} */ k) => k !== i);
  }
  if (e.trick) {
    v.trick = [];
    v.last_trick = e.trick;
    v.tricks_played = (v.tricks_played || 0) + 1;
  } else {
    v.trick = [...v.trick, [seat, e.action.play]];
  }
  v.to_act = [];
  v.decision = null;
  v.legal = [];
  return v;
}

/**
 * The view at the end of a hand, settled from its result: the hand's points, the new totals, the chips
 * after the settlement and the pool; nobody is left to act (so the table agrees with the summary).
 * @param {View} v
 * @param {HandResult} r
 * @param {number[] | null} chips
 * @returns {View}
 */
export function settleView(v, r, chips) {
  // A view of a later hand (the one dealt since, after a reload): the hand over is the result's (all played).
  const later = v.hand_index !== r.index ? {
    hand_index: r.index, dealer: r.dealer, pass_direction: r.pass_direction, penalty_suit: r.penalty_suit, declarer: r.declarer,
    phase: "play", passed: [], received: [], received_from: null, pass_to: null, last_trick: null, hearts_broken: true,
    bids: r.declarer !== null && r.bid ? [/** @type {[number, number]} */ ([r.declarer, r.bid])] : [],
  } : {};
  return {
    ...v,
    ...later,
    points_taken: r.points.slice(),
    scores: r.totals.slice(),
    chips: chips || v.chips,
    pool: r.pool,
    to_act: [],
    decision: null,
    legal: [],
    trick: [],
    hand_sizes: v.hand_sizes.map(() => 0),
    hand: v.hand ? [] : v.hand,
  };
}

/**
 * Chips each seat holds after the hands in `history` (everyone starts with the stake).
 * @param {Rules} rules
 * @param {HandResult[]} history
 * @param {number} n players
 * @returns {number[]}
 */
export function chipTotals(rules, history, n) {
  const start = rules.settlement === "chips_1887" || rules.settlement === "chips_pool" ? (rules.stake || 0) : 0;
  const out = Array(n).fill(start);
  for (const res of history) (res.chips_delta || []).forEach((/** @type {number} */ d, /** @type {number} */ s) => { out[s] += d; });
  return out;
}

/**
 * A card of a sorted hand and which copy of it it is ("QS#0", "QS#1" with two decks).
 * @param {string[]} cards
 * @param {number} i
 */
export function copyKey(cards, i) {
  let k = 0;
  for (let j = 0; j < i; j++) if (cards[j] === cards[i]) k += 1;
  return `${cards[i]}#${k}`;
}

/**
 * Partners sit in alternate seats: team A holds the even seats, team B the odd ones.
 * @param {number} seat
 */
export function teamOf(seat) {
  return seat % 2 === 0 ? "A" : "B";
}

/**
 * Tricks won per seat and the penalty cards in them; an annulled trick's cards go to the winner of the
 * next trick, and when the hand's last trick is annulled (`complete`), to its leader.
 * @param {Trick[]} tricks
 * @param {number} n players
 * @param {(card: string) => boolean} penalty whether a card carries points
 * @param {boolean} complete the hand is over
 */
export function wonPiles(tricks, n, penalty, complete) {
  const out = Array.from({ length: n }, () => ({ tricks: 0, cards: /** @type {string[]} */ ([]) }));
  /** @type {string[]} */
  let pending = [];
  tricks.forEach((tr, i) => {
    const pile = [...pending, ...tr.plays.map(([, c]) => c)];
    let winner = tr.winner;
    if ((winner === null || winner === undefined) && complete && i === tricks.length - 1) winner = tr.leader;
    if (winner === null || winner === undefined) { pending = pile; return; }
    pending = [];
    out[winner].tricks += 1;
    for (const c of pile) if (penalty(c)) out[winner].cards.push(c);
  });
  return out;
}

/**
 * A change of score or chips with its sign ("+5", "-3", "0").
 * @param {number} n
 */
export function signed(n) {
  return n > 0 ? "+" + n : String(n);
}

/** @type {Record<string, string>} */
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * Text made safe for HTML built from our own icons (never used for what people type).
 * @param {unknown} s
 */
export function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ENTITIES[c]);
}
