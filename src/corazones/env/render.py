"""The environments' text picture of a table, from one seat's observation.

``render_mode="ansi"``/``"human"`` show what the seat to act knows (its hand,
the trick, points and scores): a human watching an agent learn sees the same
table the agent sees, in the language asked for.
"""

from __future__ import annotations

from corazones.core.cards import format_cards
from corazones.core.observation import Observation
from corazones.i18n import LANGS, translator


def check_lang(lang: str) -> None:
    """Refuse a language with no catalogue: the text would silently come out in English."""
    if lang not in LANGS:
        raise ValueError(f"lang = {lang!r} is not allowed; one of: {', '.join(LANGS)}")


def render_text(obs: Observation, lang: str = "en") -> str:
    """Several lines describing the table as ``obs.seat`` sees it."""
    _ = translator(lang).gettext
    directions = {"left": _("left"), "right": _("right"), "across": _("across"), "hold": _("no pass")}
    decisions = {
        "pass": _("pass cards"),
        "bid": _("bid"),
        "declare": _("name the penalty suit"),
        "play": _("play a card"),
        "moon": _("choose how the moon scores"),
    }
    lines = [
        _("Hand {hand} of {rules}; seat {dealer} dealt; pass: {direction}").format(
            hand=obs.hand_index + 1, rules=obs.rules.name, dealer=obs.dealer, direction=directions[obs.pass_direction]
        )
    ]
    if obs.game_over:
        lines.append(_("Game over; winners: {seats}").format(seats=" ".join(map(str, obs.winners))))
    elif obs.decision is not None:
        decision = decisions[obs.decision.value]
        lines.append(_("Seat {seat} to choose: {decision}").format(seat=obs.seat, decision=decision))
    lines.append(_("Hand of seat {seat}: {cards}").format(seat=obs.seat, cards=format_cards(obs.hand, glyphs=True)))
    if obs.trick:
        plays = ", ".join(f"{s}: {format_cards([c], glyphs=True)}" for s, c in obs.trick)
        lines.append(_("Trick: {plays}").format(plays=plays))
    lines.append(_("Points this hand: {points}").format(points=" ".join(map(str, obs.points_taken))))
    lines.append(_("Scores: {scores}").format(scores=" ".join(map(str, obs.scores))))
    return "\n".join(lines)
