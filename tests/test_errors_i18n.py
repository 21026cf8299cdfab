"""Core errors reach players in their language: a template and its parameters, translated by the face.

The core raises ``CorazonesError(N_("English {template}"), **params)``;
``str(error)`` stays the English sentence (logs, records, callers matching on
it) and ``corazones.i18n.error_text`` gives it in a face's language, with a
reason inside it (why a card may not be played) translated too and cards,
numbers and names shown as they are.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.messages.pofile import read_po

from corazones.core.actions import Action
from corazones.core.cards import card_str
from corazones.core.errors import CardError, CorazonesError, Count, IllegalActionError, Message, RecordError, RulesError
from corazones.core.game import Game
from corazones.core.pad import PadError
from corazones.core.position import PositionError
from corazones.core.rules import Rules
from corazones.i18n import N_, error_json, error_text, po_path, translator
from corazones.server import options
from corazones.server.client import ApiError, TableClient, drain
from corazones.server.local import LocalServer
from tests.helpers import RANDOM, guest
from tests.test_cli import run, scripted_answers

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "corazones" / "core"
ES = translator("es").gettext
#: The classes whose first argument is a template for people.
TEMPLATED = {
    c.__name__ for c in (CorazonesError, CardError, RulesError, IllegalActionError, PadError, PositionError, Message)
} | {"RecordError", "SeedError"}


def _templated_calls() -> Iterator[tuple[str, ast.Call]]:
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TEMPLATED:
                yield f"{path.name}:{node.lineno}", node


def core_templates() -> dict[str, str]:
    """Every template the core raises or nests, marked ``N_("...")``: ``{template: where}``."""
    found: dict[str, str] = {}
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "N_"
                and isinstance(node.args[0], ast.Constant)
            ):
                found[node.args[0].value] = f"{path.name}:{node.lineno}"
    return found


def test_every_core_error_is_raised_with_a_marked_template() -> None:
    """An f-string or an unmarked literal would reach a Spanish player in English (and escape the catalog)."""
    bad = []
    for where, call in _templated_calls():
        if not call.args:
            continue
        first = call.args[0]
        if (
            isinstance(first, ast.JoinedStr | ast.BinOp)
            or (isinstance(first, ast.Constant) and isinstance(first.value, str))
            or (
                isinstance(first, ast.Call)
                and isinstance(first.func, ast.Name)
                and first.func.id == "N_"
                and not (isinstance(first.args[0], ast.Constant) and isinstance(first.args[0].value, str))
            )
        ):
            bad.append(where)
    assert not bad, f'raise with N_("English {{template}}"), **params, not a formatted string: {bad}'


def test_every_core_template_is_translated_with_plain_placeholders() -> None:
    templates = core_templates()
    assert len(templates) > 250
    with po_path("es").open("rb") as f:
        catalog = read_po(f, locale="es")
    missing = [t for t in templates if catalog.get(t) is None or not catalog.get(t).string]
    assert not missing, f"untranslated core templates (scripts/i18n.sh, then fill the .po): {missing[:10]}"
    # the web app fills templates with a plain {name} replacement: no format specs, no conversions
    fancy = [t for t in templates if re.search(r"\{[^{}]*[:!][^{}]*\}", t)]
    assert not fancy, f"format values into the parameters instead: {fancy}"


def first_trick_game() -> tuple[Game, int, int]:
    """A game at its first play, the leader, and a card of theirs other than the opening 2C."""
    g = Game(Rules.preset("standard", pass_count=0, passes=("hold",)), seed=1)
    seat = g.to_act()[0]
    wrong = next(c for c in g.deal.hand(seat) if card_str(c) != "2C")
    return g, seat, wrong


def test_an_illegal_play_reads_english_in_str_and_spanish_through_the_catalog() -> None:
    g, seat, wrong = first_trick_game()
    card = card_str(wrong)
    with pytest.raises(IllegalActionError) as info:
        g.apply(Action.play(seat, wrong))
    e = info.value
    assert str(e) == f"{card} may not be played now (the first trick must be led with 2C); legal: 2C"
    assert e.params["card"] == card and isinstance(e.params["why"], Message)
    assert error_text(ES, e) == f"{card} no se puede jugar ahora (la primera baza se abre con 2C); válidas: 2C"
    assert error_text(translator("en").gettext, e) == str(e)
    # the web app gets the same as parts it translates itself
    assert error_json(e) == {
        "template": "{card} may not be played now ({why}); legal: {legal}",
        "params": {
            "card": card,
            "why": {"template": "the first trick must be led with {card}", "params": {"card": "2C"}},
            "legal": "2C",
        },
    }


def test_turn_rules_options_and_seeds_read_spanish() -> None:
    g, seat, _wrong = first_trick_game()
    other = (seat + 1) % 4
    with pytest.raises(IllegalActionError) as info:
        g.apply(Action.play(other, g.deal.hand(other)[0]))
    # str() is the programmer's English, seats as the API's indexes; a face counts them from 1, as it names them
    assert str(info.value) == f"it is not seat {other}'s turn to play; waiting for seat(s) {seat}"
    assert error_text(translator("en").gettext, info.value) == (
        f"it is not seat {other + 1}'s turn to play; waiting for seat(s) {seat + 1}"
    )
    assert error_text(ES, info.value) == (
        f"no le toca jugar al asiento {other + 1}; se espera al asiento o asientos {seat + 1}"
    )
    assert error_json(info.value)["params"]["seat"] == str(other + 1)  # the web app shows it as people read it
    with pytest.raises(RulesError) as rules:
        Rules.preset("standard", target=0)
    assert str(rules.value) == "target = 0 is out of range; allowed: 1 to 1000"
    assert error_text(ES, rules.value) == "target = 0 está fuera de rango; se permite: de 1 a 1000"
    with pytest.raises(CorazonesError) as seed:
        Game(Rules.preset("standard"), seed="a\x07b")
    assert "control character (U+0007)" in str(seed.value)
    assert "contiene un carácter de control (U+0007)" in error_text(ES, seed.value)
    with pytest.raises(CardError) as card:
        Action.play(0, "ZZ")
    assert error_text(ES, card.value).startswith("no es una carta: 'ZZ'; escriba el valor y luego el palo")


def test_an_error_rebuilt_from_its_text_is_shown_as_it_is() -> None:
    """An error rebuilt from its text keeps its English words; plain exceptions are shown as they are."""
    e = CardError(str(CardError("not a card: {value}", value="'ZZ'")))
    assert (str(e), e.params, error_text(ES, e)) == ("not a card: 'ZZ'", {}, "not a card: 'ZZ'")
    assert error_text(ES, ValueError("x {y}")) == "x {y}"


def test_the_line_game_refuses_an_illegal_card_in_spanish() -> None:
    code, out = run(
        "play", "--level", "random", "-r", "quick", "--seed", "1", "--lang", "es",
        input="\n".join(scripted_answers("quick", 1)) + "\n",
    )  # fmt: skip
    assert code == 0
    assert re.search(r"No aceptado: debe seguir el palo \(\S+\); válidas: \S+", out)
    assert re.search(r"No aceptado: no tiene (10|[2-9JQKA])[♣♦♠♥]", out)
    assert "Not accepted" not in out and "may not be played" not in out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("errors_i18n") / "corazones.db"
    with LocalServer(f"sqlite:///{db}", grace=30.0, bot_delay=0.0) as srv:
        yield srv


def test_the_server_refuses_an_illegal_move_in_the_connection_language(server: LocalServer) -> None:
    ana = guest(server, "Ana")
    info = ana.create(preset="quick", seats=[{"kind": "human"}, RANDOM, RANDOM, RANDOM])
    a = TableClient(ana, info["id"], lang="es")
    try:
        assert a.view["decision"] == "pass"
        hand = a.view["hand"]
        drain(a)
        a.act({"play": hand[0]})  # a play during the pass
        bad = a.wait(lambda m: m["type"] == "error")
        assert bad["code"] == "illegal"
        # the seats still to pass are named, counted from 1 as the table names them; the bots may have passed already
        assert re.fullmatch(
            r"Esa jugada no está permitida: ahora no se puede jugar: toca pasar al asiento o asientos 1(, [2-4])*",
            bad["message"],
        ), bad["message"]
        # any card the hand lacks (a fixed short list can all be in a random hand)
        foreign = next(
            f"{r}{s}" for s in "CDSH" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10") if f"{r}{s}" not in hand
        )
        a.act({"pass": [*hand[:2], foreign]})
        bad = a.wait(lambda m: m["type"] == "error")
        assert bad["message"] == (
            f"Esa jugada no está permitida: el asiento 1 no puede pasar {foreign}: "
            "no la tiene en la mano (o la pasa dos veces)"
        )
    finally:
        a.close()


def test_http_refusals_carry_the_reason_for_the_page_to_translate(server: LocalServer) -> None:
    ana = guest(server, "Ana")
    with pytest.raises(ApiError) as info:
        ana.create(preset="standard", options={"players": 3, "passes": ["across"]})
    detail = info.value.detail
    reason = detail["reason"]
    assert reason["template"] == options.RULES_REFUSE
    why = reason["params"]["why"]  # the rules' own error, nested, with its own template
    assert detail["message"] == reason["template"].format(
        why=why["template"].format(**why["params"]), options=reason["params"]["options"]
    )
    spanish = ES(reason["template"]).format(why=ES(why["template"]).format(**why["params"]), options="")
    assert spanish != detail["message"] and spanish.startswith("pasar 'across'")
    # a core error under an HTTP refusal (the score pad's) carries its own template the same way
    made = httpx.post(f"{server.base}/api/pads", json={"preset": "standard", "names": ["A", "B", "C", "D"]}).json()
    r = httpx.delete(f"{server.base}/api/pads/{made['id']}/hands/1", headers={"X-Pad-Key": made["key"]})
    assert r.status_code == 422
    assert r.json()["detail"]["reason"] == {"template": "there is no hand yet", "params": {}}
    assert ES("there is no hand yet") == "todavía no hay ninguna mano"


def test_a_count_is_grouped_as_the_language_groups_digits() -> None:
    """ "10,000" reads as ten in Spanish: a size or a limit is grouped where it is shown, by each face."""
    from corazones.core.records import MAX_RECORD_BYTES
    from corazones.tui import texts

    e = RecordError(
        N_("{what} is {size} bytes; at most {most} are read"), what="x", size=Count(12_345_678), most=Count(5)
    )
    assert str(e) == "x is 12,345,678 bytes; at most 5 are read"  # English for logs and callers
    assert error_text(translator("en").gettext, e) == str(e)
    assert error_text(ES, e) == "x ocupa 12.345.678 bytes; se leen como mucho 5"
    assert error_json(e)["params"] == {"what": "x", "size": 12_345_678, "most": 5}  # the page groups it
    texts.set_lang("es")
    try:
        assert texts.said(
            Message(
                N_("{what} is {size} bytes; at most {most} are read"),
                what="y",
                size=Count(MAX_RECORD_BYTES),
                most=Count(1),
            )
        ).startswith("y ocupa " + f"{MAX_RECORD_BYTES:,}".replace(",", "."))
    finally:
        texts.set_lang("en")


def test_the_web_app_groups_a_count_in_its_language(browser: Any, server: LocalServer) -> None:
    context = browser.new_context(base_url=server.base)
    page = context.new_page()
    try:
        page.goto("/")
        shown = page.evaluate(
            """async () => {
                const api = await import("/js/api.js");
                const i18n = await import("/js/i18n.js");
                const reason = {template: "{what} is {size} bytes; at most {most} are read",
                                params: {what: "x", size: 12345678, most: 5}};
                await i18n.loadLang("es", api.catalogUrl);
                const es = i18n.explain(reason);
                await i18n.loadLang("en", api.catalogUrl);
                return [es, i18n.explain(reason)];
            }"""
        )
        assert shown == ["x ocupa 12.345.678 bytes; se leen como mucho 5", "x is 12,345,678 bytes; at most 5 are read"]
    finally:
        context.close()


def test_the_web_app_shows_an_http_refusal_in_spanish(browser: Any, server: LocalServer) -> None:
    """The page's request helper turns a refusal's ``reason`` into the player's language (not the raw detail)."""
    ana = guest(server, "Ana")
    context = browser.new_context(base_url=server.base)
    context.add_init_script(
        f"localStorage.setItem('corazones.lang', 'es'); localStorage.setItem('corazones.token', '{ana.token}');"
    )
    page = context.new_page()
    try:
        page.goto("/")
        message = page.evaluate(
            """async () => {
                const api = await import("/js/api.js");
                const i18n = await import("/js/i18n.js");
                await i18n.loadLang("es", api.catalogUrl);
                try {
                    const options = {players: 3, passes: ["across"]};
                    await api.request("POST", "/api/tables", {preset: "standard", options});
                    return "accepted";
                } catch (e) {
                    return e.message;
                }
            }"""
        )
        with pytest.raises(ApiError) as info:
            ana.create(preset="standard", options={"players": 3, "passes": ["across"]})
        reason = info.value.detail["reason"]
        why = reason["params"]["why"]  # the rules' own error, translated first
        wanted = ES(reason["template"]).format(
            why=ES(why["template"]).format(**why["params"]), options=reason["params"]["options"]
        )
        assert message == wanted
        assert message != info.value.detail["message"]  # the page showed it in Spanish, not the English text
    finally:
        context.close()


