// @ts-check
// The felt: the seats around it, the trick in the middle (each card on the side of whoever played it),
// the piles of won tricks, and what takes the middle between tricks: the waiting room, the hand summary,
// the game over box, the last trick. Views of the table screen (`tb`, the TableScreen of table.js).
import { cardElement, cardName, sortCards } from "./cards.js";
import { ngettext, t } from "./i18n.js";
import { arrive, centre, leave } from "./motion.js";
import { gameOverPanel, summaryPanel } from "./results.js";
import { teamOf } from "./state.js";
import { copyText, h, openDialog, shortScreen } from "./ui.js";
import { glue, levelName } from "./words.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {import("./state.js").Trick} Trick */
/** @typedef {import("./state.js").TableInfo} TableInfo */
/** @typedef {{tricks: number, cards: string[]}} Pile */

/**
 * Where a seat sits around the felt, yours at the bottom: the direction from the middle.
 * @param {TableScreen} tb
 * @param {number} seat
 */
export function relPos(tb, seat) {
  const n = tb.store.nPlayers();
  const me = tb.store.seat === null ? 0 : tb.store.seat;
  const k = (seat - me + n) % n;
  const angle = (90 + (k * 360) / n) * (Math.PI / 180);
  return { cos: Math.cos(angle), sin: Math.sin(angle), k };
}

