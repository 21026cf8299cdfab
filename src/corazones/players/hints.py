"""Hints for the faces: the move a level would make, and why, ready to translate.

:func:`suggest` asks a fresh bot of the chosen level for its move on the
observation and explains it.  The explanation says what the move does at the
table (ducks under the winning card, dumps the Q♠ on another seat's trick,
leads low...), and, for the searching ``expert``, how many points it expects
from the move and from the next best one.

This floor does not translate and does not print: a reason is an English
template marked with :func:`N_` (so the catalog extraction finds it) and its
parameters.  Cards, seats and suits stay typed (:class:`~corazones.core.cards.Card`,
:class:`Seat`, :class:`Suit`) so every face shows them the way its screen does
(``Q♠`` or ``QS``, "seat 2" or a player's name), in its own language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from corazones.core.actions import Action, Kind
from corazones.core.cards import CARDS, SUIT_GLYPHS, SUIT_LETTERS, Card, card_str
from corazones.core.observation import Observation
from corazones.core.trick import trick_winner
from corazones.players.heuristics import pending_cards
from corazones.players.registry import make_player


def N_(message: str) -> str:
    """Mark ``message`` for the catalog; the face translates it when it shows it."""
    return message


class Seat(int):
    """A seat number that a face shows by the seat's name."""

    __slots__ = ()


class Suit(int):
    """A suit (0 clubs .. 3 hearts) that a face shows its own way."""

    __slots__ = ()


#: What a reason's parameter may be: cards, seats and suits are rendered by the face.
Param = int | float | str | Card | tuple[Card, ...] | Seat | Suit


def _same(text: str) -> str:
    return text


def _seat_en(seat: int) -> str:
    return f"seat {seat}"


def _suit_glyph(suit: int) -> str:
    return SUIT_GLYPHS[suit]