def test_a_table_refusal_is_a_core_error_shown_the_one_way(server: LocalServer) -> None:
    """The hub's refusals are CorazonesErrors: HTTP gives their template and parameters for the page to
    translate, a WebSocket the same template filled in the connection's language (one mechanism, two faces)."""
    from corazones.server.hub import Refused
    from corazones.server.routes.ws import _TYPES as ws_types

    refusal = Refused("seat_taken", "Seat {seat} is not free.", seat=2)
    assert isinstance(refusal, CorazonesError) and str(refusal) == "Seat 2 is not free."
    assert error_text(ES, refusal) == "El asiento 2 no está libre."
    ana, bea = guest(server, "Ana"), guest(server, "Bea")
    info = ana.create(preset="quick", seats=[{"kind": "human"}, {"kind": "human"}, RANDOM, RANDOM])
    bea.join(info["id"], seat=1)
    carl = guest(server, "Carl")
    with pytest.raises(ApiError) as taken:
        carl.join(info["id"], seat=1)
    detail = taken.value.detail
    # the seat of index 1 is the one the table calls "Seat 2", in the message and in the reason the page shows
    assert (detail["code"], detail["message"]) == ("seat_taken", "Seat 2 is not free.")
    assert detail["reason"] == {"template": "Seat {seat} is not free.", "params": {"seat": "2"}}
    with pytest.raises(ApiError) as missing:
        carl.join("no-such-table")
    assert missing.value.detail["reason"] == {
        "template": "There is no table {table}.",
        "params": {"table": "no-such-table"},
    }
    # a message the connection itself refuses goes through the same Refused, in the connection's language
    b = TableClient(bea, info["id"], lang="es")
    try:
        drain(b)
        b.send({"type": "chat", "text": "   "})
        bad = b.wait(lambda m: m["type"] == "error")
        assert (bad["code"], bad["message"]) == ("malformed", ES("An empty chat line is not sent."))
        assert bad["message"] != "An empty chat line is not sent."
        b.send({"type": "dance"})
        bad = b.wait(lambda m: m["type"] == "error")
        types = ", ".join(ws_types)
        assert (bad["code"], bad["message"]) == (
            "unknown_type",
            ES("Unknown message type; types: {types}.").format(types=types),
        )
        assert set(bad) == {"type", "code", "message", "ref", "url"}
    finally:
        b.close()


