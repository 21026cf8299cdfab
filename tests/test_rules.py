"""The ``Rules`` value: presets (RULES.md §3), player counts and strip tables (§2), validation.

Every rule of RULES.md is a field of ``Rules``; these tests pin the derived tables
(stripped cards, hand and kitty sizes, penalty totals) to the rule book and check
that impossible combinations are refused early with a message saying what is allowed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from corazones.core import PRESETS, Game, Rules, RulesError, card_str, parse_card, parse_cards
from corazones.core.rules import OPTION_NAMES


def names(cards: tuple[int, ...]) -> set[str]:
    return {card_str(c) for c in cards}


# ----------------------------------------------------------------- presets


def test_every_preset_named_in_rules_md_exists() -> None:
    """§1 and §3 name these presets; each must be available by that name."""
    expected = {
        "standard",
        "black_lady",
        "quick",
        "kitty",
        "hearts_1887",
        "arnold_2011",
        "spot_hearts",
        "eagle_hearts",
        "black_jack",
        "black_maria",
        "omnibus",
        "partnership",
        "auction_hearts",
        "cancellation_hearts",
        "four_jacks",
        "chasse_coeur",
    }
    assert expected <= set(PRESETS)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_builds_and_round_trips_through_json(preset: str) -> None:
    """to_dict -> JSON text -> from_dict gives an equal value (records store rules this way)."""
    r = Rules.preset(preset)
    assert r.name == preset
    text = json.dumps(r.to_dict())
    back = Rules.from_dict(json.loads(text))
    assert back == r
    assert back.to_dict() == r.to_dict()
    assert set(r.to_dict()) == OPTION_NAMES | {"name"}


def test_custom_rules_round_trip() -> None:
    r = Rules(
        name="house",
        players=6,
        passes=("left", "across"),
        card_points={"QS": 13, "JD": -10},
        discard_order=("H",),
        target=60,
        partnership=True,
        moon_needs="team",
    )
    back = Rules.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back == r
    assert back.name == "house"


@pytest.mark.parametrize(
    ("preset", "players", "total"),
    [
        ("standard", 4, 26),  # §1: hearts 1, Q♠ 13
        ("black_lady", 4, 26),
        ("quick", 4, 26),
        ("kitty", 4, 26),
        ("hearts_1887", 4, 13),  # §3: no Q♠ penalty
        ("arnold_2011", 4, 13),  # hearts only
        ("spot_hearts", 4, sum(range(2, 15)) + 13),  # A 14 ... 2, plus Q♠
        ("eagle_hearts", 4, 5 + 4 + 3 + 2 + 9 + 13),
        ("black_jack", 4, 13 + 10),  # J♠ 10 instead of Q♠
        ("black_maria", 3, 13 + 13 + 10 + 7),  # Q♠ 13, A♠ 10, K♠ 7, hearts
        ("omnibus", 4, 26 - 10),  # J♦ -10
        ("partnership", 4, 26),
        ("auction_hearts", 4, 13),  # the named suit, 1 each
        ("cancellation_hearts", 6, 52),  # two decks: 26 hearts, two Q♠
        ("four_jacks", 4, 5),  # jacks 1, J♠ 2
        ("chasse_coeur", 4, 64),  # four queens 13, other hearts 1
    ],
)
def test_preset_player_count_and_penalty_total(preset: str, players: int, total: int) -> None:
    """The penalty total per deal of each preset matches RULES.md (§5 invariant's reference)."""
    r = Rules.preset(preset)
    assert r.players == players
    vals = r.card_values()
    assert sum(vals[c] for c in r.deck) == total


def test_preset_card_values_match_rule_book() -> None:
    """Spot, Eagle, Black Maria, Black Jack, Omnibus, Four Jacks and Chasse-Cœur card values (§3)."""

    def v(preset: str, card: str) -> int:
        return Rules.preset(preset).card_values()[parse_cards(card)[0]]

    assert [v("spot_hearts", c) for c in ("AH", "KH", "QH", "JH", "10H", "2H", "QS")] == [14, 13, 12, 11, 10, 2, 13]
    assert [v("eagle_hearts", c) for c in ("AH", "KH", "QH", "JH", "10H", "2H")] == [5, 4, 3, 2, 1, 1]
    eagle_face = Rules.preset("eagle_hearts", hearts="eagle_face").card_values()
    assert [eagle_face[parse_cards(c)[0]] for c in ("AH", "JH", "10H", "2H")] == [5, 2, 10, 2]
    assert [v("black_maria", c) for c in ("QS", "AS", "KS", "JS", "5H")] == [13, 10, 7, 0, 1]
    assert [v("black_jack", c) for c in ("JS", "QS", "AH")] == [10, 0, 1]
    assert Rules.preset("black_jack", card_points={"JS": 13}).card_values()[parse_cards("JS")[0]] == 13
    assert [v("omnibus", c) for c in ("JD", "QS", "2H")] == [-10, 13, 1]
    assert [v("four_jacks", c) for c in ("JC", "JD", "JH", "JS", "AH", "QS")] == [1, 1, 1, 2, 0, 0]
    assert [v("chasse_coeur", c) for c in ("QC", "QD", "QS", "QH", "AH", "2H")] == [13, 13, 13, 13, 1, 1]
    assert [v("hearts_1887", c) for c in ("QS", "AH")] == [0, 1]


def test_preset_options_from_rule_book() -> None:
    """Passing, leads and moon settings that §3 lists for each preset."""
    r = Rules.preset("hearts_1887")
    assert (r.has_passing, r.first_lead, r.must_break_hearts, r.no_points_first_trick, r.moon, r.settlement) == (
        False,
        "eldest",
        False,
        False,
        "off",
        "chips_1887",
    )
    r = Rules.preset("arnold_2011")
    assert (r.has_passing, r.first_lead, r.strip, r.moon, r.target) == (False, "eldest", "arnold_2011", "off", 80)
    r = Rules.preset("black_maria")
    assert r.players == 3 and r.moon == "off"
    assert [r.pass_direction(i) for i in range(4)] == ["right"] * 4
    r = Rules.preset("auction_hearts")
    assert r.auction and not r.has_passing and r.settlement == "chips_pool"
    r = Rules.preset("cancellation_hearts")
    assert r.decks == 2 and r.kitty_to == "first_trick" and r.cancel_whole_trick == "two_pairs"
    r = Rules.preset("four_jacks")
    assert not r.has_passing and r.first_lead == "eldest" and r.moon == "off"
    r = Rules.preset("chasse_coeur")
    assert not r.has_passing and r.first_lead == "eldest" and r.discard_order == ("H", "Q") and r.moon == "choice"
    r = Rules.preset("standard")
    assert (r.moon, r.target, r.tie_break, r.must_break_hearts, r.queen_breaks_hearts) == (
        "choice",
        100,
        "play_on",
        True,
        False,
    )
    r = Rules.preset("quick")
    assert r.hands == 1 and r.tie_break == "play_on_always"
    assert Rules.preset("partnership").teams == ((0, 2), (1, 3))
    assert Rules.preset("partnership", players=6).teams == ((0, 2, 4), (1, 3, 5))


def test_overrides_apply_on_top_of_preset() -> None:
    """``Rules.preset("omnibus", players=5, target=50)`` keeps the preset and changes only those options."""
    r = Rules.preset("omnibus", players=5, target=50)
    assert r.name == "omnibus"
    assert r.players == 5 and r.target == 50
    assert dict(r.card_points) == {"QS": 13, "JD": -10}
    assert r.hand_size == 10
    assert names(r.stripped) == {"2D", "2C"}
    r2 = Rules.preset("standard").replace(moon="add_to_others")
    assert r2.moon == "add_to_others" and r2.players == 4


def test_card_points_names_are_normalised() -> None:
    """``{"q♠": 13}`` and ``{"QS": 13}`` describe the same rules."""
    assert Rules(card_points={"q♠": 13}) == Rules(card_points={"QS": 13})


# ------------------------------------------------------------- strip tables


@pytest.mark.parametrize(
    ("players", "seed_003", "arnold_2011", "each"),
    [
        (3, {"2D"}, {"2C"}, 17),
        (4, set(), set(), 13),
        (5, {"2D", "2C"}, {"2C", "2D"}, 10),
        (6, {"2D", "3D", "3C", "4C"}, {"3C", "2C", "2D", "2S"}, 8),
        (7, {"2D", "3D", "3C"}, None, 7),
    ],
)
def test_strip_tables_of_rules_md_section_2(
    players: int, seed_003: set[str], arnold_2011: set[str] | None, each: int
) -> None:
    """The §2 table: cards removed under both conventions and cards each player gets."""
    r = Rules(players=players, strip="seed_003")
    assert names(r.stripped) == seed_003
    assert r.hand_size == each and r.kitty_size == 0
    assert len(r.deck) == 52 - len(seed_003) == each * players
    if arnold_2011 is None:
        with pytest.raises(RulesError, match="3 to 6"):
            Rules(players=players, strip="arnold_2011")
    else:
        r = Rules(players=players, strip="arnold_2011")
        assert names(r.stripped) == arnold_2011
        assert r.hand_size == each and r.kitty_size == 0


@pytest.mark.parametrize(("players", "each", "kitty"), [(3, 17, 1), (4, 12, 4), (5, 10, 2), (6, 8, 4), (7, 7, 3)])
def test_kitty_strip_leaves_cards_in_kitty(players: int, each: int, kitty: int) -> None:
    """``strip = kitty``: nothing removed; leftovers face down; with four players 12 each + 4 (§2)."""
    r = Rules(players=players, strip="kitty")
    assert r.stripped == ()
    assert len(r.deck) == 52
    assert (r.hand_size, r.kitty_size) == (each, kitty)
    assert Rules.preset("kitty", players=players).kitty_size == kitty


@pytest.mark.parametrize("players", range(5, 12))
def test_two_decks_deal_as_far_as_they_go_evenly(players: int) -> None:
    """Cancellation Hearts: 104 cards dealt evenly; the rest form the kitty (§3)."""
    r = Rules.preset("cancellation_hearts", players=players)
    assert len(r.deck) == 104
    assert r.hand_size == 104 // players
    assert r.kitty_size == 104 % players
    assert r.stripped == ()


def test_pass_cycles() -> None:
    """Four players: left, right, across, hold; any other count: left, right (§1, §2)."""
    assert [Rules().pass_direction(i) for i in range(8)] == ["left", "right", "across", "hold"] * 2
    for n in (3, 5, 6, 7):
        assert [Rules(players=n).pass_direction(i) for i in range(4)] == ["left", "right"] * 2
    assert [Rules.preset("cancellation_hearts", players=9).pass_direction(i) for i in range(3)] == [
        "left",
        "right",
        "left",
    ]
    r = Rules(players=5)
    assert (r.pass_offset("left"), r.pass_offset("right"), r.pass_offset("hold")) == (1, 4, 0)
    assert Rules(players=6).pass_offset("across") == 3


@pytest.mark.parametrize("moon", ["choice", "add_to_others", "subtract_from_self"])
@pytest.mark.parametrize(
    ("preset", "settlement"), [("hearts_1887", None), ("auction_hearts", None), ("standard", "chips_1887")]
)
def test_a_moon_under_chips_is_refused(preset: str, settlement: str | None, moon: str) -> None:
    """Chips pay for the penalty cards taken, all of them included (§4): a moon option there would change nothing."""
    extra = {} if settlement is None else {"settlement": settlement}
    with pytest.raises(RulesError, match="moon must be 'off'"):
        Rules.preset(preset, moon=moon, **extra)
    assert Rules.preset(preset, moon="off", **extra).moon == "off"


def test_no_cards_passed_is_no_pass_whatever_the_cycle_says() -> None:
    """``passes`` with ``pass_count = 0`` passes nothing, so every face hears "hold", as the deal plays it."""
    r = Rules.preset("hearts_1887", passes=("left",))
    assert r.pass_count == 0
    assert r.pass_cycle == ("hold",) and r.pass_direction(0) == "hold"
    game = Game(r, seed=1)
    assert game.deal.pass_direction == "hold"


# --------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"players": 8}, "players = 8 is not possible with one deck"),
        ({"players": 2}, "allowed: 3 to 7"),
        ({"players": 7, "strip": "arnold_2011"}, "allowed: 3 to 6"),
        ({"players": 4, "decks": 2}, "two decks; allowed: 5 to 11"),
        ({"players": 12, "decks": 2}, "allowed: 5 to 11"),
        ({"decks": 3}, "decks = 3 is out of range"),
        ({"players": "4"}, "players must be a whole number (3 to 7 with one deck, 5 to 11 with two), not '4'"),
        ({"players": True}, "players must be a whole number (3 to 7 with one deck, 5 to 11 with two), not True"),
        ({"pass_count": 14}, "more than a hand holds (13 cards"),
        ({"players": 6, "pass_count": 9}, "allowed: 0 to 8"),
        ({"pass_count": -1}, "pass_count = -1 is out of range"),
        ({"players": 5, "passes": ("left", "across")}, "'across' needs an even number of players, not 5"),
        ({"players": 3, "partnership": True}, "partnership needs 4 or 6 players"),
        ({"players": 5, "partnership": True}, "partnership needs 4 or 6 players"),
        ({"moon_needs": "team"}, "moon_needs = team only makes sense with partnership"),
        ({"partnership": True, "settlement": "chips_1887"}, "settlement must be points"),
        ({"passes": ()}, "at least one direction"),
        ({"passes": ("up",)}, "each entry of passes = 'up' is not allowed"),
        ({"strip": "none"}, "strip = 'none' is not allowed; strip is one of: seed_003, arnold_2011, kitty"),
        ({"moon": "sometimes"}, "moon is one of: choice, add_to_others, subtract_from_self, off"),
        ({"hearts": "two"}, "hearts is one of"),
        ({"kitty_to": "dealer"}, "kitty_to is one of: first_penalty, first_trick"),
        ({"first_lead": "dealer"}, "first_lead is one of"),
        ({"tie_break": "coin"}, "tie_break is one of: play_on, shared, play_on_always"),
        ({"settlement": "cash"}, "settlement is one of"),
        ({"cancel_whole_trick": "never"}, "cancel_whole_trick is one of: two_pairs, no_winner"),
        ({"target": 0}, "target = 0 is out of range; allowed: 1 to 1000"),
        ({"target": "100"}, "target must be a whole number from 1 to 1000 or null, not '100'"),
        ({"hands": 0}, "hands = 0 is out of range"),
        ({"stake": 0}, "stake = 0 is out of range"),
        ({"target": None}, "needs an end: set target"),
        ({"must_break_hearts": "yes"}, "must_break_hearts must be true or false"),
        ({"card_points": {"QX": 13}}, "card_points: not a card: 'QX'"),
        ({"card_points": {"QS": "13"}}, "card_points[QS] must be a whole number"),
        ({"card_points": {"QS": 13, "q♠": 10}}, "names the same card twice"),
        ({"discard_order": ("X",)}, "discard_order entry 'X' is neither a suit letter"),
        ({"hearts": "none", "card_points": {}}, "no card carries a penalty"),
        ({"auction": True, "hearts": "none"}, "hearts must not be 'none'"),
    ],
)
def test_impossible_or_bad_options_raise_rules_error_saying_what_is_allowed(
    options: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert fragment in str(e.value)


def test_preset_and_override_errors() -> None:
    """Unknown preset or option names are refused with the list of valid names."""
    with pytest.raises(RulesError, match=r"unknown preset 'hartz'; presets: standard, "):
        Rules.preset("hartz")
    with pytest.raises(RulesError, match=r"unknown option\(s\) player; options: .*players"):
        Rules.preset("standard", player=5)
    with pytest.raises(RulesError, match=r"unknown option\(s\) colour"):
        Rules.from_dict({"name": "standard", "colour": "red"})
    with pytest.raises(RulesError, match=r"unknown option\(s\) speed"):
        Rules().replace(speed=2)
    with pytest.raises(RulesError, match="must be an object of options"):
        Rules.from_dict(["standard"])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="players = 8 is not possible"):
        Rules.preset("omnibus", players=8)
    with pytest.raises(RulesError, match="with two decks; allowed: 5 to 11"):
        Rules.preset("cancellation_hearts", players=4)
    with pytest.raises(RulesError, match="'across' needs an even number"):
        Rules.preset("standard", players=4).replace(players=5, passes=("across",))