/** @param {TableScreen} tb */
export function renderArena(tb) {
  const st = tb.store;
  if (!st.table) return;
  const v = st.view;
  const n = st.nPlayers();
  const W = tb.arena.clientWidth || 360;
  // Many seats on a narrow screen: smaller seat boxes, so they do not overlap.
  const compact = W < 600 && n > 5;
  // On a short, wide window a seat shows three lines (app.css): it is placed for that height.
  const short = shortScreen();
  const boxW = compact ? 92 : W < 600 ? 120 : 176;
  const boxH = short ? (compact ? 58 : 64) : compact ? 66 : W < 600 ? 84 : 100;
  const rx = Math.max(20, ((W / 2 - boxW / 2 - 6) / W) * 100);
  /** @type {HTMLElement[]} */
  const nodes = [];
  /** @type {{cos: number, sin: number, k: number}[]} */
  const spots = [];
  const piles = st.piles();
  for (let s = 0; s < n; s++) {
    if (s === st.seat) continue; // your own seat is the hand below
    const p = relPos(tb, s);
    const node = seatNode(tb, s, piles);
    if (compact) node.classList.add("compact");
    node.style.left = `${50 + rx * p.cos}%`;
    nodes.push(node);
    spots.push(p);
  }
  const seatEls = nodes.slice();
  const trick = h("div.trick", { "aria-label": t("Cards on the table"), role: "group" });
  const shown = st.shownTrick;
  const plays = shown ? shown.plays : v ? v.trick : [];
  const winner = shown ? shown.winner : null;
  /** @type {Record<string, number>} */
  const counts = {};
  for (const [, c] of plays) counts[c] = (counts[c] || 0) + 1;
  // The trick: a compact ring in the middle, each card on the side of the seat that played it.
  let tw = Math.round(compact ? 42 : W < 600 ? 52 : Math.min(88, Math.max(62, W * 0.08)));
  // A short felt: cards small enough that the seat above, the trick (its cards' height and a half) and the
  // felt's bottom fit one above the other.
  if (short) tw = Math.max(36, Math.min(tw, Math.round(((tb.arena.clientHeight || 320) - boxH - 8) / 1.7 / 1.4)));
  const spread = n > 4 ? 1.25 : 1;
  // Beside the seats to the left and right, never under them (a narrow screen brings them closer in).
  const sideways = (/** @type {number} */ w) => Math.min(w * 1.05 * spread, Math.max(w * 0.75, W / 2 - boxW - 8 - w / 2));
  let dx = sideways(tw);
  let dy = tw * 1.4 * 0.6 * spread;
  // Placed once the seats are drawn: clear of them (fitTrick).
  const placed = plays.map(([s, c], i) => {
    const el = cardElement(c);
    el.setAttribute("aria-label", t("{name}: {card}", { name: st.nameOf(s), card: cardName(c) }));
    el.style.width = `${tw}px`;
    el.style.zIndex = String(10 + i);
    if (shown && s === winner) el.classList.add("win");
    if (st.table && st.table.rules.decks === 2 && counts[c] > 1) el.classList.add("cancelled");
    trick.append(el);
    return { el, p: relPos(tb, s) };
  });
  nodes.push(trick);
  const lastTrick = tb.lastTrickShown && v && v.last_trick && !shown && !st.summary && !v.game_over ? v.last_trick : null;
  if (shown) {
    const note = h("div.trick-note", { "aria-hidden": "true" }, winner === null
      ? t("Trick annulled")
      : winner === st.seat ? t("You take the trick") : t("{name} takes the trick", { name: st.nameOf(winner) }));
    nodes.push(note);
  } else if (!v) {
    nodes.push(waitingRoom(tb));
  } else if (st.summary) {
    nodes.push(summaryPanel(tb));
  } else if (st.reveal || v.game_over) {
    nodes.push(gameOverPanel(tb));
  } else if (lastTrick) {
    nodes.push(lastTrickPanel(tb, lastTrick));
  }
  // Cards the hand still shows, where a card of yours starts its way to the trick.
  const fromHand = new Map();
  for (const el of tb.handZone.querySelectorAll(".hand .card")) {
    const c = /** @type {HTMLElement} */ (el).dataset.card;
    if (c && !fromHand.has(c)) fromHand.set(c, centre(el));
  }
  // The focus stays on the control it was on (Continue, a game over button) when the felt is drawn again.
  const active = document.activeElement;
  const focusedId = active && active !== document.body && tb.arena.contains(active) ? active.id : "";
  tb.arena.replaceChildren(...nodes);
  const refocus = focusedId ? document.getElementById(focusedId) : null;
  if (refocus) refocus.focus({ preventScroll: true });
  // Up and down, from the felt's height once it has room for every box (roomForSeats).
  roomForSeats(tb, seatEls, spots, (W * rx) / 100, boxH);
  const H = tb.arena.clientHeight || 320;
  const ry = Math.max(20, ((H / 2 - boxH / 2 - 4) / H) * 100);
  seatEls.forEach((node, i) => { node.style.top = `${50 + ry * spots[i].sin}%`; });
  // Where the seats really stand decides where the trick goes: a seat's box grows with its text (two lines of
  // numbers in Spanish on a phone), and the trick keeps clear of every box.
  keepInside(tb, seatEls);
  let fit = fitTrick(tb, seatEls, tw, dx, dy);
  // A felt too short for the trick between the boxes above and below it (someone watching a phone held
  // sideways has a seat's box at the bottom too, where a player has their hand): smaller cards, down to
  // 36 px wide, rather than cards over a seat's name and numbers.
  while (!fit.clear && tw > 36 && plays.length) {
    tw = Math.max(36, Math.round(tw * 0.9));
    dx = sideways(tw);
    dy = tw * 1.4 * 0.6 * spread;
    fit = fitTrick(tb, seatEls, tw, dx, dy);
  }
  for (const { el, p } of placed) {
    el.style.width = `${tw}px`;
    el.style.left = `calc(50% + ${Math.round(dx * p.cos)}px)`;
    el.style.top = `${Math.round(fit.cy + fit.dy * p.sin)}px`;
  }
  const noteEl = /** @type {HTMLElement | null} */ (tb.arena.querySelector(".trick-note"));
  if (noteEl) placeNote(tb, noteEl, seatEls, fit, tw);
  // A card new on the table travels from the seat (or your hand) that played it.
  const keys = plays.map(([s, c]) => `${s}:${c}`);
  const before = tb.drawnPlays || [];
  const grows = before.length <= keys.length && before.every((k, i) => keys[i] === k);
  tb.drawnPlays = keys;
  if (grows && keys.length > before.length) {
    const els = trick.querySelectorAll(".card");
    for (let i = before.length; i < keys.length; i++) {
      const [s, c] = plays[i];
      const from = s === st.seat ? (fromHand.get(c) || centre(tb.handZone)) : centre(tb.arena.querySelector(`.seat[data-seat="${s}"]`));
      arrive(/** @type {HTMLElement} */ (els[i]), from, "play", "translate(-50%, -50%)");
    }
  }
}

