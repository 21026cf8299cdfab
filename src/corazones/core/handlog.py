"""Hand logs from other programs: one JSON object per line, one deal each.

Each line gives the rules (a preset name plus option overrides), the hands as
dealt, the passes, the plays in order and, optionally, the expected points.
:func:`check_line` replays the deal under our rules and returns a verdict, so
other programs' games can be checked against Corazones' rule book.  The
format is documented in ``docs/records.md``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from corazones.core.actions import Action
from corazones.core.cards import card_str, parse_card
from corazones.core.deal import MOON, PASS, PLAY, Deal
from corazones.core.errors import CorazonesError, RecordError
from corazones.core.rules import Rules

_KEYS = {"rules", "options", "dealer", "hands", "pass_direction", "passes", "plays", "moon_choice", "expect"}
_DIRECTIONS = ("left", "right", "across", "hold")


@dataclass(frozen=True, slots=True)
class Verdict:
    """Outcome of checking one hand-log line."""

    ok: bool
    message: str
    points: tuple[int, ...] | None = None


def check_line(text: str) -> Verdict:
    """Check one JSON Lines entry; never raises on bad input, the verdict says what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return Verdict(False, f"not JSON: {e.msg} at column {e.colno}")
    try:
        return check_entry(data)
    except CorazonesError as e:
        return Verdict(False, str(e))


def _cards(value: Any, what: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of cards like ['2C', 'QS'], not {value!r}")
    try:
        return [parse_card(c) for c in value]
    except CorazonesError as e:
        raise RecordError(f"{what}: {e}") from None


def check_entry(data: Any) -> Verdict:
    """Check one parsed entry; raises :class:`RecordError` for malformed input."""
    if not isinstance(data, dict):
        raise RecordError("each line must be a JSON object")
    unknown = set(data) - _KEYS
    if unknown:
        raise RecordError(f"unknown field(s) {', '.join(sorted(unknown))}; fields: {', '.join(sorted(_KEYS))}")
    preset = data.get("rules", "standard")
    options = data.get("options") or {}
    if not isinstance(preset, str):
        raise RecordError(f"'rules' must be a preset name, not {preset!r}")
    if not isinstance(options, dict):
        raise RecordError("'options' must be an object of option: value")
    rules = Rules.preset(preset, **options)
    n = rules.players
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != n:
        raise RecordError(f"'hands' must list {n} hands (one per seat) for {n} players")
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
    for i, h in enumerate(hands):
        if len(h) != rules.hand_size:
            raise RecordError(f"hands[{i}] has {len(h)} cards; these rules deal {rules.hand_size}")
    dealt = Counter(c for h in hands for c in h)
    deck = Counter(rules.deck)
    extra = dealt - deck
    if extra:
        raise RecordError(
            f"cards not in this deck or dealt too often: {' '.join(card_str(c) for c in sorted(extra.elements()))}"
        )
    kitty = sorted((deck - dealt).elements())
    direction = data.get("pass_direction", "hold")
    if direction not in _DIRECTIONS:
        raise RecordError(f"pass_direction {direction!r} is not one of {', '.join(_DIRECTIONS)}")
    if direction == "across" and n % 2:
        raise RecordError(f"pass_direction across needs an even number of players, not {n}")
    if direction != "hold" and rules.pass_count == 0:
        raise RecordError(f"pass_direction {direction} but these rules pass no cards")
    plays = _cards(data.get("plays"), "plays")
    dealer = data.get("dealer")
    if dealer is None:
        dealer = 0
        if rules.first_lead == "eldest" and plays:
            holder = [s for s in range(n) if plays[0] in hands[s]]
            if len(holder) == 1:
                dealer = (holder[0] - 1) % n
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RecordError(f"dealer must be a seat 0 to {n - 1}, not {dealer!r}")
    deal = Deal(rules, hands, kitty, dealer, direction)
    if deal.phase != PASS and deal.phase != PLAY:
        raise RecordError(f"hand logs cover passing and play; these rules start with {deal.phase}")
    if deal.phase == PASS:
        passes = data.get("passes")
        if not isinstance(passes, list) or len(passes) != n:
            raise RecordError(
                f"'passes' must list {n} passes (the cards each seat gives) for pass_direction {direction}"
            )
        for s, p in enumerate(passes):
            try:
                deal.apply(Action.pass_cards(s, _cards(p, f"passes[{s}]")))
            except CorazonesError as e:
                return Verdict(False, f"pass of seat {s}: {e}")
    elif data.get("passes") not in (None, [], [[]] * n):
        raise RecordError("'passes' given but pass_direction is hold")
    for i, c in enumerate(plays):
        if deal.phase != PLAY:
            return Verdict(False, f"play #{i + 1} {card_str(c)}: the hand is already over")
        seat = deal.turn
        try:
            deal.apply(Action.play(seat, c))
        except CorazonesError as e:
            return Verdict(False, f"play #{i + 1} (seat {seat} {card_str(c)}): {e}")
    if deal.phase == PLAY:
        return Verdict(False, f"only {len(plays)} plays; the hand needs {rules.hand_size * n}")
    if deal.phase == MOON:
        choice = data.get("moon_choice")
        if choice is None:
            return Verdict(
                False, f"seat {deal.shooter} shot the moon; moon_choice is needed (subtract_from_self or add_to_others)"
            )
        try:
            deal.apply(Action.moon(deal.turn, choice))
        except CorazonesError as e:
            return Verdict(False, f"moon choice: {e}")
    points = tuple(deal.hand_scores())
    expect = data.get("expect")
    if isinstance(expect, dict) and "points" in expect:
        want = expect["points"]
        if not isinstance(want, list) or want != list(points):
            return Verdict(False, f"points: log says {want!r}, the rules give {list(points)}", points)
    elif expect is not None and not isinstance(expect, dict):
        raise RecordError("'expect' must be an object such as {\"points\": [0, 26, 0, 0]}")
    return Verdict(True, f"ok, points {list(points)}", points)
