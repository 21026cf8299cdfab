"""One hand of the pad checked against the rules and scored: the row it makes on the sheet.

Every refusal is a :class:`PadError` with a reason a player understands; the
hand's scores, the moon, chips, the pool and the end of the game come from
:mod:`corazones.core.scoring`, the code the engine settles with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from corazones.core.actions import MOON_CHOICES
from corazones.core.cards import HEARTS
from corazones.core.errors import N_, Plural
from corazones.core.limits import show
from corazones.core.pad.entry import MAX_CHIPS, REVOKE_TO_AVOID_ALL, Entry, PadError, Revoke, to_card
from corazones.core.pad.layout import Layout, glyph, layout
from corazones.core.rules import Rules
from corazones.core.scoring import find_shooter, game_end, moon_scores, settle_hand

if TYPE_CHECKING:
    from corazones.core.pad.sheet import Pad

#: The points way cannot show a moon whose shooter also took a bonus card: the player must be named
#: (the line faces add how: :data:`corazones.core.pad.grammar.LINE_HINTS`).
NAME_THE_SHOOTER: Final = N_(
    "by these points nobody took every penalty card; if a player took them all and a bonus card too, "
    "say who shot the moon"
)


@dataclass(frozen=True, slots=True)
class Row:
    """A hand on the sheet: what was entered and everything computed from it and the rows before."""

    index: int
    entry: Entry
    penalty_suit: int
    declarer: int | None
    bid: int
    taken: tuple[int, ...]  # points taken, before the moon
    penalty_cards: tuple[int, ...] | None  # penalty cards taken (None when entered as points and not derivable)
    shooter: int | None
    moon_choice: str | None
    scores: tuple[int, ...]  # the hand's scores after the moon
    totals: tuple[int, ...]  # running total per seat
    chips_delta: tuple[int, ...]
    chips: tuple[int, ...]
    pool: int
    carry_declarer: int | None
    over: bool
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    """Where the game stands after some hands: what the next row is computed from."""

    hands: int
    totals: tuple[int, ...]
    chips: tuple[int, ...]
    pool: int
    carry_declarer: int | None
    over: bool


def _points(n: int) -> Plural:
    return Plural("{n} point", "{n} points", n)


def _cards(n: int) -> Plural:
    return Plural("{n} card", "{n} cards", n)


def _shooter(pad: Pad, seat: int) -> str:
    """Who shot the moon as players say it: the shooter, or both partners when a side shoots together."""
    return pad.side_name(pad.rules.team_of(seat)) if pad.rules.moon_needs == "team" else _who(pad, seat)


def _who(pad: Pad, seat: int) -> str:
    return pad.names[seat]


def _seat(pad: Pad, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < pad.players:
        raise PadError(N_("there is no seat {seat}; seats are 0 to {last}"), seat=show(seat), last=pad.players - 1)
    return seat


def score(pad: Pad, e: Entry, index: int, state: State) -> Row:
    """The row ``e`` makes as hand ``index`` after ``state``; :class:`PadError` says why it cannot happen."""
    r = pad.rules
    n = r.players
    if not isinstance(e, Entry):
        raise PadError(N_("a hand must be entered as card counts or as points"))
    suit, declarer, bid = _auction(pad, e, state)
    lay = layout(r, suit)
    if (e.counts is None) == (e.points is None):
        raise PadError(N_("enter the hand either as cards taken or as points, not both"))
    pen_cards: list[int] | None
    if e.counts is not None:
        taken, pos, pen_cards = _by_cards(pad, e, lay)
        shooter = find_shooter(r, pos, lay.pos_total)
        _check_declared_shooter(pad, e, shooter)
    else:
        taken, pos, pen_cards, shooter = _by_points(pad, e, lay)
    choice = _moon_choice(pad, e, shooter, lay)
    scores = moon_scores(r, taken, pos, shooter, choice, lay.pos_total)
    if r.settlement == "chips_pool" and pen_cards is None:
        raise PadError(N_("enter this hand card by card: the pool is paid per penalty card"))
    out = settle_hand(r, taken, pen_cards or (0,) * n, state.pool, bid, declarer)
    delta = list(out.delta)
    pool = out.pool
    seen: set[int] = set()
    for rv in e.revokes:
        if not isinstance(rv, Revoke) or not isinstance(rv.to_avoid_all, bool):
            raise PadError(N_("a revoke names the player who revoked"))
        s = _seat(pad, rv.seat)
        if s in seen:
            raise PadError(N_("{player}'s revoke is recorded twice"), player=_who(pad, s))
        seen.add(s)
        if r.settlement != "chips_1887":
            continue  # recorded on the sheet; the table agrees the hand's points
        if rv.to_avoid_all:
            for o in range(n):
                delta[o] += -REVOKE_TO_AVOID_ALL * (n - 1) if o == s else REVOKE_TO_AVOID_ALL
        else:
            delta[s] -= pad.revoke_penalty
            pool += pad.revoke_penalty
    carry = None
    if r.settlement == "chips_pool":
        carry = declarer if not out.winners else None
    totals = tuple(state.totals[s] + scores[s] for s in range(n))
    chips = tuple(state.chips[s] + delta[s] for s in range(n)) if pad.uses_chips else state.chips
    if not isinstance(e.note, str) or len(e.note) > 200:
        raise PadError(N_("a note is text of at most {limit} characters"), limit=200)
    winners = game_end(r, index + 1, totals, chips)
    return Row(
        index=index,
        entry=e,
        penalty_suit=suit,
        declarer=declarer,
        bid=bid,
        taken=tuple(taken),
        penalty_cards=None if pen_cards is None else tuple(pen_cards),
        shooter=shooter,
        moon_choice=choice,
        scores=scores,
        totals=totals,
        chips_delta=tuple(delta) if pad.uses_chips else (0,) * n,
        chips=chips,
        pool=pool,
        carry_declarer=carry,
        over=winners is not None,
        winners=winners or (),
    )


def _auction(pad: Pad, e: Entry, state: State) -> tuple[int, int | None, int]:
    """Penalty suit, declarer and bid paid, checked against the auction (or its absence)."""
    r = pad.rules
    if isinstance(e.suit, bool) or e.suit not in range(4):
        raise PadError(N_("the penalty suit must be one of C, D, S, H"))
    if isinstance(e.bid, bool) or not isinstance(e.bid, int):
        raise PadError(N_("a bid is a whole number of chips"))
    if not r.auction:
        if e.declarer is not None or e.bid or e.suit != HEARTS:
            raise PadError(N_("there is no auction in these rules: hearts are the penalty suit"))
        return HEARTS, None, 0
    carry = state.carry_declarer
    if carry is not None:
        if e.declarer != carry or e.bid:
            raise PadError(
                N_("the pool carried over: {player} names the suit again, without bidding"), player=_who(pad, carry)
            )
        return e.suit, carry, 0
    if e.declarer is None:
        if e.bid or e.suit != HEARTS:
            raise PadError(N_("nobody won the auction, so hearts are the penalty suit and nothing is paid"))
        return HEARTS, None, 0
    s = _seat(pad, e.declarer)
    cap = state.chips[s]
    if not 1 <= e.bid <= cap:
        if cap < 1:
            raise PadError(N_("{player} has no chips to bid with"), player=_who(pad, s))
        raise PadError(
            N_("{player} cannot bid {bid}: a bid is 1 to {cap} chips (the chips they hold)"),
            player=_who(pad, s),
            bid=e.bid,
            cap=cap,
        )
    return e.suit, s, e.bid


def _ints(pad: Pad, values: object) -> tuple[int, ...]:
    n = pad.players
    if not isinstance(values, tuple | list) or len(values) != n:
        raise PadError(N_("give one number per player ({players} numbers)"), players=n)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise PadError(N_("{value} is not a whole number"), value=show(v))
        if abs(v) > MAX_CHIPS:
            raise PadError(N_("{value} is too large for one hand"), value=v)
    return tuple(values)


def _by_cards(pad: Pad, e: Entry, lay: Layout) -> tuple[list[int], list[int], list[int]]:
    """Points taken, penalty points and penalty cards per seat from counts and named cards."""
    counts = _ints(pad, e.counts)
    group = lay.counted_name
    if not lay.counted and any(counts):
        raise PadError(N_("nothing is counted in these rules: say who took each card that scores"))
    for s, c in enumerate(counts):
        if c < 0:
            raise PadError(N_("{player} cannot take {count}"), player=_who(pad, s), count=_cards(c))
    got = sum(counts)
    if lay.counted and got != lay.counted_in_play:
        if pad.rules.kitty_size:
            raise PadError(
                N_("the {cards} cards add up to {got}, but {want} are in play; the kitty counts for whoever took it"),
                cards=group,
                got=got,
                want=lay.counted_in_play,
            )
        raise PadError(
            N_("the {cards} cards add up to {got}, but {want} are in play"),
            cards=group,
            got=got,
            want=lay.counted_in_play,
        )
    pts = [c * lay.counted_value for c in counts]
    pos = [c * lay.counted_value if lay.counted_value > 0 else 0 for c in counts]
    pen = [c if lay.counted_value > 0 else 0 for c in counts]
    given: dict[int, tuple[int, ...]] = {}
    for item in e.cards:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise PadError(N_("a card taken is written as the card and who took it"))
        card, seats = item
        card = to_card(card)
        if card in given:
            raise PadError(N_("{card} is named twice"), card=glyph(card))
        info = lay.card_named(card)
        if info is None:
            if lay.counted and card in lay.counted:
                raise PadError(
                    N_("{card} is counted with the {cards} cards; do not name it"), card=glyph(card), cards=group
                )
            raise PadError(
                N_("{card} scores nothing here; the cards to name are {cards}"),
                card=glyph(card),
                cards=" ".join(glyph(c) for c, _, _ in lay.named) or "-",
            )
        value, copies = info
        if not isinstance(seats, tuple):
            raise PadError(N_("a card taken is written as the card and who took it"))
        takers = tuple(_seat(pad, s) for s in seats)
        if len(takers) != copies:
            if copies == 1:
                raise PadError(
                    N_("{card} can only be taken once; it was given to {players}"),
                    card=glyph(card),
                    players=", ".join(_who(pad, s) for s in takers),
                )
            raise PadError(
                N_("{card} is in play {copies} times; say who took each copy ({got} given)"),
                card=glyph(card),
                copies=copies,
                got=len(takers),
            )
        given[card] = takers
        for s in takers:
            pts[s] += value
            if value > 0:
                pos[s] += value
                pen[s] += 1
    missing = [c for c, _, _ in lay.named if c not in given]
    if missing:
        raise PadError(N_("say who took {cards}"), cards=" ".join(glyph(c) for c in missing))
    for s, c in enumerate(counts):
        if c > lay.counted_in_play:
            raise PadError(N_("{player} cannot take {count}"), player=_who(pad, s), count=_cards(c))
    return pts, pos, pen


def _check_declared_shooter(pad: Pad, e: Entry, shooter: int | None) -> None:
    declared = _shooters(pad, e)
    if declared is None or declared == shooter:
        return
    if shooter is None:
        raise PadError(
            N_("{player} did not take every penalty card, so nobody shot the moon"), player=_who(pad, declared)
        )
    raise PadError(
        N_("{shooter} took every penalty card, not {player}"),
        shooter=_shooter(pad, shooter),
        player=_who(pad, declared),
    )


def _shooters(pad: Pad, e: Entry) -> int | None:
    if not isinstance(e.shooters, tuple):
        raise PadError(N_("name the player who shot the moon"))
    seats = tuple(dict.fromkeys(_seat(pad, s) for s in e.shooters))
    if len(seats) > 1:
        raise PadError(
            N_("only one player can take every penalty card; {players} were all marked as shooting the moon"),
            players=", ".join(_who(pad, s) for s in seats),
        )
    if seats and pad.rules.moon == "off":
        raise PadError(N_("the moon is not played in these rules"))
    return seats[0] if seats else None


def _by_points(pad: Pad, e: Entry, lay: Layout) -> tuple[list[int], list[int], list[int] | None, int | None]:
    """Points taken, penalty points, penalty cards (when derivable) and shooter from the points way."""
    r = pad.rules
    pts = list(_ints(pad, e.points))
    got = sum(pts)
    if got != lay.pen_total:
        if r.kitty_size:
            raise PadError(
                N_("the points add up to {got}, but the hand carries {want}; the kitty counts for whoever took it"),
                got=got,
                want=lay.pen_total,
            )
        raise PadError(N_("the points add up to {got}, but the hand carries {want}"), got=got, want=lay.pen_total)
    for s, p in enumerate(pts):
        if p not in lay.reachable:
            raise PadError(
                N_("{player} cannot take {points} in one hand under these rules"),
                player=_who(pad, s),
                points=_points(p),
            )
    declared = _shooters(pad, e)
    seen: int | None = None
    if r.moon != "off" and lay.pos_total > 0:
        # a seat (or side) whose points equal every penalty point in play took them all, bonus cards aside
        for s, p in enumerate(pts):
            if p == lay.pos_total:
                seen = s
        if seen is None and r.moon_needs == "team":
            for team in r.teams:
                if sum(pts[s] for s in team) == lay.pos_total:
                    seen = max(team, key=lambda s: (pts[s], -s))
    same_side = declared is not None and seen is not None and r.moon_needs == "team"
    if (
        declared is not None
        and seen is not None
        and declared != seen
        and not (same_side and r.team_of(declared) == r.team_of(seen))
    ):
        raise PadError(
            N_("{shooter} took every penalty card, not {player}"),
            shooter=_shooter(pad, seen),
            player=_who(pad, declared),
        )
    shooter = declared if declared is not None else seen
    pos = [max(p, 0) for p in pts]
    if shooter is not None:
        side = r.team_of(shooter) if r.moon_needs == "team" else None
        mates = [s for s in range(r.players) if s != shooter and side is not None and r.team_of(s) == side]
        for s in range(r.players):
            if s != shooter and s not in mates and pts[s] not in lay.reachable_bonus:
                raise PadError(
                    N_("{shooter} took every penalty card, so {player} cannot have {points}"),
                    shooter=_shooter(pad, shooter),
                    player=_who(pad, s),
                    points=_points(pts[s]),
                )
        pos = [0] * r.players
        for s in mates:
            pos[s] = max(pts[s], 0)
        pos[shooter] = lay.pos_total - sum(pos)
    if shareable(_card_values(r, lay.suit), pts) is False:
        raise PadError(
            N_(
                "these points cannot all happen in one hand: no sharing-out of the penalty cards ({cards}) "
                "gives every player their points"
            ),
            cards=_scoring_cards(lay),
        )
    ones = all(v == 1 for c, v, _ in lay.named) and lay.counted_value in (0, 1)
    pen = pos[:] if ones and not any(v < 0 for _, v, _ in lay.named) else None
    return pts, pos, pen, shooter


#: How many steps :func:`shareable` may take before it gives up (and the row is taken, as before it looked).
SHARE_STEPS: Final = 20_000


def _card_values(rules: Rules, suit: int) -> Counter[int]:
    """How many cards in play carry each value, under ``rules`` with ``suit`` as the penalty suit."""
    values = rules.card_values(suit)
    return Counter(values[c] for c in rules.deck if values[c])


def _scoring_cards(lay: Layout) -> str:
    """The cards that score, as the table writes them: ``13 ♥ 1 each, Q♠ 13``."""
    parts = []
    if lay.counted:
        parts.append(f"{lay.counted_in_play} × {lay.counted_name} {lay.counted_value}")
    for card, value, copies in lay.named:
        parts.append(f"{f'{copies} × ' if copies > 1 else ''}{glyph(card)} {value}")
    return ", ".join(parts)


def shareable(values: Counter[int], points: Sequence[int]) -> bool | None:
    """Whether the cards (``values``: how many cards carry each value) can be shared out to give each seat its points.

    The points way checks each player's points alone (some set of cards gives them) and their sum; this checks
    them together: standard Hearts' ``7 7 6 6`` adds up to 26 and each is a number of hearts, but there are only
    13 hearts, and nobody's 13 or more holds the Q♠.  The cards of the commonest value (the counted hearts) are
    shared last, in one step: what is left to each seat must be a whole number of them.  The others are tried
    seat by seat, largest value first, on the multiset of what each seat still needs (seats are alike here).
    ``None`` when the search would take more than :data:`SHARE_STEPS` steps (rules with many values of their own).
    """
    if not values:
        return not any(points)
    bulk = max(values, key=lambda v: (values[v], v))
    rest = sorted((v for v in values if v != bulk), key=lambda v: (v > 0, -abs(v)))  # the bonus cards first
    steps = 0
    seen: set[tuple[int, tuple[int, ...]]] = set()

    def fits(i: int, needs: tuple[int, ...]) -> bool:
        nonlocal steps
        steps += 1
        if steps > SHARE_STEPS:
            raise _TooLong
        if i == len(rest):  # the counted cards: a whole number of them for each seat
            return all(x % bulk == 0 and x // bulk >= 0 for x in needs)
        key = (i, needs)
        if key in seen:
            return False
        seen.add(key)
        v = rest[i]
        return any(fits(i + 1, shared) for shared in _share(needs, v, values[v]))

    try:
        return fits(0, tuple(sorted(points)))
    except _TooLong:
        return None


class _TooLong(Exception):
    """:func:`shareable` ran out of steps."""


def _share(needs: tuple[int, ...], value: int, copies: int) -> list[tuple[int, ...]]:
    """Every way (as sorted needs) of giving ``copies`` cards of ``value`` to seats that can still take them."""
    out: set[tuple[int, ...]] = set()

    def give(k: int, start: int, left: list[int]) -> None:
        if k == 0:
            out.add(tuple(sorted(left)))
            return
        for s in range(start, len(left)):
            if value > 0 and left[s] < value:
                continue
            left[s] -= value
            give(k - 1, s, left)
            left[s] += value

    give(copies, 0, list(needs))
    return sorted(out)


def _moon_choice(pad: Pad, e: Entry, shooter: int | None, lay: Layout) -> str | None:
    r = pad.rules
    if e.moon is not None and e.moon not in MOON_CHOICES:
        raise PadError(N_("the moon choice is subtract_from_self or add_to_others"))
    if shooter is None:
        if e.moon is None:
            return None
        if r.moon == "off":
            raise PadError(N_("the moon is not played in these rules"))
        if e.points is not None and any(v < 0 for _, v, _ in lay.named):
            # a shooter who also took a bonus card (Omnibus J♦) has points the moon cannot be seen in
            raise PadError(NAME_THE_SHOOTER)
        raise PadError(N_("nobody took every penalty card, so there is no moon choice to make"))
    if r.moon == "choice":
        if e.moon is None:
            side = r.teams[r.team_of(shooter)] if r.moon_needs == "team" else (shooter,)
            if len(side) > 1:
                raise PadError(
                    N_(
                        "{side} took every penalty card between them: choose whether {player} subtracts {total} "
                        "from their own score or {total} is added to each opponent's"
                    ),
                    side=_shooter(pad, shooter),
                    player=_who(pad, shooter),
                    total=lay.pos_total,
                )
            raise PadError(
                N_(
                    "{player} took every penalty card: choose whether they subtract {total} from their own score "
                    "or add {total} to each opponent's"
                ),
                player=_who(pad, shooter),
                total=lay.pos_total,
            )
        return e.moon
    if e.moon is not None and e.moon != r.moon:
        raise PadError(N_("these rules settle the moon one way only ({mode}); there is nothing to choose"), mode=r.moon)
    return r.moon