/**
 * A felt tall enough for its seats. Six or more seats on a short felt (a phone on its side, a desktop at 200%
 * zoom) put two neighbours on the same side closer in height than a box is tall, and one box would hide the
 * other's name or points. Where the felt grows with the page (900 px wide or less: the page scrolls) the arena
 * is given the height that keeps every two boxes that stand above one another apart; beside the side panel the
 * felt is the window's height, and its boxes stay as they are.
 * @param {TableScreen} tb
 * @param {HTMLElement[]} seats the seat boxes, drawn (their height is their text's)
 * @param {{cos: number, sin: number}[]} spots each box's direction from the middle
 * @param {number} rx how far a box at the side stands from the middle, in pixels
 * @param {number} boxH the height a box is placed for (renderArena)
 */
function roomForSeats(tb, seats, spots, rx, boxH) {
  let need = 0;
  if (window.matchMedia("(max-width: 900px)").matches) {
    const sizes = seats.map((el) => el.getBoundingClientRect());
    const gap = 6;
    for (let i = 0; i < seats.length; i++) {
      for (let j = i + 1; j < seats.length; j++) {
        const apart = Math.abs(spots[i].sin - spots[j].sin);
        if (apart < 0.01 || rx * Math.abs(spots[i].cos - spots[j].cos) >= (sizes[i].width + sizes[j].width) / 2) continue;
        const bh = Math.max(sizes[i].height, sizes[j].height);
        // A box stands (H / 2 - boxH / 2 - 4) * sin from the middle: the height at which the two are bh + gap apart.
        need = Math.max(need, 2 * ((bh + gap) / apart + boxH / 2 + 4));
      }
    }
  }
  // (Beyond the least height app.css gives the arena: 260 px, or 140 px on a short, wide window.)
  const min = need > (shortScreen() ? 140 : 260) ? `${Math.ceil(need)}px` : "";
  if (tb.arena.style.minHeight !== min) tb.arena.style.minHeight = min;
}

/**
 * Each seat's box wholly inside the felt: moved in by what it runs past an edge (a box taller than the
 * height it was placed for).
 * @param {TableScreen} tb
 * @param {HTMLElement[]} seats
 */
function keepInside(tb, seats) {
  const a = tb.arena.getBoundingClientRect();
  if (!a.width || !a.height) return;
  const gap = 2;
  for (const el of seats) {
    const r = el.getBoundingClientRect();
    const x = r.left < a.left + gap ? a.left + gap - r.left : r.right > a.right - gap ? a.right - gap - r.right : 0;
    const y = r.top < a.top + gap ? a.top + gap - r.top : r.bottom > a.bottom - gap ? a.bottom - gap - r.bottom : 0;
    if (x) el.style.left = `calc(${el.style.left} + ${Math.round(x)}px)`;
    if (y) el.style.top = `calc(${el.style.top} + ${Math.round(y)}px)`;
  }
}

/**
 * Where the trick's middle goes (`cy`, from the felt's top) and how far its cards stand from it up and down
 * (`dy`): in the middle of the felt when that is clear, else moved down (or up) until no card of any seat
 * would cover a seat's box above (or below) it, and drawn closer together when the felt is too short for that.
 * @param {TableScreen} tb
 * @param {HTMLElement[]} seats the seat boxes, drawn
 * @param {number} tw a card's width
 * @param {number} dx a card's distance from the middle, sideways
 * @param {number} dy a card's distance from the middle, up and down
 * @returns {{cy: number, dy: number, height: number, clear: boolean}} `clear`: no card covers a seat's box
 */
