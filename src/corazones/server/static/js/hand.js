// @ts-check
// Your hand and the bar above it: your chip (points, score or chips, bid), the prompt, Pass, Hint and
// Last trick; the cards, sized to fit in one or two rows, chosen for the pass or played by click, touch
// (a first touch arms a card) or keys. A view of the table screen (`tb`, the TableScreen of table.js).
import { cardElement, cardName, cardShort, parseCard, sortCards, suitName } from "./cards.js";
import { ngettext, t } from "./i18n.js";
import { arrive, centre, leave } from "./motion.js";
import { copyKey, teamOf } from "./state.js";
import { announce, h, shortScreen, toast } from "./ui.js";
import { pileNode } from "./arena.js";
import { passWay } from "./words.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {import("./state.js").View} View */
/** @typedef {import("./state.js").TableInfo} TableInfo */

/**
 * What the bar says to do now.
 * @param {TableScreen} tb
 * @param {View} v
 * @param {string | null} decision
 */
function promptText(tb, v, decision) {
  const st = tb.store;
  if (v.game_over) return t("Game over");
  if (decision === "pass") {
    return ngettext("Choose {n} card to pass {way}, to {name} ({k} chosen)", "Choose {n} cards to pass {way}, to {name} ({k} chosen)", v.pass_count, {
      way: passWay(v.pass_direction), name: st.nameOf(v.pass_to), k: st.selected.size,
    });
  }
  if (decision === "play") return t("Your turn: play a card");
  if (decision === "bid") return t("Your turn to bid");
  if (decision === "declare") return t("Name the penalty suit");
  if (decision === "moon") return t("You shot the moon! Choose how to score it");
  if (v.phase === "pass" && v.passed) return t("Waiting for the others to pass…");
  // Your own turn comes once the table has caught up (the last trick swept): nothing to wait for.
  if (v.to_act.length && v.to_act[0] !== st.seat) return t("Waiting for {name}…", { name: st.nameOf(v.to_act[0]) });
  return "";
}

/**
 * Your own chip: your name, team, points taken, score (or chips), bid, the dealer's mark.
 * @param {TableScreen} tb
 * @param {View} v
 * @param {number} me
 */
function myChip(tb, v, me) {
  const st = tb.store;
  const rules = /** @type {TableInfo} */ (st.table).rules;
  const chips = rules.settlement !== "points";
  const myBid = (v.bids || []).find((b) => b[0] === me);
  /** @type {(string | HTMLElement)[]} */
  const mine = [h("strong", null, st.seatName(me))];
  if (rules.partnership) mine.push(" · ", h("span.nowrap", null, t("Team {team}", { team: teamOf(me) })));
  mine.push(" · ", h("span.nowrap", null, ngettext("took {n} point", "took {n} points", v.points_taken[me])));
  mine.push(" · ", h("span.nowrap", null, chips ? ngettext("{n} chip", "{n} chips", v.chips[me]) : t("score {n}", { n: v.scores[me] })));
  if (myBid) mine.push(" · ", h("span.nowrap", null, myBid[1] ? t("bid {n}", { n: myBid[1] }) : t("no bid")));
  if (v.dealer === me) mine.push(h("span.dealer", { title: t("Dealer") }, "D"));
  const turn = !v.game_over && v.to_act.includes(me) && !st.showing();
  return h(turn ? "span.chip.mine.turn" : "span.chip.mine", {
    "aria-label": t("You"), dataset: { took: String(v.points_taken[me]), score: String(v.scores[me]), chips: String(v.chips[me]) },
  }, ...mine);
}

