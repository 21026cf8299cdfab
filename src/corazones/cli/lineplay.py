"""The line-mode terminal game: a human (or nobody, with ``--auto``) against bots.

One line per question, one line per trick: it works in any terminal, in a
pipe and under test (answers come from standard input).  Wrong input is
explained in the player's language and asked again; ``q`` abandons the game.
An interrupted or abandoned game still writes its record when ``--record``
was given: a record of an unfinished game is valid and replays to the same
position, so nothing played is lost.

The seed is never shown before the game ends: it fixes every shuffle, so a
player who knew it could compute every hidden hand.  The start shows the
seed's commitment (a SHA-256, :mod:`corazones.core.commitment`) and the end,
or quitting, reveals the seed, which anyone can check against the commitment
with ``corazones verify --seed S --commitment C`` (or ``corazones verify`` on
the record, which holds both).
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import typer

from corazones.cli.exits import CLOSED_PIPE, FAILED, INTERRUPTED, OK, plain_interrupts, silence_stdout
from corazones.cli.inputs import ask_line
from corazones.cli.render import (
    Seats,
    bid_text,
    card_text,
    cards_text,
    dealer_text,
    hand_result_text,
    hint_text,
    seat_values,
    suit_text,
    trick_text,
)
from corazones.core.actions import Action, Kind
from corazones.core.cards import SUIT_GLYPHS, parse_card
from corazones.core.commitment import commit
from corazones.core.errors import CorazonesError
from corazones.core.game import Game
from corazones.core.observation import Observation
from corazones.core.records import dumps, make_record
from corazones.core.rules import Rules
from corazones.core.text import safe_line, visible
from corazones.i18n import error_text, translator
from corazones.i18n.oserrors import os_reason_text
from corazones.players.base import Player
from corazones.players.hints import suggest
from corazones.players.registry import make_player
from corazones.services.files import output_kind, save_atomic

#: Answers that abandon the game at any question.
QUIT_WORDS = frozenset({"q", "quit", "exit", "salir"})

#: The answers to the moon's question: its letters, and its words in English and in Spanish.  Whole words
#: only: "sumar" (Spanish for "add") begins with the letter of "subtract".
MOON_ANSWERS = {
    "a": "add_to_others",
    "add": "add_to_others",
    "sumar": "add_to_others",
    "s": "subtract_from_self",
    "sub": "subtract_from_self",
    "subtract": "subtract_from_self",
    "restar": "subtract_from_self",
    "restarse": "subtract_from_self",
}


class QuitGame(Exception):
    """The player asked to stop (typed ``q``)."""


class HintWanted(Exception):
    """The player typed ``?`` and wants the ``standard`` level's suggestion."""


class BadInput(Exception):
    """An answer that cannot be accepted; the message says why in the player's language."""