@dataclass(frozen=True, slots=True)
class Reason:
    """An English ``template`` with ``{placeholders}`` and their values."""

    template: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def format(
        self,
        gettext: Callable[[str], str] = _same,
        card: Callable[[int], str] = card_str,
        seat: Callable[[int], str] = _seat_en,
        suit: Callable[[int], str] = _suit_glyph,
    ) -> str:
        """The reason in the face's language, with its cards, seats and suits shown the face's way."""

        def show(value: Param) -> object:
            if isinstance(value, Card):
                return card(value)
            if isinstance(value, Seat):
                return seat(value)
            if isinstance(value, Suit):
                return suit(value)
            if isinstance(value, tuple):
                return " ".join(card(c) for c in value)
            return value

        return gettext(self.template).format(**{k: show(v) for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        """``{"template", "params"}`` for a web face.

        Cards are ``"QS"`` (a list for several), seats ``{"seat": n}``, suits ``{"suit": "S"}``.
        """

        def plain(value: Param) -> Any:
            if isinstance(value, Card):
                return card_str(value)
            if isinstance(value, Seat):
                return {"seat": int(value)}
            if isinstance(value, Suit):
                return {"suit": SUIT_LETTERS[value]}
            if isinstance(value, tuple):
                return [card_str(c) for c in value]
            return value

        return {"template": self.template, "params": {k: plain(v) for k, v in self.params.items()}}


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested ``action`` and why: the move itself first, then its reasons."""

    action: Action
    reasons: tuple[Reason, ...]

    def text(
        self,
        gettext: Callable[[str], str] = _same,
        card: Callable[[int], str] = card_str,
        seat: Callable[[int], str] = _seat_en,
        suit: Callable[[int], str] = _suit_glyph,
    ) -> str:
        """One line: ``move: reason; reason`` (English with card names like ``QS`` unless told otherwise)."""
        parts = [r.format(gettext, card, seat, suit) for r in self.reasons]
        head, rest = parts[0], parts[1:]
        return f"{head}: {'; '.join(rest)}" if rest else head

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "reasons": [r.to_json() for r in self.reasons]}


def _cards(cards: Any) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in cards)


def suggest(obs: Observation, level: str = "expert", seed: int | str | None = 0) -> Hint:
    """The action ``level`` would take on ``obs`` and the reasons for it.

    Raises ``ValueError`` when the observing seat has nothing to decide or
    the level is unknown.
    """
    if obs.decision is None:
        raise ValueError(f"seat {obs.seat} has no decision to make now, so there is nothing to suggest")
    bot = make_player(level, seed)
    action = bot.act(obs)
    reasons = describe(obs, action)
    result = getattr(bot, "last", None)
    if action.kind is Kind.PLAY and result is not None and getattr(result, "choice", None) == action.cards[0]:
        reasons += _search_figures(result)
    return Hint(action, reasons)


def _search_figures(res: Any) -> tuple[Reason, ...]:
    """The expert's figures for its card: points it expects, and the next best card's."""
    if getattr(res, "moon", False):
        return (Reason(N_("shooting the moon, it keeps winning tricks")),)
    points: dict[int, float] = getattr(res, "points", {})
    values: dict[int, float] = getattr(res, "values", {})
    if not values or res.choice not in points:
        return ()
    out = [
        Reason(
            N_("about {points:.1f} points expected over {deals} sampled deals"),
            {"points": points[res.choice], "deals": int(res.worlds)},
        )
    ]
    alts = sorted((v, m) for m, v in points.items() if values.get(m) != values[res.choice])
    if alts:
        v, m = alts[0]
        out.append(Reason(N_("next best {card}: {points:.1f}"), {"card": CARDS[m], "points": v}))
    return tuple(out)


def describe(obs: Observation, action: Action) -> tuple[Reason, ...]:
    """What ``action`` does in the position of ``obs``: the move, then a few words on why."""
    k = action.kind
    if k is Kind.PASS:
        return _describe_pass(obs, action)
    if k is Kind.BID:
        if not action.value:
            return (Reason(N_("do not bid")), Reason(N_("this hand has no cheap penalty suit to name")))
        return (
            Reason(N_("bid {chips}"), {"chips": int(action.value)}),
            Reason(N_("this hand can name a cheap penalty suit")),
        )
    if k is Kind.DECLARE:
        assert isinstance(action.value, int)
        return (
            Reason(N_("name {suit}"), {"suit": Suit(action.value)}),
            Reason(N_("the suit this hand can best keep out of")),
        )
    if k is Kind.MOON:
        if action.value == "add_to_others":
            return (Reason(N_("add the points to every opponent")), Reason(N_("that leaves you best placed")))
        return (Reason(N_("subtract the points from your own score")), Reason(N_("that leaves you best placed")))
    return _describe_play(obs, action.cards[0])


def _describe_pass(obs: Observation, action: Action) -> tuple[Reason, ...]:
    vals = obs.card_values
    passed = action.cards
    head = Reason(N_("pass {cards}"), {"cards": _cards(passed)})
    penalty = [c for c in passed if vals[c] > 0]
    high = [c for c in passed if vals[c] <= 0 and c % 13 >= 9]  # J, Q, K, A
    kept = Counter(obs.hand) - Counter(passed)
    voided = sorted({c // 13 for c in passed} - {c // 13 for c in kept.elements()})
    why: list[Reason] = []
    if penalty and len(penalty) == len(passed):
        why.append(Reason(N_("all penalty cards")))
    elif penalty:
        why.append(Reason(N_("penalty cards: {cards}"), {"cards": _cards(penalty)}))
    if high and len(high) == len(passed):
        why.append(Reason(N_("all high cards that would win tricks")))
    elif high:
        why.append(Reason(N_("high cards that would win tricks: {cards}"), {"cards": _cards(high)}))
    if len(voided) == 1:
        why.append(Reason(N_("it leaves you void in {suit}"), {"suit": Suit(voided[0])}))
    if not why:
        why.append(Reason(N_("the cards most likely to cost you points later")))
    return (head, *why)


def _outside(obs: Observation) -> Counter[int]:
    """Cards another seat may still play: the deck minus this seat's hand and the cards played."""
    seen = Counter(obs.hand)
    seen.update(c for t in obs.tricks for _, c in t.plays)
    seen.update(c for _, c in obs.trick)
    return Counter(obs.rules.deck) - seen


def _describe_play(obs: Observation, card: int) -> tuple[Reason, ...]:
    vals = obs.card_values
    rules = obs.rules
    two_decks = rules.decks == 2
    suit = card // 13
    me = {"card": CARDS[card]}
    if len(obs.legal) == 1:
        return (Reason(N_("play {card}"), me), Reason(N_("the only card you may play")))
    out = _outside(obs)
    beaters = sum(n for c, n in out.items() if c // 13 == suit and c > card)
    twin_out = two_decks and out[card] > 0
    mine_in_suit = [c for c in obs.hand if c // 13 == suit]
    if not obs.trick:
        head = Reason(N_("lead {card}"), me)
        if vals[card] > 0:
            return (head, Reason(N_("a penalty card, but the other leads are worse")))
        if beaters == 0 and twin_out:
            return (head, Reason(N_("no higher card is out, only its twin can cancel it")))
        if beaters == 0:
            return (head, Reason(N_("no card still out can beat it")))
        if card == min(mine_in_suit) and beaters >= rules.players - 1:
            return (head, Reason(N_("your lowest {suit}, unlikely to win the trick"), {"suit": Suit(suit)}))
        return (head, Reason(N_("cards still out that beat it: {count}"), {"count": beaters}))
    on_table = [c for _, c in obs.trick]
    led = on_table[0] // 13
    cancel = rules.cancel_whole_trick
    now = trick_winner(on_table, two_decks, cancel)
    after = trick_winner([*on_table, card], two_decks, cancel)
    last = len(obs.trick) == rules.players - 1
    if suit != led:
        if vals[card] > 0:
            head = Reason(N_("discard {card} (worth {points})"), {"card": CARDS[card], "points": vals[card]})
            if now is None:
                return (head, Reason(N_("nobody wins the trick yet")))
            return (head, Reason(N_("the trick goes to {seat} for now"), {"seat": Seat(obs.trick[now][0])}))
        head = Reason(N_("discard {card}"), me)
        lower_out = sum(n for c, n in out.items() if c // 13 == suit and c < card)
        if lower_out and len(obs.hand) > 1 and beaters <= 2:
            return (head, Reason(N_("a high card that could win a trick later")))
        return (head, Reason(N_("it costs nothing now")))
    if after == len(on_table):
        if last:
            # the cards of annulled tricks (two decks) go with it; a bonus card (Omnibus J♦) makes it worth less than 0
            pts = sum(vals[c] for c in on_table) + vals[card] + sum(vals[c] for c in pending_cards(obs))
            head = Reason(N_("win with {card}"), me)
            if pts:
                return (head, Reason(N_("last to play, the trick is worth {points}"), {"points": pts}))
            return (head, Reason(N_("last to play, a trick without points")))
        head = Reason(N_("play {card}"), me)
        losing = [
            a.cards[0]
            for a in obs.legal
            if a.cards[0] // 13 == led and trick_winner([*on_table, a.cards[0]], two_decks, cancel) != len(on_table)
        ]
        if losing or now is None:
            return (head, Reason(N_("it wins the trick for now; later seats may still beat it")))
        return (head, Reason(N_("you cannot stay under {winner}"), {"winner": CARDS[on_table[now]]}))
    if two_decks and card in on_table:
        return (
            Reason(N_("play {card}"), me),
            Reason(N_("it cancels the other {card}: neither can win the trick"), me),
        )
    if after is None:
        return (Reason(N_("play {card}"), me), Reason(N_("nobody wins the trick yet")))
    winner = CARDS[on_table[after]]
    head = Reason(N_("duck under {winner} with {card}"), {"winner": winner, "card": CARDS[card]})
    lower = [
        a.cards[0]
        for a in obs.legal
        if a.cards[0] // 13 == led and trick_winner([*on_table, a.cards[0]], two_decks, cancel) == after
    ]
    if len(lower) > 1 and card == max(lower):
        return (head, Reason(N_("the highest card that still loses")))
    return (head,)


__all__ = ["Hint", "Reason", "Seat", "Suit", "describe", "suggest"]
