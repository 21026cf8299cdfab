"""OpenSpiel's ``hearts`` notation: its action histories to and from Corazones games.

OpenSpiel (``open_spiel/games/hearts/hearts.cc``) plays one four-player deal.
Its history is a list of integers:

* one chance action for the pass direction: 0 no pass, 1 left, 2 across,
  3 right (``PassDir``);
* 52 chance actions dealing the cards: the ``i``-th card dealt goes to player
  ``i % 4``;
* with a pass, 12 actions: player 0 picks its three cards one at a time, then
  players 1, 2 and 3;
* 52 card plays, the holder of 2♣ leading.

A card there is ``rank * 4 + suit`` with suits ordered clubs, diamonds,
hearts, spades (``CardSuit``/``CardRank``): 0 is 2♣, 2 is 2♥, 3 is 2♠, 51 is
A♠.  Corazones numbers cards ``suit * 13 + rank`` with clubs, diamonds,
spades, hearts.  OpenSpiel's players 0-3 (north, east, south, west) are
Corazones seats 0-3, clockwise, so "left" is the next seat in both; player 0
receives the first card dealt, which makes seat 3 the dealer.

OpenSpiel always scores the moon by adding 26 to the others, so
:func:`rules_from_openspiel` sets ``moon = add_to_others``; its parameters map
to options (``qs_breaks_hearts`` -> ``queen_breaks_hearts``, ``jd_bonus`` ->
J♦ worth -10, ...).  With ``pass_cards = false`` OpenSpiel still lists all four directions as
chance outcomes and plays a pass when one of them is drawn; the converter
does the same.  Its three parameters without a Corazones rule
(``can_lead_any_club``, ``can_lead_hearts_instead_of_qs``,
``avoid_all_tricks_bonus``) are refused when set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any, Final

from corazones.core.actions import Action
from corazones.core.errors import N_, IllegalActionError, RulesError, Seats
from corazones.core.game import Game
from corazones.core.position import Position, replay, start_deal
from corazones.core.rules import Rules
from corazones.core.validate import is_whole, is_whole_in

#: OpenSpiel's pass-direction chance outcomes, by action number.
PASS_DIRECTIONS: Final = ("hold", "left", "across", "right")
#: OpenSpiel suit order (clubs, diamonds, hearts, spades) -> Corazones suit index.
_SUIT_FROM: Final = (0, 1, 3, 2)
_SUIT_TO: Final = (0, 1, 3, 2)  # the same swap both ways
#: OpenSpiel game parameters and their defaults (hearts.cc, kGameType).
DEFAULTS: Final[dict[str, bool]] = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "qs_breaks_hearts": True,
    "must_break_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
_UNSUPPORTED: Final = ("can_lead_any_club", "avoid_all_tricks_bonus", "can_lead_hearts_instead_of_qs")
DEALER: Final = 3
PLAYERS: Final = 4


def card_from_openspiel(action: int) -> int:
    """The Corazones card of OpenSpiel card number ``action`` (0..51)."""
    if not is_whole_in(action, 0, 51):
        raise IllegalActionError(
            N_("not an OpenSpiel card: {value}; cards are 0 to 51 (rank * 4 + suit)"), value=repr(action)
        )
    return _SUIT_FROM[action % 4] * 13 + action // 4


def card_to_openspiel(card: int) -> int:
    """OpenSpiel's number for Corazones card ``card``."""
    return (card % 13) * 4 + _SUIT_TO[card // 13]


def rules_from_openspiel(params: Mapping[str, Any] | None = None) -> Rules:
    """The Corazones rules of OpenSpiel ``hearts`` with ``params`` (its game parameters)."""
    values = dict(DEFAULTS)
    for name, value in (params or {}).items():
        if name not in DEFAULTS:
            raise RulesError(
                N_("unknown OpenSpiel hearts parameter {name}; parameters: {names}"),
                name=repr(name),
                names=", ".join(DEFAULTS),
            )
        if not isinstance(value, bool):
            raise RulesError(
                N_("OpenSpiel hearts parameter {name} is true or false, not {value}"), name=name, value=repr(value)
            )
        values[name] = value
    for name in _UNSUPPORTED:
        if values[name]:
            raise RulesError(
                N_("OpenSpiel hearts parameter {name} = true has no Corazones rule; it must be false"), name=name
            )
    card_points = (("QS", 13), ("JD", -10)) if values["jd_bonus"] else (("QS", 13),)
    return Rules.preset(
        "standard",
        pass_count=3 if values["pass_cards"] else 0,
        no_points_first_trick=values["no_pts_on_first_trick"],
        queen_breaks_hearts=values["qs_breaks_hearts"],
        must_break_hearts=values["must_break_hearts"],
        card_points=card_points,
        moon="add_to_others",
    )


def openspiel_params(rules: Rules) -> dict[str, bool]:
    """OpenSpiel ``hearts`` parameters playing exactly ``rules``; :class:`RulesError` if none can.

    How the match goes on (target, number of hands, ties, the pass cycle) does
    not count: OpenSpiel plays one deal whose pass direction is in its history.
    """
    params = {
        "pass_cards": rules.pass_count != 0,
        "no_pts_on_first_trick": rules.no_points_first_trick,
        "jd_bonus": dict(rules.card_points).get("JD") == -10,
        "qs_breaks_hearts": rules.queen_breaks_hearts,
        "must_break_hearts": rules.must_break_hearts,
    }
    want = rules_from_openspiel(params).to_dict()
    have = rules.to_dict()
    differ = [k for k in want if k not in _MATCH_OPTIONS and have[k] != want[k]]
    if differ:
        raise RulesError(
            N_("OpenSpiel hearts cannot play these rules; it needs {needs}"),
            needs=", ".join(f"{k} = {want[k]!r} (not {have[k]!r})" for k in differ),
        )
    return params


_MATCH_OPTIONS: Final = ("name", "target", "hands", "tie_break", "passes")


def _int(value: Any, i: int) -> int:
    if not is_whole(value):
        raise IllegalActionError(
            N_("OpenSpiel action {number} is {value}, not a whole number"), number=i, value=repr(value)
        )
    return value


def _card(value: Any, i: int) -> int:
    """The Corazones card of OpenSpiel action ``i``, an error naming the action when it is no card."""
    try:
        return card_from_openspiel(_int(value, i))
    except IllegalActionError as e:
        if "number" in e.params:  # _int's message names the action already
            raise
        raise IllegalActionError(N_("OpenSpiel action {number}: {error}"), number=i, error=e) from None


def position_from_openspiel(history: Iterable[int], params: Mapping[str, Any] | None = None) -> Position:
    """The deal an OpenSpiel ``hearts`` history starts with (its first 53 actions)."""
    rules = rules_from_openspiel(params)
    moves = list(history)
    if len(moves) < 53:
        raise IllegalActionError(
            N_(
                "an OpenSpiel hearts history starts with the pass direction and 52 dealt cards; "
                "this one has {count} actions"
            ),
            count=len(moves),
        )
    direction = _int(moves[0], 0)
    if not 0 <= direction < 4:
        raise IllegalActionError(
            N_("OpenSpiel action 0 is the pass direction 0-3 (none, left, across, right), not {value}"),
            value=direction,
        )
    if direction and not rules.pass_count:
        # OpenSpiel's chance outcomes offer every direction even with pass_cards = false
        # (only its legal actions say "no pass"), and a direction drawn from them is played
        rules = rules.replace(pass_count=3)
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    for i in range(52):
        hands[i % PLAYERS].append(_card(moves[1 + i], 1 + i))
    try:
        return Position.of(rules, hands, dealer=DEALER, pass_direction=PASS_DIRECTIONS[direction])
    except ValueError as e:
        raise IllegalActionError(N_("OpenSpiel deal: {error}"), error=e) from None


def game_from_openspiel(
    history: Iterable[int],
    params: Mapping[str, Any] | None = None,
    picks: MutableMapping[int, tuple[int, ...]] | None = None,
    seed: int | str | None = None,
) -> Game:
    """The Corazones game (one deal) at the end of an OpenSpiel ``hearts`` history.

    ``picks`` receives the cards of a pass the history has only partly made
    (OpenSpiel passes card by card); without it such a history is refused.
    """
    moves = list(history)
    position = position_from_openspiel(moves, params)
    cards = [_card(a, 53 + i) for i, a in enumerate(moves[53:])]
    n_pass = PLAYERS * 3 if position.direction != "hold" else 0
    passes = [Action.pass_cards(i // 3, [c]) for i, c in enumerate(cards[:n_pass])]
    try:
        game = replay(start_deal(position, seed), passes, picks)
    except IllegalActionError as e:
        if "number" not in e.params:  # a pass left unfinished without picks: nothing to renumber
            raise
        # replay counts from 0 among the passes; the user's numbers count the whole history
        i = e.params["number"]
        raise IllegalActionError(
            N_("OpenSpiel action {number} (seat {seat}): {error}"),
            number=53 + i,
            seat=Seats(i // 3),
            error=e.params["error"],
        ) from None
    for i, card in enumerate(cards[n_pass:]):
        seats = game.to_act()
        number = 53 + n_pass + i
        if len(seats) != 1:
            raise IllegalActionError(
                N_("OpenSpiel action {number}: no seat is to play a card now (the hand is over)"), number=number
            )
        try:
            game.apply(Action.play(seats[0], card))
        except IllegalActionError as e:
            raise IllegalActionError(
                N_("OpenSpiel action {number} (seat {seat}): {error}"), number=number, seat=Seats(seats[0]), error=e
            ) from None
    return game


def openspiel_history(game: Game, finished: bool = False) -> list[int]:
    """The OpenSpiel ``hearts`` history of the current hand of ``game`` (``finished``: the last one played).

    The rules must be ones OpenSpiel plays (:func:`openspiel_params`), with
    seat 3 dealing (OpenSpiel deals from player 0).  OpenSpiel passes in seat
    order, so the history holds the passes of seats 0, 1... up to the first
    seat that has not passed yet; each pass lists its cards in Corazones
    order (a pass is a set: the order the cards were picked in is not kept).
    """
    openspiel_params(game.rules)
    d = game.last_deal if finished or game.over else game.deal
    if d is None:
        raise IllegalActionError(N_("no hand has finished yet"))
    if d.dealer != DEALER:
        raise RulesError(
            N_("OpenSpiel deals from player 0, so seat 3 must be the dealer, not seat {seat}"), seat=d.dealer
        )
    hands = [list(d.hand(s)) for s in range(PLAYERS)]
    for t in d.tricks:
        for s, c in t.plays:
            hands[s].append(c)
    for s, c in zip(d.trick_seats, d.trick_cards):
        hands[s].append(c)
    for s in range(PLAYERS):
        if d.received is not None:
            for c in d.received[s]:
                hands[s].remove(c)
        passed = d.passes[s]
        if passed is not None:
            hands[s].extend(passed)
    dealt = [sorted(h) for h in hands]
    out = [PASS_DIRECTIONS.index(d.pass_direction)]
    out.extend(card_to_openspiel(dealt[i % PLAYERS][i // PLAYERS]) for i in range(52))
    for s in range(PLAYERS):
        passed = d.passes[s]
        if passed is None:
            break
        out.extend(card_to_openspiel(c) for c in passed)
    for t in d.tricks:
        out.extend(card_to_openspiel(c) for _, c in t.plays)
    out.extend(card_to_openspiel(c) for c in d.trick_cards)
    return out
