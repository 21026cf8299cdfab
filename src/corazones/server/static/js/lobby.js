// @ts-check
// The lobby: your name, a new table with any preset, options and a bot level per seat,
// and the open tables to join or watch.
import * as api from "./api.js";
import { restoreFields } from "./fields.js";
import { t } from "./i18n.js";
import { MAIN, SKIP, optionField as field, presetDescription, presetTitle, readOptions } from "./options.js";
import { leaderboardPanel } from "./ratings.js";
import { levelHelp, levelName, tableTitle } from "./words.js";
import { announce, h, keepFocus, toast } from "./ui.js";

export { presetDescription, presetTitle };

/**
 * What the server offers a new table (GET /api/options): the presets with their rules, the bot levels,
 * the words each rule may take.
 * @typedef {{presets: {name: string, description?: string, rules: Record<string, any>}[], levels: string[],
 *   choices?: Record<string, string[]>}} Offer
 */

export class Lobby {
  /**
   * `kept`: the fields of the lobby drawn before a language switch (readFields), put back into the name
   * form at once and into the new-table form once the presets have come and drawn it.
   */
  /**
   * @param {HTMLElement} root
   * @param {any} app
   * @param {any[] | null} [kept]
   */
  constructor(root, app, kept = null) {
    this.root = root;
    this.app = app;
    /** @type {Offer | null} */
    this.options = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
    this.render();
    restoreFields(this.who, kept);
    this.kept = kept;
    this.load();
  }

  destroy() {
    clearInterval(this.timer);
  }

  async load() {
    try {
      this.options = await api.getOptions();
    } catch (e) {
      toast(e.message, "error");
    }
    this.renderCreate();
    restoreFields(this.create, this.kept);
    this.kept = null;
    this.refreshTables();
    this.timer = setInterval(() => this.refreshTables(), 5000);
  }

  render() {
    this.who = h("section.panel", { "aria-labelledby": "who-h" });
    this.create = h("section.panel", { "aria-labelledby": "create-h" }, h("h2", { id: "create-h" }, t("New table")), h("p", null, t("Loading…")));
    this.tables = h("section.panel", { "aria-labelledby": "open-h" }, h("h2", { id: "open-h" }, t("Open tables")));
    this.renderWho();
    this.root.replaceChildren(h("div.page", null, this.who, h("div.lobby-grid", null, this.create, this.tables), leaderboardPanel()));
  }

