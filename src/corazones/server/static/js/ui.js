// @ts-check
// Small DOM helpers shared by the screens: element builder, announcements, toasts, dialogs.
import { t } from "./i18n.js";

/**
 * h("div.cls", {attr}, ...children): a tiny element builder (strings become text nodes; only the `html`
 * attribute sets markup, and it is only given our own icons, never what people type).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children strings, numbers, nodes, arrays of them; null, undefined and false are skipped
 * @returns {any} the element (any: callers use it as the input, select or form it is)
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = /** @type {any} */ (document.createElement(name || "div"));
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "html") el.innerHTML = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "value") el.value = v;
      else if (k === "checked") el.checked = !!v;
      else el.setAttribute(k, v === true ? "" : v);
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * Run `redraw`, which draws `root`'s content anew, and put the focus back on the control that had it (found
 * by its id in the new content): a keyboard user who pressed *Next* is still on *Next*, not at the page's top.
 * @param {HTMLElement} root
 * @param {() => void} redraw
 */
export function keepFocus(root, redraw) {
  const had = document.activeElement;
  const id = had && had !== root && root.contains(had) ? had.id : "";
  redraw();
  if (!id || (document.activeElement && document.activeElement.id === id)) return;
  const again = /** @type {HTMLElement | null} */ (root.querySelector(`#${CSS.escape(id)}`));
  if (again) again.focus();
}

/**
 * Speak a line in the aria-live region (plays, tricks, results).
 * @param {string} text
 */
export function announce(text) {
  const box = document.getElementById("announce");
  if (!box) return;
  const line = document.createElement("div");
  line.textContent = text;
  // What was spoken, for anyone checking (the live region itself keeps only the last lines).
  /** @type {any} */
  const hooks = (window.__corazones = window.__corazones || {});
  /** @type {string[]} */
  const said = hooks.announced || (hooks.announced = []);
  said.push(text);
  if (said.length > 500) said.shift();
  box.append(line);
  while (box.firstChild && box.childNodes.length > 6) box.firstChild.remove();
}

/**
 * Whether the window is short and wide (a phone held sideways, a desktop zoomed to 200%): the table is then
 * drawn smaller so that it fits whole, as app.css's rules for the same query do.
 */
export function shortScreen() {
  return window.matchMedia("(orientation: landscape) and (max-height: 500px)").matches;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/**
 * A short message at the bottom of the page; errors stay longer.
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
export function toast(text, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.className = "toast" + (kind === "error" ? " error" : "");
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 5000 : 2500);
}

/**
 * The connection banner above the page, or none (null).
 * @param {string | null} text
 */
export function banner(text) {
  const el = document.getElementById("conn-banner");
  if (!el) return;
  if (!text) { el.hidden = true; el.textContent = ""; return; }
  el.textContent = text;
  el.hidden = false;
}

/**
 * Open a modal <dialog> built by `build(close)`; resolves with the value passed to close().
 * @param {(close: (value: any) => void) => Node} build
 * @param {{label?: string, cancellable?: boolean}} [opts]
 * @returns {Promise<any>}
 */
export function openDialog(build, { label, cancellable = true } = {}) {
  return new Promise((resolve) => {
    const dlg = document.createElement("dialog");
    if (label) dlg.setAttribute("aria-label", label);
    let done = false;
    const close = (/** @type {any} */ value) => {
      if (done) return;
      done = true;
      dlg.close();
      dlg.remove();
      resolve(value);
    };
    dlg.addEventListener("cancel", (e) => { if (!cancellable) e.preventDefault(); else close(null); });
    dlg.append(build(close));
    document.body.append(dlg);
    dlg.showModal();
    const first = /** @type {HTMLElement | null} */ (dlg.querySelector("[autofocus], button, input, select"));
    if (first) first.focus();
    dlg.closeDialog = close;
  });
}

/** Close every open dialog (when the state moves on without the user, e.g. a reconnect). */
export function closeDialogs() {
  for (const d of document.querySelectorAll("dialog")) {
    if (d.closeDialog) d.closeDialog(null);
  }
}

/** @param {string} text */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("Copied to the clipboard"));
  } catch (e) {
    toast(t("Select the link and copy it"));
  }
}

/**
 * A suit symbol as inline SVG (a copy of the shapes of index.html's symbol, not a <use>).
 * @param {string} suit
 * @param {string} [cls]
 */
export function suitIcon(suit, cls = "") {
  const sym = document.getElementById(`suit-${suit}`);
  const shapes = sym ? sym.innerHTML : "";
  return `<svg class="${cls}" viewBox="0 0 100 100" aria-hidden="true" focusable="false">${shapes}</svg>`;
}
