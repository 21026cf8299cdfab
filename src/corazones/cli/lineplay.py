"""The line-mode terminal game: a human (or nobody, with ``--auto``) against bots."""

from __future__ import annotations

from pathlib import Path

import typer

from corazones.cli.i18n import t
from corazones.cli.render import cards_text, hand_result_text, trick_text
from corazones.core.actions import Action, Kind
from corazones.core.cards import CARDS, parse_cards
from corazones.core.errors import CorazonesError
from corazones.core.game import Game
from corazones.core.observation import Observation
from corazones.core.records import dumps, make_record
from corazones.core.rules import Rules
from corazones.players.base import Player
from corazones.players.registry import make_player


class HumanPlayer:
    """A seat answered at the keyboard; bad input is explained and asked again."""

    name = "you"

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def act(self, obs: Observation) -> Action:
        while True:
            try:
                return self._ask(obs)
            except (CorazonesError, ValueError) as e:
                typer.echo(t(self.lang, "bad", error=e))

    def _ask(self, obs: Observation) -> Action:
        lang = self.lang
        k = obs.decision
        typer.echo(t(lang, "your_hand", cards=cards_text(obs.hand)))
        if k is Kind.PASS:
            raw = input(t(lang, "ask_pass", count=obs.rules.pass_count, to=f"seat {obs.pass_to}"))
            return _checked(obs, Action.pass_cards(obs.seat, parse_cards(raw)))
        if k is Kind.PLAY:
            table = " ".join(CARDS[c].glyph() for _, c in obs.trick) or "(you lead)"
            legal = cards_text([a.card for a in obs.legal])
            raw = input(t(lang, "ask_play", trick=len(obs.tricks) + 1, table=table, legal=legal))
            return _checked(obs, Action.play(obs.seat, raw.strip()))
        if k is Kind.BID:
            high = max((b for _, b in obs.bids), default=0)
            cap = max(int(a.value) for a in obs.legal if isinstance(a.value, int))
            raw = input(t(lang, "ask_bid", high=high, cap=cap))
            return _checked(obs, Action.bid(obs.seat, int(raw.strip() or 0)))
        if k is Kind.DECLARE:
            return _checked(obs, Action.declare(obs.seat, input(t(lang, "ask_declare"))))
        total = sum(v for c, v in enumerate(obs.card_values) if v > 0 and c in obs.rules.deck)
        raw = input(t(lang, "ask_moon", total=total)).strip().lower()
        return _checked(obs, Action.moon(obs.seat, "add_to_others" if raw.startswith("a") else "subtract_from_self"))


def _checked(obs: Observation, action: Action) -> Action:
    if obs.decision is not Kind.PASS and action not in obs.legal:
        allowed = ", ".join(str(a.to_json().get(action.kind.value)) for a in obs.legal)
        raise ValueError(f"{action} is not allowed now; allowed: {allowed}")
    return action


def run_line_game(
    rules: Rules,
    seed: int | None,
    level: str,
    human_seat: int | None,
    max_hands: int | None,
    record: Path | None,
    lang: str,
) -> int:
    game = Game(rules, seed)
    names = [f"seat {i}" for i in range(rules.players)]
    players: list[Player] = []
    for s in range(rules.players):
        if s == human_seat:
            players.append(HumanPlayer(lang))
            names[s] = "you"
        else:
            players.append(make_player(level, f"{game.seed}/{s}"))
    typer.echo(
        t(
            lang,
            "welcome",
            preset=rules.name,
            players=rules.players,
            seed=game.seed,
            you=names[human_seat] if human_seat is not None else "watching",
        )
    )
    hand_shown = -1
    tricks_shown = 0
    try:
        while not game.over and (max_hands is None or game.hand_index < max_hands):
            if game.hand_index != hand_shown:
                hand_shown = game.hand_index
                tricks_shown = 0
                d = game.deal
                typer.echo(
                    t(lang, "dealer", hand=game.hand_index + 1, dealer=names[d.dealer], direction=d.pass_direction)
                )
            for seat in game.to_act():
                game.apply(players[seat].act(game.observation(seat)))
                if game.hand_index != hand_shown:
                    break
            finished = game.hand_index != hand_shown
            deal = game.last_deal if finished and game.last_deal is not None else game.deal
            for tr in deal.tricks[tricks_shown:]:
                typer.echo("  " + trick_text(tr, names))
            tricks_shown = len(deal.tricks)
            if finished and game.history:
                typer.echo(hand_result_text(game.history[-1], names))
    except (KeyboardInterrupt, EOFError):
        typer.echo("\n" + t(lang, "bye"))
        return 130
    if game.over:
        typer.echo(
            t(
                lang,
                "game_over",
                winners=", ".join(names[w] for w in game.winners),
                scores=game.totals() if rules.settlement == "points" else game.chips,
            )
        )
    if record is not None:
        record.write_text(dumps(make_record(game, names)), encoding="utf-8")
        typer.echo(t(lang, "saved", path=record))
    return 0
