"""Passing (RULES.md §1, §2, Black Maria §3): simultaneous, face down, and the cycle of directions."""

from __future__ import annotations

import random

import pytest

from corazones.core import Action, Deal, Game, IllegalActionError, Kind, Rules
from corazones.core.cards import card_str
from tests.helpers import snapshot

STANDARD = Rules.preset("standard")


def dealt(rules: Rules, seed: int = 0) -> list[list[int]]:
    deck = list(rules.deck)
    random.Random(seed).shuffle(deck)
    k = rules.hand_size
    return [sorted(deck[i * k : (i + 1) * k]) for i in range(rules.players)]


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("right", 3), ("across", 2)])
def test_pass_is_simultaneous_cards_arrive_only_after_everyone_passed(direction: str, offset: int) -> None:
    """§1 'passes them face down, all at once (nobody sees received cards before choosing their own)'.

    Left is the next seat clockwise; right the previous; across two seats on.
    """
    hands = dealt(STANDARD)
    d = Deal(STANDARD, hands, (), 3, direction)
    assert d.phase == "pass" and d.to_act() == (0, 1, 2, 3)
    chosen = {s: tuple(hands[s][:3]) for s in range(4)}
    for k, s in enumerate((2, 0, 3, 1)):
        d.apply(Action.pass_cards(s, chosen[s]))
        if k < 3:
            assert d.phase == "pass"
            assert d.received is None
            for t in range(4):
                want = hands[t][3:] if d.passes[t] is not None else hands[t]
                assert d.hand(t) == want, "a passer loses its cards; nobody receives before all passed"
            assert s not in d.to_act()
    assert d.phase == "play"
    for s in range(4):
        src = (s - offset) % 4
        assert d.received is not None and d.received[s] == chosen[src]
        assert sorted(d.hand(s)) == sorted(hands[s][3:] + list(chosen[src]))


def test_four_player_cycle_left_right_across_hold() -> None:
    """§1 'Cycle per hand: left, right, across, hold (no pass), then repeat'."""
    g = Game(STANDARD, seed=3)
    seen = []
    rng = random.Random(3)
    while len(seen) < 6:
        d = g.deal
        seen.append(d.pass_direction)
        if d.pass_direction == "hold":
            assert d.phase == "play", "hold: no pass, play starts at once"
        else:
            assert d.phase == "pass"
        while g.hand_index == len(seen) - 1:
            s = g.to_act()[0]
            if g.decision_kind() is Kind.PASS:
                g.apply(Action.pass_cards(s, rng.sample(g.deal.hand(s), 3)))
            else:
                g.apply(rng.choice(g.legal_actions(s)))
    assert seen == ["left", "right", "across", "hold", "left", "right"]


@pytest.mark.parametrize("players", [3, 5, 6, 7])
def test_other_player_counts_cycle_left_right(players: int) -> None:
    """§2 'Passing with other than four players: left, right, repeat (no across, no hold)'."""
    r = Rules.preset("standard", players=players)
    assert [r.pass_direction(i) for i in range(5)] == ["left", "right", "left", "right", "left"]
    hands = dealt(r)
    for direction, offset in (("left", 1), ("right", players - 1)):
        d = Deal(r, hands, (), 0, direction)
        for s in range(players):
            d.apply(Action.pass_cards(s, hands[s][:3]))
        assert d.received == [tuple(hands[(s - offset) % players][:3]) for s in range(players)]


def test_black_maria_passes_right_every_hand() -> None:
    r = Rules.preset("black_maria")
    g = Game(r, seed=1)
    assert g.deal.pass_direction == "right" and g.deal.pass_offset == 2
    assert [r.pass_direction(i) for i in range(4)] == ["right"] * 4


def test_no_passing_presets_start_in_play() -> None:
    for preset in ("hearts_1887", "arnold_2011", "four_jacks", "chasse_coeur"):
        g = Game(Rules.preset(preset), seed=2)
        assert g.deal.phase == "play", preset
        assert g.deal.pass_direction == "hold"


def test_pass_count_option() -> None:
    """The number of cards passed is an option (pass_count); a pass of another size is refused."""
    r = STANDARD.replace(pass_count=1)
    hands = dealt(r)
    d = Deal(r, hands, (), 3, "left")
    with pytest.raises(IllegalActionError, match="pass exactly 1 card, not 3"):
        d.apply(Action.pass_cards(0, hands[0][:3]))
    d.apply(Action.pass_cards(0, hands[0][:1]))
    assert d.hand_count(0) == 12


def test_two_deck_pass_of_both_copies() -> None:
    """Cancellation Hearts: a hand holding two copies of a card may pass both, but not three."""
    r = Rules.preset("cancellation_hearts", players=5)
    k = r.hand_size
    deck = sorted(r.deck)  # every card twice, adjacent
    hands = [deck[i * k : (i + 1) * k] for i in range(5)]
    assert hands[0][0] == hands[0][1]
    d = Deal(r, hands, deck[5 * k :], 4, "left")
    c = hands[0][0]
    with pytest.raises(IllegalActionError, match=f"cannot pass {card_str(c)}"):
        d.apply(Action.pass_cards(0, [c, c, c]))
    d.apply(Action.pass_cards(0, [c, c, hands[0][2]]))
    assert c not in d.hand(0)
    for s in range(1, 5):
        d.apply(Action.pass_cards(s, hands[s][:3]))
    assert d.hand(1).count(c) >= 2


def test_illegal_passes_leave_the_game_untouched() -> None:
    """Each kind of bad pass raises with what is allowed, and the state is unchanged."""
    g = Game(STANDARD, seed=5)
    assert g.deal.phase == "pass"
    hand0 = g.deal.hand(0)
    missing = next(c for c in range(52) if c not in hand0)
    before = snapshot(g)
    bad = [
        (Action.pass_cards(0, hand0[:2]), "pass exactly 3 cards, not 2"),
        (Action.pass_cards(0, hand0[:4]), "pass exactly 3 cards, not 4"),
        (Action.pass_cards(0, [*hand0[:2], missing]), f"cannot pass {card_str(missing)}: not in hand"),
        (Action(Kind.PLAY, 0, (hand0[0],)), "play is not possible now: the game waits for pass"),
        (Action.pass_cards(9, hand0[:3]), "seat 9 does not exist; seats are 0 to 3"),
    ]
    dup = Action(Kind.PASS, 0, (hand0[0], hand0[0], hand0[1]))
    bad.append((dup, "not in hand (or passed twice)"))
    for action, msg in bad:
        with pytest.raises(IllegalActionError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            g.apply(action)
        assert snapshot(g) == before, action
    g.apply(Action.pass_cards(0, hand0[:3]))
    after = snapshot(g)
    with pytest.raises(IllegalActionError, match=r"it is not seat 0's turn to pass; waiting for seat\(s\) 1, 2, 3"):
        g.apply(Action.pass_cards(0, g.deal.hand(0)[:3]))
    assert snapshot(g) == after