/** @param {TableScreen} tb */
export function renderHand(tb) {
  const st = tb.store;
  if (!st.table) return;
  const v = st.view;
  const zone = tb.handZone;
  zone.dataset.decision = "";
  const me = st.seat;
  if (!v || me === null || !v.hand) {
    zone.replaceChildren(me === null ? h("p.prompt", null, t("You are watching this table.")) : "");
    return;
  }
  const bar = h("div.hand-bar");
  const decision = liveDecision(tb);
  // Received cards are marked until the first trick is over (the docs promise no longer).
  const received = new Set(v.tricks_played === 0 && !st.shownTrick ? v.received || [] : []);
  zone.dataset.decision = decision || "";
  const prompt = promptText(tb, v, decision);
  bar.append(myChip(tb, v, me));
  const myPile = pileNode(tb, me, st.piles());
  if (myPile) bar.append(myPile);
  bar.append(h("span.prompt", { id: "prompt" }, prompt));
  // Say it once when a decision of yours begins (screen readers do not see the prompt change).
  const turnKey = decision ? `${v.hand_index}:${decision}:${v.tricks_played}:${v.trick.length}` : null;
  if (turnKey && turnKey !== tb.turnKey) announce(prompt);
  tb.turnKey = turnKey;
  if (decision === "pass") {
    bar.append(h("button.btn.gold", {
      type: "button", disabled: st.selected.size !== v.pass_count ? true : null, onclick: () => sendPass(tb),
      id: "pass-btn",
    }, t("Pass {n} cards", { n: v.pass_count })));
  }
  if (decision && !v.game_over) {
    bar.append(h("button.btn.small.ghost", { type: "button", onclick: () => tb.askHint(), id: "hint-btn" }, t("Hint")));
  }
  if (v.last_trick && !v.game_over && !st.summary) {
    bar.append(h("button.btn.small.ghost", {
      type: "button", "aria-pressed": tb.lastTrickShown ? "true" : "false", id: "last-trick-btn",
      onclick: () => { tb.lastTrickShown = !tb.lastTrickShown; tb.render(); },
    }, t("Last trick")));
  }
  const rows = [bar];
  if (st.hint && decision && decision in st.hint.action) { // a pass's hint says nothing about the first lead
    rows.push(h("p.prompt", { role: "status" }, st.hint.text + " — " + st.hint.reason));
  }
  if (received.size && v.received_from !== null) { // until the first trick is over, as the docs say
    rows.push(h("p.prompt", null, t("Received from {name}: {cards}", {
      name: st.nameOf(v.received_from), cards: sortCards([...received]).map(cardShort).join(" "),
    })));
  }
  const hand = cardsRow(tb, v, decision, received);
  rows.push(hand);
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const hadFocus = active && zone.contains(active) && active.dataset.card;
  // Hint, Pass or Last trick keeps the focus when the hand is drawn anew (a hint arrives, a card is played).
  const hadId = active && zone.contains(active) && !hadFocus ? active.id : "";
  zone.replaceChildren(...rows);
  const button = hadId ? document.getElementById(hadId) : null;
  if (button && !(button instanceof HTMLButtonElement && button.disabled)) button.focus({ preventScroll: true });
  if (received.size && tb.arrivedFor !== v.hand_index && v.received_from !== null && v.received_from !== undefined) {
    // The cards passed to you arrive from the seat that passed them.
    tb.arrivedFor = v.hand_index;
    const from = centre(tb.arena.querySelector(`.seat[data-seat="${v.received_from}"]`));
    for (const el of hand.querySelectorAll(".card.received")) arrive(/** @type {HTMLElement} */ (el), from, "receive");
  }
  playEarly(tb, decision);
  if (hadFocus) {
    const again = /** @type {HTMLElement | null} */ (hand.querySelector(`[data-card="${CSS.escape(hadFocus)}"]`) || hand.querySelector("[tabindex='0']"));
    if (again) again.focus();
  }
}

/**
 * Your decision as it stands now: none while the table still shows events or waits for the server.
 * The cards' handlers read it when pressed rather than when drawn, so a key or click that lands on a
 * hand drawn a moment before the table caught up still plays (a player would otherwise press twice).
 * @param {TableScreen} tb
 * @returns {string | null}
 */
function liveDecision(tb) {
  const st = tb.store;
  return st.view && !st.showing() ? st.view.decision : null;
}

/**
 * The cards of the hand as buttons, overlapped so the whole hand fits (two rows when too thin).
 * @param {TableScreen} tb
 * @param {View} v
 * @param {string | null} decision
 * @param {Set<string>} received
 */
