"""Hints: what they claim about a trick is what the engine will do, and every face can translate them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from corazones.core import Action, Game, Kind, Rules
from corazones.core.cards import CARDS
from corazones.core.observation import Observation
from corazones.core.trick import trick_winner
from corazones.i18n import translator
from corazones.players.hints import Hint, Reason, Seat, Suit, describe, suggest
from tests.helpers import random_action


def positions(preset: str, seed: int, limit: int = 400) -> Iterator[Observation]:
    """Observations of the seat to act, along random games of ``preset``."""
    rng = random.Random(seed)
    game = Game(Rules.preset(preset), seed)
    for _ in range(limit):
        if game.over:
            return
        seat = game.to_act()[0]
        yield game.observation(seat)
        game.apply(random_action(game, rng))


def english(reasons: tuple[Reason, ...]) -> str:
    return Hint(Action.play(0, 0), reasons).text()


def test_a_winning_claim_holds_for_every_play_in_cancellation_hearts() -> None:
    """'win with X' only when the engine gives X the trick: the twin of the winning card cancels it."""
    twins_seen = 0
    for obs in positions("cancellation_hearts", 3, 2500):
        if obs.decision is not Kind.PLAY or not obs.trick:
            continue
        on_table = [c for _, c in obs.trick]
        for a in obs.legal:
            card = a.cards[0]
            text = english(describe(obs, a))
            after = trick_winner([*on_table, card], True, obs.rules.cancel_whole_trick)
            wins = after == len(on_table)
            if text.startswith("win with") or "wins the trick for now" in text:
                assert wins, (text, on_table, card)
            if card in on_table and card // 13 == on_table[0] // 13:
                twins_seen += 1
                assert not text.startswith("win with"), text
                assert "cancels the other" in text or "duck under" in text or "only card" in text, text
    assert twins_seen > 0, "the sample must hold plays of a twin"


def test_the_last_card_is_not_a_card_that_could_win_later() -> None:
    seen = 0
    for obs in positions("standard", 11, 400):
        if obs.decision is Kind.PLAY and len(obs.hand) == 1:
            seen += 1
            text = english(describe(obs, obs.legal[0]))
            assert text.endswith("the only card you may play") and "later" not in text
    assert seen


def test_a_pass_hint_names_its_cards_once_and_as_the_screen_does() -> None:
    obs = next(o for o in positions("standard", 5) if o.decision is Kind.PASS)
    hint = suggest(obs, "standard", seed=1)
    glyph = hint.text(card=lambda c: CARDS[c].glyph())
    for c in hint.action.cards:
        # named once (the head), unless a reason picks out a subset of the cards passed
        assert glyph.count(CARDS[c].glyph()) <= 2
        assert str(CARDS[c]) not in glyph, "no ASCII card names when the screen uses suit symbols"
    assert glyph.startswith("pass ")


@pytest.mark.parametrize("preset", ["standard", "auction_hearts", "cancellation_hearts", "omnibus", "hearts_1887"])
def test_every_hint_formats_in_english_and_spanish(preset: str) -> None:
    """Each reason's template is in the catalog with its placeholders, whatever the position."""
    es = translator("es").gettext
    kinds = set()
    for i, obs in enumerate(positions(preset, 21, 300)):
        if obs.decision is None or (i % 7 and obs.decision is Kind.PLAY):
            continue
        kinds.add(obs.decision)
        hint = suggest(obs, "standard", seed=i)
        assert hint.action in obs.legal or hint.action.kind is Kind.PASS
        hint.text()
        spanish = hint.text(es)
        for r in hint.reasons:
            assert es(r.template) != r.template, f"not translated: {r.template!r}"
        assert spanish
        assert hint.to_json()["reasons"][0]["template"] == hint.reasons[0].template
    assert Kind.PLAY in kinds


def test_reasons_keep_cards_seats_and_suits_typed_for_the_face() -> None:
    r = Reason(
        "the trick goes to {seat} for now; {card} in {suit}; {cards}",
        {
            "seat": Seat(2),
            "card": CARDS[36],
            "suit": Suit(3),
            "cards": (CARDS[0], CARDS[51]),
        },
    )
    assert r.format() == "the trick goes to seat 2 for now; QS in ♥; 2C AH"
    shown = r.format(card=lambda c: CARDS[c].glyph(), seat=lambda s: ["you", "Ann", "Bo"][s], suit=lambda s: "hearts")
    assert shown == "the trick goes to Bo for now; Q♠ in hearts; 2♣ A♥"
    assert r.to_json()["params"] == {"seat": {"seat": 2}, "card": "QS", "suit": {"suit": "H"}, "cards": ["2C", "AH"]}


def test_no_hint_without_a_decision() -> None:
    game = Game(Rules.preset("standard", passes=("hold",)), 1)
    idle = next(s for s in range(4) if s not in game.to_act())
    with pytest.raises(ValueError, match="no decision"):
        suggest(game.observation(idle), "standard")


@pytest.mark.parametrize(("preset", "seed"), [("omnibus", 5), ("cancellation_hearts", 3)])
def test_the_worth_of_a_trick_won_last_counts_every_card_it_brings(preset: str, seed: int) -> None:
    """The Omnibus J♦ makes a trick worth less than nothing; annulled tricks' cards go to this trick's winner."""
    seen = 0
    for obs in positions(preset, seed, 3000):
        if obs.decision is not Kind.PLAY or len(obs.trick) != obs.rules.players - 1:
            continue
        vals = obs.card_values
        carried: list[int] = []  # the cards of the annulled tricks since the last trick won
        for t in obs.tricks:
            carried = [*carried, *(c for _, c in t.plays)] if t.winner is None else []
        for a in obs.legal:
            text = english(describe(obs, a))
            if not text.startswith("win with"):
                continue
            worth = sum(vals[c] for _, c in obs.trick) + vals[a.cards[0]] + sum(vals[c] for c in carried)
            if worth:
                seen += 1
                assert text.endswith(f"the trick is worth {worth}"), (text, worth)
            else:
                assert text.endswith("a trick without points"), text
    assert seen
