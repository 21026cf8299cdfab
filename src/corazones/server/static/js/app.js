// @ts-check
// The web app's shell: language, the top bar, the routes (#/ lobby, #/table/ID, #/games,
// #/replay/ID, #/stats) and invite links (/?table=ID&invite=CODE).
import * as api from "./api.js";
import { readFields, restoreFields } from "./fields.js";
import { currentLang, loadLang, preferredLang, t } from "./i18n.js";
import { Lobby } from "./lobby.js";
import { GamesList, ReplayViewer, StatsScreen } from "./replay.js";
import { TableScreen, getSpeed, SPEEDS, speedName } from "./table.js";
import { closeDialogs, h, toast } from "./ui.js";
import { tableTitle } from "./words.js";

class App {
  constructor() {
    this.view = /** @type {HTMLElement} */ (document.getElementById("view"));
    /** @type {any} the screen on view: each has destroy(), some relang() and kept */
    this.screen = null;
    /**
     * The question on view instead of a screen (a name, or whether to sit down at a link's table): draws it
     * again, in the language just chosen, with the fields read before (readFields) put back.
     * @type {((kept: [string, string | boolean][]) => void) | null}
     */
    this.question = null;
  }

  async start() {
    await loadLang(preferredLang(), api.catalogUrl);
    await api.checkMe();
    // Listened to before a link's question (a name, or whether to sit down) is answered: the home link and
    // the back button leave that question as they leave any screen.
    window.addEventListener("hashchange", () => this.route());
    await this.followInvite();
    this.route();
  }

  async followInvite() {
    const q = new URLSearchParams(location.search);
    const table = q.get("table");
    if (!table) return;
    const invite = q.get("invite");
    if (invite) sessionStorage.setItem(`corazones.invite.${table}`, invite);
    history.replaceState(null, "", location.pathname + `#/table/${encodeURIComponent(table)}`);
    // The bar first: the question (a name, or whether to sit down) is asked under the menu and the language
    // list, as any screen is (a phone shows no other way home).
    this.refreshTop();
    if (!api.token()) {
      const name = await this.askName(() => t("You are invited to a table"), () => t("Sit down"), true);
      await api.guest(name || t("Guest")).catch((e) => toast(e.message, "error"));
      if (!name) return; // watch only
    } else if (!(await this.askSit(table))) {
      return; // watch only
    }
    if (api.token()) {
      try {
        await api.joinTable(table, null, invite);
      } catch (e) {
        // Full or already seated: the table screen shows it, with a seat to take if one is free.
        if (e.status !== 409) toast(e.message, "error");
      }
    }
  }

  /**
   * Ask someone already signed in whether to sit at the table of a link, as someone new is asked with their
   * name: anyone can make a link to any public table, and a seat taken by a click on it could start a game
   * at once that counts in their statistics and rating even if they leave. Resolves true to sit down; also
   * true, without asking, when they hold a seat there already or the table cannot be read (the join then
   * says why), false to just watch.
   * @param {string} id the table's id
   * @returns {Promise<boolean>}
   */
  async askSit(id) {
    let info;
    try {
      info = await api.getTable(id);
    } catch (e) {
      return true;
    }
    const player = api.me();
    if (player && info.seats.some((/** @type {{player?: number | null}} */ s) => s.player === player.id)) return true;
    return new Promise((resolve) => {
      const answer = (/** @type {boolean} */ sit) => { this.question = null; resolve(sit); };
      const draw = () => {
        const go = h("button.btn.primary", { type: "button", id: "invite-go", onclick: () => answer(true) }, t("Sit down"));
        this.view.replaceChildren(h("div.page", null, h("div.panel", null,
          h("h2", null, t("You are invited to a table")),
          h("p", null, h("strong", null, tableTitle(info))),
          player ? h("p", null, t("You play as {name}.", { name: player.name })) : null,
          go, " ", h("button.btn", { type: "button", onclick: () => answer(false) }, t("Just watch")))));
        go.focus();
      };
      this.question = draw;
      draw();
    });
  }

