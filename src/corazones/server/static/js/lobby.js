// The lobby: your name, a new table with any preset, options and a bot level per seat,
// and the open tables to join or watch.
import * as api from "./api.js";
import { t } from "./i18n.js";
import { directionName, levelName } from "./table.js";
import { h, toast } from "./ui.js";

export function presetTitle(name) {
  switch (name) {
    case "standard": return t("Standard Hearts");
    case "black_lady": return t("Black Lady");
    case "kitty": return t("Hearts with a kitty");
    case "quick": return t("Quick: one hand");
    case "hearts_1887": return t("Hearts of 1887 (chips)");
    case "arnold_2011": return t("Plain Hearts (Arnold)");
    case "spot_hearts": return t("Spot Hearts");
    case "eagle_hearts": return t("Eagle Hearts");
    case "black_jack": return t("Black Jack");
    case "black_maria": return t("Black Maria");
    case "omnibus": return t("Omnibus Hearts");
    case "partnership": return t("Partnership Hearts");
    case "auction_hearts": return t("Auction Hearts");
    case "cancellation_hearts": return t("Cancellation Hearts (two decks)");
    case "four_jacks": return t("Four Jacks");
    case "chasse_coeur": return t("Chasse-Cœur");
    default: return name;
  }
}

export function presetDescription(name, fallback) {
  switch (name) {
    case "standard": return t("The modern game: Q♠ 13, each heart 1; pass left, right, across, hold; to 100.");
    case "black_lady": return t("Same as standard (1909 'discard hearts').");
    case "kitty": return t("No cards stripped; the leftover cards form a kitty (12 each with four).");
    case "quick": return t("A single hand decides the game (ties play on).");
    case "hearts_1887": return t("The original of 1887: hearts only, no passing, eldest hand leads, scored in chips.");
    case "arnold_2011": return t("Plain Hearts: hearts only, no passing, eldest hand leads, to 80.");
    case "spot_hearts": return t("Hearts cost their spot value: A 14, K 13, Q 12, J 11, 10 to 2 face value.");
    case "eagle_hearts": return t("Hearts A 5, K 4, Q 3, J 2, the others 1.");
    case "black_jack": return t("J♠ (10 points) instead of Q♠.");
    case "black_maria": return t("British: Q♠ 13, A♠ 10, K♠ 7, hearts 1; pass right; usually 3 players.");
    case "omnibus": return t("Standard plus J♦ worth -10 to whoever takes it.");
    case "partnership": return t("Fixed partnerships in alternate seats; team scores.");
    case "auction_hearts": return t("Bid chips to name the penalty suit; the pool goes to a clean hand.");
    case "cancellation_hearts": return t("Two decks, 5 to 11 players; identical cards in a trick cancel each other.");
    case "four_jacks": return t("Every jack costs 1 and J♠ 2; hearts cost nothing.");
    case "chasse_coeur": return t("All four queens cost 13, hearts 1; if you cannot follow, discard a heart, else a queen.");
    default: return fallback || "";
  }
}

function optionLabel(key) {
  switch (key) {
    case "players": return t("Players");
    case "target": return t("Game ends at (points)");
    case "hands": return t("Number of hands");
    case "moon": return t("Shooting the moon");
    case "passes": return t("Passing");
    case "pass_count": return t("Cards passed");
    case "strip": return t("Cards removed for the player count");
    case "kitty_to": return t("Kitty goes to");
    case "first_lead": return t("First lead");
    case "no_points_first_trick": return t("No points on the first trick");
    case "must_break_hearts": return t("Hearts must be broken before they are led");
    case "queen_breaks_hearts": return t("The Q♠ breaks hearts");
    case "hearts": return t("Value of hearts");
    case "moon_needs": return t("The moon needs");
    case "tie_break": return t("A tie for the lowest score");
    case "settlement": return t("Scoring");
    case "stake": return t("Chips each");
    case "partnership": return t("Partnerships");
    case "auction": return t("Auction for the penalty suit");
    case "cancel_whole_trick": return t("Two-deck trick annulled when");
    case "decks": return t("Decks");
    default: return key;
  }
}

function choiceLabel(key, value) {
  const map = {
    choice: t("the shooter chooses"), add_to_others: t("add to the others"), subtract_from_self: t("subtract from the shooter"),
    off: t("off"), player: t("one player"), team: t("the team"), play_on: t("play on"), shared: t("shared win"),
    points: t("points"), chips_1887: t("chips (1887)"), chips_pool: t("chips with a pool"), average_stakes: t("stakes by average"),
    first_penalty: t("the first to take a penalty card"), first_trick: t("the winner of the first trick"),
    lowest_club: t("the lowest club"), eldest: t("the eldest hand"), kitty: t("none: a kitty"),
    one: t("1 each"), spot: t("spot value"), eagle: t("eagle values"), none: t("nothing"),
    two_pairs: t("two pairs cancel"), no_winner: t("no card can win"),
  };
  if (key === "strip" && value === "seed_003") return t("the usual cards (2♦, 2♣, …)");
  if (key === "strip" && value === "arnold_2011") return t("Arnold's cards (2♣, 2♦, …)");
  return map[value] || value;
}

