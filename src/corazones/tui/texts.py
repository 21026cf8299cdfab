"""The app's language: one switchable translator and the words for rule values.

The app can change language while running, so texts are translated when they
are drawn, through :func:`_` here, which follows :func:`set_lang`.  Babel
extracts ``_("...")`` and ``N_("...")`` calls, so the words for rule values
(directions, levels, moon modes) are written once and translated in the one
catalog like every other text.
"""

from __future__ import annotations

from collections.abc import Sequence

from corazones.core.cards import CARDS, SUIT_GLYPHS
from corazones.core.rules import Rules
from corazones.i18n import LANGS, N_, error_text, pick_lang, seats, translator
from corazones.i18n.presets import PRESET_TITLES, PRESET_WORDS
from corazones.players.registry import LEVEL_NAMES

_state = {"lang": LANGS[0]}


def set_lang(lang: str | None) -> str:
    """Speak ``lang`` (or the locale's language when None) from now on; return the language chosen."""
    _state["lang"] = pick_lang(lang)
    return _state["lang"]


def lang() -> str:
    return _state["lang"]


def _(message: str) -> str:
    """``message`` in the current language."""
    return translator(_state["lang"]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translator(_state["lang"]).ngettext(singular, plural, n)


def said(error: object) -> str:
    """An error or a message for people (:func:`corazones.i18n.error_text`) in the current language.

    Through the language's own translations rather than :func:`_`, so its
    counts are grouped and its plurals chosen as that language does.
    """
    return error_text(translator(_state["lang"]).gettext, error)


DIRECTIONS = {
    "left": N_("to the left"),
    "right": N_("to the right"),
    "across": N_("across"),
    "hold": N_("no pass (hold)"),
}
#: Each level by the name the web lobby gives it too (:data:`corazones.players.registry.LEVEL_NAMES`), so a
#: player who moves between the terminal and the browser meets the same name, in either language.
LEVELS = LEVEL_NAMES
MOON_MODES = {
    "choice": N_("shooter chooses"),
    "add_to_others": N_("add to the others"),
    "subtract_from_self": N_("subtract from the shooter"),
    "off": N_("no moon"),
}
SPEEDS = {
    "slow": N_("slow"),
    "normal": N_("normal"),
    "fast": N_("fast"),
    "instant": N_("instant"),
    "key": N_("wait for a key after each trick"),
}
SUIT_NAMES = (N_("clubs"), N_("diamonds"), N_("spades"), N_("hearts"))


def preset_title(name: str) -> str:
    """A preset's title in the current language ("Black Maria", "María Negra"); an unknown name as it is."""
    title = PRESET_TITLES.get(name)
    return _(title) if title else name


def preset_words(name: str, fallback: str = "") -> str:
    words = PRESET_WORDS.get(name)
    return _(words) if words else fallback


def direction(d: str) -> str:
    return _(DIRECTIONS.get(d, d))


#: A level's shorter name, for a seat box too narrow for the whole one (a side box holds 20 columns): the
#: two moon shooters stay told apart, and the Spanish "cazador de luna que calcula" is not cut to "cazador de l…".
SHORT_LEVELS = {
    "moonshot": N_("searching shooter"),
}


def level_name(level: str | None) -> str:
    return _("you") if level is None else _(LEVELS.get(level, level))


def level_names(level: str) -> tuple[str, ...]:
    """The names a seat box may show for ``level``, the whole one first, then its shorter one if it has one."""
    short = SHORT_LEVELS.get(level)
    return (level_name(level),) + ((_(short),) if short else ())


def seat_name(raw: str, seat: int) -> str:
    """Seat ``seat``'s name as every face shows it (:func:`corazones.i18n.seats.seat_name`), in the language shown."""
    return seats.seat_name(_, raw, seat)


def suit_name(suit: int) -> str:
    return _(SUIT_NAMES[suit])


def card_text(card: int) -> str:
    return CARDS[card].glyph()


def teams_text(rules: Rules, names: Sequence[str], scores: Sequence[int], seat: int | None = None) -> str:
    """Each team's seats and total score ("You+Bruno 12 · Ana+Carmen 30"), the viewer's team first."""
    teams = sorted(rules.teams, key=lambda t: seat not in t)
    return " · ".join("+".join(names[s] for s in t) + f" {sum(scores[s] for s in t)}" for t in teams)


def rules_lines(rules: Rules) -> list[str]:
    """The rules in force, in plain words (the help screen), from the rules data alone."""
    out: list[str] = []
    desc = preset_words(rules.name, rules.description)
    out.append(_("Preset: {name}").format(name=preset_title(rules.name)) + (f" — {desc}" if desc else ""))
    decks = _("two decks") if rules.decks == 2 else _("one deck")
    out.append(
        _("{players} players, {decks}, {size} cards each").format(
            players=rules.players, decks=decks, size=rules.hand_size
        )
    )
    if rules.kitty_size:
        to = _("the first trick") if rules.kitty_to == "first_trick" else _("whoever first takes a penalty card")
        out.append(
            ngettext(
                "Kitty: {n} card face down, it goes to {to}",
                "Kitty: {n} cards face down, they go to {to}",
                rules.kitty_size,
            ).format(n=rules.kitty_size, to=to)
        )
    if rules.stripped:
        out.append(_("Removed from the deck: {cards}").format(cards=" ".join(card_text(c) for c in rules.stripped)))
    if rules.has_passing:
        cycle = ", ".join(direction(d) for d in rules.pass_cycle)
        out.append(
            ngettext(
                "Before play, pass {n} card: {cycle} (in turn, hand after hand)",
                "Before play, pass {n} cards: {cycle} (in turn, hand after hand)",
                rules.pass_count,
            ).format(n=rules.pass_count, cycle=cycle)
        )
    else:
        out.append(_("No passing"))
    if rules.auction:
        out.append(_("Auction: bid chips to name the penalty suit; the highest bidder pays and leads"))
    if rules.first_lead == "lowest_club":
        out.append(_("The lowest club leads the first trick"))
    else:
        out.append(_("The player left of the dealer leads the first trick with any card"))
    out.append(_("Follow suit if you can; otherwise play any card"))
    if rules.discard_order:
        out.append(
            _("When you cannot follow: {order} first, if you hold one").format(
                order=", ".join(_discard_token(t) for t in rules.discard_order)
            )
        )
    if rules.no_points_first_trick:
        out.append(_("No penalty cards on the first trick (unless you hold nothing else)"))
    if rules.must_break_hearts:
        out.append(_("The penalty suit may not be led until it has been played (broken), unless you hold only it"))
    values = rules.card_values()
    hearts = [values[39 + r] for r in range(13)]
    if any(hearts):
        if len(set(hearts)) == 1:
            out.append(_("Each heart costs {n}").format(n=hearts[0]))
        else:
            row = " ".join(f"{card_text(39 + r)}={hearts[r]}" for r in range(12, -1, -1))
            out.append(_("Hearts cost: {row}").format(row=row))
    for name, pts in rules.card_points:
        from corazones.core.cards import parse_card

        out.append(_("{card} counts {points}").format(card=card_text(parse_card(name)), points=pts))
    if rules.moon == "off":
        out.append(_("No shooting the moon"))
    else:
        out.append(_("Shooting the moon (taking every penalty card): {mode}").format(mode=_(MOON_MODES[rules.moon])))
    if rules.decks == 2:
        out.append(_("Two identical cards in one trick cancel: neither can win it"))
    if rules.partnership:
        out.append(_("Partners sit in alternate seats; their points are added together"))
    if rules.settlement in ("chips_1887", "chips_pool"):
        out.append(
            _("Played for chips: everyone starts with {n}; the game ends when someone runs out").format(n=rules.stake)
        )
    if rules.target is not None and rules.partnership:
        out.append(
            _("The game ends when a team reaches {target} points; the team with the lowest score wins").format(
                target=rules.target
            )
        )
    elif rules.target is not None:
        out.append(
            _("The game ends when someone reaches {target} points; the lowest score wins").format(target=rules.target)
        )
    if rules.hands is not None:
        out.append(ngettext("The game lasts {n} hand", "The game lasts {n} hands", rules.hands).format(n=rules.hands))
    return out


def _discard_token(token: str) -> str:
    t = token.upper()
    if t in "CDSH" and len(t) == 1:
        return suit_name("CDSH".index(t))
    return _("a card of rank {rank}").format(rank=t)


def suit_glyph(suit: int) -> str:
    return SUIT_GLYPHS[suit]
