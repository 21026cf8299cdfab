"""The line-mode terminal game: a human (or nobody, with ``--auto``) against bots.

One line per question, one line per trick: it works in any terminal, in a
pipe and under test (answers come from standard input).  Wrong input is
explained in the player's language and asked again; ``q`` abandons the game.
An interrupted or abandoned game still writes its record when ``--record``
was given: a record of an unfinished game is valid and replays to the same
position, so nothing played is lost.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import typer

from corazones.cli.i18n import t
from corazones.cli.render import card_text, cards_text, hand_result_text, seat_values, trick_text
from corazones.core.actions import Action, Kind
from corazones.core.cards import SUIT_GLYPHS, parse_card
from corazones.core.errors import CorazonesError
from corazones.core.game import Game
from corazones.core.observation import Observation
from corazones.core.records import dumps, make_record
from corazones.core.rules import Rules
from corazones.players.base import Player
from corazones.players.hints import suggest
from corazones.players.registry import make_player

#: Answers that abandon the game at any question.
QUIT_WORDS = frozenset({"q", "quit", "exit", "salir"})


class QuitGame(Exception):
    """The player asked to stop (typed ``q``)."""


class HintWanted(Exception):
    """The player typed ``?`` and wants the ``standard`` level's suggestion."""


class BadInput(Exception):
    """An answer that cannot be accepted; the message says why in the player's language."""