function cardsRow(tb, v, decision, received) {
  const st = tb.store;
  const hand = h("div.hand", { role: "toolbar", "aria-label": t("Your hand"), "aria-orientation": "horizontal" });
  const cards = sortCards(v.hand || []);
  const legal = new Set(decision === "play" ? v.legal.filter((a) => a.play).map((a) => a.play) : []);
  const hintCard = st.hint && st.hint.action.play;
  const focusKey = tb.focusCard && cards.includes(tb.focusCard) ? tb.focusCard : null;
  const tabbable = focusKey || (decision === "play" ? cards.find((c) => legal.has(c)) : cards[0]);
  // Width: overlap the cards so the whole hand fits; two rows when they would be too thin.
  const width = tb.handZone.clientWidth || tb.felt.clientWidth || 360;
  let cw = width < 600 ? 62 : Math.round(Math.min(100, Math.max(62, width * 0.085)));
  // A short, wide window (a phone held sideways): cards a fifth of its height, so the felt above keeps its room.
  if (shortScreen()) cw = Math.min(cw, Math.max(48, Math.round((window.innerHeight * 0.2) / 1.4)));
  hand.style.setProperty("--card-w", `${cw}px`);
  const per = cards.length > 1 ? (width - 16 - cw) / (cards.length - 1) : cw;
  // Too thin a sliver of each card is hard to read and to touch: then two rows.
  const nrows = per < 34 ? 2 : 1;
  const perRow = Math.ceil(cards.length / nrows);
  const overlap = Math.min(6, (width - 16 - cw) / Math.max(1, perRow - 1) - cw);
  hand.style.setProperty("--overlap", `${overlap}px`);
  const lines = Array.from({ length: nrows }, () => h("div.hand-row"));
  if (nrows > 1) hand.classList.add("two-rows");
  cards.forEach((c, i) => {
    const el = cardElement(c, { button: true });
    let label = cardName(c);
    if (received.has(c)) { el.classList.add("received"); label += ", " + t("received"); }
    const key = copyKey(cards, i);
    el.dataset.key = key;
    if (decision === "pass") {
      // Two decks hold two copies of a card: each copy is chosen by itself.
      const sel = st.selected.has(key);
      if (sel) el.classList.add("selected");
      el.setAttribute("aria-pressed", sel ? "true" : "false");
    } else if (decision === "play") {
      if (!legal.has(c)) el.setAttribute("aria-disabled", "true");
      if (hintCard === c) { el.classList.add("selected"); label += ", " + t("suggested"); }
    } else {
      el.setAttribute("aria-disabled", "true");
    }
    el.onclick = () => {
      if (liveDecision(tb) === "pass") toggleSelect(tb, key);
      else onCardTap(tb, c, el);
    };
    el.setAttribute("aria-label", label);
    el.tabIndex = c === tabbable ? 0 : -1;
    el.onkeydown = (e) => onCardKey(tb, e, cards, i);
    el.onfocus = () => { tb.focusCard = c; };
    lines[Math.floor(i / perRow)].append(el);
  });
  hand.append(...lines);
  return hand;
}

/**
 * A touch picks the card up first and plays it on the second touch, so a slip costs nothing;
 * a mouse or a keyboard plays at once.
 * @param {TableScreen} tb
 * @param {string} card
 * @param {HTMLElement} el
 */
function onCardTap(tb, card, el) {
  if (tb.pointer === "touch" && tb.armed !== card) {
    tb.armed = card;
    for (const x of tb.handZone.querySelectorAll(".card.selected")) x.classList.remove("selected");
    el.classList.add("selected");
    return;
  }
  tb.armed = null;
  playCard(tb, card);
}

/**
 * Arrows, Home and End move along the hand; Enter or Space chooses (the pass) or plays the card.
 * @param {TableScreen} tb
 * @param {KeyboardEvent} e
 * @param {string[]} cards
 * @param {number} i
 */
function onCardKey(tb, e, cards, i) {
  const st = tb.store;
  const decision = liveDecision(tb);
  let j = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = cards.length - 1;
  else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    if (decision === "pass") {
      const key = copyKey(cards, i);
      if (e.key === "Enter" && st.view && st.selected.size === st.view.pass_count && st.selected.has(key)) sendPass(tb);
      else toggleSelect(tb, key);
    } else playCard(tb, cards[i]);
    return;
  }
  if (j === null) return;
  e.preventDefault();
  const btns = /** @type {NodeListOf<HTMLElement>} */ (tb.handZone.querySelectorAll(".hand .card"));
  btns.forEach((b, k) => { b.tabIndex = k === j ? 0 : -1; });
  btns[j].focus();
}