def test_preset_player_ranges() -> None:
    """Player counts each family allows: one deck 3..7 (3..6 Arnold), two decks 5..11, partners 4 or 6."""
    for n in range(3, 8):
        Rules.preset("standard", players=n)
        Rules.preset("kitty", players=n)
        Rules.preset("hearts_1887", players=n)
    for n in range(3, 7):
        Rules.preset("arnold_2011", players=n)
    for n in range(5, 12):
        Rules.preset("cancellation_hearts", players=n)
    for n in (4, 6):
        Rules.preset("partnership", players=n)


def test_rules_are_immutable_and_hashable() -> None:
    r = Rules.preset("standard")
    with pytest.raises(AttributeError):
        r.players = 5  # type: ignore[misc]
    assert hash(r) == hash(Rules.preset("standard"))
    assert Rules.preset("standard") != Rules.preset("standard", target=50)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"players": 3, "hearts": "none", "card_points": {"2D": 5}}, "(strip = seed_003 removes 2D with 3 players)"),
        ({"players": 5, "hearts": "none", "card_points": {"2C": 1, "2D": 1}}, "removes 2C 2D with 5 players"),
        (
            {"players": 6, "strip": "arnold_2011", "hearts": "none", "card_points": {"2S": 13}},
            "(strip = arnold_2011 removes 2S with 6 players)",
        ),
    ],
)
def test_rules_whose_only_penalty_cards_are_stripped_are_refused(options: dict[str, Any], fragment: str) -> None:
    """A penalty only on cards the player count strips leaves nothing to score: every hand scores 0 for
    everyone, and a game to a target (RULES.md §1 'if any score ≥ target') would deal hands forever."""
    with pytest.raises(RulesError, match="no card in play carries a penalty") as e:
        Rules(**options)
    assert fragment in str(e.value)
    assert "set hearts or card_points" in str(e.value)


