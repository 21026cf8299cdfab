"""A new table's rules options on a real server: each refusal names the option and what it allows, in
the player's language, and every preset still makes a table with any options its rules accept; the
web app's new-table form (headless Chromium) still makes tables, and shows a refusal in Spanish.

Tables here are made with every seat left for people and nobody seated (``my_seat: null``), so they
wait in the lobby and no bot plays: the tests are about creation, not games.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from corazones.core.rules import PRESETS, Rules
from corazones.i18n import catalog_json, translator
from corazones.server import options as opt
from corazones.server.client import Api, ApiError
from corazones.server.local import LocalServer
from corazones.server.schema import LIMITS, RulesOptions
from tests.helpers import guest, watched_page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("options") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", bot_delay=0.0) as srv:
        yield srv


def waiting(api: Api, preset: str, options: dict[str, Any], players: int) -> dict[str, Any]:
    """Create a table nobody sits at yet (it waits in the lobby: no game, no bot)."""
    return api.create(  # type: ignore[no-any-return]
        preset=preset, options=options, seats=[{"kind": "human"}] * players, my_seat=None
    )


def refusal(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    """The refusal of a table creation: 422 ``malformed`` whose English message is its reason's template filled."""
    with pytest.raises(ApiError) as e:
        api.create(**body)
    assert e.value.status == 422, body
    detail: dict[str, Any] = e.value.detail
    assert detail["code"] == "malformed", detail
    reason = detail["reason"]
    assert detail["message"] == filled(reason, lambda template: template)
    return reason  # type: ignore[no-any-return]


def filled(reason: dict[str, Any], text: Callable[[str], str]) -> str:
    """``reason`` with its template (and any reason nested as a parameter) translated by ``text``, then filled."""
    params = {k: filled(v, text) if isinstance(v, dict) and "template" in v else v for k, v in reason["params"].items()}
    return text(reason["template"]).format(**params)


def spanish(reason: dict[str, Any]) -> str:
    """The refusal as a Spanish player reads it: the web app's catalog, the server's gettext."""
    es = catalog_json("es")

    def text(template: str) -> str:
        assert template in es, template
        assert translator("es").gettext(template) == es[template]
        return es[template]

    return filled(reason, text)


