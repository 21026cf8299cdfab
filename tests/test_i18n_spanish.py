"""The Spanish a player reads: *usted* throughout, one word for each thing, and counts that agree with their number."""

from __future__ import annotations

import queue
import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from corazones.cli.main import app
from corazones.core import Rules
from corazones.i18n import po_path
from corazones.tui import texts


def spanish() -> Iterator[tuple[str, str]]:
    """Every (English msgid, Spanish text) of the catalog, each plural form on its own."""
    with po_path("es").open("rb") as f:
        catalog = read_po(f, locale="es")
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for i, form in enumerate(forms):
            yield ids[min(i, len(ids) - 1)], form or ""


#: Words only *tú* says (the faces say *usted*): its pronouns and verb forms, and its imperatives opening a text.
TU = re.compile(r"\b(tú|tu|tus|te|ti|contigo|tienes|puedes|quieres|eres|estás|vuelves|hubieras|sabías)\b", re.I)
#: An English text that opens telling the reader what to do, and the *tú* imperatives a translation could open with.
ORDER = re.compile(r"^(say|make|choose|type|press|use|look|try|give|name|enter|wait|pick|play|pass)\b", re.I)
TU_IMPERATIVE = re.compile(
    r"^(haz|indica|elige|escribe|pulsa|usa|mira|prueba|da|nombra|anota|espera|juega|pasa) ", re.I
)


def test_the_spanish_says_usted_never_tu() -> None:
    found = [(en, es) for en, es in spanish() if TU.search(es) or (ORDER.search(en) and TU_IMPERATIVE.search(es))]
    assert not found, found


#: For an English word in a msgid, Spanish words its translation must not use: each thing has one name.
#: (The kitty is the "monte": the "bote" is the chips' pool; a review is an "análisis"; a preset a "modalidad".)
ONE_WORD = [
    (r"\bkitty\b", r"\bbote\b"),
    (r"\bpenalty (suit|card)", r"penalizaci[oó]n"),
    (r"\bhint\b", r"\bconsejo\b"),
    (r"\bpreset", r"variante|predefinid|juego elegido"),
    (r"\breview", r"revis"),
    (r"\bmoon\b|\bshoot|\bshooter\b", r"\bhiciera la luna|\bla hizo\b|quien las gana|lunas\s+ganadas"),
    (r"score sheet", r"hoja de (puntuación|puntos)"),
    (r"\bdefault\b", r"por omisión"),
    (r"\brank\b", r"\brango\b"),
    (r"\bqueens?\b", r"\bdamas?\b"),
    (r"J♦", r"\bel J♦"),
]


@pytest.mark.parametrize(("english", "not_spanish"), ONE_WORD)
def test_one_spanish_word_for_each_thing(english: str, not_spanish: str) -> None:
    found = [(en, es) for en, es in spanish() if re.search(english, en, re.I) and re.search(not_spanish, es, re.I)]
    assert not found, found


def test_a_chosen_count_is_not_an_adjective_that_disagrees_with_one() -> None:
    # "(1 elegidas)" is wrong Spanish; "(elegidas: 1)" reads for any count.
    found = [(en, es) for en, es in spanish() if re.search(r"\{k\} elegidas", es)]
    assert not found, found


# ---------------------------------------------------------------------------------------------- counts of one


def line_game(lang: str, answers: list[str]) -> str:
    result = CliRunner().invoke(
        app,
        ["play", "--line", "--lang", lang, "--seed", "1", "--level", "random", "-o", "pass_count=1"],
        input="\n".join(answers) + "\n",
    )
    return result.output


@pytest.mark.parametrize(
    ("lang", "ask", "refuse"),
    [
        ("es", "Pase 1 carta a ", "pase exactamente 1 carta; escribió 2"),
        ("en", "Pass 1 card to ", "pass exactly 1 card, you typed 2"),
    ],
)
def test_the_line_game_asks_for_one_card_to_pass_in_the_singular(lang: str, ask: str, refuse: str) -> None:
    out = line_game(lang, ["QS AH", "q"])
    assert ask in out and refuse in out, out
    assert "1 cartas" not in out and "1 cards" not in out, out


@pytest.mark.parametrize(
    ("lang", "kitty", "passing"),
    [
        ("es", "Monte: 1 carta boca abajo, va para ", "Antes de jugar se pasa 1 carta: "),
        ("en", "Kitty: 1 card face down, it goes to ", "Before play, pass 1 card: "),
    ],
)
def test_the_rules_screen_says_a_kitty_of_one_card_and_a_pass_of_one_in_the_singular(
    lang: str, kitty: str, passing: str
) -> None:
    before = texts.lang()
    texts.set_lang(lang)
    try:
        lines = texts.rules_lines(Rules.preset("kitty", players=3, pass_count=1))
    finally:
        texts.set_lang(before)
    text = "\n".join(lines)
    assert kitty in text and passing in text, text


# ---------------------------------------------------------------------------------------------- errors


class _DeadProcess:
    """A review's process that ended at once without a word (killed, out of memory)."""

    pid = 4242
    exitcode = -9

    def __init__(self, **_kw: object) -> None:
        pass

    def start(self) -> None:
        pass

    def is_alive(self) -> bool:
        return False

    def terminate(self) -> None:
        pass

    def join(self, timeout: float | None = None) -> None:
        pass


class _SilentQueue:
    def get(self, timeout: float | None = None) -> object:
        raise queue.Empty

    def empty(self) -> bool:
        return True

    def close(self) -> None:
        pass

    def cancel_join_thread(self) -> None:
        pass


def test_a_review_process_that_died_is_said_in_the_players_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from corazones.tui import review_process

    class Context:
        Process = _DeadProcess

        def Queue(self) -> _SilentQueue:  # multiprocessing's name
            return _SilentQueue()

    monkeypatch.setattr(review_process.multiprocessing, "get_context", lambda _how: Context())
    before = texts.lang()
    texts.set_lang("es")
    try:
        with pytest.raises(review_process.ReviewProcessDied) as died:
            review_process.review_elsewhere({}, None, 1, 1, lambda _d, _t: None, lambda: False)
        said = texts.said(died.value)
    finally:
        texts.set_lang(before)
    assert said == "el proceso del análisis terminó con el código -9", said


def test_a_suit_named_in_a_text_agrees_whatever_its_gender() -> None:
    # Under an auction the penalty suit may be spades: "las picas", where hearts are "los corazones".
    wrong = re.compile(r"\b(los|las|el|la) \{suit\}|\{suit\}: rot[oa]s\b|jugado un[oa]\.", re.I)
    found = [(en, es) for en, es in spanish() if "{suit}" in en and wrong.search(es)]
    assert not found, found
