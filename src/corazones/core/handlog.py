"""Hand logs from other programs: one JSON object per line, one deal each.

Each line gives the rules (a preset name plus option overrides), the hands as
dealt, the bids (or, after a carried-over pool, the seat that names the suit)
and the suit named (Auction Hearts), the passes, the plays in
order and, optionally, the expected results.
:func:`check_line` replays the deal under our rules and returns a
:class:`Verdict`, so other programs' games can be checked against Corazones'
rule book.  The format is documented field by field in ``docs/records.md``.

A line is checked in two stages.  First its shape: every field, type, card
and count is validated before anything is played, so a malformed line is
reported as such (status ``malformed``) and never half-checked.  Then the
deal is replayed: the first pass, play or moon choice the rules refuse gives
status ``illegal``, and an ``expect`` value that differs from what the rules
give gives status ``mismatch``.  Nothing here raises on bad input, and every
size is bounded (:mod:`corazones.core.limits`): a line longer than
:data:`~corazones.core.limits.MAX_HANDLOG_LINE_BYTES`, a number of more than
:data:`~corazones.core.limits.MAX_INT_DIGITS` digits or a duplicate key is
``malformed``.

``expect.points`` is each seat's score for the hand *after* the moon rule
(what is added to the running totals), ``expect.taken`` the penalty points
each seat took in tricks and the kitty *before* it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from corazones.core.actions import MOON_CHOICES, Action
from corazones.core.cards import SUIT_LETTERS, card_str, format_cards, parse_card
from corazones.core.deal import DECLARE, MOON, PASS, PLAY, Deal
from corazones.core.errors import N_, CorazonesError, Message, Seats
from corazones.core.limits import MAX_HANDLOG_LINE_BYTES, check_json, parse_json, show
from corazones.core.rules import PRESETS, Rules
from corazones.core.validate import is_whole, refuse_unknown, seat_or_none

#: Fields of a hand-log line.
FIELDS = (
    "rules",
    "options",
    "dealer",
    "hands",
    "bids",
    "declarer",
    "declare",
    "pass_direction",
    "passes",
    "plays",
    "moon_choice",
    "expect",
)
#: Fields of ``expect`` (all optional).
EXPECT_FIELDS = ("points", "taken", "shooter", "kitty_owner")
DIRECTIONS = ("left", "right", "across", "hold")

#: An ``expect`` value that differs from what the rules give.
SAYS = N_("{field}: the log says {log}, the rules give {rules}")

OK = "ok"
MALFORMED = "malformed"
ILLEGAL = "illegal"
MISMATCH = "mismatch"
#: Verdict statuses: the line is fine, cannot be read, breaks a rule, or its expected results differ.
STATUSES = (OK, MALFORMED, ILLEGAL, MISMATCH)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Outcome of checking one hand-log line.

    ``status`` is one of :data:`STATUSES`; ``points`` are the hand scores the
    rules give (after the moon rule) whenever the deal could be played out.
    ``message`` is the English sentence for programs, naming seats by their
    index from 0 as ``str(error)`` does; ``reason`` is the same as a template
    and its parameters (a :class:`Message` or a core error), for a face that
    shows it with ``corazones.i18n.error_text``: translated, seats counted
    from 1 (``corazones verify`` prints it so, in English, for scripts).
    """

    ok: bool
    message: str
    points: tuple[int, ...] | None = None
    status: str = OK
    reason: Message | CorazonesError | None = None

    def __str__(self) -> str:
        return self.message if self.ok else f"FAIL {self.status}: {self.message}"


class _Fail(Exception):
    """A line that does not check: its status and why, as an English template and its parameters."""

    def __init__(self, status: str, template: str, /, points: tuple[int, ...] | None = None, **params: Any) -> None:
        self.reason = Message(template, **params)
        self.message = str(self.reason)
        super().__init__(self.message)
        self.status = status
        self.points = points


def _malformed(template: str, /, **params: Any) -> _Fail:
    return _Fail(MALFORMED, template, **params)


def check_line(text: str) -> Verdict:
    """Check one JSON Lines entry; never raises on bad input, the verdict says what is wrong.

    A line (or a whole pretty-printed entry) may be at most
    :data:`~corazones.core.limits.MAX_HANDLOG_LINE_BYTES` long.
    """
    if not isinstance(text, str):
        why = Message(N_("a hand-log line is text, not {kind}"), kind=type(text).__name__)
        return Verdict(False, str(why), status=MALFORMED, reason=why)
    try:
        data = parse_json(text.lstrip("\ufeff"), Message(N_("a hand-log line")), MAX_HANDLOG_LINE_BYTES)
    except CorazonesError as e:
        return Verdict(False, str(e).replace(" at line 1 column ", " at column "), status=MALFORMED, reason=e)
    return check_entry(data)


