"""What a connection may see, at every step of random games of every preset (Hypothesis).

A seat's view holds no card outside its own hand, its own pass and what it
received, and cards played face up; the public view holds no hand at all and
no card that is not face up; redacted events keep pass cards for their author.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from corazones.core import Game, Rules
from corazones.core.actions import Kind
from corazones.core.cards import card_str
from corazones.core.rules import PRESETS
from corazones.server.schema import PublicView, SeatView
from corazones.server.views import PRIVATE_FIELDS, public_view, redact, seat_view
from tests.helpers import cards_in, random_action


def _face_up(game: Game) -> set[str]:
    d = game.deal
    played = {card_str(c) for t in d.tricks for _, c in t.plays} | {card_str(c) for c in d.trick_cards}
    return played


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_views_hold_only_what_the_seat_may_know(preset: str, seed: int, steps: int) -> None:
    game = Game(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(random_action(game, rng))
    face_up = _face_up(game)
    pub = public_view(game)
    PublicView.model_validate(pub)
    assert not set(PRIVATE_FIELDS) & set(pub)
    assert cards_in(pub) <= face_up
    for seat in range(game.rules.players):
        view = seat_view(game, seat)
        SeatView.model_validate(view)
        obs = game.observation(seat)
        own = {card_str(c) for c in obs.hand} | {card_str(c) for c in obs.passed or ()}
        own |= {card_str(c) for c in obs.received or ()}
        assert cards_in(view) <= own | face_up, (preset, seat)
        assert view["hand"] == [card_str(c) for c in obs.hand]


def test_a_pass_keeps_its_cards_for_its_author_only() -> None:
    game = Game(Rules.preset("standard"), seed=5)
    seat = game.to_act()[0]
    assert game.decision_kind() is Kind.PASS
    hand = game.deal.hand(seat)[:3]
    event = {"kind": "action", "action": {"seat": seat, "pass": [card_str(c) for c in hand]}, "by": "human"}
    assert redact(event, seat) == event
    for other in (None, *(s for s in range(4) if s != seat)):
        assert redact(event, other)["action"] == {"seat": seat, "pass": None}
    play = {"kind": "action", "action": {"seat": 2, "play": "QS"}, "by": "bot"}
    assert redact(play, None) == play