function fitTrick(tb, seats, tw, dx, dy) {
  const a = tb.arena.getBoundingClientRect();
  const W = a.width;
  const H = a.height;
  if (!W || !H) return { cy: (tb.arena.clientHeight || 320) / 2, dy, height: tb.arena.clientHeight || 320, clear: true };
  const ch = tw * 1.4; // a card's height (5:7)
  const gap = 4;
  const boxes = seats.map((el) => {
    const r = el.getBoundingClientRect();
    return { l: r.left - a.left, r: r.right - a.left, t: r.top - a.top, b: r.bottom - a.top };
  });
  const n = tb.store.nPlayers();
  const spots = Array.from({ length: n }, (_, s) => relPos(tb, s));
  let lo = 0;
  for (const k of [1, 0.9, 0.8, 0.7, 0.6]) {
    const ddy = dy * k;
    lo = -Infinity;
    let hi = Infinity;
    for (const p of spots) {
      const x = W / 2 + dx * p.cos;
      const oy = ddy * p.sin;
      lo = Math.max(lo, gap - oy + ch / 2);
      hi = Math.min(hi, H - gap - oy - ch / 2);
      for (const b of boxes) {
        if (b.r <= x - tw / 2 + 1 || b.l >= x + tw / 2 - 1) continue; // beside the card, not above or below it
        const mid = (b.t + b.b) / 2;
        if (mid < H / 2 - ch / 4) lo = Math.max(lo, b.b + gap - oy + ch / 2);
        else if (mid > H / 2 + ch / 4) hi = Math.min(hi, b.t - gap - oy - ch / 2);
      }
    }
    if (lo <= hi) return { cy: Math.min(Math.max(H / 2, lo), hi), dy: ddy, height: H, clear: true };
  }
  return { cy: lo, dy: dy * 0.6, height: H, clear: false }; // clear of the seats above, at least
}

/**
 * The trick's note ("Ana takes the trick") under its cards; where a seat's box is there (someone watching
 * has one at the bottom of the felt), just above that box; over the trick's middle when neither is clear,
 * never over a seat's name.
 * @param {TableScreen} tb
 * @param {HTMLElement} note
 * @param {HTMLElement[]} seats the seat boxes, drawn
 * @param {{cy: number, dy: number, height: number}} fit where the trick is (fitTrick)
 * @param {number} tw a card's width
 */
function placeNote(tb, note, seats, fit, tw) {
  const a = tb.arena.getBoundingClientRect();
  const r = note.getBoundingClientRect();
  const half = r.height / 2;
  const left = a.width / 2 - r.width / 2;
  const right = a.width / 2 + r.width / 2;
  const boxes = seats.map((el) => el.getBoundingClientRect())
    .map((b) => ({ l: b.left - a.left, r: b.right - a.left, t: b.top - a.top, b: b.bottom - a.top }));
  const clear = (/** @type {number} */ y) => boxes.every((b) => b.r <= left || b.l >= right || b.b <= y - half || b.t >= y + half);
  const under = Math.min(fit.cy + fit.dy + tw * 0.7 + 24, fit.height - 18);
  const above = boxes.filter((b) => b.t > fit.cy && b.r > left && b.l < right).map((b) => b.t - 4 - half);
  const y = [under, ...above].find((c) => c >= fit.cy && clear(c));
  note.style.top = `${Math.round(y === undefined ? fit.cy : y)}px`;
}

/**
 * The trick just finished sweeps to the pile of whoever took it (an annulled one stays for the next).
 * @param {TableScreen} tb
 * @param {Trick} trick
 * @param {number} ms
 */
export function sweepTrick(tb, trick, ms) {
  if (trick.winner === null || trick.winner === undefined) return;
  const target = trick.winner === tb.store.seat
    ? tb.handZone.querySelector(".pile") || tb.handZone.querySelector(".chip.mine")
    : tb.arena.querySelector(`.seat[data-seat="${trick.winner}"] .pile`) || tb.arena.querySelector(`.seat[data-seat="${trick.winner}"]`);
  const els = /** @type {HTMLElement[]} */ ([...tb.arena.querySelectorAll(".trick .card")]);
  leave(els, centre(target) || centre(tb.handZone), "sweep", ms, "translate(-50%, -50%)");
}

/**
 * The previous trick, card by card, and who took it: on demand at any moment of the play.
 * @param {TableScreen} tb
 * @param {Trick} tr
 */
function lastTrickPanel(tb, tr) {
  const st = tb.store;
  const box = h("div.last-trick", { role: "region", "aria-label": t("Last trick"), id: "last-trick" });
  box.append(h("h3", null, t("Last trick")));
  const row = h("div.card-row");
  for (const [s, c] of tr.plays) {
    const el = cardElement(c);
    el.setAttribute("aria-label", t("{name}: {card}", { name: st.nameOf(s), card: cardName(c) }));
    if (s === tr.winner) el.classList.add("win");
    row.append(h("figure", null, el, h("figcaption", null, st.nameOf(s))));
  }
  box.append(row);
  box.append(h("p", null, tr.winner === null || tr.winner === undefined
    ? t("Nobody won it: it was annulled")
    : tr.winner === st.seat ? t("You took it") : t("{name} took it", { name: st.nameOf(tr.winner) })));
  box.append(h("button.btn.small", {
    type: "button",
    onclick: () => {
      tb.lastTrickShown = false;
      tb.render();
      // The Close button is gone with the panel: the focus goes back to the button that opened it.
      const again = /** @type {HTMLElement | null} */ (document.getElementById("last-trick-btn"));
      if (again) again.focus({ preventScroll: true });
    },
  }, t("Close")));
  return box;
}