def test_a_record_stopped_at_an_illegal_action_quotes_it_in_spanish(tmp_path: Path) -> None:
    """The action under a replay error is words around cards: the words are translated, the cards stay."""
    path = tmp_path / "quick.json"
    assert run("play", "--auto", "--level", "random", "--seed", "3", "-r", "quick", "--record", str(path))[0] == 0
    rec = json.loads(path.read_text(encoding="utf-8"))
    i = next(k for k, a in enumerate(rec["actions"]) if "play" in a)
    rec["actions"][i + 1]["play"] = card = rec["actions"][i]["play"]  # a card already on the table
    seat = rec["actions"][i + 1]["seat"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec), encoding="utf-8")
    # the seat is counted from 1, as the replay names it ("Seat 1" is the record's seat 0)
    spanish = f"la acción n.º {i + 2} (el asiento {seat + 1} juega {card}) no es válida: "
    code, out = run("replay", str(bad), "--lang", "es")
    assert code == 1 and spanish in out and "plays" not in out
    # verify's verdicts stay English in every language, for scripts (docs/cli.md), seats counted from 1 too
    code, out = run("verify", str(bad), "--lang", "es")
    assert code == 1 and f"FAIL {bad}: action #{i + 2} (seat {seat + 1} plays {card}) is illegal: " in out
    # every kind of action reads in both languages
    said = {
        Action.pass_cards(0, ["QS", "KH", "AH"]): ("seat 0 passes QS KH AH", "el asiento 1 pasa QS KH AH"),
        Action.bid(1, 3): ("seat 1 bids 3", "el asiento 2 puja 3"),
        Action.bid(1, 0): ("seat 1 passes the bid", "el asiento 2 no puja"),
        Action.declare(2, "S"): ("seat 2 names S as penalty suit", "el asiento 3 nombra S como palo de castigo"),
        Action.moon(3, "add_to_others"): ("seat 3 chooses add_to_others", "el asiento 4 elige add_to_others"),
    }
    for action, (english, castellano) in said.items():
        assert (str(action), error_text(ES, action.describe())) == (english, castellano)


