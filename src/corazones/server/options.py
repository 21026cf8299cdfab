"""Rules options from a stranger, checked the same way for a new table and a new score pad.

Both ``POST /api/tables`` and ``POST /api/pads`` take a preset and ``options``.  One schema,
:class:`corazones.server.schema.RulesOptions`, types and bounds every option; then the rules
themselves say whether the options go together (``Rules.preset``).  Either way a refusal is an
:class:`OptionsRefused`: an English template naming the option and what it allows, with its
parameters, so that each face translates it from the one catalog (the server with gettext, the web
pages with the catalog they fetch).

What an option allows is read from the schema (its JSON schema: bounds, choices), so the text
cannot drift from the check.  How options go together is the rules' own check, not a copy of it
here: when the rules refuse a combination, the option to blame is found by asking the rules again
(an option is named when leaving it at the preset's value makes the rules playable), and what it
allows is the values of it the rules accept with every other option unchanged.  The values of
``card_points`` (cards and their points) and ``discard_order`` cannot be listed: for them the
refusal gives the rules' own reason and one value the rules accept with the others (the preset's,
or standard Hearts'), found by asking the rules the same way.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from corazones.core.errors import CorazonesError
from corazones.core.limits import MAX_CARD_POINTS, show
from corazones.core.rules import PRESETS, Rules
from corazones.i18n import N_
from corazones.server.schema import CARD_POINTS_HIGH, CARD_POINTS_LOW, RulesOptions

UNKNOWN_PRESET = N_("Unknown preset {preset}; presets: {presets}.")
NOT_AN_OBJECT = N_("The options are an object of option names and values, not {value}.")
UNKNOWN_OPTION = N_("Unknown option {option}; the options are: {options}.")
WHOLE_NUMBER = N_("{option} takes a whole number from {least} to {most}, not {value}.")
WHOLE_NUMBER_OR_NULL = N_("{option} takes a whole number from {least} to {most}, or null for none, not {value}.")
TRUE_OR_FALSE = N_("{option} takes true or false, not {value}.")
ONE_OF = N_("{option} takes one of: {choices}; not {value}.")
LIST_OF = N_("{option} takes a list of {least} to {most} entries, each one of: {choices}; not {value}.")
NULL_OR_LIST_OF = N_("{option} takes null or a list of {least} to {most} entries, each one of: {choices}; not {value}.")
CARD_POINTS = N_(
    "{option} takes up to {most} cards, each named once, with their points from {low} to {high}, "
    "such as {example}; not {value}."
)
DISCARD_ORDER = N_(
    "{option} takes a list of up to {most} suit letters (C, D, S, H) or ranks (2 to 10, J, Q, K, A); not {value}."
)
CLASH = N_("{option} = {value} cannot be played with {others}; allowed with them: {allowed}.")
CLASH_ENTRIES = N_("{option} = {value} cannot be played with {others}; entries allowed with them: {allowed}.")
CLASH_ANY = N_("{option} = {value} cannot be played with {others}.")
CLASH_EXAMPLE = N_(
    "{option} = {value} cannot be played with {others} ({why}); accepted with them, for example: {option} = {example}."
)
TOGETHER = N_("These options cannot be played together: {options}.")

#: Integer options with at most this many values have every value tried for "allowed with them";
#: larger ranges (target, hands, stake) only their ends and null, which the rules never tell apart
#: from the values between them.
_SCAN = 32


class OptionsRefused(CorazonesError, ValueError):
    """Options that cannot make a game: an English ``template`` and its ``params`` (texts and numbers),
    shown in a player's language like any core error (``i18n.error_text``, ``i18n.error_json``)."""


def shown(value: Any) -> str:
    """A value as the client sent it (JSON), short and with control characters escaped."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = show(value)
    return text if len(text) <= 80 else text[:77] + "..."


@functools.cache
def _properties() -> dict[str, dict[str, Any]]:
    """Each option's JSON schema, as ``docs/protocol.md`` shows it."""
    props: dict[str, dict[str, Any]] = RulesOptions.model_json_schema()["properties"]
    return props