# (body, template, params the refusal must name); every value as the client sent it (JSON).
REFUSALS: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    (
        "an unknown option",
        {"options": {"colour": "red"}},
        opt.UNKNOWN_OPTION,
        {"option": '"colour"', "options": ", ".join(RulesOptions.model_fields)},
    ),
    (
        "a number sent as text",
        {"options": {"players": "5"}},
        opt.WHOLE_NUMBER,
        {"option": "players", "least": 3, "most": 11, "value": '"5"'},
    ),
    (
        "null where the option has no null",
        {"options": {"players": None}},
        opt.WHOLE_NUMBER,
        {"option": "players", "value": "null"},
    ),
    ("true for a number", {"options": {"stake": True}}, opt.WHOLE_NUMBER, {"option": "stake", "value": "true"}),
    (
        "a number for yes or no",
        {"options": {"auction": 1}},
        opt.TRUE_OR_FALSE,
        {"option": "auction", "value": "1"},
    ),
    (
        "too many players for any deck",
        {"options": {"players": 12}},
        opt.WHOLE_NUMBER,
        {"option": "players", "least": 3, "most": 11, "value": "12"},
    ),
    (
        "no target below one",
        {"options": {"target": 0}},
        opt.WHOLE_NUMBER_OR_NULL,
        {"option": "target", "least": 1, "most": 1000, "value": "0"},
    ),
    (
        "a word that is not a choice",
        {"options": {"moon": "sideways"}},
        opt.ONE_OF,
        {"option": "moon", "choices": "choice, add_to_others, subtract_from_self, off", "value": '"sideways"'},
    ),
    (
        "a direction that is not one",
        {"options": {"passes": ["left", "up"]}},
        opt.NULL_OR_LIST_OF,
        {"option": "passes", "least": 1, "most": 16, "choices": "left, right, across, hold"},
    ),
    (
        "a card that is not one",
        {"options": {"card_points": {"QX": 13}}},
        opt.CARD_POINTS,
        {"option": "card_points", "low": -1000, "high": 1000, "value": '{"QX": 13}'},
    ),
    (
        "a card worth too much",
        {"options": {"card_points": [["QS", 1001]]}},
        opt.CARD_POINTS,
        {"option": "card_points", "value": '[["QS", 1001]]'},
    ),
    (
        "a discard order that is not suits or ranks",
        {"options": {"discard_order": ["H", "Z"]}},
        opt.DISCARD_ORDER,
        {"option": "discard_order", "most": 17},
    ),
    ("options that are not an object", {"options": [1, 2]}, opt.NOT_AN_OBJECT, {"value": "[1, 2]"}),
    ("an unknown preset", {"preset": "nope"}, opt.UNKNOWN_PRESET, {"preset": '"nope"'}),
    (
        "more players than one deck deals: the rules' own reason names the option and what it allows",
        {"options": {"players": 9}},
        opt.RULES_REFUSE,
        {"options": 'preset = "standard", players = 9', "option": "players", "why": "allowed: 3 to 7"},
    ),
    (
        "every option sent, one of them refused: those at the preset's value are not listed",
        {"options": {**{k: v for k, v in Rules.preset().to_dict().items() if k != "name"}, "players": 9}},
        opt.RULES_REFUSE,
        {"options": 'preset = "standard", players = 9', "option": "players"},
    ),
    (
        "passing across with an odd number of players",
        {"options": {"players": 5, "passes": ["across"]}},
        opt.RULES_REFUSE,
        {"options": 'preset = "standard", players = 5, passes = ["across"]', "why": "even number of players"},
    ),
    (
        "partners with five players",
        {"preset": "partnership", "options": {"players": 5}},
        opt.RULES_REFUSE,
        {"options": 'preset = "partnership", players = 5', "option": "players"},
    ),
    (
        "a game without an end",
        {"options": {"target": None}},
        opt.RULES_REFUSE,
        {"options": 'preset = "standard", target = null', "why": "set target"},
    ),
    (
        "passing more cards than a hand holds",
        {"options": {"players": 3, "pass_count": 18}},
        opt.RULES_REFUSE,
        {"options": 'preset = "standard", players = 3, pass_count = 18', "option": "pass_count"},
    ),
    (
        "the team moon without partners",
        {"options": {"moon_needs": "team"}},
        opt.RULES_REFUSE,
        {"options": 'preset = "standard", moon_needs = "team"', "option": "moon_needs"},
    ),
    (
        "no card left with a penalty",
        {"preset": "four_jacks", "options": {"card_points": {}}},
        opt.RULES_REFUSE,
        {"options": 'preset = "four_jacks", card_points = {}', "option": "card_points"},
    ),
]


def test_a_combination_is_refused_with_the_rules_reason_translated(server: LocalServer) -> None:
    """The rules' own error names the option; the refusal carries it whole, as a reason the page translates."""
    reason = refusal(guest(server, "Ana"), {"preset": "four_jacks", "options": {"card_points": {"JS": -3}}})
    assert reason["template"] == opt.RULES_REFUSE
    assert reason["params"]["why"] == {"template": "no card carries a penalty: set hearts or card_points", "params": {}}
    assert spanish(reason) == (
        'ninguna carta tiene penalización: fije hearts o card_points; opciones dadas: preset = "four_jacks", '
        'card_points = {"JS": -3}.'
    )


def test_every_refusal_names_the_option_and_what_it_allows_in_both_languages(server: LocalServer) -> None:
    api = guest(server, "Ana")
    before = len(api.request("GET", "/api/tables"))
    seen_templates = set()
    for what, body, template, params in REFUSALS:
        reason = refusal(api, {"preset": "standard", **body})
        assert reason["template"] == template, (what, reason)
        if template == opt.RULES_REFUSE:  # the rules' own error, nested: it names the option in its text
            english = filled(reason, lambda template: template)
            assert reason["params"]["options"] == params["options"], (what, reason["params"])
            assert params.get("option", "") in english and params.get("why", "") in english, (what, english)
        else:
            assert params.items() <= reason["params"].items(), (what, reason["params"])
        es = spanish(reason)
        assert es != filled(reason, lambda template: template), what
        if "option" in params:
            assert es.startswith(params["option"]) or params["option"] in es, (what, es)
        seen_templates.add(template)
    assert len(api.request("GET", "/api/tables")) == before  # nothing was created
    # Each template the module can send was met at least once.
    every = {v for k, v in vars(opt).items() if k.isupper() and isinstance(v, str) and "{" in v}
    # passes is the only list of words, and it takes null
    assert every - seen_templates == {opt.LIST_OF}