/**
 * A seat's pile of won tricks: a small stack with its count; a click shows the penalty cards in it.
 * @param {TableScreen} tb
 * @param {number} s
 * @param {Pile[]} piles
 */
export function pileNode(tb, s, piles) {
  const p = piles[s];
  if (!p.tricks) return null;
  const name = tb.store.nameOf(s);
  const stack = h("span.pile-stack", { "aria-hidden": "true" });
  for (let i = 0; i < Math.min(p.tricks, 4); i++) stack.append(h("span"));
  return h("button.pile", {
    type: "button", id: `pile-${s}`,
    "aria-label": ngettext("{name}: {n} trick won; show the penalty cards", "{name}: {n} tricks won; show the penalty cards", p.tricks, { name }),
    onclick: (/** @type {Event} */ ev) => { ev.stopPropagation(); showPile(tb, s); },
  }, h("span.pile-face", null, stack, h("span.pile-n", null, String(p.tricks))));
}

/**
 * @param {TableScreen} tb
 * @param {number} s
 */
async function showPile(tb, s) {
  const st = tb.store;
  const p = st.piles()[s];
  const title = s === st.seat ? t("Your tricks") : t("Tricks of {name}", { name: st.nameOf(s) });
  await openDialog((close) => h("div.dlg", null,
    h("h2", null, title),
    h("p", null, ngettext("{n} trick won this hand.", "{n} tricks won this hand.", p.tricks)),
    p.cards.length
      ? h("div.card-row", null, sortCards(p.cards).map((c) => cardElement(c)))
      : h("p.muted", null, t("No penalty card.")),
    h("div.actions", null, h("button.btn.primary", { type: "button", onclick: () => close(null) }, t("Close")))),
  { label: title });
  // Back on the pile that opened it (drawn anew meanwhile if a card was played), not at the page's top.
  const pile = /** @type {HTMLElement | null} */ (document.getElementById(`pile-${s}`));
  if (pile && (!document.activeElement || document.activeElement === document.body)) pile.focus({ preventScroll: true });
}

/**
 * A seat around the felt: its name, person or bot, cards left, won tricks, points and score (or chips),
 * its bid; a seat to take or a player to remove when that can be done.
 * @param {TableScreen} tb
 * @param {number} s
 * @param {Pile[]} piles
 */