def _shape(option: str) -> tuple[dict[str, Any], bool]:
    """The schema of ``option``'s values other than null, and whether it takes null."""
    prop = _properties()[option]
    members = prop.get("anyOf")
    if members is None:
        return prop, False
    others = [m for m in members if m.get("type") != "null"]
    return (others[0] if len(others) == 1 else {"anyOf": others}), len(others) < len(members)


def describe(option: str, value: Any) -> OptionsRefused:
    """The refusal of ``value`` for ``option`` on its own: what the option takes, from the schema."""
    props = _properties()
    if option not in props:
        return OptionsRefused(UNKNOWN_OPTION, option=shown(option), options=", ".join(props))
    if option == "card_points":
        return OptionsRefused(
            CARD_POINTS,
            option=option,
            most=MAX_CARD_POINTS,
            low=CARD_POINTS_LOW,
            high=CARD_POINTS_HIGH,
            example='{"QS": 13, "JD": -10}',
            value=shown(value),
        )
    if option == "discard_order":
        return OptionsRefused(DISCARD_ORDER, option=option, most=props[option]["maxItems"], value=shown(value))
    shape, nullable = _shape(option)
    kind = shape.get("type")
    if kind == "integer":
        template = WHOLE_NUMBER_OR_NULL if nullable else WHOLE_NUMBER
        least, most = shape["minimum"], shape["maximum"]
        return OptionsRefused(template, option=option, least=least, most=most, value=shown(value))
    if kind == "boolean":
        return OptionsRefused(TRUE_OR_FALSE, option=option, value=shown(value))
    if kind == "string":
        return OptionsRefused(ONE_OF, option=option, choices=", ".join(shape["enum"]), value=shown(value))
    template = NULL_OR_LIST_OF if nullable else LIST_OF
    return OptionsRefused(
        template,
        option=option,
        least=shape.get("minItems", 0),
        most=shape["maxItems"],
        choices=", ".join(shape["items"]["enum"]),
        value=shown(value),
    )


def from_errors(errors: Sequence[Mapping[str, Any]], body: Any) -> OptionsRefused | None:
    """The refusal for a request body whose first schema error is in its ``preset`` or ``options``
    (``errors`` as pydantic or FastAPI give them, locations with or without the leading ``body``);
    None when that error is elsewhere in the body."""
    if not errors:
        return None
    loc = tuple(errors[0].get("loc", ()))
    if loc[:1] == ("body",):
        loc = loc[1:]
    fields = body if isinstance(body, Mapping) else {}
    if loc[:1] == ("preset",):
        return OptionsRefused(UNKNOWN_PRESET, preset=shown(fields.get("preset")), presets=", ".join(PRESETS))
    if loc[:1] != ("options",):
        return None
    options = fields.get("options")
    if len(loc) < 2 or not isinstance(options, Mapping):
        return OptionsRefused(NOT_AN_OBJECT, value=shown(options))
    option = loc[1]
    return describe(str(option), options.get(option))


def validate(options: Any) -> RulesOptions:
    """``options`` (a decoded JSON object) checked against the schema, or :class:`OptionsRefused`."""
    try:
        return RulesOptions.model_validate(options)
    except ValidationError as e:
        refused = from_errors([{"loc": ("options", *err["loc"])} for err in e.errors()], {"options": options})
        assert refused is not None
        raise refused from None


def _plays(preset: str, values: Mapping[str, Any]) -> bool:
    try:
        Rules.preset(preset, **values)
    except (CorazonesError, TypeError, ValueError):
        return False
    return True


def rules_of(preset: str, options: RulesOptions) -> Rules:
    """The rules of ``preset`` with ``options``, or :class:`OptionsRefused` naming what does not go
    together and what would."""
    if preset not in PRESETS:
        raise OptionsRefused(UNKNOWN_PRESET, preset=shown(preset), presets=", ".join(PRESETS))
    given = options.overrides()
    try:
        return Rules.preset(preset, **given)
    except (CorazonesError, TypeError, ValueError):
        pass
    raise _clash(preset, given)