def test_an_arena_error_from_a_worker_process_still_reads_spanish() -> None:
    """A player's illegal move is found in a worker process; the error crosses back pickled, template and all."""
    from corazones.services.arena import ArenaConfig, ArenaError, run_arena

    rules = Rules.preset("standard")
    config = ArenaConfig(contenders=("random", "tests.test_arena:Cheater"), rules=rules, boards=2, seed=5)
    with pytest.raises(ArenaError) as info:
        run_arena(config, workers=2)
    e = info.value
    assert str(e).startswith("tests.test_arena:Cheater in seat ") and " made an illegal move on board " in str(e)
    spanish = error_text(ES, e)
    assert spanish.startswith("tests.test_arena:Cheater en el asiento ")
    assert "hizo una jugada no permitida en el tablero" in spanish and "semilla del bot" in spanish
    assert isinstance(e.params["error"], IllegalActionError)  # the engine's reason, translated with it
    assert error_text(ES, e.params["error"]) in spanish
    with pytest.raises(ArenaError) as unknown:
        ArenaConfig(contenders=("random", "nobody"), rules=rules)
    assert error_text(ES, unknown.value).startswith("nivel de jugador desconocido 'nobody'; niveles: random, ")


def test_the_arena_command_reports_a_failure_in_the_locale_language() -> None:
    from typer.testing import CliRunner

    from corazones.cli.main import app

    result = CliRunner().invoke(
        app,
        ["arena", "random", "tests.test_arena:Cheater", "--deals", "1", "-q", "-j", "1"],
        env={"LC_ALL": "es_ES.UTF-8", "LANGUAGE": "es"},
    )
    assert result.exit_code == 1
    assert "error: tests.test_arena:Cheater en el asiento " in result.output
    assert "illegal move" not in result.output


