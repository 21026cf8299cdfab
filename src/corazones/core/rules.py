"""The rules of a game as one immutable value, and the named presets.

Every rule of ``RULES.md`` is a field of :class:`Rules`; a variant is a preset
(a dictionary of field values), never a branch in the engine.  ``Rules`` is
validated when built, so an impossible combination fails early with a message
saying what is wrong and what is allowed.

Derived tables the engine needs (which cards are stripped, how many cards
each player gets, the value of every card) are computed once by
:meth:`Rules.card_values` and friends and cached.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from corazones.core.cards import (
    HEARTS,
    RANK_LETTERS,
    SUIT_LETTERS,
    SUIT_MASK,
    card_str,
    format_cards,
    parse_card,
)
from corazones.core.errors import N_, CardError, Count, Message, RecordError, RulesError
from corazones.core.limits import (
    MAX_CARD_POINTS,
    MAX_DISCARD_ORDER,
    MAX_HANDS,
    MAX_PASS_CYCLE,
    MAX_PLAYERS,
    MAX_STAKE,
    MAX_TARGET,
    check_name,
    key_of,
    show,
)
from corazones.core.validate import is_whole

STRIPS: Final = ("seed_003", "arnold_2011", "kitty")
KITTY_TO: Final = ("first_penalty", "first_trick")
PASS_DIRECTIONS: Final = ("left", "right", "across", "hold")
FIRST_LEADS: Final = ("lowest_club", "eldest")
HEART_SCHEMES: Final = ("one", "spot", "eagle", "eagle_face", "none")
MOON_MODES: Final = ("choice", "add_to_others", "subtract_from_self", "off")
MOON_NEEDS: Final = ("player", "team")
TIE_BREAKS: Final = ("play_on", "shared", "play_on_always")
SETTLEMENTS: Final = ("points", "chips_1887", "chips_pool", "average_stakes")
CANCEL_RULES: Final = ("two_pairs", "no_winner")

#: The range of each whole-number option, declared once: the rules check them (``Rules.preset``), the
#: server's schema types them (``server.schema.RulesOptions``) and its refusals quote them.  ``players``
#: and ``pass_count`` are narrowed further by the deck (3 to 7 with one, 5 to 11 with two) and the hand size.
OPTION_BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "players": (3, MAX_PLAYERS),
    "decks": (1, 2),
    "pass_count": (0, 26),
    "target": (1, MAX_TARGET),
    "hands": (1, MAX_HANDS),
    "stake": (1, MAX_STAKE),
}
#: The points one entry of ``card_points`` may carry (negative is a bonus).
CARD_POINTS_RANGE: Final = (-1000, 1000)

#: Cards removed for each player count, per stripping convention (RULES.md §2).
STRIP_TABLE: Final[dict[str, dict[int, tuple[str, ...]]]] = {
    "seed_003": {3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2D", "3D", "3C", "4C"), 7: ("2D", "3D", "3C")},
    "arnold_2011": {3: ("2C",), 4: (), 5: ("2C", "2D"), 6: ("3C", "2C", "2D", "2S")},
}

_SCHEME_VALUES: Final[dict[str, tuple[int, ...]]] = {
    # value of 2, 3, ..., 10, J, Q, K, A of the penalty suit
    "one": (1,) * 13,
    "spot": (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14),
    "eagle": (1,) * 9 + (2, 3, 4, 5),
    "eagle_face": (2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 3, 4, 5),
    "none": (0,) * 13,
}


@dataclass(frozen=True)
class Rules:
    """Every option of a Hearts-family game.  Build with :meth:`preset`.

    Field names follow RULES.md.  ``passes=None`` means the standard cycle for
    the player count (left, right, across, hold with four players; left,
    right otherwise).
    """

    name: str = "custom"
    players: int = 4
    decks: int = 1
    strip: str = "seed_003"
    kitty_to: str = "first_penalty"
    passes: tuple[str, ...] | None = None
    pass_count: int = 3
    first_lead: str = "lowest_club"
    no_points_first_trick: bool = True
    must_break_hearts: bool = True
    queen_breaks_hearts: bool = False
    hearts: str = "one"
    card_points: tuple[tuple[str, int], ...] = (("QS", 13),)
    discard_order: tuple[str, ...] = ()
    moon: str = "choice"
    moon_needs: str = "player"
    target: int | None = 100
    hands: int | None = None
    tie_break: str = "play_on"
    settlement: str = "points"
    stake: int = 25
    partnership: bool = False
    auction: bool = False
    cancel_whole_trick: str = "two_pairs"
    description: str = field(default="", compare=False)

    # ------------------------------------------------------------------ build
    def __post_init__(self) -> None:
        # Accept friendlier input types, then validate everything.
        for name, shape, kinds, most in (
            (
                "passes",
                Message(N_("a list such as {example}, or null"), example="['left', 'right']"),
                list | tuple,
                MAX_PASS_CYCLE,
            ),
            (
                "discard_order",
                Message(N_("a list such as {example}"), example="['H', 'Q']"),
                list | tuple,
                MAX_DISCARD_ORDER,
            ),
            (
                "card_points",
                Message(N_("an object such as {example}"), example="{'QS': 13}"),
                list | tuple | Mapping,
                MAX_CARD_POINTS,
            ),
        ):
            value = getattr(self, name)
            if value is None and name == "passes":
                continue
            if not isinstance(value, kinds):
                raise RulesError(N_("{name} must be {shape}, not {value}"), name=name, shape=shape, value=show(value))
            if len(value) > most:
                raise RulesError(
                    N_("{name} has {count} entries; at most {most}"), name=name, count=Count(len(value)), most=most
                )
        if isinstance(self.card_points, Mapping):
            object.__setattr__(self, "card_points", tuple(self.card_points.items()))
        if self.passes is not None and not isinstance(self.passes, tuple):
            object.__setattr__(self, "passes", tuple(self.passes))
        if not isinstance(self.discard_order, tuple):
            object.__setattr__(self, "discard_order", tuple(self.discard_order))
        _validate(self)

    @classmethod
    def preset(cls, name: str = "standard", /, **overrides: Any) -> Rules:
        """The named preset with any option overridden, e.g. ``Rules.preset("omnibus", players=5)``."""
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError(
                N_("unknown preset {preset}; presets: {presets}"), preset=show(name), presets=", ".join(PRESETS)
            )
        values = dict(PRESETS[name])
        _no_unknown(overrides, OPTION_NAMES)
        values.update(overrides)
        values.setdefault("name", name)
        return cls(**values)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again)."""
        _no_unknown(changes, OPTION_NAMES | {"name", "description"})
        return dataclasses.replace(self, **changes)

    # ----------------------------------------------------------- serialise
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary of every option (``from_dict`` rebuilds it)."""
        d: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "description":
                continue
            v = getattr(self, f.name)
            if f.name == "card_points":
                v = dict(v)
            elif isinstance(v, tuple):
                v = list(v)
            d[f.name] = v
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild from :meth:`to_dict` output (or a preset name plus overrides)."""
        if not isinstance(data, Mapping):
            raise RulesError(N_("rules must be an object of options, not {kind}"), kind=type(data).__name__)
        data = dict(data)
        name = data.pop("name", "custom")
        _no_unknown(data, OPTION_NAMES)
        _check_name(name)
        if name in PRESETS:
            return cls.preset(name, **data)
        return cls(name=name, **data)

    # ------------------------------------------------------------ derived
    @property
    def pass_cycle(self) -> tuple[str, ...]:
        """The pass directions hand after hand (``hold`` = no pass).

        No cards passed is no pass, whatever ``passes`` says: the deal holds
        then, and a face or the score pad asking the direction must hear so.
        """
        if self.pass_count == 0:
            return ("hold",)
        if self.passes is not None:
            return self.passes
        return ("left", "right", "across", "hold") if self.players == 4 else ("left", "right")

    def pass_direction(self, hand_index: int) -> str:
        """Direction of the pass in hand number ``hand_index`` (0-based)."""
        cycle = self.pass_cycle
        return cycle[hand_index % len(cycle)]

    def pass_offset(self, direction: str) -> int:
        """Seat offset a card travels for ``direction`` (seats are clockwise; left = +1)."""
        n = self.players
        return {"left": 1, "right": n - 1, "across": n // 2, "hold": 0}[direction]

    @cached_property
    def stripped(self) -> tuple[int, ...]:
        """Cards removed from the deck before the deal."""
        if self.decks == 2 or self.strip == "kitty":
            return ()
        return tuple(parse_card(c) for c in STRIP_TABLE[self.strip][self.players])

    @cached_property
    def deck(self) -> tuple[int, ...]:
        """Every card dealt (with repeats for two decks), in a fixed order."""
        removed = set(self.stripped)
        one = tuple(c for c in range(52) if c not in removed)
        return one * self.decks

    @cached_property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        total = len(self.deck)
        size = total // self.players
        if self.strip == "kitty" and self.decks == 1 and total % self.players == 0:
            size -= 1  # the kitty variant always leaves a kitty (12 each with four)
        return size

    @cached_property
    def kitty_size(self) -> int:
        return len(self.deck) - self.hand_size * self.players

    @property
    def has_passing(self) -> bool:
        return self.pass_count > 0 and any(d != "hold" for d in self.pass_cycle)

    def card_values(self, penalty_suit: int = HEARTS) -> tuple[int, ...]:
        """Points of each of the 52 cards when ``penalty_suit`` is the penalty suit."""
        return _card_values(self.hearts, self.card_points, penalty_suit)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Seats grouped by side: partners sit in alternate seats."""
        if not self.partnership:
            return tuple((s,) for s in range(self.players))
        return (tuple(range(0, self.players, 2)), tuple(range(1, self.players, 2)))

    def tie_plays_on(self, agreed_hands_played: bool) -> bool:
        """Whether a tie for the lowest score plays further hands (``tie_break``).

        ``play_on`` breaks a tie at the target, but the agreed number of hands
        (``hands``) ends the game: the players agreed on it, and under
        ``average_stakes`` who is lowest changes nothing.  ``play_on_always``
        plays on after the agreed hands too (``quick``: one hand decides, ties
        play on).
        """
        if self.tie_break == "play_on_always":
            return True
        return self.tie_break == "play_on" and not agreed_hands_played

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def summary(self) -> list[tuple[str, str]]:
        """(option, value) pairs for display, the values as they are typed with ``-o``.

        Words around them are for each face to write in its reader's language:
        whether the pass cycle is the player count's default, for one, is
        ``passes is None``.
        """
        rows = []
        for f in dataclasses.fields(self):
            if f.name in ("description",):
                continue
            v = getattr(self, f.name)
            if f.name == "card_points":
                v = " ".join(f"{k}={p}" for k, p in v) or "-"
            elif f.name == "passes":
                v = " ".join(self.pass_cycle)
            elif isinstance(v, tuple):
                v = " ".join(v) or "-"
            rows.append((f.name, str(v)))
        return rows


def _no_unknown(options: Mapping[Any, Any], known: frozenset[str]) -> None:
    unknown = [k for k in options if k not in known]
    if unknown:
        raise RulesError(
            N_("unknown option(s) {unknown}; options: {options}"),
            unknown=", ".join(sorted(map(key_of, unknown))),
            options=", ".join(sorted(OPTION_NAMES)),
        )


def _check_name(name: object) -> None:
    """The rules' name is shown by every face: a short string of printable text, like a player's name."""
    try:
        check_name(name, Message(N_("the rules' name")))
    except RecordError as e:
        raise RulesError(e.template, **e.params) from None


#: Card values per (heart scheme, card_points, penalty suit): bots read them at every decision.  Bounded,
#: because a server builds rules with values of its clients' choosing for as long as it runs.
_VALUES_CACHE: dict[tuple[str, tuple[tuple[str, int], ...], int], tuple[int, ...]] = {}
_VALUES_CACHE_MAX: Final = 1024


def _card_values(scheme: str, card_points: tuple[tuple[str, int], ...], suit: int) -> tuple[int, ...]:
    key = (scheme, card_points, suit)
    got = _VALUES_CACHE.get(key)
    if got is None:
        vals = [0] * 52
        for rank, v in enumerate(_SCHEME_VALUES[scheme]):
            vals[suit * 13 + rank] = v
        for name, v in card_points:
            vals[parse_card(name)] = v
        if len(_VALUES_CACHE) >= _VALUES_CACHE_MAX:
            _VALUES_CACHE.clear()
        got = _VALUES_CACHE[key] = tuple(vals)
    return got


def discard_group_mask(token: str) -> int:
    """Mask of a ``discard_order`` token: a suit letter (``H``) or a rank (``Q``)."""
    t = token.upper() if isinstance(token, str) else ""
    if len(t) == 1 and t in SUIT_LETTERS:
        return SUIT_MASK[SUIT_LETTERS.index(t)]
    if t in RANK_LETTERS:
        r = RANK_LETTERS.index(t)
        return sum(1 << (s * 13 + r) for s in range(4))
    raise RulesError(
        N_("discard_order entry {value} is neither a suit letter (C D S H) nor a rank (2-10 J Q K A)"),
        value=show(token),
    )


def _choice(value: object, name: str | Message, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(
            N_("{name} = {value} is not allowed; {name} is one of: {allowed}"),
            name=name,
            value=show(value),
            allowed=", ".join(allowed),
        )


def _int(value: object, name: str, low: int, high: int | None = None, optional: bool = False) -> None:
    if value is None and optional:
        return
    span = (
        Message(N_("{low} to {high}"), low=low, high=high)
        if high is not None
        else Message(N_("at least {low}"), low=low)
    )
    if not is_whole(value):
        if optional:
            raise RulesError(
                N_("{name} must be a whole number from {span} or null, not {value}"),
                name=name,
                span=span,
                value=show(value),
            )
        raise RulesError(
            N_("{name} must be a whole number from {span}, not {value}"), name=name, span=span, value=show(value)
        )
    if value < low or (high is not None and value > high):
        raise RulesError(
            N_("{name} = {value} is out of range; allowed: {span}"), name=name, value=show(value), span=span
        )


def _validate(r: Rules) -> None:
    _check_name(r.name)
    for name in ("no_points_first_trick", "must_break_hearts", "queen_breaks_hearts", "partnership", "auction"):
        if not isinstance(getattr(r, name), bool):
            raise RulesError(N_("{name} must be true or false, not {value}"), name=name, value=show(getattr(r, name)))
    _int(r.decks, "decks", *OPTION_BOUNDS["decks"])
    if not is_whole(r.players):
        raise RulesError(
            N_("players must be a whole number (3 to 7 with one deck, 5 to 11 with two), not {value}"),
            value=show(r.players),
        )
    _choice(r.strip, "strip", STRIPS)
    _choice(r.kitty_to, "kitty_to", KITTY_TO)
    _choice(r.first_lead, "first_lead", FIRST_LEADS)
    _choice(r.hearts, "hearts", HEART_SCHEMES)
    _choice(r.moon, "moon", MOON_MODES)
    _choice(r.moon_needs, "moon_needs", MOON_NEEDS)
    _choice(r.tie_break, "tie_break", TIE_BREAKS)
    _choice(r.settlement, "settlement", SETTLEMENTS)
    _choice(r.cancel_whole_trick, "cancel_whole_trick", CANCEL_RULES)
    if r.decks == 1:
        high = 6 if r.strip == "arnold_2011" else 7
        if not 3 <= r.players <= high:
            raise RulesError(
                N_(
                    "players = {players} is not possible with one deck and strip = {strip}; "
                    "allowed: 3 to {high} (use decks = 2 for 5 to 11 players)"
                ),
                players=r.players,
                strip=r.strip,
                high=high,
            )
    else:
        if not 5 <= r.players <= 11:
            raise RulesError(
                N_("players = {players} is not possible with two decks; allowed: 5 to 11"), players=r.players
            )
    if not is_whole(r.pass_count) or r.pass_count < 0:
        # refused with the counts a hand allows (0 to its size), as a count above the hand is below
        _int(r.pass_count, "pass_count", OPTION_BOUNDS["pass_count"][0], r.hand_size)
    if r.pass_count > r.hand_size:
        raise RulesError(
            N_(
                "pass_count = {count} is more than a hand holds ({size} cards with {players} players); "
                "allowed: 0 to {size}"
            ),
            count=r.pass_count,
            size=r.hand_size,
            players=r.players,
        )
    if r.passes is not None:
        if not r.passes:
            raise RulesError(N_("passes must name at least one direction (use ['hold'] for no passing)"))
        for d in r.passes:
            _choice(d, Message(N_("each entry of passes")), PASS_DIRECTIONS)
        if "across" in r.passes and r.players % 2:
            raise RulesError(N_("passing 'across' needs an even number of players, not {players}"), players=r.players)
    for entry in r.card_points:
        if not (isinstance(entry, tuple) and len(entry) == 2):
            raise RulesError(N_("card_points entries are card: points pairs, not {value}"), value=show(entry))
        name, pts = entry
        try:
            parse_card(name)
        except CardError as e:
            raise RulesError(N_("card_points: {error}"), error=e) from None
        _int(pts, f"card_points[{name}]", *CARD_POINTS_RANGE)
    if len({parse_card(n) for n, _ in r.card_points}) != len(r.card_points):
        raise RulesError(N_("card_points names the same card twice"))
    # normalise card names so equal rules compare equal
    norm = tuple((card_str(parse_card(n)), p) for n, p in r.card_points)
    object.__setattr__(r, "card_points", norm)
    for tok in r.discard_order:
        discard_group_mask(tok)
    _int(r.target, "target", *OPTION_BOUNDS["target"], optional=True)
    _int(r.hands, "hands", *OPTION_BOUNDS["hands"], optional=True)
    _int(r.stake, "stake", *OPTION_BOUNDS["stake"])
    if r.settlement in ("points", "average_stakes") and r.target is None and r.hands is None:
        raise RulesError(
            N_("settlement = {settlement} needs an end: set target (a score) or hands (a number of hands)"),
            settlement=r.settlement,
        )
    if r.partnership and r.players not in (4, 6):
        raise RulesError(
            N_("partnership needs 4 or 6 players (partners in alternate seats), not {players}"), players=r.players
        )
    if r.moon_needs == "team" and not r.partnership:
        raise RulesError(N_("moon_needs = team only makes sense with partnership = true"))
    if r.partnership and r.settlement != "points":
        raise RulesError(N_("partnership scores are points; settlement must be points"))
    if r.moon != "off" and r.settlement in ("chips_1887", "chips_pool"):
        # chips are paid for the penalty cards taken, a hand with all of them included (§4): a shooter asked
        # how to score a moon would choose something that changes nothing
        raise RulesError(
            N_(
                "settlement = {settlement} pays chips for the penalty cards taken, all of them included; "
                "moon must be 'off'"
            ),
            settlement=r.settlement,
        )
    if r.auction and r.hearts == "none":
        raise RulesError(N_("auction names a penalty suit that costs points, so hearts must not be 'none'"))
    values = r.card_values()
    if all(v <= 0 for v in values):
        raise RulesError(N_("no card carries a penalty: set hearts or card_points"))
    if all(values[c] <= 0 for c in r.deck):
        # every penalty card is stripped for this player count: each hand would score nothing, and a game
        # to a target would deal hands forever
        raise RulesError(
            N_(
                "no card in play carries a penalty (strip = {strip} removes {cards} with {players} players); "
                "set hearts or card_points"
            ),
            cards=format_cards(c for c in r.stripped if values[c] > 0),
            players=r.players,
            strip=r.strip,
        )


#: Option names accepted by :meth:`Rules.preset` and in hand logs.
OPTION_NAMES: Final = frozenset(f.name for f in dataclasses.fields(Rules)) - {"name", "description"}

_NO_PASS: Final = {"passes": ("hold",), "pass_count": 0}
_OLD_STYLE: Final = {**_NO_PASS, "first_lead": "eldest", "no_points_first_trick": False}

#: Named presets: field values that differ from the core game (RULES.md §1-§3).
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {"description": "Black Lady, the modern Hearts: Q♠ 13, hearts 1, pass L/R/A/hold, to 100"},
    "black_lady": {"description": "Same as standard (1909 'discard hearts')"},
    "kitty": {"strip": "kitty", "description": "No cards stripped; leftovers form a kitty (12 each with four)"},
    "quick": {
        "target": None,
        "hands": 1,
        "tie_break": "play_on_always",
        "description": "A single hand decides the game (ties play on)",
    },
    "hearts_1887": {
        **_OLD_STYLE,
        "must_break_hearts": False,
        "card_points": (),
        "moon": "off",
        "settlement": "chips_1887",
        "target": None,
        "description": "The original (Hoyle 1887): hearts only, no passing, eldest leads, chips",
    },
    "arnold_2011": {
        **_OLD_STYLE,
        "strip": "arnold_2011",
        "must_break_hearts": False,
        "card_points": (),
        "moon": "off",
        "target": 80,
        "description": "Plain Hearts (Arnold 2011): hearts only, no passing, eldest leads, to 80",
    },
    "spot_hearts": {"hearts": "spot", "description": "Hearts cost their spot value: A 14, K 13, Q 12, J 11, 10..2"},
    "eagle_hearts": {"hearts": "eagle", "description": "Hearts A 5, K 4, Q 3, J 2, others 1"},
    "black_jack": {"card_points": (("JS", 10),), "description": "J♠ (10) instead of Q♠"},
    "black_maria": {
        "players": 3,
        "passes": ("right",),
        "card_points": (("QS", 13), ("AS", 10), ("KS", 7)),
        "moon": "off",
        "description": "British: Q♠ 13, A♠ 10, K♠ 7, pass right, usually 3 players",
    },
    "omnibus": {
        "card_points": (("QS", 13), ("JD", -10)),
        "description": "Standard plus J♦ worth -10 to whoever takes it",
    },
    "partnership": {
        "partnership": True,
        "description": "Fixed partnerships in alternate seats; team scores",
    },
    "auction_hearts": {
        **_NO_PASS,
        "auction": True,
        "card_points": (),
        "moon": "off",
        "settlement": "chips_pool",
        "target": None,
        "description": "Foster 1897: bid chips to name the penalty suit; pool settlement",
    },
    "cancellation_hearts": {
        "decks": 2,
        "players": 6,
        "kitty_to": "first_trick",
        "description": "Culbertson 1950: two decks, 5-11 players, identical cards cancel",
    },
    "four_jacks": {
        **_OLD_STYLE,
        "must_break_hearts": False,
        "hearts": "none",
        "card_points": (("JC", 1), ("JD", 1), ("JH", 1), ("JS", 2)),
        "moon": "off",
        "description": "Cuatro Jotas: every jack 1, J♠ 2; no hearts penalty",
    },
    "chasse_coeur": {
        **_OLD_STYLE,
        "card_points": (("QC", 13), ("QD", 13), ("QH", 13), ("QS", 13)),
        "discard_order": ("H", "Q"),
        "description": "Chasse-Cœur: queens 13, hearts 1; must discard a heart, else a queen",
    },
}