function seatNode(tb, s, piles) {
  const st = tb.store;
  const table = /** @type {TableInfo} */ (st.table);
  /** @type {import("./state.js").SeatInfo} */
  const info = (table.seats || []).find((x) => x.seat === s) || { seat: s, name: t("Seat {n}", { n: s + 1 }), kind: "bot", status: "bot" };
  const v = st.view;
  const mine = s === st.seat;
  const turn = v && !v.game_over && !st.summary && !st.shownTrick && v.to_act.includes(s);
  const cls = ["seat"];
  if (turn) cls.push("turn");
  if (mine) cls.push("me");
  if (info.status === "away") cls.push("away");
  const held = info.player !== null && info.player !== undefined;
  const who = info.status === "bot" || info.kind === "bot"
    ? (held && info.kind === "human"
      ? t("bot for now ({level})", { level: levelName(info.level) })
      : t("bot: {level}", { level: levelName(info.level) }))
    : info.status === "away" ? t("away, seat kept") : info.status === "empty" ? t("free seat") : t("human");
  const name = mine ? t("{name} (you)", { name: info.name }) : st.seatName(s);
  const lines = [h("div.name", null, v && v.dealer === s ? h("span.dealer", { title: t("Dealer"), "aria-label": t("Dealer") }, "D") : null, " ", name)];
  lines.push(h("div.meta", null, h("span.level", null, who)));
  if (table.rules.partnership) lines.push(h("div.meta", null, t("Team {team}", { team: teamOf(s) })));
  /** @type {Record<string, string>} */
  const data = { seat: String(s) };
  if (v) {
    // A seat that has passed still owns its passed cards, face down until everyone has passed: counted with
    // its hand, so no seat seems to hold fewer cards than you (as in the terminal game), and marked with a
    // tick (read out as "passed"), short enough that eight seats on a phone keep their height.
    const passed = v.phase === "pass" && !mine && st.seat !== null && v.hand_sizes[s] < v.hand_sizes[st.seat];
    const cards = v.hand_sizes[s] + (passed ? v.pass_count : 0);
    const pts = v.points_taken[s];
    const total = v.scores[s];
    const chips = table.rules.settlement !== "points";
    const count = ngettext("{n} card", "{n} cards", cards);
    const tick = passed ? [h("span.tick", { "aria-hidden": "true", title: t("passed") }, "✓"), h("span.sr-only", null, ` · ${t("passed")}`)] : null;
    lines.push(h("div.meta", null, h("span", null, count, tick), pileNode(tb, s, piles)));
    // Chip games keep no score: the seat shows its chips instead. A number never wraps away from its word.
    lines.push(h("div.meta.nums", null, h("span", null, glue(chips
      ? t("took {p} · {c}", { p: pts, c: ngettext("{n} chip", "{n} chips", v.chips[s]) })
      : t("took {p} · score {s}", { p: pts, s: total })))));
    Object.assign(data, { took: String(pts), score: String(total), chips: String(v.chips[s]) });
    const bid = (v.bids || []).find((b) => b[0] === s);
    if (bid) lines.push(h("div.meta", null, bid[1] ? t("bid {n}", { n: bid[1] }) : t("no bid")));
    if (!mine && cards) {
      const backs = h("div.mini-backs", { "aria-hidden": "true" });
      for (let i = 0; i < Math.min(cards, 13); i++) backs.append(h("span"));
      lines.push(backs);
    }
  }
  if (!v && table.status === "open" && info.status === "empty" && st.seat === null) {
    lines.push(h("button.btn.small.gold", { type: "button", onclick: () => tb.sit(s) }, t("Sit here")));
  }
  if (v && st.seat === null && info.kind === "human" && info.status === "bot" && !held) {
    lines.push(h("button.btn.small.gold", { type: "button", onclick: () => tb.sit(s) }, t("Take this seat")));
  }
  if (st.player && table.owner === st.player.id && table.status !== "finished" && info.kind === "human"
    && held && info.player !== st.player.id) {
    lines.push(h("button.btn.small.ghost.seat-remove", { type: "button", onclick: () => tb.removeSeat(s, name) }, t("Remove")));
  }
  const label = [name, who, turn ? t("to play") : ""].filter(Boolean).join(", ");
  return h("div." + cls.join("."), { "aria-label": label, role: "group", dataset: data }, ...lines);
}

/**
 * Before the game: who is still awaited, the invite link, start now (the host), leave the seat.
 * @param {TableScreen} tb
 */
function waitingRoom(tb) {
  const st = tb.store;
  const tbl = /** @type {TableInfo} */ (st.table);
  const box = h("div.center-msg");
  box.append(h("h2", null, t("Waiting for players")));
  const free = tbl.seats.filter((s) => s.status === "empty").length;
  box.append(h("p", null, ngettext("{n} seat is free. Send the invite link to a friend.", "{n} seats are free. Send the invite link to a friend.", free)));
  const url = tbl.invite_url;
  if (url) {
    const input = h("input", { type: "text", readonly: true, value: url, "aria-label": t("Invite link") });
    box.append(h("div.invite", null, input, h("button.btn.gold", { type: "button", onclick: () => copyText(url) }, t("Copy link"))));
  }
  if (st.player && tbl.owner === st.player.id) {
    box.append(h("p", null, h("button.btn.primary", { type: "button", onclick: () => tb.startNow() }, t("Start now: bots take the free seats"))));
  }
  if (st.seat !== null) box.append(h("p", null, h("button.btn.ghost.small", { type: "button", onclick: () => tb.stand() }, t("Leave the seat"))));
  return box;
}
