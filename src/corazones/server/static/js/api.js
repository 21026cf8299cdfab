// @ts-check
// HTTP API of the server (docs/protocol.md): identity, lobby, records, statistics.
import { explain, t } from "./i18n.js";

/** @typedef {{id: number, name: string, kind?: string}} Player a signed-in person (a guest or an account) */

const TOKEN = "corazones.token";
const PLAYER = "corazones.player";

export function token() {
  return localStorage.getItem(TOKEN);
}

/** @returns {Player | null} the player signed in on this device */
export function me() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER) || "null");
  } catch (e) {
    return null;
  }
}

export function forget() {
  localStorage.removeItem(TOKEN);
  localStorage.removeItem(PLAYER);
}

/**
 * Keep the token and the player a sign-in returned.
 * @param {{token: string, player: Player}} reply
 */
function remember(reply) {
  localStorage.setItem(TOKEN, reply.token);
  localStorage.setItem(PLAYER, JSON.stringify(reply.player));
  return reply.player;
}

/** An error from the server, with the text it gave (FastAPI `detail`) when there is one. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: no answer)
   * @param {string} message
   * @param {any} [reason] the refusal as {template, params} when the server gave one (a screen may word it
   *   for its own fields, as the analysis board numbers the seats it shows)
   */
  constructor(status, message, reason = null) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

/** @param {any} detail */
function detailText(detail) {
  if (!detail) return "";
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((/** @type {any} */ d) => (d.loc ? d.loc.filter((/** @type {string} */ x) => x !== "body").join(".") + ": " : "") + (d.msg || "")).join("; ");
  }
  if (detail.reason && detail.reason.template) return explain(detail.reason);
  if (typeof detail.message === "string") return detail.message;
  return JSON.stringify(detail);
}

/**
 * Call the HTTP API; `extra` adds headers (the score pad's editing key).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [extra]
 * @returns {Promise<any>}
 */
export async function request(method, path, body, extra = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...extra };
  const tok = token();
  if (tok) headers.Authorization = "Bearer " + tok;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, t("The server cannot be reached"));
  }
  let data = null;
  const type = res.headers.get("content-type") || "";
  if (type.includes("json")) data = await res.json().catch(() => null);
  if (!res.ok) {
    const detail = data && data.detail;
    const text = detailText(detail) || res.statusText;
    throw new ApiError(res.status, text, detail && detail.reason && detail.reason.template ? detail.reason : null);
  }
  return data;
}

/** @param {string} name */
export async function guest(name) {
  return remember(await request("POST", "/api/auth/guest", { name }));
}

/**
 * @param {string} name
 * @param {string} password
 */
export async function register(name, password) {
  return remember(await request("POST", "/api/auth/register", { name, password }));
}

/**
 * @param {string} name
 * @param {string} password
 */
export async function login(name, password) {
  return remember(await request("POST", "/api/auth/login", { name, password }));
}

/** Renew the saved token (tokens expire, docs/protocol.md); forget it if the server no longer accepts it. */
export async function checkMe() {
  if (!token()) return null;
  try {
    return remember(await request("POST", "/api/auth/refresh", {}));
  } catch (e) {
    if (e.status === 401 || e.status === 403 || e.status === 404) forget();
    return me();
  }
}

export const getOptions = () => request("GET", "/api/options");
export const listTables = () => request("GET", "/api/tables");
export const getTable = (/** @type {string} */ id) => request("GET", `/api/tables/${encodeURIComponent(id)}`);
export const createTable = (/** @type {object} */ body) => request("POST", "/api/tables", body);
export const joinTable = (/** @type {string} */ id, seat = /** @type {number | null} */ (null), invite = /** @type {string | null} */ (null)) =>
  request("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, invite });
export const leaveTable = (/** @type {string} */ id) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {});
export const removeFromTable = (/** @type {string} */ id, /** @type {number} */ seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/remove`, { seat });
/** Sign out every other device: every earlier token stops working; this device keeps a fresh one. */
export async function signOutOthers() {
  return remember(await request("POST", "/api/auth/revoke", { keep_this_device: true }));
}
export const startTable = (/** @type {string} */ id) => request("POST", `/api/tables/${encodeURIComponent(id)}/start`, {});
export const listGames = (/** @type {number | null} */ player) => request("GET", "/api/games" + (player ? `?player=${player}` : ""));
export const getReplay = (/** @type {string} */ id) => request("GET", `/api/games/${encodeURIComponent(id)}/replay`);
export const getStats = (/** @type {number} */ player) => request("GET", `/api/players/${player}/stats`);
export const catalogUrl = (/** @type {string} */ lang) => `/api/i18n/${lang}`;
