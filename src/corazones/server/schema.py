"""Every message of the web protocol and every HTTP body, as pydantic models.

This module is the one definition of the protocol: the server validates what
clients send against it, builds what it sends from it, and the JSON-schema
section of ``docs/protocol.md`` is generated from it (``python -m
corazones.server.schema``; a test fails when the document is stale).  The
front-end reads the same document, so a field exists in three places only if
it exists here.

The server's limits are read from their one home, :data:`corazones.core.limits.SERVER_LIMITS`
(:data:`LIMITS` here), so the documentation and the checks cannot drift apart.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from corazones.core import rules as _rules
from corazones.core.cards import parse_card
from corazones.core.limits import (
    MAX_CARD_POINTS,
    MAX_DISCARD_ORDER,
    MAX_NAME_LENGTH,
    MAX_PASS_CYCLE,
    SERVER_LIMITS,
)
from corazones.core.pad import MAX_CHIPS
from corazones.core.validate import is_whole

#: Sizes and rates the server enforces (documented in docs/protocol.md): their one home is core/limits.py.
LIMITS: dict[str, int] = SERVER_LIMITS

Level = Literal["random", "beginner", "standard", "expert"]
CardText = Annotated[str, Field(min_length=2, max_length=4, examples=["QS", "10H"])]
Seat = Annotated[int, Field(ge=0, le=15)]


class _Strict(BaseModel):
    """Unknown fields are refused and types are not coerced (``"0"`` is not a seat): a misspelt or
    mistyped field must not silently mean something."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


# ====================================================================== client -> server