def test_spanish_reads_the_option_and_the_allowed_values(server: LocalServer) -> None:
    api = guest(server, "Bea")
    reason = refusal(api, {"preset": "standard", "options": {"players": 5, "passes": ["across"]}})
    assert spanish(reason) == (
        "pasar 'across' (de frente) necesita un número par de jugadores, no 5; "
        'opciones dadas: preset = "standard", players = 5, passes = ["across"].'
    )
    reason = refusal(api, {"preset": "standard", "options": {"moon": "sideways"}})
    assert spanish(reason) == 'moon lleva uno de: choice, add_to_others, subtract_from_self, off; no "sideways".'


def test_an_unknown_option_is_shown_safely(server: LocalServer) -> None:
    """A stranger's option name comes back escaped and short, never as raw control characters."""
    api = guest(server, "Carl")
    reason = refusal(api, {"options": {"a\x1b[2Jb" + "x" * 200: 1}})
    shown = reason["params"]["option"]
    assert "\x1b" not in shown and len(shown) <= 80 and shown.startswith('"a\\u001b[2Jb')


def test_other_fields_keep_their_refusals(server: LocalServer) -> None:
    """Seats and the rest of the body are not options: their refusals are as before."""
    api = guest(server, "Dan")
    with pytest.raises(ApiError) as e:
        api.create(preset="standard", seats=[{"kind": "alien"}] * 4)
    assert e.value.status == 422 and e.value.detail["message"].startswith("seats.0.kind")
    reason = refusal(api, {"preset": "standard", "seats": [{"kind": "human"}]})
    assert reason == {"template": "Give one seat for each of the {n} players, not {k}.", "params": {"n": 4, "k": 1}}


def _variants(name: str) -> list[tuple[dict[str, Any], Rules]]:
    """Options a client may send for preset ``name``, with the rules they make: every option at the
    preset's value as ``/api/options`` gives them (``card_points`` as an object), what the web app's
    form sends when the end of the game is changed, ``card_points`` as a list of pairs with the usual
    passing cycle, and none."""
    preset = Rules.preset(name)
    every = preset.to_dict()
    del every["name"]
    pairs = [[card, points] for card, points in every["card_points"].items()]
    return [
        (every, preset),
        ({"target": None, "hands": 3}, Rules.preset(name, target=None, hands=3)),
        ({"card_points": pairs, "passes": None}, Rules.preset(name, passes=None)),
        ({}, preset),
    ]


@pytest.mark.parametrize("name", list(PRESETS))
def test_valid_options_still_make_a_table_with_every_preset(server: LocalServer, name: str) -> None:
    api = guest(server, f"P {name}"[:24])
    assert len(_variants(name)) <= LIMITS["open_tables_per_player"]
    for options, want in _variants(name):
        info = waiting(api, name, options, want.players)
        assert info["status"] == "open" and info["preset"] == name
        assert info["rules"] == want.to_dict(), (name, options)
        assert api.table(info["id"])["rules"] == want.to_dict()


def test_the_lobby_form_makes_a_table_and_shows_a_refusal_in_spanish(browser: Any, server: LocalServer) -> None:
    """The web app's new-table form, in Spanish: the options it sends for a combination the rules
    refuse come back as a refusal in Spanish naming the option; corrected, the same form makes the
    table with what it set (numbers, a word, the passing cycle and a rule under "More rules")."""
    context = browser.new_context(base_url=server.base)
    context.add_init_script("localStorage.setItem('corazones.lang', 'es');")
    page = watched_page(context)
    page.goto("/")
    page.wait_for_selector("#create-form #opt-players")
    page.fill("#guest-name", "Eva")
    page.fill("#opt-players", "5")
    page.select_option("#opt-passes", "5")  # ["across"], one of the form's passing cycles
    for seat in range(5):  # nobody sits yet: the table waits, no bot plays
        page.select_option(f"#seat-{seat}", "human")
    page.click("#create-btn")
    toast = page.wait_for_selector("#toast:has-text('opciones dadas')")
    assert toast.inner_text() == (
        "pasar 'across' (de frente) necesita un número par de jugadores, no 5; "
        'opciones dadas: preset = "standard", players = 5, passes = ["across"].'
    )

    page.select_option("#opt-passes", "2")  # left, right
    page.fill("#opt-target", "50")
    page.select_option("#opt-moon", "add_to_others")
    page.click("#create-form details.options summary")
    page.select_option("#opt-hearts", "spot")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r"#/table/"))
    table = str(page.evaluate("location.hash.split('/')[2]"))
    rules = Api(server.base).table(table)["rules"]
    assert (rules["players"], rules["passes"], rules["target"]) == (5, ["left", "right"], 50)
    assert (rules["moon"], rules["hearts"]) == ("add_to_others", "spot")
    assert page.errors == []
    context.close()
