// @ts-check
// The table's state, without the page: how a view changes when a card is played or a hand ends,
// who won which tricks, chips held, teams. Pure functions of their arguments (the table screen in
// table.js holds the state and draws it; nothing here touches the DOM).

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
 */
export function settleView(v, r, chips) {
  return {
    ...v,
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

/** Chips each seat holds after the hands in `history` (everyone starts with the stake). */
export function chipTotals(rules, history, n) {
  const start = rules.settlement === "chips_1887" || rules.settlement === "chips_pool" ? (rules.stake || 0) : 0;
  const out = Array(n).fill(start);
  for (const res of history) (res.chips_delta || []).forEach((d, s) => { out[s] += d; });
  return out;
}

/** A card of a sorted hand and which copy of it it is ("QS#0", "QS#1" with two decks). */
export function copyKey(cards, i) {
  let k = 0;
  for (let j = 0; j < i; j++) if (cards[j] === cards[i]) k += 1;
  return `${cards[i]}#${k}`;
}

/** Partners sit in alternate seats: team A holds the even seats, team B the odd ones. */
export function teamOf(seat) {
  return seat % 2 === 0 ? "A" : "B";
}

/**
 * Tricks won per seat and the penalty cards in them; an annulled trick's cards go to the winner of the
 * next trick, and when the hand's last trick is annulled (`complete`), to its leader.
 */
export function wonPiles(tricks, n, penalty, complete) {
  const out = Array.from({ length: n }, () => ({ tricks: 0, cards: /** @type {string[]} */ ([]) }));
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


/** A change of score or chips with its sign ("+5", "-3", "0"). */
export function signed(n) {
  return n > 0 ? "+" + n : String(n);
}

/** Text made safe for HTML built from our own icons (never used for what people type). */
export function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}