class ActionBody(_Strict):
    """One decision, in the shape of ``Action.to_json``; ``seat`` may be left out (it is the sender's)."""

    seat: Seat | None = None
    play: CardText | None = None
    pass_: Annotated[list[CardText], Field(max_length=12)] | None = Field(default=None, alias="pass")
    bid: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    declare: Literal["C", "D", "S", "H"] | None = None
    moon: Literal["subtract_from_self", "add_to_others"] | None = None

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, populate_by_name=True)

    @model_validator(mode="after")
    def _exactly_one(self) -> ActionBody:
        given = [k for k in ("play", "pass_", "bid", "declare", "moon") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an action has exactly one of play, pass, bid, declare, moon")
        return self

    def with_seat(self, seat: int) -> dict[str, Any]:
        """The ``Action.from_json`` form for ``seat``."""
        data = self.model_dump(by_alias=True, exclude_none=True)
        data["seat"] = seat
        return data


class Hello(_Strict):
    """First message on a new connection: who I am and the last event I saw (``null``: none)."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=512)]
    last_seq: Annotated[int, Field(ge=0)] | None = None
    lang: Annotated[str, Field(max_length=16)] | None = None


class Act(_Strict):
    """A decision for the sender's seat.  ``ref`` is echoed in an error reply."""

    type: Literal["act"]
    action: ActionBody
    ref: Annotated[str, Field(max_length=64)] | None = None


class Chat(_Strict):
    """A chat line for everybody at the table (players and spectators)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=LIMITS["chat_chars"])]


class HintRequest(_Strict):
    """Ask which move a level would make now, and why (only for your own decision)."""

    type: Literal["hint"]
    level: Level = "standard"


class Resume(_Strict):
    """Ask again for a snapshot plus the events after ``last_seq``."""

    type: Literal["resume"]
    last_seq: Annotated[int, Field(ge=0)]


class Ping(_Strict):
    """Keep-alive; answered by ``pong`` with the same ``t``."""

    type: Literal["ping"]
    #: Finite, and an integer only as large as a JavaScript number holds exactly (the reply is JSON).
    t: Annotated[int, Field(ge=-(2**53), le=2**53)] | Annotated[float, Field(allow_inf_nan=False)] | None = None


class Sit(_Strict):
    """Take a seat: a free human seat, a seat a bot plays for a player who left, or your own seat back."""

    type: Literal["sit"]
    seat: Seat
    invite: Annotated[str, Field(max_length=64)] | None = None


class Stand(_Strict):
    """Give up your seat (a bot plays it from now on if the game has started) and keep watching."""

    type: Literal["stand"]


ClientMessage = Annotated[
    Hello | Act | Chat | HintRequest | Resume | Ping | Sit | Stand,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# ====================================================================== shared shapes


class PlayerInfo(BaseModel):
    id: int
    name: str
    kind: Literal["guest", "account"]


class SeatInfo(BaseModel):
    """Who sits where.  ``status``: ``empty`` (a human seat nobody took), ``human`` (connected),
    ``away`` (dropped, seat kept during the grace period), ``bot`` (a bot plays it; ``player``
    set when the human may come back and take it over)."""

    seat: int
    kind: Literal["human", "bot"]
    status: Literal["empty", "human", "away", "bot"]
    name: str
    level: Level | None = None
    player: int | None = None


class TableInfo(BaseModel):
    id: str
    name: str
    preset: str
    rules: dict[str, Any]
    seats: list[SeatInfo]
    status: Literal["open", "playing", "finished"]
    private: bool
    owner: int | None
    spectators: int = 0
    created: str
    invite_url: str | None = Field(default=None, description="Only in the creator's answer and for seated players")
    commitment: str | None = Field(default=None, description="SHA-256 commitment to the seed, once the game started")
    seed: str | None = Field(default=None, description="The seed, revealed once the game is finished (null before)")
    record_url: str | None = None


class TrickView(BaseModel):
    leader: int
    plays: list[tuple[int, str]]
    winner: int | None


class HandResultView(BaseModel):
    """``HandResult.to_json`` (docs/records.md): the kitty is revealed here, after the hand."""

    index: int
    dealer: int
    pass_direction: str
    penalty_suit: str
    declarer: int | None
    bid: int
    points: list[int]
    scores: list[int]
    shooter: int | None
    moon_choice: str | None
    kitty: list[str]
    kitty_owner: int | None
    penalty_cards: list[int]
    chips_delta: list[int]
    pool: int
    totals: list[int]


class PublicView(BaseModel):
    """What anyone may see: the table without any hand (spectators get exactly this)."""

    hand_index: int
    dealer: int
    phase: str
    to_act: list[int]
    hand_sizes: list[int]
    pass_direction: str
    bids: list[tuple[int, int]]
    declarer: int | None
    penalty_suit: str
    trick_leader: int
    trick: list[tuple[int, str]]
    last_trick: TrickView | None = Field(description="The trick completed last in this hand, if any")
    tricks_played: int
    turn: int
    hearts_broken: bool
    points_taken: list[int]
    kitty_size: int
    kitty_owner: int | None
    scores: list[int]
    chips: list[int]
    pool: int
    game_over: bool
    winners: list[int]


class SeatView(PublicView):
    """``PublicView`` plus what one seat alone may know, from ``Game.observation(seat)``."""

    seat: int
    hand: list[str]
    decision: Literal["pass", "bid", "declare", "play", "moon"] | None
    legal: list[dict[str, Any]] = Field(description="Legal actions (Action.to_json); empty for passes")
    pass_count: int
    pass_to: int | None
    passed: list[str] | None
    received: list[str] | None
    received_from: int | None


# ====================================================================== events


class GameStartEvent(BaseModel):
    kind: Literal["game_start"]
    commitment: str = Field(description="SHA-256 (hex) of the secret seed; the seed is revealed at game_over")
    draw: list[str] = Field(description="Dealer draw: the card each seat drew (lowest deals)")
    seats: list[SeatInfo]


class HandStartEvent(BaseModel):
    kind: Literal["hand_start"]
    hand_index: int
    dealer: int
    pass_direction: str
    commitment: str


class ActionEvent(BaseModel):
    """A decision was applied.  A pass shows its cards only to the seat that passed."""

    kind: Literal["action"]
    action: dict[str, Any] = Field(description='Action.to_json; a pass seen by another seat: {"seat": s, "pass": null}')
    by: Literal["human", "bot"]
    trick: TrickView | None = Field(default=None, description="Set when this play completed a trick")


class HandEndEvent(BaseModel):
    kind: Literal["hand_end"]
    result: HandResultView


class GameOverEvent(BaseModel):
    kind: Literal["game_over"]
    winners: list[int]
    scores: list[int]
    seed: str = Field(description="The secret seed, revealed: check that SHA-256(seed) == commitment")
    commitment: str
    record_url: str


class SeatEvent(BaseModel):
    kind: Literal["seat"]
    seat: SeatInfo


class ChatEvent(BaseModel):
    kind: Literal["chat"]
    seat: int | None
    name: str
    text: str


class TableEvent(BaseModel):
    """The table's status changed (``open`` -> ``playing`` -> ``finished``)."""

    kind: Literal["table"]
    status: Literal["open", "playing", "finished"]


EventBody = Annotated[
    GameStartEvent | HandStartEvent | ActionEvent | HandEndEvent | GameOverEvent | SeatEvent | ChatEvent | TableEvent,
    Field(discriminator="kind"),
]


# ====================================================================== server -> client


class Welcome(BaseModel):
    type: Literal["welcome"]
    table: str
    player: PlayerInfo
    role: Literal["seat", "spectator"]
    seat: int | None
    limits: dict[str, int | float] = Field(description="The limits of this server (docs/protocol.md, Limits)")


class Event(BaseModel):
    """A numbered table event.  One change (an action, a seat taken) may cause several events at once;
    they are sent together and only the last of them carries the recipient's view after them all."""

    type: Literal["event"]
    table: str
    seq: int
    event: EventBody
    view: SeatView | PublicView | None = Field(
        default=None,
        description="The recipient's seat view or public view after this event, on the last event of a batch "
        "that changes the game; null on the others, on chat, seat and table events, and in a snapshot's missed",
    )


class Snapshot(BaseModel):
    """The whole state for this connection, then the events it missed (oldest first, without views)."""

    type: Literal["snapshot"]
    table: TableInfo
    seq: int = Field(description="Number of the last event this snapshot includes")
    role: Literal["seat", "spectator"]
    seat: int | None
    view: SeatView | PublicView | None = Field(description="null before the game starts")
    tricks: list[TrickView] = Field(description="Tricks completed in the current hand")
    history: list[HandResultView]
    chat: list[ChatEvent]
    missed: list[Event] = Field(description="Events after the client's last_seq (empty on a first connection)")
    missed_complete: bool = Field(description="false when too many events were missed to send them all")


class HintReply(BaseModel):
    type: Literal["hint"]
    action: dict[str, Any]
    reason: str = Field(description="Already translated into the connection's language")
    reasons: list[dict[str, Any]] = Field(
        default_factory=list,
        description='The reason in parts, to render yourself: {"template": English text, "params": {...}}; '
        'cards are "QS" (a list for several), seats {"seat": n}, suits {"suit": "S"}',
    )
    level: Level


class Pong(BaseModel):
    type: Literal["pong"]
    t: float | int | None = None


ErrorCode = Literal[
    "malformed",  # not JSON, not an object, or does not match the schema
    "too_large",  # message longer than ws_message_bytes
    "unknown_type",  # a type the protocol does not have
    "rate_limited",  # over ws_rate_per_second; the message was dropped
    "auth",  # missing, invalid, expired or revoked token
    "revoked",  # this connection's token was revoked (sign out everywhere); closed with 4003
    "removed",  # the table's host removed this player from the table; closed with 4004
    "not_seated",  # acting or asking a hint without a seat
    "not_your_seat",  # action for another seat
    "not_your_turn",  # out of turn, or already acted
    "illegal",  # the engine refused the action (the message says why)
    "bad_action",  # the action does not parse (not a card, ...)
    "no_decision",  # hint asked with nothing to decide
    "seat_taken",  # sit on a seat that is not free
    "not_found",  # no such table
    "game_over",  # the game is finished (or, for a record, not finished yet)
    "moved",  # another server process owns the table now; reconnect (url given)
    "server",  # the server could not do it now; try again
]


class ErrorReply(BaseModel):
    type: Literal["error"]
    code: ErrorCode
    message: str
    ref: str | None = None
    url: str | None = None


ServerMessage = Annotated[
    Welcome | Event | Snapshot | HintReply | Pong | ErrorReply,
    Field(discriminator="type"),
]


# ====================================================================== HTTP bodies


class GuestRequest(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=LIMITS["name_chars"])]