/**
 * Play `card` if it may be played now; else say why not.
 * @param {TableScreen} tb
 * @param {string} card
 */
export function playCard(tb, card) {
  const st = tb.store;
  const v = st.view;
  if (!v || v.decision !== "play") return;
  if (!v.legal.some((a) => a.play === card)) {
    toast(whyNot(v, card), "error");
    return;
  }
  if (st.showing()) {
    // The last trick is still being swept and the lead is yours: the card goes as soon as it has gone.
    if (!st.sent && !st.queue.length && st.shownTrick) {
      tb.early = card;
      for (const x of tb.handZone.querySelectorAll(".card.selected")) x.classList.remove("selected");
      const el = tb.handZone.querySelector(`.hand .card[data-key="${CSS.escape(card + "#0")}"]`);
      if (el) el.classList.add("selected");
    }
    return;
  }
  tb.early = null;
  tb.act({ seat: /** @type {number} */ (st.seat), play: card });
}

/**
 * Play the card chosen while the last trick was being swept, now that the table has caught up.
 * @param {TableScreen} tb
 * @param {string | null} decision
 */
function playEarly(tb, decision) {
  const card = tb.early;
  if (!card || tb.store.showing()) return;
  tb.early = null;
  if (decision === "play") setTimeout(() => playCard(tb, card), 0);
}

/**
 * Why a card cannot be played now, as the rule that forbids it.
 * @param {View} v
 * @param {string} card
 */
function whyNot(v, card) {
  const c = parseCard(card);
  const plays = /** @type {string[]} */ (v.legal.filter((a) => a.play).map((a) => a.play));
  if (v.tricks_played === 0 && !v.trick.length && plays.length === 1) {
    return t("The first trick is led with {card}: play it", { card: cardName(plays[0]) });
  }
  if (v.trick.length) {
    const led = parseCard(v.trick[0][1]).suit;
    if (c.suit !== led && (v.hand || []).some((x) => parseCard(x).suit === led)) {
      return t("You must follow suit: play a card of {suit}", { suit: suitName(led) });
    }
  } else if (c.suit === v.penalty_suit && !v.hearts_broken) {
    return t("{suit} are not broken yet: lead another suit", { suit: suitName(c.suit) });
  }
  return t("{card} cannot be played now", { card: cardName(card) });
}

/**
 * Choose or put back one card for the pass; `key` is the card and which copy of it ("QS#0").
 * @param {TableScreen} tb
 * @param {string} key
 */
export function toggleSelect(tb, key) {
  const st = tb.store;
  const v = st.view;
  if (!v || v.decision !== "pass") return;
  const card = key.split("#")[0];
  if (st.selected.has(key)) st.selected.delete(key);
  else if (st.selected.size < v.pass_count) st.selected.add(key);
  else {
    toast(ngettext("Choose exactly {n} card", "Choose exactly {n} cards", v.pass_count), "error");
    return;
  }
  tb.focusCard = card;
  renderHand(tb);
}

/**
 * Pass the chosen cards: they slide away toward the seat they go to.
 * @param {TableScreen} tb
 */
export function sendPass(tb) {
  const st = tb.store;
  const v = st.view;
  if (!v || v.decision !== "pass" || st.showing() || st.selected.size !== v.pass_count) return;
  const keys = [...st.selected];
  const els = keys.map((k) => tb.handZone.querySelector(`.hand .card[data-key="${CSS.escape(k)}"]`)).filter(Boolean);
  const to = centre(tb.arena.querySelector(`.seat[data-seat="${v.pass_to}"]`)) || centre(tb.top);
  leave(/** @type {HTMLElement[]} */ (els), to, "pass", 600);
  tb.act({ seat: /** @type {number} */ (st.seat), pass: keys.map((k) => k.split("#")[0]) });
  st.selected.clear();
}