class HumanPlayer:
    """A seat answered at the keyboard; bad input is explained and asked again."""

    name = "you"

    def __init__(self, names: Seats, ask: Callable[[str], str] = ask_line) -> None:
        self.names = names
        self.lang = names.lang
        self._ = translator(names.lang).gettext
        self.ask = ask
        self._received_shown = -1

    # ------------------------------------------------------------ talking
    def _say(self, text: str) -> None:
        typer.echo(text)

    def _input(self, prompt: str) -> str:
        raw = self.ask(prompt)
        if raw.strip().lower() in QUIT_WORDS:
            raise QuitGame
        if raw.strip() == "?":
            raise HintWanted
        return raw

    # --------------------------------------------------------------- act
    def act(self, obs: Observation) -> Action:
        self._show(obs)
        while True:
            try:
                return self._ask(obs)
            except HintWanted:
                hint = suggest(obs, "standard", seed=f"hint/{obs.hand_index}")
                self._say(hint_text(hint, self.names))
            except BadInput as e:
                self._say(self._("Not accepted: {error}").format(error=e))
            except CorazonesError as e:
                self._say(self._("Not accepted: {error}").format(error=safe_line(error_text(self._, e))))

    def _show(self, obs: Observation) -> None:
        """What the player needs before answering: cards received, the table, the scores, the hand."""
        _ = self._
        names = self.names
        if obs.received is not None and obs.received_from is not None and self._received_shown != obs.hand_index:
            self._received_shown = obs.hand_index
            self._say(
                _("You received from {who}: {cards}").format(
                    who=names[obs.received_from], cards=cards_text(obs.received)
                )
            )
        if obs.decision is Kind.PLAY:
            chips = obs.rules.settlement in ("chips_1887", "chips_pool")
            self._say(
                _("Hand {hand}, trick {trick}. Taken this hand: {taken}.  {label}: {scores}").format(
                    hand=obs.hand_index + 1,
                    trick=len(obs.tricks) + 1,
                    taken=seat_values(names, obs.points_taken),
                    label=_("Chips") if chips else _("Scores"),
                    scores=seat_values(names, obs.chips if chips else obs.scores),
                )
            )
            if obs.declarer is not None:
                self._say(
                    _("Penalty suit: {suit} (named by {who}).").format(
                        suit=suit_text(obs.penalty_suit), who=names[obs.declarer]
                    )
                )
            if obs.trick:
                table = "  ".join(f"{names[s]}:{card_text(c)}" for s, c in obs.trick)
                self._say(_("On the table: {cards}").format(cards=table))
            else:
                self._say(_("You lead."))
        if obs.decision is not Kind.MOON:
            self._say(_("Your hand: {cards}").format(cards=cards_text(obs.hand)))

    def _ask(self, obs: Observation) -> Action:
        _ = self._
        k = obs.decision
        seat = obs.seat
        if k is Kind.PASS:
            to = self.names[obs.pass_to] if obs.pass_to is not None else "?"
            raw = self._input(
                translator(self.lang)
                .ngettext(
                    "Pass {count} card to {to} (e.g. QS AH 10H; ? for a hint; q quits): ",
                    "Pass {count} cards to {to} (e.g. QS AH 10H; ? for a hint; q quits): ",
                    obs.rules.pass_count,
                )
                .format(count=obs.rules.pass_count, to=to)
            )
            return Action.pass_cards(seat, self._pass_cards(obs, raw))
        if k is Kind.PLAY:
            legal = [a.card for a in obs.legal]
            raw = self._input(_("Your play ({legal}; ? for a hint; q quits): ").format(legal=cards_text(legal)))
            return Action.play(seat, self._play_card(obs, raw.strip(), legal))
        if k is Kind.BID:
            return Action.bid(seat, self._bid(obs))
        if k is Kind.DECLARE:
            raw = self._input(_("You won the auction. Name the penalty suit (C, D, S, H; ? for a hint; q quits): "))
            raw = raw.strip().upper()
            if len(raw) == 1 and raw in SUIT_GLYPHS:
                raw = "CDSH"[SUIT_GLYPHS.index(raw)]
            if len(raw) != 1 or raw not in "CDSH":
                raise BadInput(_("type one suit letter: C, D, S or H"))
            return Action.declare(seat, raw)
        values = obs.card_values
        total = sum(values[c] for c in obs.rules.deck if values[c] > 0)
        raw = self._input(
            _(
                "You shot the moon! Type 's' to subtract {total} from yourself, "
                "'a' to add {total} to the others (? for a hint): "
            ).format(total=total)
        )
        choice = MOON_ANSWERS.get(raw.strip().lower())
        if choice is None:
            raise BadInput(_("type 's' (subtract from yourself) or 'a' (add to the others)"))
        return Action.moon(seat, choice)

    def _card(self, text: str) -> int:
        try:
            return parse_card(text)
        except CorazonesError:
            raise BadInput(
                self._("{text} is not a card; type rank then suit, e.g. QS, 10H, TH or Q♠").format(
                    text=f"'{visible(text, 20)}'"
                )
            ) from None

    def _pass_cards(self, obs: Observation, raw: str) -> list[int]:
        _ = self._
        cards = [self._card(x) for x in raw.replace(",", " ").split()]
        count = obs.rules.pass_count
        if len(cards) != count:
            raise BadInput(
                translator(self.lang)
                .ngettext(
                    "pass exactly {count} card, you typed {got}", "pass exactly {count} cards, you typed {got}", count
                )
                .format(count=count, got=len(cards))
            )
        held = Counter(obs.hand)
        for c, k in Counter(cards).items():
            if held[c] == 0:
                raise BadInput(_("you do not hold {card}").format(card=card_text(c)))
            if k > held[c]:
                raise BadInput(_("{card} is named twice").format(card=card_text(c)))
        return cards

    def _play_card(self, obs: Observation, text: str, legal: list[int]) -> int:
        _ = self._
        c = self._card(text)
        if c in legal:
            return c
        if c not in obs.hand:
            raise BadInput(_("you do not hold {card}").format(card=card_text(c)))
        shown = cards_text(legal)
        if obs.trick:
            led = obs.trick[0][1] // 13
            if any(x // 13 == led for x in obs.hand):
                raise BadInput(
                    _("you must follow suit ({suit}); legal: {legal}").format(suit=suit_text(led), legal=shown)
                )
        elif not obs.tricks and len(legal) == 1:
            raise BadInput(_("the first trick is led with {card}").format(card=card_text(legal[0])))
        elif c // 13 == obs.penalty_suit and not obs.hearts_broken:
            raise BadInput(
                _("{suit} may not be led until broken; legal: {legal}").format(
                    suit=suit_text(obs.penalty_suit), legal=shown
                )
            )
        raise BadInput(_("{card} may not be played now; legal: {legal}").format(card=card_text(c), legal=shown))

    def _bid(self, obs: Observation) -> int:
        _ = self._
        allowed = sorted(int(a.value) for a in obs.legal if isinstance(a.value, int))
        high = max((b for _s, b in obs.bids), default=0)
        positive = [b for b in allowed if b > 0]
        low, cap = (positive[0], positive[-1]) if positive else (0, 0)
        prompt = _("High bid {high}. Your bid in chips (0 = no bid, {low} to {cap}; ? for a hint; q quits): ")
        raw = self._input(prompt.format(high=high, low=low, cap=cap)).strip() or "0"
        value = int(raw) if raw.isdecimal() and len(raw) <= 9 else -1
        if value not in allowed:
            if not positive:
                raise BadInput(_("type 0: you cannot outbid {high} with your chips").format(high=high))
            raise BadInput(_("type a whole number: 0 for no bid, or {low} to {cap}").format(low=low, cap=cap))
        return value


def public_text(action: Action, names: Seats) -> str | None:
    """A line for a decision every seat sees as it happens (bids, the suit named); None for the others."""
    _ = translator(names.lang).gettext
    if action.kind is Kind.BID and isinstance(action.value, int):
        return bid_text(names, action.seat, action.value)
    if action.kind is Kind.DECLARE and isinstance(action.value, int):
        suit = suit_text(action.value)
        if names.is_you(action.seat):
            return _("You name {suit} as the penalty suit.").format(suit=suit)
        return _("{who} names {suit} as the penalty suit.").format(who=names[action.seat], suit=suit)
    return None


def run_line_game(
    rules: Rules,
    seed: int | str | None,
    level: str,
    human_seat: int | None,
    record: Path | None,
    lang: str,
) -> int:
    """Play in the terminal; return the exit code (0 done or abandoned, 1 record not written, 130 interrupted)."""
    _ = translator(lang).gettext
    game = Game(rules, seed)
    names = Seats(lang, rules.players, human_seat)
    players: list[Player] = []
    for s in range(rules.players):
        if s == human_seat:
            players.append(HumanPlayer(names))
        else:
            players.append(make_player(level, f"{game.seed}/{s}"))
    hand_shown = -1
    tricks_shown = 0
    code = OK
    commitment = commit(game.seed)
    try:
        with plain_interrupts():
            if human_seat is not None:
                typer.echo(
                    _("Corazones — {preset}, {players} players. You are seat {seat}.").format(
                        preset=rules.name,
                        players=rules.players,
                        seat=human_seat + 1,  # counted from 1, as it is named
                    )
                )
            else:
                typer.echo(
                    _("Corazones — {preset}, {players} players, watching.").format(
                        preset=rules.name, players=rules.players
                    )
                )
            typer.echo(
                _("Commitment to the seed: {commitment} (the seed is shown when the game ends).").format(
                    commitment=commitment
                )
            )
            if human_seat is not None:
                typer.echo(_("Type cards as rank then suit (QS, 10H, TH, Q♠); q quits."))
            while not game.over:
                if game.hand_index != hand_shown:
                    hand_shown = game.hand_index
                    tricks_shown = 0
                    d = game.deal
                    typer.echo(dealer_text(names, game.hand_index + 1, d.dealer, d.pass_direction))
                for seat in game.to_act():
                    action = players[seat].act(game.observation(seat))
                    game.apply(action)
                    line = public_text(action, names)
                    if line is not None:
                        typer.echo("  " + line)
                    if game.hand_index != hand_shown:
                        break
                finished = game.hand_index != hand_shown
                deal = game.last_deal if finished and game.last_deal is not None else game.deal
                for tr in deal.tricks[tricks_shown:]:
                    typer.echo("  " + trick_text(tr, names))
                tricks_shown = len(deal.tricks)
                if finished and game.history:
                    typer.echo(hand_result_text(game.history[-1], names))
    except QuitGame:
        typer.echo(_("Game abandoned."))
    except (KeyboardInterrupt, EOFError):
        typer.echo("\n" + _("Game interrupted."))
        code = INTERRUPTED
    except BrokenPipeError:
        # whoever read the output went away (``| head``): stop quietly, but still keep the record
        silence_stdout()
        code = CLOSED_PIPE
    if game.over:
        chips = rules.settlement in ("chips_1887", "chips_pool")
        typer.echo(
            _("Game over. Winner(s): {winners}. {label}: {scores}").format(
                winners=", ".join(names[w] for w in game.winners),
                label=_("Chips") if chips else _("Scores"),
                scores=seat_values(names, game.chips) if chips else _totals_text(game, names),
            )
        )
    typer.echo(_("The seed was {seed}; its commitment is {commitment}.").format(seed=game.seed, commitment=commitment))
    if record is not None and _is_file(record):
        # quoted for a shell, so the line can be pasted as it stands (a path or a seed with a space in it)
        typer.echo(_("Check it: corazones verify {path}").format(path=shlex.quote(safe_line(str(record), 200))))
    else:
        typer.echo(
            _("Check it: corazones verify --seed {seed} --commitment {commitment}").format(
                seed=shlex.quote(str(game.seed)), commitment=commitment
            )
        )
    if record is not None and not save_record(record, game, lang):
        code = code or FAILED
    return code


def _totals_text(game: Game, names: Seats) -> str:
    if game.rules.partnership:
        sides = ["+".join(names[s] for s in team) for team in game.rules.teams]
        return seat_values(sides, game.totals())
    return seat_values(names, game.scores)


def save_record(path: Path, game: Game, lang: str) -> bool:
    """Write the record through :func:`save_atomic` (a file whole or not at all; a device or a pipe directly).

    Seats keep their default names (``seat 0`` ..., counted from 0 as data), which
    every face shows as "Seat 1" ... in its language when the record is replayed.
    """
    _ = translator(lang).gettext
    shown = safe_line(str(path), 200)
    try:
        save_atomic(path, dumps(make_record(game)))
    except OSError as e:
        typer.echo(
            _("Could not write the record to {path}: {error}").format(path=shown, error=os_reason_text(_, e)), err=True
        )
        return False
    if _is_file(path):  # a device, a pipe or standard output got the record itself: nothing to add
        typer.echo(_("Record written to {path}").format(path=shown))
    return True


def _is_file(path: Path) -> bool:
    """Whether ``path`` is (or will be) a file on disk, one ``verify`` can read again later."""
    try:
        return output_kind(path) == "file"
    except OSError:
        return False