class AccountRequest(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=LIMITS["name_chars"])]
    password: Annotated[str, Field(min_length=LIMITS["password_min"], max_length=LIMITS["password_max"])]


class AuthReply(BaseModel):
    token: str = Field(description="Send as 'Authorization: Bearer <token>' and in the WebSocket hello")
    player: PlayerInfo


class RevokeRequest(_Strict):
    """``POST /api/auth/revoke``: sign out everywhere (every token of the caller's player stops working)."""

    keep_this_device: bool = Field(
        default=False, description="Answer a fresh token for this device (sign out the other devices only)"
    )


class RevokeReply(BaseModel):
    token: str | None = Field(description="A fresh token when keep_this_device, else null (signed out here too)")
    player: PlayerInfo


class RemoveRequest(_Strict):
    """``POST /api/tables/{id}/remove`` (the table's owner): take a seat away from the player holding it."""

    seat: Annotated[int, Field(ge=0, le=15)]


class SeatRequest(_Strict):
    kind: Literal["human", "bot"]
    level: Level = "standard"


class JoinRequest(_Strict):
    seat: Annotated[int, Field(ge=0, le=15)] | None = Field(default=None, description="null: the first free seat")
    invite: Annotated[str, Field(max_length=64)] | None = None


def _one_of(allowed: tuple[str, ...]) -> AfterValidator:
    """A word option's check: the value is one of ``allowed`` (the rules module's own tuple), said so if not."""

    def check(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"{value[:40]!r} is not allowed; one of: {', '.join(allowed)}")
        return value

    return AfterValidator(check)