def test_hand_log_verdicts_carry_their_reason_as_a_template() -> None:
    """A verdict's message stays English (verify prints it, for scripts); its reason reads Spanish via the catalog."""
    from corazones.core.handlog import ILLEGAL, MALFORMED, MISMATCH, check_entry, check_line
    from tests.helpers import hand_entries

    entry = hand_entries("standard", {}, seed=3, hands=1)[0]
    ok = check_entry(entry)
    assert ok.ok and ok.reason is not None and str(ok.reason) == ok.message
    assert error_text(ES, ok.reason) == f"bien, puntos {list(ok.points or ())}"
    # malformed: the field, the bad value and what is allowed
    bad = check_entry({**entry, "pass_direction": "up"})
    assert (bad.status, bad.message) == (MALFORMED, 'pass_direction "up" is not one of left, right, across, hold')
    assert error_text(ES, bad.reason) == 'pass_direction "up" no es uno de left, right, across, hold'
    # illegal: the play is named in words around its card, the engine's reason under it, both translated
    plays = list(entry["plays"])
    plays[0], plays[1] = plays[1], plays[0]  # the second card played leads the first trick
    illegal = check_entry({**entry, "plays": plays})
    assert illegal.status == ILLEGAL and illegal.message.startswith("play #1 (trick 1, seat ")
    spanish = error_text(ES, illegal.reason)
    assert spanish.startswith("jugada n.º 1 (baza 1, el asiento ") and f" juega {plays[0]}): " in spanish
    assert "plays" not in spanish and "trick" not in spanish
    # mismatch: what the log says and what the rules give
    points = [p + 1 for p in entry["expect"]["points"]]
    wrong = check_entry({**entry, "expect": {"points": points}})
    assert wrong.status == MISMATCH
    assert (
        error_text(ES, wrong.reason) == f"points: el registro dice {points}, las reglas dan {list(wrong.points or ())}"
    )
    # a line that is not JSON keeps the reader's own template
    broken = check_line("{")
    assert broken.status == MALFORMED and isinstance(broken.reason, CorazonesError)