def test_a_penalty_card_in_play_next_to_stripped_ones_is_enough() -> None:
    """Only a table with no penalty card in play is refused: stripped penalty cards beside one in play are fine,
    and so is the same card where the player count keeps it (or the kitty holds the leftovers)."""
    r = Rules(players=3, hearts="none", card_points={"2D": 5, "3D": 1})
    assert r.card_values()[parse_card("3D")] == 1
    Rules(players=4, hearts="none", card_points={"2D": 5})
    Rules(players=3, strip="kitty", hearts="none", card_points={"2D": 5})


def test_card_value_tables_stay_bounded_however_many_rules_are_built() -> None:
    """Every table a server's client opens builds a ``Rules``, with card values of the client's choosing
    (-1,000 to 1,000 on any card): the per-rules value tables must not pile up for the life of the process."""
    from corazones.core import rules as rules_module

    for points in range(1, 1001):
        for card in ("JD", "10C", "2S"):
            r = Rules(card_points={"QS": 13, card: points})
            assert r.card_values()[parse_card(card)] == points
    assert len(rules_module._VALUES_CACHE) <= 1024
    assert Rules(card_points={"QS": 13, "JD": 7}).card_values(0)[parse_card("JD")] == 7
    assert Rules(card_points={"QS": 13, "JD": 7}).card_values(0)[parse_card("5C")] == 1  # clubs as penalty suit


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"pass_count": "x"}, "pass_count must be a whole number from 0 to 13, not 'x'"),
        ({"pass_count": True}, "pass_count must be a whole number from 0 to 13, not True"),
        ({"players": 6, "pass_count": 2.5}, "pass_count must be a whole number from 0 to 8, not 2.5"),
        ({"pass_count": -1}, "pass_count = -1 is out of range; allowed: 0 to 13"),
        ({"players": 5, "decks": 2, "pass_count": -3}, "pass_count = -3 is out of range; allowed: 0 to 20"),
    ],
)
def test_a_bad_pass_count_is_refused_with_the_counts_a_hand_allows(options: dict[str, Any], message: str) -> None:
    """The refusal names what is allowed (0 to the hand size), as for a count above the hand, in plain words."""
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert str(e.value) == message