def _word(allowed: tuple[str, ...]) -> Any:
    return Field(max_length=40, json_schema_extra={"enum": list(allowed)})


Strip = Annotated[str, _word(_rules.STRIPS), _one_of(_rules.STRIPS)]
KittyTo = Annotated[str, _word(_rules.KITTY_TO), _one_of(_rules.KITTY_TO)]
Direction = Annotated[str, _word(_rules.PASS_DIRECTIONS), _one_of(_rules.PASS_DIRECTIONS)]
FirstLead = Annotated[str, _word(_rules.FIRST_LEADS), _one_of(_rules.FIRST_LEADS)]
Hearts = Annotated[str, _word(_rules.HEART_SCHEMES), _one_of(_rules.HEART_SCHEMES)]
Moon = Annotated[str, _word(_rules.MOON_MODES), _one_of(_rules.MOON_MODES)]
MoonNeeds = Annotated[str, _word(_rules.MOON_NEEDS), _one_of(_rules.MOON_NEEDS)]
TieBreak = Annotated[str, _word(_rules.TIE_BREAKS), _one_of(_rules.TIE_BREAKS)]
Settlement = Annotated[str, _word(_rules.SETTLEMENTS), _one_of(_rules.SETTLEMENTS)]
CancelRule = Annotated[str, _word(_rules.CANCEL_RULES), _one_of(_rules.CANCEL_RULES)]
PresetName = Annotated[str, _word(tuple(_rules.PRESETS)), _one_of(tuple(_rules.PRESETS))]

#: Points one card of ``card_points`` may carry (the rules' range: they refuse more; negative is a bonus).
CARD_POINTS_LOW, CARD_POINTS_HIGH = _rules.CARD_POINTS_RANGE


def _bounded(option: str) -> Any:
    """The range of a whole-number option, as the rules declare it (``Rules.OPTION_BOUNDS``)."""
    low, high = _rules.OPTION_BOUNDS[option]
    return Field(ge=low, le=high)


def _card_points(value: list[list[str | int]] | dict[str, int]) -> list[list[str | int]] | dict[str, int]:
    """``card_points`` names real cards, each once, with whole points in range (either shape)."""
    pairs = list(value.items()) if isinstance(value, dict) else [tuple(pair) for pair in value]
    seen: set[int] = set()
    for card, points in pairs:
        if not isinstance(card, str) or not is_whole(points):
            raise ValueError("each entry is a card and its points")
        number = parse_card(card)  # a CardError is a ValueError: refused naming the option
        if number in seen:
            raise ValueError("a card is named twice")
        seen.add(number)
        if not CARD_POINTS_LOW <= points <= CARD_POINTS_HIGH:
            raise ValueError("points out of range")
    return value


def _discard_order(value: list[str]) -> list[str]:
    """Each entry of ``discard_order`` is a suit letter or a rank, as the rules read it."""
    for token in value:
        _rules.discard_group_mask(token)  # a RulesError is a ValueError: refused naming the option
    return value


#: The default of an option whose type has no null: left out, it keeps the preset's value (an explicit
#: null is refused by the type).  Typed ``Any`` so that a field reads as what a given value is.
_NOT_GIVEN: Any = None


