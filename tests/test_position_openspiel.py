"""OpenSpiel ``hearts`` histories to Corazones games and back.

The hand-made histories follow OpenSpiel's numbering as its source defines it
(``open_spiel/games/hearts/hearts.h``: card = rank * 4 + suit, suits C D H S;
the ``i``-th dealt card to player ``i % 4``; pass direction 0 none, 1 left,
2 across, 3 right; passes card by card, player 0 first) and run everywhere.
The comparisons with OpenSpiel itself run when ``open_spiel`` is installed
(``pip install open_spiel``) and are skipped, with that reason, otherwise.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from corazones.core import Game, Kind, card_str, parse_card
from corazones.core.errors import IllegalActionError, RulesError
from corazones.core.openspiel import (
    card_from_openspiel,
    card_to_openspiel,
    game_from_openspiel,
    openspiel_history,
    openspiel_params,
    rules_from_openspiel,
)
from tests.helpers import random_action

#: Deal every card in OpenSpiel order 0..51: player 0 gets every club, 1 diamonds, 2 hearts, 3 spades.
BY_SUIT = list(range(52))


def os_card(text: str) -> int:
    return card_to_openspiel(parse_card(text))


def test_card_numbering_matches_openspiel_source() -> None:
    assert [card_str(card_from_openspiel(a)) for a in (0, 1, 2, 3, 4, 40, 43, 51)] == [
        "2C",
        "2D",
        "2H",
        "2S",
        "3C",
        "QC",
        "QS",
        "AS",
    ]
    assert all(card_to_openspiel(card_from_openspiel(a)) == a for a in range(52))
    with pytest.raises(IllegalActionError, match="not an OpenSpiel card: 52"):
        card_from_openspiel(52)


def test_a_hand_made_history_without_pass() -> None:
    first_trick = [os_card(c) for c in ("2C", "2D", "2H", "2S")]
    game = game_from_openspiel([0, *BY_SUIT, *first_trick])
    obs = game.observation(0)
    assert obs.pass_direction == "hold" and obs.dealer == 3
    assert [card_str(c) for c in obs.hand][:2] == ["3C", "4C"]
    # seat 0 won with the only club and took the 2H
    assert obs.points_taken == (1, 0, 0, 0) and obs.trick_leader == 0
    # seat 3 holds only spades: on the first trick it may not discard Q♠
    with pytest.raises(IllegalActionError, match=r"OpenSpiel action 56 \(seat 3\): QS may not be played now"):
        game_from_openspiel([0, *BY_SUIT, *first_trick[:3], os_card("QS")])


def test_a_hand_made_history_passing_left_card_by_card() -> None:
    passes = [os_card(c) for c in ("AC", "KC", "QC", "AD", "KD", "QD", "AH", "KH", "QH", "AS", "KS", "QS")]
    game = game_from_openspiel([1, *BY_SUIT, *passes])
    assert game.decision_kind() is Kind.PLAY
    obs = game.observation(1)
    assert [card_str(c) for c in obs.received] == ["QC", "KC", "AC"]
    assert [card_str(c) for c in obs.passed] == ["QD", "KD", "AD"]
    picks: dict[int, tuple[int, ...]] = {}
    partial = game_from_openspiel([1, *BY_SUIT, *passes[:4]], picks=picks)
    assert picks == {1: (parse_card("AD"),)} and partial.deal.passes[0] is not None
    with pytest.raises(IllegalActionError, match="stops in the middle of seat 1's pass"):
        game_from_openspiel([1, *BY_SUIT, *passes[:4]])
    back = openspiel_history(game)  # each seat's three cards come lowest first (a pass is a set of cards)
    assert back[:53] == [1, *BY_SUIT]
    assert [sorted(back[53 + 3 * s : 56 + 3 * s]) for s in range(4)] == [
        sorted(passes[3 * s : 3 * s + 3]) for s in range(4)
    ]


def test_bad_histories_and_parameters_say_why() -> None:
    with pytest.raises(IllegalActionError, match="starts with the pass direction and 52 dealt cards; this one has 3"):
        game_from_openspiel([0, 1, 2])
    with pytest.raises(IllegalActionError, match="pass direction 0-3"):
        game_from_openspiel([7, *BY_SUIT])
    with pytest.raises(IllegalActionError, match=r"OpenSpiel deal: cards not in this deck .*: 2C"):
        game_from_openspiel([0, *BY_SUIT[:51], 0])
    with pytest.raises(RulesError, match="can_lead_any_club = true has no Corazones rule"):
        rules_from_openspiel({"can_lead_any_club": True})
    with pytest.raises(RulesError, match="unknown OpenSpiel hearts parameter 'bonus'"):
        rules_from_openspiel({"bonus": True})
    with pytest.raises(RulesError, match="OpenSpiel hearts cannot play these rules; it needs moon = 'add_to_others'"):
        openspiel_params(Game(seed=1).rules)
    assert openspiel_params(rules_from_openspiel({"jd_bonus": True}))["jd_bonus"] is True


def test_errors_name_the_action_by_its_place_in_the_whole_history() -> None:
    # the 2nd pick of a left pass (OpenSpiel action 54) is a card seat 0 does not hold
    with pytest.raises(
        IllegalActionError, match=r"^OpenSpiel action 54 \(seat 0\): seat 0 cannot pass 2D: not in hand"
    ):
        game_from_openspiel([1, *BY_SUIT, os_card("2C"), os_card("2D")])
    # seat 1's first pick is action 56
    with pytest.raises(IllegalActionError, match=r"^OpenSpiel action 56 \(seat 1\): seat 1 cannot pass 2C"):
        game_from_openspiel([1, *BY_SUIT, *map(os_card, ("2C", "3C", "4C", "2C"))])
    # a number that is no card, dealt (action 2) or played (action 55)
    with pytest.raises(IllegalActionError, match=r"^OpenSpiel action 2: not an OpenSpiel card: 60; cards are 0 to 51"):
        game_from_openspiel([0, 0, 60, *BY_SUIT[2:]])
    with pytest.raises(IllegalActionError, match=r"^OpenSpiel action 55: not an OpenSpiel card: -1"):
        game_from_openspiel([0, *BY_SUIT, os_card("2C"), os_card("3C"), -1])


# --------------------------------------------------------------- against OpenSpiel itself
PARAMS = ("pass_cards", "no_pts_on_first_trick", "jd_bonus", "qs_breaks_hearts", "must_break_hearts")


def _pyspiel():  # type: ignore[no-untyped-def]
    return pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")


def test_openspiel_games_convert_step_by_step() -> None:
    """Random OpenSpiel deals: at every decision the same seat acts with the same legal cards; same returns."""
    pyspiel = _pyspiel()
    rng = random.Random(14)
    for _ in range(12):
        params = {k: rng.random() < 0.5 for k in PARAMS}
        state = pyspiel.load_game("hearts", params).new_initial_state()
        history: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
                if len(history) > 53:
                    picks: dict[int, tuple[int, ...]] = {}
                    game = game_from_openspiel(history, params, picks)
                    seat = state.current_player()
                    theirs = sorted(card_from_openspiel(a) for a in state.legal_actions())
                    if game.decision_kind() is Kind.PLAY:
                        assert game.to_act() == (seat,)
                        assert sorted(a.card for a in game.legal_actions(seat)) == theirs
                    else:
                        assert game.decision_kind() is Kind.PASS and seat in game.to_act()
                        left = Counter(game.deal.hand(seat)) - Counter(picks.get(seat, ()))
                        assert sorted(left.elements()) == theirs
            state.apply_action(action)
            history.append(action)
        game = game_from_openspiel(history, params)
        assert [26 - x for x in game.history[-1].scores] == state.returns()
        assert openspiel_history(game)[1:53] != [] and sorted(openspiel_history(game)[1:53]) == list(range(52))


def test_corazones_deals_replay_in_openspiel() -> None:
    """Random Corazones deals under OpenSpiel's rules, converted to histories OpenSpiel plays to the same points."""
    pyspiel = _pyspiel()
    rng = random.Random(41)
    for i in range(12):
        params = {k: rng.random() < 0.5 for k in PARAMS}
        rules = rules_from_openspiel(params).replace(hands=1, target=None, tie_break="shared")
        game = Game(rules, seed=i)
        while game.deal.dealer != 3:  # OpenSpiel deals from player 0: seat 3 deals
            game = Game(rules, seed=game.seed + 1000)  # type: ignore[operator]
        while not game.over:
            game.apply(random_action(game, rng))
        state = pyspiel.load_game("hearts", params).new_initial_state()
        for action in openspiel_history(game):
            state.apply_action(action)
        assert state.is_terminal()
        assert state.returns() == [26 - x for x in game.history[-1].scores]
