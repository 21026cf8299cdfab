// @ts-check
// Texts are written in English as t("English {x}", {x}) and translated from the one gettext
// catalog of the project, which the server serves as JSON (corazones.i18n.catalog_json).
// Babel extracts t("...") and ngettext("...", "...") from these files (babel.cfg).

/** @typedef {Record<string, unknown>} Params values for a text's {placeholders} */

/** @type {Record<string, string>} */
let catalog = {};
let lang = "en";

/**
 * @param {string} text
 * @param {Params} [params]
 */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, /** @type {string} */ k) => (k in params ? String(params[k]) : m));
}

/**
 * Translate an English text and fill its {placeholders}.
 * @param {string} text
 * @param {Params} [params]
 */
export function t(text, params) {
  return fill(catalog[text] || text, params);
}

/** A refusal the server sent as {template, params}, translated; a parameter that is itself one is translated first.
 *  One with {plural, n} (a count's words, "1 point") takes the catalog's plural form.
 * @param {any} reason
 * @returns {string}
 */
export function explain(reason) {
  if (!reason || !reason.template) return "";
  /** @type {Params} */
  const params = {};
  // A whole number is a count or a limit (the server sends its counts as numbers): grouped as the page's
  // language groups digits, "10,000" or "10.000".
  for (const [k, v] of Object.entries(reason.params || {})) {
    params[k] = v && v.template ? explain(v) : Number.isInteger(v) ? v.toLocaleString(currentLang()) : v;
  }
  if (typeof reason.plural === "string") return ngettext(reason.template, reason.plural, reason.n, params);
  return t(reason.template, params);
}

/**
 * Plural: English singular/plural, n chooses; the catalog keys plurals as msgid + "\0" + index.
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Params} [params]
 */
export function ngettext(singular, plural, n, params) {
  const index = pluralIndex(n);
  const found = catalog[singular + "\u0000" + index];
  const text = found || (n === 1 ? singular : plural);
  return fill(text, { n, ...(params || {}) });
}

/** @param {number} n */
function pluralIndex(n) {
  // English and Spanish share the rule "one" / "other".
  return n === 1 ? 0 : 1;
}

export function currentLang() {
  return lang;
}

/**
 * `x` with `digits` decimals as the page's language writes numbers ("1.25" in English, "1,25" in Spanish).
 * @param {number} x
 * @param {number} digits
 */
export function num(x, digits) {
  return x.toLocaleString(currentLang(), { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
}

/** The language to use: saved choice, else the browser's, else English. */
export function preferredLang() {
  const saved = localStorage.getItem("corazones.lang");
  if (saved) return saved;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return nav === "es" ? "es" : "en";
}

/**
 * Load the catalog of `code` from the server (English needs none).
 * @param {string} code
 * @param {(lang: string) => string} url
 */
export async function loadLang(code, url) {
  lang = code === "es" ? "es" : "en";
  localStorage.setItem("corazones.lang", lang);
  document.documentElement.lang = lang;
  if (lang === "en") {
    catalog = {};
    return;
  }
  try {
    const res = await fetch(url(lang));
    catalog = res.ok ? await res.json() : {};
  } catch (e) {
    catalog = {};
  }
}