class RulesOptions(_Strict):
    """Overrides of a preset's options (docs/rules.md), each typed and bounded: a misspelt option, a
    word that is not one of its choices or a number out of range is refused naming the option.  Which
    combinations can be played (players with decks, partnerships, an end to the game) is the rules'
    own check, after this one (:func:`corazones.server.options.rules_of`).

    A new table and a new score pad take these same options.  An option left out keeps the preset's
    value (the ``null`` defaults below say "not given"); only ``target``, ``hands`` (no end of that
    kind) and ``passes`` (the usual cycle for the number of players) take an explicit ``null``.
    """

    players: Annotated[int, _bounded("players")] = _NOT_GIVEN
    decks: Annotated[int, _bounded("decks")] = _NOT_GIVEN
    strip: Strip = _NOT_GIVEN
    kitty_to: KittyTo = _NOT_GIVEN
    passes: Annotated[list[Direction], Field(min_length=1, max_length=MAX_PASS_CYCLE)] | None = Field(
        default=None, description='The passing cycle, e.g. ["left", "right", "across", "hold"]; null: the usual one'
    )
    pass_count: Annotated[int, _bounded("pass_count")] = _NOT_GIVEN
    first_lead: FirstLead = _NOT_GIVEN
    no_points_first_trick: bool = _NOT_GIVEN
    must_break_hearts: bool = _NOT_GIVEN
    queen_breaks_hearts: bool = _NOT_GIVEN
    hearts: Hearts = _NOT_GIVEN
    card_points: Annotated[
        Annotated[
            list[Annotated[list[Annotated[str, Field(max_length=4)] | int], Field(min_length=2, max_length=2)]],
            Field(max_length=MAX_CARD_POINTS),
        ]
        | Annotated[dict[Annotated[str, Field(max_length=4)], int], Field(max_length=MAX_CARD_POINTS)],
        AfterValidator(_card_points),
    ] = Field(
        default=_NOT_GIVEN,
        description="Cards other than the penalty suit that score, with their points from -1000 to 1000: "
        '{"QS": 13, "JD": -10} (as in the rules) or [["QS", 13], ["JD", -10]]',
    )
    discard_order: Annotated[
        list[Annotated[str, Field(max_length=2)]], Field(max_length=MAX_DISCARD_ORDER), AfterValidator(_discard_order)
    ] = Field(default=_NOT_GIVEN, description='Suit letters or ranks, e.g. ["H", "Q"]')
    moon: Moon = _NOT_GIVEN
    moon_needs: MoonNeeds = _NOT_GIVEN
    target: Annotated[int, _bounded("target")] | None = Field(default=None, description="null: no target")
    hands: Annotated[int, _bounded("hands")] | None = Field(default=None, description="null: no fixed number")
    tie_break: TieBreak = _NOT_GIVEN
    settlement: Settlement = _NOT_GIVEN
    stake: Annotated[int, _bounded("stake")] = _NOT_GIVEN
    partnership: bool = _NOT_GIVEN
    auction: bool = _NOT_GIVEN
    cancel_whole_trick: CancelRule = _NOT_GIVEN

    def overrides(self) -> dict[str, Any]:
        """The options given (an explicit null included: no target, no fixed number of hands), as
        ``Rules.preset`` takes them."""
        out: dict[str, Any] = {}
        for key in self.model_fields_set:
            value = getattr(self, key)
            out[key] = (
                tuple(tuple(v) if isinstance(v, list | tuple) else v for v in value)
                if isinstance(value, list)
                else value
            )
        return out


class CreateTableRequest(_Strict):
    preset: PresetName = "standard"
    options: RulesOptions = Field(
        default_factory=RulesOptions, description="Option overrides (the same as a score pad's): players, target, ..."
    )
    seats: Annotated[list[SeatRequest], Field(max_length=16)] | None = Field(
        default=None, description="One per seat; default: you in seat 0, standard bots elsewhere"
    )
    my_seat: Annotated[int, Field(ge=0, le=15)] | None = Field(default=0, description="null: watch only")
    private: bool = False
    name: Annotated[str, Field(max_length=40)] | None = None
    takeover_level: Level = Field(default="standard", description="Bot level that plays a dropped human's seat")