  /**
   * A name form (a guest token is needed even to watch); resolves with the name, or null to just watch.
   * `kept` (readFields of the form drawn before a language switch) puts back the name being typed.
   */
  /**
   * @param {() => string} title the heading, in the language of the moment (drawn again on a switch)
   * @param {() => string} go the button's text, likewise
   * @param {boolean} canWatch offer to watch without a seat
   * @param {[string, string | boolean][] | null} [kept]
   * @returns {Promise<string | null>}
   */
  askName(title, go, canWatch, kept = null) {
    return new Promise((resolve) => {
      const answer = (/** @type {string | null} */ name) => { this.question = null; resolve(name); };
      const draw = (/** @type {[string, string | boolean][] | null} */ fields) => {
        const input = h("input", { type: "text", id: "invite-name", maxlength: "40", required: true, value: localStorage.getItem("corazones.lastName") || "" });
        const form = h("form.panel", {
          onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            const name = input.value.trim();
            if (!name) return;
            localStorage.setItem("corazones.lastName", name);
            answer(name);
          },
        }, h("h2", null, title()),
        h("div.field", null, h("label", { for: "invite-name" }, t("Your name")), input),
        h("button.btn.primary", { type: "submit", id: "invite-go" }, go()),
        canWatch ? [" ", h("button.btn", { type: "button", onclick: () => answer(null) }, t("Just watch"))] : null);
        this.view.replaceChildren(h("div.page", null, form));
        restoreFields(form, fields);
        input.focus();
      };
      this.question = draw;
      draw(kept);
    });
  }

  refreshTop() {
    const route = (location.hash || "#/").split("/")[1] || "";
    const link = (/** @type {string} */ href, /** @type {string} */ label, /** @type {string} */ key) => h("a", { href, "aria-current": route === key ? "page" : null }, label);
    const nav = /** @type {HTMLElement} */ (document.getElementById("nav"));
    nav.setAttribute("aria-label", t("Main menu"));
    nav.replaceChildren(
      link("#/", t("Lobby"), ""), link("#/games", t("Replays"), "games"), link("#/stats", t("Statistics"), "stats"),
      h("a", { href: "/pad/", id: "pad-link", title: t("Keep score of a game played with real cards") }, t("Score pad")));
    const langSel = h("select", {
      "aria-label": t("Language"), id: "lang",
      onchange: (/** @type {Event} */ e) => this.switchLang(/** @type {HTMLSelectElement} */ (e.target).value),
    }, h("option", { value: "en", selected: currentLang() === "en" ? "selected" : null }, "English"),
    h("option", { value: "es", selected: currentLang() === "es" ? "selected" : null }, "Español"));
    const player = api.me();
    /** @type {HTMLElement} */ (document.getElementById("top-tools")).replaceChildren(
      player ? h("span.who", { title: t("Your name") }, player.name) : "", langSel);
    /** @type {HTMLElement} */ (document.querySelector(".skip")).textContent = t("Skip to content");
  }

  /**
   * Show everything in another language without losing what the person is doing: a screen that can draw
   * itself again in place (the table keeps its connection, chosen cards, tab and chat draft; the replay
   * its hand and trick) does so; any other is drawn again with the fields typed or chosen in it put back
   * (the lobby's name and new-table forms, the name asked before a table).
   */
  /** @param {string} code */
  async switchLang(code) {
    await loadLang(code, api.catalogUrl);
    if (this.question) {
      // A link's question: asked again in place, so that its answer still does what the link was for (an
      // invitation's seat taken with its code), not as the table's own name form.
      this.refreshTop();
      this.question(readFields(this.view));
      return;
    }
    if (this.screen && this.screen.relang) {
      this.refreshTop();
      document.title = this.title();
      this.screen.relang();
      return;
    }
    // A lobby still waiting for its presets has not put back what it kept from a switch before: keep it too.
    const pending = (this.screen && this.screen.kept) || [];
    this.route([...pending, ...readFields(this.view)]);
  }

  /** The page's title for the current route (the table's names its screen; the others are the app's). */
  title() {
    return (location.hash || "#/").startsWith("#/table/") ? t("Table") + " · Corazones" : "Corazones";
  }

  /** Draw the screen of the current route; `kept` (readFields) goes back into its forms once drawn. */
  /** @param {any[] | null} [kept] */
  route(kept = null) {
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = null;
    this.question = null; // (a link's question is left as any screen is: its answer never comes)
    // A dialog belongs to the screen that opened it (the analysis board, a profile): the back button or a
    // link leaves it behind rather than over the next screen.
    closeDialogs();
    this.refreshTop();
    const parts = (location.hash || "#/").slice(2).split("/").map(decodeURIComponent);
    this.view.replaceChildren();
    // A new screen starts at its top, whatever the one before was scrolled to.
    this.view.scrollTop = 0;
    document.documentElement.scrollTop = 0;
    window.scrollTo(0, 0);
    document.title = "Corazones";
    if (parts[0] === "table" && parts[1] && !api.token()) {
      // Watching needs a name too (the server knows every connection by a guest token).
      this.askName(() => t("Your name at the table"), () => t("Continue"), false, kept).then(async (name) => {
        try {
          await api.guest(name || t("Guest")); // never null: this form offers no "Just watch"
        } catch (e) {
          toast(e.message, "error");
          return;
        }
        this.route();
      });
      return;
    }
    if (parts[0] === "table" && parts[1]) {
      const invite = sessionStorage.getItem(`corazones.invite.${parts[1]}`);
      this.screen = new TableScreen(this.view, parts[1], { invite });
      document.title = this.title();
    } else if (parts[0] === "replay" && parts[1]) {
      this.screen = new ReplayViewer(this.view, parts[1]);
    } else if (parts[0] === "games") {
      this.screen = new GamesList(this.view);
    } else if (parts[0] === "stats") {
      this.screen = new StatsScreen(this.view);
    } else {
      this.screen = new Lobby(this.view, this, kept);
    }
  }
}

export { getSpeed, SPEEDS, speedName };

const app = new App();
window.__corazones = window.__corazones || {};
window.__corazones.app = app;
app.start();