  renderWho() {
    const player = api.me();
    const title = h("h2", { id: "who-h" }, t("Welcome to Corazones"));
    if (player) {
      this.who.replaceChildren(title, h("p", null, t("You play as {name}.", { name: player.name }), " ",
        h("button.btn.small.ghost", { type: "button", onclick: () => { api.forget(); this.app.refreshTop(); this.renderWho(); } }, t("Change name")), " ",
        h("button.btn.small.ghost", { type: "button", id: "sign-out-others", onclick: () => this.signOutOthers() }, t("Sign out other devices"))));
      return;
    }
    const input = h("input", { type: "text", id: "guest-name", maxlength: "40", autocomplete: "nickname", required: true, value: localStorage.getItem("corazones.lastName") || "" });
    const pass = h("input", { type: "password", id: "guest-pass", autocomplete: "current-password", minlength: "8" });
    const account = async (/** @type {"guest" | "login" | "register"} */ kind) => {
      const name = input.value.trim();
      if (!name) { toast(t("Type a name first"), "error"); input.focus(); return; }
      try {
        if (kind === "guest") await api.guest(name);
        else if (kind === "login") await api.login(name, pass.value);
        else await api.register(name, pass.value);
        localStorage.setItem("corazones.lastName", name);
        this.app.refreshTop();
        this.renderWho();
        // Signed in: the next step is a new table; say so and go there.
        announce(t("You play as {name}.", { name }));
        const go = /** @type {HTMLElement | null} */ (this.root.querySelector("#create-btn") || this.root.querySelector("#who-h"));
        if (go) go.focus();
      } catch (e) {
        toast(e.message, "error");
      }
    };
    this.who.replaceChildren(title,
      h("p", null, t("Choose a name to play. No account needed; with a password you can keep your statistics on any device.")),
      h("form", { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); account("guest"); } },
        h("div.row", null,
          h("div.field", null, h("label", { for: "guest-name" }, t("Your name")), input),
          h("div.field", null, h("button.btn.primary", { type: "submit", id: "guest-go" }, t("Play as a guest")))),
        h("details.options", { id: "account-more" }, h("summary", null, t("Account (optional)")),
          h("div.row", null,
            h("div.field", null, h("label", { for: "guest-pass" }, t("Password (8 characters or more)")), pass),
            h("div.field", null, h("div.row", null,
              h("button.btn", { type: "button", onclick: () => account("login") }, t("Log in")),
              h("button.btn", { type: "button", onclick: () => account("register") }, t("Create account"))))))));
  }

  /** Every other device (or anyone who copied this sign-in) is signed out; this one keeps playing. */
  async signOutOthers() {
    try {
      await api.signOutOthers();
      toast(t("Signed out on every other device."));
    } catch (e) {
      toast(e.message, "error");
    }
  }

  /** @param {string} name */
  presetRules(name) {
    const p = this.options && this.options.presets.find((x) => x.name === name);
    return p ? p.rules : {};
  }

  renderCreate() {
    /** @type {Offer["presets"]} */
    const presets = this.options ? this.options.presets : [{ name: "standard", description: "", rules: { players: 4 } }];
    const levels = this.options ? this.options.levels : ["random", "beginner", "standard", "expert"];
    const choices = (this.options && this.options.choices) || {};
    const saved = JSON.parse(localStorage.getItem("corazones.lastTable") || "{}");
    const state = {
      preset: presets.some((p) => p.name === saved.preset) ? saved.preset : "standard",
      seats: saved.seats || null,
    };
    const form = h("form", { id: "create-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.submit(form, state); } });
    const presetSel = h("select", { id: "preset", name: "preset" }, presets.map((p) => h("option", { value: p.name, selected: p.name === state.preset ? "selected" : null }, presetTitle(p.name))));
    const desc = h("p.help.muted", { id: "preset-desc" });
    const mainBox = h("div.options-grid");
    const moreBox = h("div.options-grid");
    const seatsBox = h("div.seat-levels", { role: "group", "aria-label": t("Seats") });
    const takeover = h("select", { id: "takeover" }, levels.map((l) => h("option", { value: l, selected: l === "standard" ? "selected" : null }, levelName(l))));

    const optionField = (/** @type {string} */ key, /** @type {any} */ value) => field(key, value, choices, { onPlayers: () => drawSeats() });

    const drawOptions = () => {
      const rules = this.presetRules(state.preset);
      const p = presets.find((x) => x.name === state.preset);
      desc.textContent = presetDescription(state.preset, p && p.description);
      mainBox.replaceChildren(...MAIN.filter((k) => k in rules).map((k) => optionField(k, rules[k])).filter(Boolean));
      moreBox.replaceChildren(...Object.keys(rules).filter((k) => !MAIN.includes(k) && !SKIP.has(k)).map((k) => optionField(k, rules[k])).filter(Boolean));
      drawSeats();
    };

    const drawSeats = () => {
      const pInput = form.querySelector("#opt-players");
      const n = Math.max(3, Math.min(11, Number(pInput ? pInput.value : 4) || 4));
      const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
      const prev = old.length ? old : state.seats || [];
      seatsBox.replaceChildren();
      for (let i = 0; i < n; i++) {
        const id = `seat-${i}`;
        const value = prev[i] || (i === 0 ? "me" : "bot:standard");
        const sel = h("select", { id, dataset: { seat: String(i) } },
          h("option", { value: "me", selected: value === "me" ? "selected" : null }, t("You")),
          h("option", { value: "human", selected: value === "human" ? "selected" : null }, t("A friend (invite)")),
          levels.map((l) => h("option", { value: `bot:${l}`, selected: value === `bot:${l}` ? "selected" : null }, t("Bot: {level}", { level: levelName(l) }))));
        seatsBox.append(h("div.field", null, h("label", { for: id }, t("Seat {n}", { n: i + 1 })), sel));
      }
    };

    presetSel.addEventListener("change", () => { state.preset = presetSel.value; drawOptions(); });
    form.append(
      h("div.field", null, h("label", { for: "preset" }, t("Game")), presetSel, desc),
      mainBox,
      h("details.options", { id: "create-more" }, h("summary", null, t("More rules")), moreBox),
      h("h3", null, t("Seats and computer players")),
      // Every level the server offers, with how it plays.
      h("ul.level-help", { "aria-label": t("Bot levels") }, levels.map((l) => h("li", null, h("strong", null, levelName(l)),
        levelHelp(l) ? ": " + levelHelp(l) : ""))),
      seatsBox,
      h("div.row", null,
        h("div.field", null, h("label", { for: "takeover" }, t("Bot that keeps a dropped player's seat warm")), takeover),
        h("div.field", null, h("label", { for: "table-name" }, t("Table name")), h("input", { type: "text", id: "table-name", maxlength: "40" }))),
      h("label.check", null, h("input", { type: "checkbox", id: "private" }), t("Private: not listed; only people with the link can sit")),
      h("div.row", null, h("button.btn.primary", { type: "submit", id: "create-btn" }, t("Create the table and sit down"))));
    this.create.replaceChildren(h("h2", { id: "create-h" }, t("New table")), form);
    drawOptions();
  }

  /**
   * @param {HTMLFormElement} form
   * @param {string} preset
   */
  readOptions(form, preset) {
    return readOptions(form, this.presetRules(preset));
  }

  /**
   * Create the table: signed in as a guest first when needed, then to the table.
   * @param {HTMLFormElement} form
   * @param {{preset: string, seats: string[] | null}} state
   */
  async submit(form, state) {
    try {
      if (!api.token()) {
        const nameInput = /** @type {HTMLInputElement | null} */ (document.getElementById("guest-name"));
        const name = nameInput && nameInput.value.trim();
        if (!name) { toast(t("Type your name first"), "error"); if (nameInput) nameInput.focus(); return; }
        await api.guest(name);
        localStorage.setItem("corazones.lastName", name);
        this.app.refreshTop();
      }
      const options = this.readOptions(form, state.preset);
      const picks = [...form.querySelectorAll("[data-seat]")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
      /** @type {number | null} */
      let mySeat = picks.indexOf("me");
      const seats = picks.map((p) => (p === "me" || p === "human" ? { kind: "human" } : { kind: "bot", level: p.slice(4) }));
      /** @param {string} sel */
      const field = (sel) => /** @type {HTMLInputElement} */ (form.querySelector(sel));
      /** @type {Record<string, unknown>} */
      const body = {
        preset: state.preset, options, seats, my_seat: mySeat >= 0 ? mySeat : null,
        private: field("#private").checked, takeover_level: field("#takeover").value,
      };
      const name = field("#table-name").value.trim();
      // Without a name, the table is named after its host and its rules, in the host's language.
      const host = (api.me() || { name: t("Guest") }).name;
      body.name = (name || `${host} · ${presetTitle(state.preset)}`).slice(0, 40);
      localStorage.setItem("corazones.lastTable", JSON.stringify({ preset: state.preset, seats: picks }));
      const info = await api.createTable(body);
      if (mySeat !== null && mySeat < 0) mySeat = null;
      location.hash = `#/table/${encodeURIComponent(info.id)}`;
    } catch (e) {
      toast(e.message, "error");
    }
  }

  async refreshTables() {
    /** @type {import("./state.js").TableInfo[]} */
    let list = [];
    try {
      list = await api.listTables();
    } catch (e) {
      return;
    }
    const rows = list.map((tb) => {
      const free = tb.seats.filter((s) => s.status === "empty" || (s.kind === "human" && s.status === "bot" && s.player === null)).length;
      const names = tb.seats.map((s) => (s.status === "empty" ? "—" : s.name)).join(", ");
      const join = free && api.me() !== undefined
        ? h("button.btn.small.primary", { type: "button", id: `join-${tb.id}`, "aria-label": t("Join {table}", { table: tableTitle(tb) }), onclick: () => this.join(tb.id) }, t("Join"))
        : null;
      return h("tr", null,
        h("td", null, h("strong", null, tableTitle(tb)), h("br"), h("span.muted", null, presetTitle(tb.preset))),
        h("td", null, names),
        h("td", null, tb.status === "open" ? t("waiting") : t("playing")),
        h("td", null, join, " ", h("a.btn.small", { id: `watch-${tb.id}`, href: `#/table/${encodeURIComponent(tb.id)}`, "aria-label": t("Watch {table}", { table: tableTitle(tb) }) }, t("Watch"))));
    });
    const body = rows.length
      ? h("table.list", null, h("thead", null, h("tr", null, h("th", null, t("Table")), h("th", null, t("Players")), h("th", null, t("State")), h("th", null, ""))), h("tbody", null, rows))
      : h("p.empty", null, t("No open table right now. Create one!"));
    // Drawn again every few seconds: a Join or Watch reached by keyboard keeps the focus.
    keepFocus(this.tables, () => this.tables.replaceChildren(h("h2", { id: "open-h" }, t("Open tables")), body));
  }

  /** @param {string} id */
  async join(id) {
    try {
      if (!api.token()) {
        const nameInput = /** @type {HTMLInputElement | null} */ (document.getElementById("guest-name"));
        const name = (nameInput && nameInput.value.trim()) || "";
        if (!name) { toast(t("Type your name first"), "error"); if (nameInput) nameInput.focus(); return; }
        await api.guest(name);
        this.app.refreshTop();
      }
      await api.joinTable(id, null, null);
      location.hash = `#/table/${encodeURIComponent(id)}`;
    } catch (e) {
      toast(e.message, "error");
    }
  }
}