class NewPadRequest(_Strict):
    """``POST /api/pads``: a score pad for a game with real cards (docs/pad.md)."""

    preset: PresetName = "standard"
    options: RulesOptions = Field(default_factory=RulesOptions)
    names: Annotated[list[Annotated[str, Field(max_length=4 * MAX_NAME_LENGTH)]], Field(max_length=11)] = Field(
        default_factory=list, description="One per player in seat order; empty: Player 1, Player 2, ..."
    )
    revoke_penalty: Annotated[int, Field(ge=0, le=MAX_CHIPS)] | None = Field(
        default=None, description="Chips a revoke costs under chips_1887 (default 13: the price of every heart)"
    )


class PresetInfo(BaseModel):
    name: str
    description: str
    rules: dict[str, Any]


class OptionsInfo(BaseModel):
    presets: list[PresetInfo]
    levels: list[str]
    choices: dict[str, list[str]] = Field(description="Allowed values of the options that take a word")


class PlayerStats(BaseModel):
    player: PlayerInfo
    games: int
    wins: int
    hands: int
    points: int
    points_per_hand: float | None
    moons: int


class GameSummary(BaseModel):
    id: str
    name: str
    preset: str
    finished: str | None
    players: list[str]
    scores: list[int]
    winners: list[int]
    record_url: str
    replay_url: str


class ReplayHand(BaseModel):
    index: int
    dealer: int
    pass_direction: str
    hands: list[list[str]] = Field(description="Each seat's cards as dealt, before the pass")
    passes: list[list[str] | None]
    bids: list[tuple[int, int]]
    declare: str | None
    tricks: list[TrickView]
    result: HandResultView


class Replay(BaseModel):
    id: str
    players: list[str]
    rules: dict[str, Any]
    seed: str | int
    commitment: str | None
    hands: list[ReplayHand]
    final: dict[str, Any]


class Health(BaseModel):
    ok: bool
    db: str
    process: str
    tables: int
    version: str
    act_p50_ms: float | None = Field(description="Recent actions: ms from arrival to broadcast, median")
    act_p99_ms: float | None = Field(description="Recent actions: ms from arrival to broadcast, 99th percentile")
    write_p50_ms: float | None = Field(
        description="Recent database writes (queue and commit) before a broadcast, median"
    )
    write_p99_ms: float | None = Field(description="Recent database writes before a broadcast, 99th percentile")
    gc_p50_ms: float | None = Field(description="Full garbage collections (the event loop waits), median ms")
    gc_p99_ms: float | None = Field(description="Full garbage collections, 99th percentile ms")
    gc_full: int = Field(description="Full garbage collections timed (the last 1,000 at most)")


# ====================================================================== documentation


def schema_markdown() -> str:
    """The JSON-schema section of docs/protocol.md, generated from the models above."""
    parts = [
        "<!-- generated by `python -m corazones.server.schema`; do not edit by hand -->",
        "",
        "### Limits",
        "",
        "```json",
        json.dumps(LIMITS, indent=2),
        "```",
    ]
    groups: list[tuple[str, TypeAdapter[Any]]] = [
        ("Client to server (WebSocket)", TypeAdapter(ClientMessage)),
        ("Server to client (WebSocket)", TypeAdapter(ServerMessage)),
    ]
    for title, adapter in groups:
        parts += ["", f"### {title}", "", "```json", json.dumps(adapter.json_schema(), indent=1), "```"]
    http_models: list[type[BaseModel]] = [
        GuestRequest,
        AccountRequest,
        AuthReply,
        RevokeRequest,
        RevokeReply,
        CreateTableRequest,
        JoinRequest,
        RemoveRequest,
        NewPadRequest,
        TableInfo,
        OptionsInfo,
        GameSummary,
        Replay,
        PlayerStats,
        Health,
    ]
    parts += ["", "### HTTP bodies", ""]
    for model in http_models:
        parts += [f"#### {model.__name__}", "", "```json", json.dumps(model.model_json_schema(), indent=1), "```", ""]
    return "\n".join(parts).rstrip() + "\n"


BEGIN = "<!-- schema:begin -->"
END = "<!-- schema:end -->"


def render_doc(doc: str) -> str:
    """``doc`` with the text between the schema markers replaced by :func:`schema_markdown`."""
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{schema_markdown()}{END}{tail}"


if __name__ == "__main__":  # pragma: no cover - maintenance command
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"
    path.write_text(render_doc(path.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"updated {path}")