def check_entry(data: Any) -> Verdict:
    """Check one parsed entry; never raises on bad input."""
    try:
        check_json(data)
        return _check(data)
    except _Fail as f:
        return Verdict(False, f.message, f.points, f.status, f.reason)
    except CorazonesError as e:
        return Verdict(False, str(e), status=MALFORMED, reason=e)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as e:
        # A safety net: every shape problem above is meant to be caught by name first.
        why = Message(N_("could not check this line: {error}"), error=show(str(e)))
        return Verdict(False, str(why), status=MALFORMED, reason=why)


# ------------------------------------------------------------------ shape
def _card_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise _malformed(
            N_('{where} must be a list of cards like ["2C", "QS", "10H"], not {value}'),
            where=where,
            value=_short(value),
        )
    out = []
    for i, c in enumerate(value):
        try:
            out.append(parse_card(c))
        except CorazonesError as e:
            raise _malformed(N_("{where}[{i}]: {error}"), where=where, i=i, error=e) from None
    return out


def _short(value: Any) -> str:
    """JSON text of a value for a verdict, cut short (never raises: the entry passed :func:`check_json`)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return show(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _rules(data: dict[str, Any]) -> Rules:
    if "rules" not in data:
        raise _malformed(N_("'rules' is missing; give a preset name: {presets}"), presets=", ".join(PRESETS))
    preset = data["rules"]
    if not isinstance(preset, str) or preset not in PRESETS:
        raise _malformed(
            N_("rules {preset} is not a preset; presets: {presets}"), preset=_short(preset), presets=", ".join(PRESETS)
        )
    options = data.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _malformed(
            N_("'options' must be an object of option: value (see RULES.md), not {value}"), value=_short(options)
        )
    try:
        rules = Rules.preset(preset, **options)
    except CorazonesError as e:
        raise _malformed(N_("options: {error}"), error=e) from None
    return rules


def _auction(data: dict[str, Any], rules: Rules) -> tuple[list[int] | None, int | None, str | None]:
    """Under auction rules: the bids (eldest hand first, dealer last; 0 = no bid), or the seat that
    names the suit without bidding after a carried-over pool, and the suit named."""
    bids = data.get("bids")
    declarer = data.get("declarer")
    declare = data.get("declare")
    if not rules.auction:
        if bids is not None or declarer is not None or declare is not None:
            raise _malformed(
                N_("'bids', 'declarer' and 'declare' belong to rules with an auction (auction_hearts); leave them out")
            )
        return None, None, None
    n = rules.players
    if data.get("dealer") is None:
        raise _malformed(
            N_("'dealer' is needed with an auction: the bids go from eldest hand (left of the dealer) round")
        )
    if declare is not None and (not isinstance(declare, str) or len(declare) != 1 or declare not in SUIT_LETTERS):
        raise _malformed(
            N_("declare {value} is not a suit; use one of {suits}"),
            value=_short(declare),
            suits=", ".join(SUIT_LETTERS),
        )
    if declarer is not None:
        if bids is not None:
            raise _malformed(
                N_(
                    "give either 'bids' (a hand with an auction) or 'declarer' (a carried-over pool: "
                    "that seat names the suit without bidding), not both"
                )
            )
        seat = _seat(declarer, n, "declarer")
        assert seat is not None
        if declare is None:
            raise _malformed(
                N_("seat {seat} names the suit after a carried-over pool: 'declare' must name it"), seat=Seats(seat)
            )
        return None, seat, declare
    if not isinstance(bids, list) or len(bids) != n or not all(is_whole(b) for b in bids):
        raise _malformed(
            N_(
                "'bids' must list {n} whole numbers of chips, one per seat from eldest hand to the dealer "
                "(0 = no bid), not {value}; or, after a carried-over pool, 'declarer' names the seat "
                "that names the suit"
            ),
            n=n,
            value=_short(bids),
        )
    return [int(b) for b in bids], None, declare


#: A seat field of a hand-log entry, which may be null.
_SEAT: Final = N_("{where} must be a seat 0 to {last} (or null), not {value}")


def _seat(value: Any, n: int, where: str) -> int | None:
    return seat_or_none(value, n, where, _malformed, _SEAT, _short)


def _hands(data: dict[str, Any], rules: Rules) -> tuple[list[list[int]], list[int]]:
    """The dealt hands and the kitty (the deck's cards nobody was dealt)."""
    n = rules.players
    raw = data.get("hands")
    if not isinstance(raw, list) or len(raw) != n:
        raise _malformed(
            N_("'hands' must list {n} hands as dealt (one per seat, {size} cards each), not {got}"),
            n=n,
            size=rules.hand_size,
            got=_entries(raw),
        )
    hands = [_card_list(h, f"hands[{s}]") for s, h in enumerate(raw)]
    for s, h in enumerate(hands):
        if len(h) != rules.hand_size:
            if rules.kitty_size:
                raise _malformed(
                    N_("hands[{s}] has {got} cards; these rules deal {size} to each of {n} players (kitty {kitty})"),
                    s=s,
                    got=len(h),
                    size=rules.hand_size,
                    n=n,
                    kitty=rules.kitty_size,
                )
            raise _malformed(
                N_("hands[{s}] has {got} cards; these rules deal {size} to each of {n} players"),
                s=s,
                got=len(h),
                size=rules.hand_size,
                n=n,
            )
    deck = Counter(rules.deck)
    dealt = Counter(c for h in hands for c in h)
    for c in sorted(dealt):
        if deck[c] == 0:
            if rules.stripped:
                raise _malformed(
                    N_("hands: {card} is not in the deck; these rules remove {cards}"),
                    card=card_str(c),
                    cards=format_cards(rules.stripped),
                )
            raise _malformed(N_("hands: {card} is not in the deck"), card=card_str(c))
        if dealt[c] > deck[c]:
            seats = Seats(*(s for s, h in enumerate(hands) for x in h if x == c))
            if deck[c] == 1:
                raise _malformed(
                    N_("hands: {card} is dealt {dealt} times (seats {seats}); the deck holds it once"),
                    card=card_str(c),
                    dealt=dealt[c],
                    seats=seats,
                )
            raise _malformed(
                N_("hands: {card} is dealt {dealt} times (seats {seats}); the deck holds it {copies} times"),
                card=card_str(c),
                dealt=dealt[c],
                seats=seats,
                copies=deck[c],
            )
    kitty = sorted((deck - dealt).elements())
    return hands, kitty


def _direction(data: dict[str, Any], rules: Rules) -> str:
    cycle = rules.pass_cycle if rules.pass_count else ("hold",)
    if "pass_direction" not in data or data["pass_direction"] is None:
        if any(d != "hold" for d in cycle):
            raise _malformed(
                N_("'pass_direction' is missing; these rules pass {cycle} (one per hand)"), cycle=" / ".join(cycle)
            )
        return "hold"
    direction = data["pass_direction"]
    if direction not in DIRECTIONS:
        raise _malformed(
            N_("pass_direction {value} is not one of {directions}"),
            value=_short(direction),
            directions=", ".join(DIRECTIONS),
        )
    if direction not in cycle:
        if rules.pass_count == 0:
            raise _Fail(
                ILLEGAL, N_("pass_direction {direction}, but these rules pass no cards (use hold)"), direction=direction
            )
        raise _Fail(
            ILLEGAL,
            N_("pass_direction {direction} is not used by these rules; they pass {cycle}"),
            direction=direction,
            cycle=" / ".join(cycle),
        )
    return str(direction)


def _passes(data: dict[str, Any], rules: Rules, direction: str) -> list[list[int]] | None:
    n = rules.players
    raw = data.get("passes")
    if direction == "hold":
        if raw is None or raw == [] or raw == [[]] * n:
            return None
        raise _malformed(N_("'passes' lists cards, but pass_direction is hold (no pass); leave passes out"))
    k = rules.pass_count
    if not isinstance(raw, list) or len(raw) != n:
        raise _malformed(
            N_("'passes' must list the {k} cards each of the {n} seats gives (pass_direction {direction}), not {got}"),
            k=k,
            n=n,
            direction=direction,
            got=Message(N_("missing")) if raw is None else _entries(raw),
        )
    passes = [_card_list(p, f"passes[{s}]") for s, p in enumerate(raw)]
    for s, p in enumerate(passes):
        if len(p) != k:
            raise _malformed(N_("passes[{s}] has {got} cards; these rules pass {k}"), s=s, got=len(p), k=k)
    return passes


def _plays(data: dict[str, Any], rules: Rules) -> list[int]:
    if "plays" not in data:
        raise _malformed(N_("'plays' is missing: list every card played, in play order"))
    plays = _card_list(data["plays"], "plays")
    n, size = rules.players, rules.hand_size
    if len(plays) != n * size:
        raise _malformed(
            N_("'plays' has {got} cards; a hand is {size} tricks of {n} cards, {total} plays"),
            got=len(plays),
            size=size,
            n=n,
            total=n * size,
        )
    return plays


def _expect(data: dict[str, Any], n: int) -> dict[str, Any]:
    expect = data.get("expect")
    if expect is None:
        return {}
    if not isinstance(expect, dict):
        raise _malformed(
            N_("'expect' must be an object such as {example}, not {value}"),
            example='{"points": [0, 26, 0, 0]}',
            value=_short(expect),
        )
    refuse_unknown(expect, EXPECT_FIELDS, "expect", _malformed)
    for key in ("points", "taken"):
        if key in expect:
            v = expect[key]
            if not isinstance(v, list) or len(v) != n or not all(is_whole(x) for x in v):
                raise _malformed(
                    N_("expect.{key} must list {n} whole numbers (one per seat), not {value}"),
                    key=key,
                    n=n,
                    value=_short(v),
                )
    for key in ("shooter", "kitty_owner"):
        if key in expect:
            _seat(expect[key], n, f"expect.{key}")
    return expect


# ------------------------------------------------------------------ check
def _check(data: Any) -> Verdict:
    if not isinstance(data, dict):
        raise _malformed(
            N_("each line must be a JSON object with fields {fields}, not {value}"),
            fields=", ".join(FIELDS),
            value=_short(data),
        )
    refuse_unknown(data, FIELDS, None, _malformed)
    rules = _rules(data)
    n = rules.players
    dealer = _seat(data.get("dealer"), n, "dealer")
    hands, kitty = _hands(data, rules)
    bids, declarer, declare = _auction(data, rules)
    direction = _direction(data, rules)
    passes = _passes(data, rules, direction)
    plays = _plays(data, rules)
    choice = data.get("moon_choice")
    if choice is not None and choice not in MOON_CHOICES:
        raise _malformed(
            N_("moon_choice {value} is not one of {choices} (or null)"),
            value=_short(choice),
            choices=", ".join(MOON_CHOICES),
        )
    expect = _expect(data, n)

    if dealer is None:
        dealer = _infer_dealer(rules, hands, kitty, direction, passes, plays[0])
    # a log does not say what each seat could pay, so only all the chips in the game limit its bids
    chips = [rules.stake * n] * n if bids is not None else None
    deal = Deal(rules, hands, kitty, dealer, direction, chips=chips, forced_declarer=declarer)
    if bids is not None:
        _bid(deal, bids, declare)
    elif declarer is not None and declare is not None:
        _apply(deal, Action.declare(declarer, declare), _declare_text(declare, declarer))
    if passes is not None:
        assert deal.phase == PASS
        for s, p in enumerate(passes):
            _apply(deal, Action.pass_cards(s, p), Message(N_("pass of seat {seat}"), seat=Seats(s)))
    for i, c in enumerate(plays):
        if deal.phase != PLAY:  # cannot happen with the count checked above; kept as a guard
            raise _Fail(ILLEGAL, N_("play #{number} {card}: the hand is already over"), number=i + 1, card=card_str(c))
        seat = deal.turn
        what = Message(
            N_("play #{number} (trick {trick}, seat {seat} plays {card})"),
            number=i + 1,
            trick=deal.trick_no + 1,
            seat=Seats(seat),
            card=card_str(c),
        )
        _apply(deal, Action.play(seat, c), what)
    if deal.phase == MOON:
        if choice is None:
            raise _malformed(
                N_(
                    "seat {seat} shot the moon and these rules let the shooter choose: "
                    "moon_choice is needed ({choices})"
                ),
                seat=Seats(deal.turn),  # the shooter, whose choice it is
                choices=Message(N_("{a} or {b}"), a=MOON_CHOICES[0], b=MOON_CHOICES[1]),
            )
        deal.apply(Action.moon(deal.turn, str(choice)))
    elif choice is not None:
        if deal.shooter is None:
            raise _Fail(
                MISMATCH,
                N_("moon_choice {choice} is given, but nobody shot the moon (points taken {taken})"),
                choice=choice,
                taken=list(deal.pts),
            )
        if choice != rules.moon:
            raise _Fail(
                ILLEGAL, N_("moon_choice {choice}, but these rules fix moon = {moon}"), choice=choice, moon=rules.moon
            )
    points = tuple(deal.hand_scores())
    _compare(expect, deal, points)
    if deal.shooter is not None:
        ok = Message(
            N_("ok, points {points}; seat {seat} shot the moon ({how})"),
            points=str(list(points)),
            seat=Seats(deal.shooter),
            how=deal.moon_choice or rules.moon,
        )
    else:
        ok = Message(N_("ok, points {points}"), points=str(list(points)))
    return Verdict(True, str(ok), points, OK, ok)


def _entries(raw: Any) -> Message | str:
    """What a list field holds instead of the right count: "3 entries", or the value itself."""
    return Message(N_("{n} entries"), n=len(raw)) if isinstance(raw, list) else _short(raw)


def _declare_text(suit: str, seat: int) -> Message:
    return Message(N_("declare {suit} (seat {seat})"), suit=suit, seat=Seats(seat))


def _apply(deal: Deal, action: Action, what: Message) -> None:
    """Apply one action of the log; a refusal becomes an ``illegal`` verdict naming ``what`` was refused."""
    try:
        deal.apply(action)
    except CorazonesError as e:
        raise _Fail(ILLEGAL, N_("{what}: {error}"), what=what, error=e) from None


def _bid(deal: Deal, bids: list[int], declare: str | None) -> None:
    """Play the auction: every bid in turn, then the winner names the penalty suit."""
    for i, b in enumerate(bids):
        seat = deal.turn
        _apply(
            deal,
            Action.bid(seat, b),
            Message(N_("bid #{number} (seat {seat} bids {bid})"), number=i + 1, seat=Seats(seat), bid=b),
        )
    if deal.phase == DECLARE:
        if declare is None:
            raise _malformed(
                N_("seat {seat} won the auction with {bid} chips: 'declare' must name the penalty suit ({suits})"),
                seat=Seats(deal.turn),
                bid=deal.high_bid,
                suits=", ".join(SUIT_LETTERS),
            )
        _apply(deal, Action.declare(deal.turn, declare), _declare_text(declare, deal.turn))
    elif declare is not None:
        raise _Fail(ILLEGAL, N_("declare {suit} is given, but nobody bid: hearts stays the penalty suit"), suit=declare)


def _infer_dealer(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    kitty: Sequence[int],
    direction: str,
    passes: list[list[int]] | None,
    first: int,
) -> int:
    """The first dealer under whom the seat to lead holds the first card played.

    The dealer only decides who leads the first trick (eldest hand, or the
    nearer of two seats holding the lowest club with two decks), so a log
    without one is read as "whoever led was entitled to".  If no dealer fits,
    0 is used and the replay names the illegal lead.
    """
    for dealer in range(rules.players):
        deal = Deal(rules, hands, kitty, dealer, direction)
        try:
            for s, p in enumerate(passes or []):
                deal.apply(Action.pass_cards(s, p))
        except CorazonesError:
            return 0
        if deal.phase == PLAY and deal.is_legal(Action.play(deal.turn, first)):
            return dealer
    return 0


def _compare(expect: dict[str, Any], deal: Deal, points: tuple[int, ...]) -> None:
    if "shooter" in expect and expect["shooter"] != deal.shooter:
        raise _Fail(MISMATCH, SAYS, field="shooter", log=_short(expect["shooter"]), rules=_short(deal.shooter))
    if "kitty_owner" in expect and expect["kitty_owner"] != deal.kitty_owner:
        raise _Fail(
            MISMATCH, SAYS, field="kitty_owner", log=_short(expect["kitty_owner"]), rules=_short(deal.kitty_owner)
        )
    if "taken" in expect and expect["taken"] != list(deal.pts):
        raise _Fail(MISMATCH, SAYS, points, field="taken", log=str(expect["taken"]), rules=str(list(deal.pts)))
    if "points" in expect and expect["points"] != list(points):
        template = SAYS
        if deal.shooter is not None and expect["points"] == list(deal.pts):
            template = N_(
                "{field}: the log says {log}, the rules give {rules} "
                "(the log gives the points taken; expect.points is the hand score after the moon rule)"
            )
        raise _Fail(MISMATCH, template, points, field="points", log=str(expect["points"]), rules=str(list(points)))