def _clash(preset: str, given: dict[str, Any]) -> OptionsRefused:
    """Which given option the rules refuse in this company, and what it may be instead.  Options given
    at the preset's own value are left out: they can be no cause, and the preset's name stands for them."""
    preset_values = Rules.preset(preset).to_dict()

    def changed(option: str) -> bool:
        value = given[option]
        if option == "card_points" and not isinstance(value, Mapping):
            value = dict(value)  # [card, points] pairs, as to_dict gives them
        return bool(json.loads(json.dumps(value)) != preset_values[option])

    order = [k for k in _properties() if k in given and changed(k)]

    def company(option: str | None) -> str:
        pairs = [f"preset = {shown(preset)}"] + [f"{k} = {shown(given[k])}" for k in order if k != option]
        return ", ".join(pairs)

    culprits = [k for k in order if _plays(preset, {o: v for o, v in given.items() if o != k})]
    if not culprits:
        return OptionsRefused(TOGETHER, options=company(None))
    # an option whose accepted values can be listed first: the most a player can be told
    listed = [k for k in culprits if k not in _UNLISTED] + [k for k in culprits if k in _UNLISTED]
    for option in listed:
        found = _allowed(preset, given, option)
        if found is not None:
            template, allowed = found
            return OptionsRefused(
                template, option=option, value=shown(given[option]), others=company(option), allowed=allowed
            )
    for option in listed:
        example = _example(preset, given, option)
        if example is not None:
            return OptionsRefused(
                CLASH_EXAMPLE,
                option=option,
                value=shown(given[option]),
                others=company(option),
                why=_why(preset, given),
                example=shown(example),
            )
    option = culprits[0]
    return OptionsRefused(CLASH_ANY, option=option, value=shown(given[option]), others=company(option))


#: Options whose accepted values cannot be listed (cards and their points, discard orders).
_UNLISTED = ("card_points", "discard_order")


def _example(preset: str, given: dict[str, Any], option: str) -> Any:
    """One value of ``option`` (of :data:`_UNLISTED`) the rules accept with the other options given:
    the preset's own, else standard Hearts'; None when neither is."""
    if option not in _UNLISTED:
        return None
    for source in (preset, "standard"):
        value = Rules.preset(source).to_dict()[option]
        if _plays(preset, {**given, option: value}):
            return value
    return None


def _why(preset: str, given: dict[str, Any]) -> CorazonesError | str:
    """The rules' own reason for refusing ``given`` (a template the faces translate)."""
    try:
        Rules.preset(preset, **given)
    except CorazonesError as e:
        return e
    except (TypeError, ValueError) as e:
        return show(str(e))
    return ""


def _allowed(preset: str, given: dict[str, Any], option: str) -> tuple[str, str] | None:
    """(template, values) of ``option`` the rules accept with the other options given; None when its
    values cannot be listed (cards and their points, discard orders) or none is accepted."""

    def plays(value: Any) -> bool:
        return _plays(preset, {**given, option: value})

    if option in _UNLISTED:
        return None
    shape, nullable = _shape(option)
    kind = shape.get("type")
    words: list[str]
    if kind == "integer":
        least, most = int(shape["minimum"]), int(shape["maximum"])
        if most - least < _SCAN:
            words = _runs([n for n in range(least, most + 1) if plays(n)])
        else:
            ends = [n for n in (least, most) if plays(n)]
            words = [f"{least}–{most}"] if len(ends) == 2 else [str(n) for n in ends]
        if nullable and plays(None):
            words.append("null")
        template = CLASH
    elif kind == "boolean":
        words = [json.dumps(b) for b in (False, True) if plays(b)]
        template = CLASH
    elif kind == "string":
        words = [w for w in shape["enum"] if plays(w)]
        template = CLASH
    else:  # passes: which directions a cycle may hold here
        words = [w for w in shape["items"]["enum"] if plays((w,))]
        template = CLASH_ENTRIES
    return (template, ", ".join(words)) if words else None


def _runs(numbers: list[int]) -> list[str]:
    """``[3, 4, 5, 7]`` as ``["3–5", "7"]`` (runs of three or more with a dash)."""
    out: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{numbers[i]}–{numbers[j]}")
        else:
            out.extend(str(n) for n in numbers[i : j + 1])
        i = j + 1
    return out
