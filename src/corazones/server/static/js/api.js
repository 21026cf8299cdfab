// @ts-check
// HTTP API of the server (docs/protocol.md): identity, lobby, records, statistics.
import { explain, t } from "./i18n.js";

const TOKEN = "corazones.token";
const PLAYER = "corazones.player";

export function token() {
  return localStorage.getItem(TOKEN);
}

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

function remember(reply) {
  localStorage.setItem(TOKEN, reply.token);
  localStorage.setItem(PLAYER, JSON.stringify(reply.player));
  return reply.player;
}

/** An error from the server, with the text it gave (FastAPI `detail`) when there is one. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function detailText(detail) {
  if (!detail) return "";
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => (d.loc ? d.loc.filter((x) => x !== "body").join(".") + ": " : "") + (d.msg || "")).join("; ");
  }
  if (detail.reason && detail.reason.template) return explain(detail.reason);
  if (typeof detail.message === "string") return detail.message;
  return JSON.stringify(detail);
}

/** Call the HTTP API; `extra` adds headers (the score pad's editing key). */
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
    const text = detailText(data && data.detail) || res.statusText;
    throw new ApiError(res.status, text);
  }
  return data;
}

export async function guest(name) {
  return remember(await request("POST", "/api/auth/guest", { name }));
}

export async function register(name, password) {
  return remember(await request("POST", "/api/auth/register", { name, password }));
}

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
export const getTable = (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`);
export const createTable = (body) => request("POST", "/api/tables", body);
export const joinTable = (id, seat = /** @type {number | null} */ (null), invite = /** @type {string | null} */ (null)) =>
  request("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, invite });
export const leaveTable = (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {});
export const removeFromTable = (id, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/remove`, { seat });
/** Sign out every other device: every earlier token stops working; this device keeps a fresh one. */
export async function signOutOthers() {
  return remember(await request("POST", "/api/auth/revoke", { keep_this_device: true }));
}
export const startTable = (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/start`, {});
export const listGames = (player) => request("GET", "/api/games" + (player ? `?player=${player}` : ""));
export const getReplay = (id) => request("GET", `/api/games/${encodeURIComponent(id)}/replay`);
export const getStats = (player) => request("GET", `/api/players/${player}/stats`);
export const catalogUrl = (lang) => `/api/i18n/${lang}`;
