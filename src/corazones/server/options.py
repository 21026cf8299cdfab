"""Rules options from a stranger, checked the same way for a new table and a new score pad.

Both ``POST /api/tables`` and ``POST /api/pads`` take a preset and ``options``.  One schema,
:class:`corazones.server.schema.RulesOptions`, types and bounds every option; then the rules
themselves say whether the options go together (``Rules.preset``).  Either way a refusal is an
:class:`OptionsRefused`: an English template naming the option and what it allows, with its
parameters, so that each face translates it from the one catalog (the server with gettext, the web
pages with the catalog they fetch).

What an option allows is read from the schema (its JSON schema: bounds, choices, the ranges
being the rules' own, ``Rules.OPTION_BOUNDS``), so the text cannot drift from the check.  How
options go together is the rules' own check, not a copy of it here: when the rules refuse a
combination, their error already names the option and what it allows (``players = 9 is not
possible with one deck ...; allowed: 3 to 7``), and the refusal carries it as it is, translated by
each face like any core error, beside the options that were given.
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
#: A combination the rules refuse: their own reason (a core error, which names the option), and what was given.
RULES_REFUSE = N_("{why}; options given: {options}.")


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


def rules_of(preset: str, options: RulesOptions) -> Rules:
    """The rules of ``preset`` with ``options``, or :class:`OptionsRefused` with the rules' own reason."""
    if preset not in PRESETS:
        raise OptionsRefused(UNKNOWN_PRESET, preset=shown(preset), presets=", ".join(PRESETS))
    given = options.overrides()
    try:
        return Rules.preset(preset, **given)
    except CorazonesError as e:
        why: CorazonesError | str = e
    except (TypeError, ValueError) as e:  # not expected past the schema; still refused, never a crash
        why = show(str(e))
    raise OptionsRefused(RULES_REFUSE, why=why, options=_given(preset, given))


def _given(preset: str, given: dict[str, Any]) -> str:
    """The preset and the options given, as the client wrote them; those at the preset's own value are left
    out (the preset's name stands for them)."""
    preset_values = Rules.preset(preset).to_dict()

    def changed(option: str) -> bool:
        value = given[option]
        if option == "card_points" and not isinstance(value, Mapping):
            value = dict(value)  # [card, points] pairs, as to_dict gives them
        return bool(json.loads(json.dumps(value)) != preset_values[option])

    pairs = [f"preset = {shown(preset)}"] + [
        f"{k} = {shown(given[k])}" for k in _properties() if k in given and changed(k)
    ]
    return ", ".join(pairs)
