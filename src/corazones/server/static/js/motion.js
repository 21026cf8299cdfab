// @ts-check
// Cards that move: a played card travels from its seat to the trick, a finished trick sweeps to its
// winner's pile, passed cards slide away and received ones arrive. Web Animations only (no library);
// nothing here waits: every motion fits inside the pause the table already makes, so motion never
// delays the game or the server. Off with the "Motion" setting or the system's reduced motion.

/** How long each motion lasts at each speed, in milliseconds (instant: none). */
const DURATION = { slow: 420, normal: 320, fast: 140, instant: 0 };

/** Motions started, by kind, for anyone checking (the tests count them). */
export const started = { play: 0, sweep: 0, pass: 0, receive: 0 };

/** The "Motion" setting: "on" (default) or "off". */
export function motionSetting() {
  return localStorage.getItem("corazones.motion") === "off" ? "off" : "on";
}

/** @param {"on"|"off"} value */
export function setMotion(value) {
  localStorage.setItem("corazones.motion", value);
}

/** Whether cards move now: the setting is on, the system does not ask for less motion, the speed is not instant. */
export function motionOn() {
  if (motionSetting() === "off") return false;
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  return duration() > 0;
}

/** This speed's motion length in milliseconds. */
export function duration() {
  const s = localStorage.getItem("corazones.speed") || "normal";
  return /** @type {Record<string, number>} */ (DURATION)[s] ?? DURATION.normal;
}

/**
 * The centre of an element, or null when it is not laid out.
 * @param {Element | null | undefined} el
 * @returns {{x: number, y: number} | null}
 */
export function centre(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  if (!r.width && !r.height) return null;
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/**
 * Move `el` from `from` (a point on the page) to where it stands now.
 * @param {HTMLElement} el
 * @param {{x: number, y: number} | null} from
 * @param {"play"|"receive"} kind
 * @param {string} base the element's own transform (the trick's cards are centred with one)
 */
export function arrive(el, from, kind, base = "") {
  if (!from || !motionOn()) return null;
  const to = centre(el);
  if (!to) return null;
  const dx = Math.round(from.x - to.x);
  const dy = Math.round(from.y - to.y);
  started[kind] += 1;
  return el.animate(
    [
      { transform: `${base} translate(${dx}px, ${dy}px) scale(.8)`, opacity: kind === "receive" ? 0.2 : 1 },
      { transform: `${base} translate(0, 0) scale(1)`, opacity: 1 },
    ],
    { duration: duration(), easing: "cubic-bezier(.2,.7,.3,1)" },
  );
}

/**
 * Send `els` to `to` (a point on the page), shrinking and fading: a trick to its winner, passed cards away.
 * The elements keep their end state (they are drawn again or removed by the caller).
 * @param {HTMLElement[]} els
 * @param {{x: number, y: number} | null} to
 * @param {"sweep"|"pass"} kind
 * @param {number} ms
 * @param {string} base
 */
export function leave(els, to, kind, ms, base = "") {
  if (!to || !els.length || !motionOn()) return [];
  started[kind] += 1;
  return els.map((el) => {
    const from = centre(el);
    if (!from) return null;
    const dx = Math.round(to.x - from.x);
    const dy = Math.round(to.y - from.y);
    return el.animate(
      [
        { transform: `${base} translate(0, 0) scale(1)`, opacity: 1 },
        { transform: `${base} translate(${dx}px, ${dy}px) scale(.35)`, opacity: 0.15 },
      ],
      { duration: Math.max(80, Math.min(ms, duration() * 1.4)), easing: "ease-in", fill: "forwards" },
    );
  });
}