class HumanPlayer:
    """A seat answered at the keyboard; bad input is explained and asked again."""

    name = "you"

    def __init__(self, lang: str, names: Sequence[str], ask: Callable[[str], str] = input) -> None:
        self.lang = lang
        self.names = list(names)
        self.ask = ask
        self._received_shown = -1

    # ------------------------------------------------------------ talking
    def _say(self, key: str, **kw: object) -> None:
        typer.echo(t(self.lang, key, **kw))

    def _input(self, key: str, **kw: object) -> str:
        raw = self.ask(t(self.lang, key, **kw))
        if raw.strip().lower() in QUIT_WORDS:
            raise QuitGame
        if raw.strip() == "?":
            raise HintWanted
        return raw

    def _bad(self, key: str, **kw: object) -> BadInput:
        return BadInput(t(self.lang, key, **kw))

    # --------------------------------------------------------------- act
    def act(self, obs: Observation) -> Action:
        self._show(obs)
        while True:
            try:
                return self._ask(obs)
            except HintWanted:
                action, why = suggest(obs, "standard", seed=f"hint/{obs.hand_index}")
                self._say("hint", move=action, why=why)
            except (BadInput, CorazonesError) as e:
                self._say("bad", error=e)

    def _show(self, obs: Observation) -> None:
        """What the player needs before answering: cards received, the table, the scores, the hand."""
        if obs.received is not None and obs.received_from is not None and self._received_shown != obs.hand_index:
            self._received_shown = obs.hand_index
            self._say("received", who=self.names[obs.received_from], cards=cards_text(obs.received))
        if obs.decision is Kind.PLAY:
            chips = obs.rules.settlement in ("chips_1887", "chips_pool")
            self._say(
                "status",
                hand=obs.hand_index + 1,
                trick=len(obs.tricks) + 1,
                taken=seat_values(self.names, obs.points_taken),
                label=t(self.lang, "chips_label" if chips else "scores_label"),
                scores=seat_values(self.names, obs.chips if chips else obs.scores),
            )
            if obs.declarer is not None:
                self._say("penalty_now", suit=SUIT_GLYPHS[obs.penalty_suit], who=self.names[obs.declarer])
            if obs.trick:
                self._say("table", cards="  ".join(f"{self.names[s]}:{card_text(c)}" for s, c in obs.trick))
            else:
                self._say("you_lead")
        if obs.decision is not Kind.MOON:
            self._say("your_hand", cards=cards_text(obs.hand))

    def _ask(self, obs: Observation) -> Action:
        k = obs.decision
        seat = obs.seat
        if k is Kind.PASS:
            to = self.names[obs.pass_to] if obs.pass_to is not None else "?"
            raw = self._input("ask_pass", count=obs.rules.pass_count, to=to)
            return Action.pass_cards(seat, self._pass_cards(obs, raw))
        if k is Kind.PLAY:
            legal = [a.card for a in obs.legal]
            raw = self._input("ask_play", legal=cards_text(legal))
            return Action.play(seat, self._play_card(obs, raw.strip(), legal))
        if k is Kind.BID:
            return Action.bid(seat, self._bid(obs))
        if k is Kind.DECLARE:
            raw = self._input("ask_declare").strip().upper()
            if len(raw) == 1 and raw in SUIT_GLYPHS:
                raw = "CDSH"[SUIT_GLYPHS.index(raw)]
            if len(raw) != 1 or raw not in "CDSH":
                raise self._bad("bad_suit")
            return Action.declare(seat, raw)
        values = obs.card_values
        total = sum(values[c] for c in obs.rules.deck if values[c] > 0)
        raw = self._input("ask_moon", total=total).strip().lower()
        if raw[:1] not in ("s", "a"):
            raise self._bad("bad_moon")
        return Action.moon(seat, "add_to_others" if raw.startswith("a") else "subtract_from_self")

    def _card(self, text: str) -> int:
        try:
            return parse_card(text)
        except CorazonesError:
            raise self._bad("bad_card", text=text) from None

    def _pass_cards(self, obs: Observation, raw: str) -> list[int]:
        cards = [self._card(x) for x in raw.replace(",", " ").split()]
        count = obs.rules.pass_count
        if len(cards) != count:
            raise self._bad("pass_count", count=count, got=len(cards))
        held = Counter(obs.hand)
        for c, k in Counter(cards).items():
            if held[c] == 0:
                raise self._bad("not_held", card=card_text(c))
            if k > held[c]:
                raise self._bad("pass_twice", card=card_text(c))
        return cards

    def _play_card(self, obs: Observation, text: str, legal: list[int]) -> int:
        c = self._card(text)
        if c in legal:
            return c
        if c not in obs.hand:
            raise self._bad("not_held", card=card_text(c))
        shown = cards_text(legal)
        if obs.trick:
            led = obs.trick[0][1] // 13
            if any(x // 13 == led for x in obs.hand):
                raise self._bad("must_follow", suit=SUIT_GLYPHS[led], legal=shown)
        elif not obs.tricks and len(legal) == 1:
            raise self._bad("first_lead", card=card_text(legal[0]))
        elif c // 13 == obs.penalty_suit and not obs.hearts_broken:
            raise self._bad("not_broken", suit=SUIT_GLYPHS[obs.penalty_suit], legal=shown)
        raise self._bad("not_legal", card=card_text(c), legal=shown)

    def _bid(self, obs: Observation) -> int:
        allowed = sorted(int(a.value) for a in obs.legal if isinstance(a.value, int))
        high = max((b for _, b in obs.bids), default=0)
        positive = [b for b in allowed if b > 0]
        low, cap = (positive[0], positive[-1]) if positive else (0, 0)
        raw = self._input("ask_bid", high=high, low=low, cap=cap).strip() or "0"
        try:
            value = int(raw)
        except ValueError:
            value = -1
        if value not in allowed:
            if not positive:
                raise self._bad("bad_bid_none", high=high)
            raise self._bad("bad_bid", low=low, cap=cap)
        return value


def seat_names(players: int, human_seat: int | None, lang: str) -> list[str]:
    return [t(lang, "you") if s == human_seat else t(lang, "seat", n=s) for s in range(players)]


def run_line_game(
    rules: Rules,
    seed: int | None,
    level: str,
    human_seat: int | None,
    max_hands: int | None,
    record: Path | None,
    lang: str,
) -> int:
    """Play in the terminal; return the exit code (0 done or abandoned, 1 record not written, 130 interrupted)."""
    game = Game(rules, seed)
    names = seat_names(rules.players, human_seat, lang)
    players: list[Player] = []
    for s in range(rules.players):
        if s == human_seat:
            players.append(HumanPlayer(lang, names))
        else:
            players.append(make_player(level, f"{game.seed}/{s}"))
    you = t(lang, "seat", n=human_seat) if human_seat is not None else t(lang, "watching")
    typer.echo(t(lang, "welcome", preset=rules.name, players=rules.players, seed=game.seed, you=you))
    if human_seat is not None:
        typer.echo(t(lang, "help"))
    hand_shown = -1
    tricks_shown = 0
    code = 0
    try:
        while not game.over and (max_hands is None or game.hand_index < max_hands):
            if game.hand_index != hand_shown:
                hand_shown = game.hand_index
                tricks_shown = 0
                d = game.deal
                direction = t(lang, d.pass_direction)
                typer.echo(t(lang, "dealer", hand=game.hand_index + 1, dealer=names[d.dealer], direction=direction))
            for seat in game.to_act():
                game.apply(players[seat].act(game.observation(seat)))
                if game.hand_index != hand_shown:
                    break
            finished = game.hand_index != hand_shown
            deal = game.last_deal if finished and game.last_deal is not None else game.deal
            for tr in deal.tricks[tricks_shown:]:
                typer.echo("  " + trick_text(tr, names, lang=lang))
            tricks_shown = len(deal.tricks)
            if finished and game.history:
                typer.echo(hand_result_text(game.history[-1], names, lang))
    except QuitGame:
        typer.echo(t(lang, "abandoned"))
    except (KeyboardInterrupt, EOFError):
        typer.echo("\n" + t(lang, "bye"))
        code = 130
    if game.over:
        chips = rules.settlement in ("chips_1887", "chips_pool")
        typer.echo(
            t(
                lang,
                "game_over",
                winners=", ".join(names[w] for w in game.winners),
                label=t(lang, "chips_label" if chips else "scores_label"),
                scores=seat_values(names, game.chips) if chips else _totals_text(game, names),
            )
        )
    if record is not None and not save_record(record, game, names, lang):
        code = code or 1
    return code


def _totals_text(game: Game, names: Sequence[str]) -> str:
    if game.rules.partnership:
        sides = ["+".join(names[s] for s in team) for team in game.rules.teams]
        return seat_values(sides, game.totals())
    return seat_values(names, game.scores)


def save_record(path: Path, game: Game, names: Sequence[str], lang: str) -> bool:
    """Write the record atomically (a temporary file renamed over the target): never half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(dumps(make_record(game, list(names))), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        typer.echo(t(lang, "not_saved", path=path, error=e.strerror or e), err=True)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return False
    typer.echo(t(lang, "saved", path=path))
    return True