const PASS_CYCLES = [
  [null, () => t("default of the preset")],
  [["left", "right", "across", "hold"], () => t("left, right, across, hold")],
  [["left", "right"], () => t("left, right")],
  [["left"], () => directionName("left")],
  [["right"], () => directionName("right")],
  [["across"], () => directionName("across")],
  [["hold"], () => t("no passing")],
];

const MAIN = ["players", "target", "hands", "moon", "passes", "pass_count"];
const SKIP = new Set(["name", "description", "card_points", "discard_order"]);

export class Lobby {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.options = null;
    this.timer = null;
    this.render();
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
    this.refreshTables();
    this.timer = setInterval(() => this.refreshTables(), 5000);
  }

  render() {
    this.who = h("section.panel", { "aria-labelledby": "who-h" });
    this.create = h("section.panel", { "aria-labelledby": "create-h" }, h("h2", { id: "create-h" }, t("New table")), h("p", null, t("Loading…")));
    this.tables = h("section.panel", { "aria-labelledby": "open-h" }, h("h2", { id: "open-h" }, t("Open tables")));
    this.renderWho();
    this.root.replaceChildren(h("div.page", null, this.who, h("div.lobby-grid", null, this.create, this.tables)));
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
    const input = h("input", { type: "text", id: "guest-name", maxlength: "24", autocomplete: "nickname", required: true, value: localStorage.getItem("corazones.lastName") || "" });
    const pass = h("input", { type: "password", id: "guest-pass", autocomplete: "current-password", minlength: "8" });
    const account = async (kind) => {
      const name = input.value.trim();
      if (!name) { toast(t("Type a name first"), "error"); input.focus(); return; }
      try {
        if (kind === "guest") await api.guest(name);
        else if (kind === "login") await api.login(name, pass.value);
        else await api.register(name, pass.value);
        localStorage.setItem("corazones.lastName", name);
        this.app.refreshTop();
        this.renderWho();
      } catch (e) {
        toast(e.message, "error");
      }
    };
    this.who.replaceChildren(title,
      h("p", null, t("Choose a name to play. No account needed; with a password you can keep your statistics on any device.")),
      h("form", { onsubmit: (e) => { e.preventDefault(); account("guest"); } },
        h("div.row", null,
          h("div.field", null, h("label", { for: "guest-name" }, t("Your name")), input),
          h("div.field", null, h("button.btn.primary", { type: "submit", id: "guest-go" }, t("Play as a guest")))),
        h("details.options", null, h("summary", null, t("Account (optional)")),
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

  presetRules(name) {
    const p = this.options && this.options.presets.find((x) => x.name === name);
    return p ? p.rules : {};
  }

  renderCreate() {
    const presets = this.options ? this.options.presets : [{ name: "standard", description: "", rules: { players: 4 } }];
    const levels = this.options ? this.options.levels : ["random", "beginner", "standard", "expert"];
    const choices = (this.options && this.options.choices) || {};
    const saved = JSON.parse(localStorage.getItem("corazones.lastTable") || "{}");
    const state = {
      preset: presets.some((p) => p.name === saved.preset) ? saved.preset : "standard",
      seats: saved.seats || null,
    };
    const form = h("form", { id: "create-form", onsubmit: (e) => { e.preventDefault(); this.submit(form, state); } });
    const presetSel = h("select", { id: "preset", name: "preset" }, presets.map((p) => h("option", { value: p.name, selected: p.name === state.preset ? "selected" : null }, presetTitle(p.name))));
    const desc = h("p.help.muted", { id: "preset-desc" });
    const mainBox = h("div.options-grid");
    const moreBox = h("div.options-grid");
    const seatsBox = h("div.seat-levels", { role: "group", "aria-label": t("Seats") });
    const takeover = h("select", { id: "takeover" }, levels.map((l) => h("option", { value: l, selected: l === "standard" ? "selected" : null }, levelName(l))));

    const optionField = (key, value) => {
      const id = `opt-${key}`;
      if (key === "passes") {
        const sel = h("select", { id, dataset: { opt: key, kind: "passes" } },
          PASS_CYCLES.map(([v, label], i) => h("option", { value: String(i), selected: JSON.stringify(v) === JSON.stringify(value) ? "selected" : null }, label())));
        return h("div.field", null, h("label", { for: id }, optionLabel(key)), sel);
      }
      if (typeof value === "boolean") {
        return h("label.check", null, h("input", { type: "checkbox", id, checked: value, dataset: { opt: key, kind: "bool", orig: String(value) } }), optionLabel(key));
      }
      if (choices[key]) {
        const sel = h("select", { id, dataset: { opt: key, kind: "word", orig: String(value) } },
          choices[key].map((c) => h("option", { value: c, selected: c === value ? "selected" : null }, choiceLabel(key, c))));
        return h("div.field", null, h("label", { for: id }, optionLabel(key)), sel);
      }
      if (typeof value === "number" || value === null || key === "target" || key === "hands") {
        const attrs = { type: "number", id, min: key === "players" ? 3 : 0, max: key === "players" ? 11 : null, dataset: { opt: key, kind: "int", orig: value === null ? "" : String(value) }, inputmode: "numeric" };
        const input = h("input", { ...attrs, value: value === null ? "" : String(value), placeholder: value === null ? t("none") : null });
        if (key === "players") input.addEventListener("change", () => drawSeats());
        return h("div.field", null, h("label", { for: id }, optionLabel(key)), input);
      }
      return null;
    };

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
      h("details.options", null, h("summary", null, t("More rules")), moreBox),
      h("h3", null, t("Seats and computer players")),
      h("p.help.muted", null, t("Bots: random and beginner are gentle; standard counts cards; expert searches thousands of deals before each card.")),
      seatsBox,
      h("div.row", null,
        h("div.field", null, h("label", { for: "takeover" }, t("Bot that keeps a dropped player's seat warm")), takeover),
        h("div.field", null, h("label", { for: "table-name" }, t("Table name")), h("input", { type: "text", id: "table-name", maxlength: "40" }))),
      h("label.check", null, h("input", { type: "checkbox", id: "private" }), t("Private: not listed; only people with the link can sit")),
      h("div.row", null, h("button.btn.primary", { type: "submit", id: "create-btn" }, t("Create the table and sit down"))));
    this.create.replaceChildren(h("h2", { id: "create-h" }, t("New table")), form);
    drawOptions();
  }

  readOptions(form, preset) {
    const rules = this.presetRules(preset);
    const out = {};
    for (const el of form.querySelectorAll("[data-opt]")) {
      const key = el.dataset.opt;
      const kind = el.dataset.kind;
      let v;
      if (kind === "passes") {
        v = PASS_CYCLES[Number(el.value)][0];
        if (v === null) continue;
      } else if (kind === "bool") v = el.checked;
      else if (kind === "int") {
        if (el.value.trim() === "") v = null;
        else {
          v = Number(el.value);
          if (!Number.isInteger(v)) throw new Error(t("{option}: a whole number, please", { option: optionLabel(key) }));
        }
      } else v = el.value;
      if (JSON.stringify(v) !== JSON.stringify(rules[key])) out[key] = v;
    }
    return out;
  }

  async submit(form, state) {
    try {
      if (!api.token()) {
        const nameInput = document.getElementById("guest-name");
        const name = nameInput && nameInput.value.trim();
        if (!name) { toast(t("Type your name first"), "error"); if (nameInput) nameInput.focus(); return; }
        await api.guest(name);
        localStorage.setItem("corazones.lastName", name);
        this.app.refreshTop();
      }
      const options = this.readOptions(form, state.preset);
      const picks = [...form.querySelectorAll("[data-seat]")].map((s) => s.value);
      let mySeat = picks.indexOf("me");
      const seats = picks.map((p) => (p === "me" || p === "human" ? { kind: "human" } : { kind: "bot", level: p.slice(4) }));
      const body = {
        preset: state.preset, options, seats, my_seat: mySeat >= 0 ? mySeat : null,
        private: form.querySelector("#private").checked, takeover_level: form.querySelector("#takeover").value,
      };
      const name = form.querySelector("#table-name").value.trim();
      if (name) body.name = name;
      localStorage.setItem("corazones.lastTable", JSON.stringify({ preset: state.preset, seats: picks }));
      const info = await api.createTable(body);
      if (mySeat < 0) mySeat = null;
      location.hash = `#/table/${encodeURIComponent(info.id)}`;
    } catch (e) {
      toast(e.message, "error");
    }
  }

  async refreshTables() {
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
        ? h("button.btn.small.primary", { type: "button", onclick: () => this.join(tb.id) }, t("Join"))
        : null;
      return h("tr", null,
        h("td", null, h("strong", null, tb.name), h("br"), h("span.muted", null, presetTitle(tb.preset))),
        h("td", null, names),
        h("td", null, tb.status === "open" ? t("waiting") : t("playing")),
        h("td", null, join, " ", h("a.btn.small", { href: `#/table/${encodeURIComponent(tb.id)}` }, t("Watch"))));
    });
    const body = rows.length
      ? h("table.list", null, h("thead", null, h("tr", null, h("th", null, t("Table")), h("th", null, t("Players")), h("th", null, t("State")), h("th", null, ""))), h("tbody", null, rows))
      : h("p.empty", null, t("No open table right now. Create one!"));
    this.tables.replaceChildren(h("h2", { id: "open-h" }, t("Open tables")), body);
  }

  async join(id) {
    try {
      if (!api.token()) {
        const nameInput = document.getElementById("guest-name");
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