def test_hand_log_checks_raise_marked_templates() -> None:
    """Every _malformed / _Fail in the hand-log checks takes an N_ template (or a named one), never an f-string."""
    found = []
    tree = ast.parse((CORE / "handlog.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_malformed", "_Fail"):
            template = node.args[0 if node.func.id == "_malformed" else 1] if node.args else None
            if node.func.id == "_Fail" and len(node.args) < 2:
                template = None
            marked = isinstance(template, ast.Name) or (
                isinstance(template, ast.Call) and isinstance(template.func, ast.Name) and template.func.id == "N_"
            )
            if not marked:
                found.append(node.lineno)
    assert not found, f"handlog.py lines with an unmarked template: {found}"


def test_every_http_refusal_of_the_lobby_carries_a_reason(server: LocalServer) -> None:
    """Sign-in, games, stats and catalog refusals go through Refused too: a reason the page translates."""
    cases = [
        ("POST", "/api/auth/guest", {"name": "   "}, None, 422, "a name needs at least one visible character"),
        ("POST", "/api/auth/login", {"name": "nobody", "password": "x" * 8}, None, 401, "wrong name or password"),
        ("GET", "/api/me", None, None, 401, "no token; send 'Authorization: Bearer <token>' with a token from "),
        ("GET", "/api/me", None, "Bearer nonsense", 401, "this token is not valid: malformed, expired or revoked"),
        ("GET", "/api/games/nope/record", None, None, 404, "there is no game 'nope'"),
        ("GET", "/api/players/999999/stats", None, None, 404, "there is no player 999999"),
        ("GET", "/api/i18n/fr", None, None, 404, "unknown language 'fr'; languages: en, es"),
        ("GET", "/api/tables/nope", None, None, 404, "There is no table nope."),
    ]
    for method, path, body, auth, status, english in cases:
        headers = {"Authorization": auth} if auth else {}
        r = httpx.request(method, f"{server.base}{path}", json=body, headers=headers)
        assert r.status_code == status, (path, r.text)
        detail = r.json()["detail"]
        assert detail["message"].startswith(english), (path, detail)
        reason = detail["reason"]
        assert detail["message"] == reason["template"].format(**reason["params"])
        spanish = ES(reason["template"]).format(**reason["params"])
        assert spanish != detail["message"], path
