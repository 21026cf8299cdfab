"""The score pad model: refusals with reasons, settlement, revokes, undo and edit, JSON and CSV."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corazones.core import Rules
from corazones.core.pad import MAX_TEXT, Entry, Pad, PadError, Revoke, layout, loads
from corazones.i18n import error_json, error_text, translator

NAMES = ("Ana", "Bea", "Carl", "Dan")


def pad(preset: str = "standard", **options: object) -> Pad:
    rules = Rules.preset(preset, **options)
    return Pad(rules, NAMES[: rules.players] if rules.players <= 4 else ())


def refused(p: Pad, entry: Entry) -> str:
    before = (list(p.entries), p.totals, p.chips, p.pool)
    with pytest.raises(PadError) as err:
        p.add(entry)
    assert (list(p.entries), p.totals, p.chips, p.pool) == before, "a refused row changed the pad"
    e = err.value
    assert e.template.format(**e.params) == str(e)
    return str(e)


# ------------------------------------------------------------------ layout
def test_layout_is_derived_from_card_values() -> None:
    def named(preset: str, **o: object) -> list[str]:
        return _glyphs(layout(Rules.preset(preset, **o)))

    assert named("standard") == ["Q♠"]
    assert named("omnibus") == ["Q♠", "J♦"]
    assert named("black_maria") == ["A♠", "K♠", "Q♠"]
    assert named("hearts_1887") == []
    assert len(named("spot_hearts")) == 14  # every heart has its own value, and Q♠
    assert layout(Rules.preset("eagle_hearts")).counted_name == "♥ 2-10"
    assert layout(Rules.preset("chasse_coeur")).counted_name == "♥ 2-J K A"
    assert layout(Rules.preset("four_jacks")).counted == ()
    two = layout(Rules.preset("cancellation_hearts"))
    assert two.counted_in_play == 26 and two.named[0][2] == 2  # two Q♠
    assert layout(Rules.preset("auction_hearts"), 2).counted_name == "♠"


def _glyphs(lay: object) -> list[str]:
    from corazones.core.pad import glyph

    return [glyph(c) for c, _, _ in lay.named]  # type: ignore[attr-defined]


# ---------------------------------------------------------------- refusals
def test_totals_that_do_not_add_up() -> None:
    p = pad()
    assert refused(p, Entry.quick([3, 4, 5, 0], {"QS": 2})) == "the ♥ cards add up to 12, but 13 are in play"
    assert refused(p, Entry.by_points([13, 0, 12, 0])) == "the points add up to 25, but the hand carries 26"
    assert "kitty counts for whoever took it" in refused(pad("kitty"), Entry.quick([3, 4, 5, 0], {"QS": 2}))
    assert "cannot take 27 points" in refused(p, Entry.by_points([27, -1, 0, 0]))
    assert "cannot take -2 cards" in refused(p, Entry.quick([15, 0, 0, -2], {"QS": 1}))


def test_named_cards_taken_twice_or_not_at_all() -> None:
    p = pad("omnibus")
    assert refused(p, Entry.quick([13, 0, 0, 0], {"QS": 1, "JD": [1, 2]})) == (
        "J♦ can only be taken once; it was given to Bea, Carl"
    )
    assert refused(p, Entry.quick([13, 0, 0, 0], {"QS": 1})) == "say who took J♦"
    assert "scores nothing here" in refused(p, Entry.quick([13, 0, 0, 0], {"QS": 1, "JD": 2, "KS": 0}))
    assert "is counted" in refused(p, Entry.quick([13, 0, 0, 0], {"QS": 1, "JD": 2, "5H": 0}))
    assert "there is no seat 7; seats are 0 to 3" in refused(p, Entry.quick([13, 0, 0, 0], {"QS": 7, "JD": 2}))
    two = pad("cancellation_hearts")
    assert "in play 2 times" in refused(two, Entry.quick([26, 0, 0, 0, 0, 0], {"QS": [1]}))


def test_moon_refusals() -> None:
    p = pad()
    assert "choose whether they subtract 26" in refused(p, Entry.quick([13, 0, 0, 0], {"QS": 0}))
    assert refused(p, Entry.by_points([26, 0, 0, 0], shooters=(0, 1), moon="add_to_others")) == (
        "only one player can take every penalty card; Ana, Bea were all marked as shooting the moon"
    )
    assert refused(p, Entry.quick([12, 1, 0, 0], {"QS": 0}, shooters=(0,))) == (
        "Ana did not take every penalty card, so nobody shot the moon"
    )
    assert "no moon choice" in refused(p, Entry.quick([12, 1, 0, 0], {"QS": 0}, moon="add_to_others"))
    assert "not played" in refused(pad("black_maria"), Entry.by_points([43, 0, 0], shooters=(0,)))
    fixed = pad("standard", moon="add_to_others")
    assert "one way only" in refused(fixed, Entry.by_points([26, 0, 0, 0], moon="subtract_from_self"))
    assert fixed.add(Entry.by_points([26, 0, 0, 0])).scores == (0, 26, 26, 26)


def test_omnibus_shooter_keeps_the_jack() -> None:
    p = pad("omnibus")
    # 16 points could be the moon with J♦ or Q♠ and three hearts: the table says which
    assert p.check(Entry.by_points([16, 0, 0, 0])).shooter is None
    row = p.add(Entry.by_points([16, 0, 0, 0], shooters=(0,), moon="subtract_from_self"))
    assert row.scores == (-36, 0, 0, 0)
    assert p.add(Entry.quick([13, 0, 0, 0], {"QS": 0, "JD": 1}, moon="add_to_others")).scores == (0, 16, 26, 26)
    assert "cannot have 5 points" in refused(p, Entry.by_points([21, 5, -10, 0], shooters=(0,)))


def test_auction_hands() -> None:
    p = pad("auction_hearts", stake=10)
    assert "cannot bid 11" in refused(p, Entry.quick([13, 0, 0, 0], suit=2, declarer=1, bid=11))
    assert "no auction" in refused(pad(), Entry.quick([13, 0, 0, 0], {"QS": 0}, suit=2, moon="add_to_others"))
    assert "hearts are the penalty suit" in refused(p, Entry.quick([13, 0, 0, 0], suit=2))
    # everyone took some spades: the pool (bid 3 plus 13 cards) carries over to Bea
    row = p.add(Entry.quick([4, 3, 3, 3], suit=2, declarer=1, bid=3))
    assert row.pool == 16 and row.chips == (6, 4, 7, 7) and p.carry_declarer == 1
    assert "names the suit again" in refused(p, Entry.quick([13, 0, 0, 0], suit=0, declarer=2, bid=1))
    # Ana alone clean: she takes the pool
    row = p.add(Entry.quick([0, 5, 4, 4], suit=0, declarer=1))
    assert row.chips == (6 + 29, 4 - 5, 7 - 4, 7 - 4) and row.pool == 0 and row.over
    assert p.winners == (0,)


def test_chips_1887_the_seed_example_and_revokes() -> None:
    p = pad("hearts_1887", stake=50)
    row = p.add(Entry.quick([2, 2, 3, 6]))
    assert row.chips_delta == (4, 4, -3, -6) and row.pool == 1
    row = p.add(Entry.quick([13, 0, 0, 0]))  # all thirteen: 13 chips shared by three, one more to the pool
    assert row.chips_delta == (-13, 4, 4, 4) and row.pool == 2
    row = p.add(Entry.quick([1, 2, 4, 6], revokes=(Revoke(3),)))
    assert row.chips_delta == (2 + 4 + 6 + 2, -2, -4, -6 - 13) and row.pool == 13
    row = p.add(Entry.quick([1, 2, 4, 6], revokes=(Revoke(2, to_avoid_all=True),)))
    assert row.chips_delta == (12 + 13 + 8, -2 + 8, -4 - 24, -6 + 8) and row.pool == 0
    assert "recorded twice" in refused(p, Entry.quick([1, 2, 4, 6], revokes=(Revoke(2), Revoke(2))))
    points = pad()
    assert points.add(Entry.by_points([26, 0, 0, 0], moon="add_to_others", revokes=(Revoke(0),))).scores == (
        0,
        26,
        26,
        26,
    )


def test_target_tie_play_on_and_winner() -> None:
    p = pad("standard", target=30)
    p.add(Entry.quick([10, 3, 0, 0], {"QS": 2}))  # 10 3 13 0
    p.add(Entry.quick([0, 10, 3, 0], {"QS": 3}))  # 10 13 16 13
    p.add(Entry.quick([10, 3, 0, 0], {"QS": 2}))  # 20 16 29 13
    assert p.near_target() == (2,) and p.leaders() == (3,)
    row = p.add(Entry.quick([0, 0, 3, 10], {"QS": 0}))  # 33 16 32 23
    assert row.over and p.winners == (1,)
    assert "game is over" in refused(p, Entry.quick([13, 0, 0, 0], {"QS": 1}))
    tie = pad("standard", target=20)
    tie.add(Entry.quick([13, 0, 0, 0], {"QS": 1}))  # 13 13 0 0
    assert not tie.add(Entry.quick([7, 0, 3, 3], {"QS": 1})).over  # 20 26 3 3: tie for lowest, play on
    assert tie.add(Entry.quick([0, 0, 1, 12], {"QS": 2})).over and tie.winners == (3,)
    shared = pad("standard", target=20, tie_break="shared")
    shared.add(Entry.quick([13, 0, 0, 0], {"QS": 1}))
    shared.add(Entry.quick([7, 0, 3, 3], {"QS": 1}))
    assert shared.over and shared.winners == (2, 3)


def test_partnership_and_average_stakes() -> None:
    p = pad("partnership", target=50)
    p.add(Entry.quick([3, 4, 6, 0], {"QS": 1}))
    assert p.side_totals() == [9, 17] and p.side_name(0) == "Ana + Carl"
    avg = pad("arnold_2011", settlement="average_stakes", target=None, hands=2)
    avg.add(Entry.quick([1, 2, 4, 6]))
    avg.add(Entry.quick([0, 0, 0, 13]))
    assert avg.over and avg.stakes() == (Fraction(-11, 2), Fraction(-9, 2), Fraction(-5, 2), Fraction(25, 2))


# ------------------------------------------------------------- undo, edit
def test_undo_and_edit_recompute_everything_after() -> None:
    p = pad("standard", target=60)
    entries = [
        Entry.quick([3, 4, 6, 0], {"QS": 2}),
        Entry.quick([13, 0, 0, 0], {"QS": 0}, moon="add_to_others"),
        Entry.quick([0, 5, 5, 3], {"QS": 3}),
    ]
    for e in entries:
        p.add(e)
    assert p.totals == (3, 35, 50, 42)
    p.edit(0, Entry.quick([0, 4, 6, 3], {"QS": 0}))
    assert [r.totals for r in p.rows] == [(13, 4, 6, 3), (13, 30, 32, 29), (13, 35, 37, 45)]
    assert p.undo() == entries[2] and p.totals == (13, 30, 32, 29)
    before = list(p.rows)
    with pytest.raises(PadError, match="the ♥ cards add up to 12"):
        p.edit(1, Entry.quick([12, 0, 0, 0], {"QS": 0}))
    assert p.rows == before
    p.add(entries[2])
    removed = p.remove(0)
    assert removed.counts == (0, 4, 6, 3) and len(p.rows) == 2 and p.rows[0].index == 0
    with pytest.raises(PadError, match="there is no hand 9"):
        p.edit(8, entries[0])
    while p.entries:
        p.undo()
    with pytest.raises(PadError, match="no hand to undo"):
        p.undo()


def test_edit_that_ends_the_game_early_is_refused() -> None:
    p = pad("standard", target=30)
    for e in (Entry.by_points([13, 13, 0, 0]), Entry.by_points([0, 0, 13, 13]), Entry.by_points([13, 0, 0, 13])):
        p.add(e)
    with pytest.raises(PadError, match="the game ends with hand 2; undo the hands after it first"):
        p.edit(0, Entry.quick([13, 0, 0, 0], {"QS": 0}, moon="add_to_others"))
    assert p.totals == (26, 13, 13, 26) and not p.over


def test_edit_that_breaks_a_later_auction_hand_is_refused() -> None:
    p = pad("auction_hearts", stake=20)
    p.add(Entry.quick([4, 3, 3, 3], suit=2, declarer=1, bid=3))  # carries over to Bea
    p.add(Entry.quick([4, 3, 3, 3], suit=0, declarer=1))
    with pytest.raises(PadError, match="hand 2 no longer adds up") as err:
        p.edit(0, Entry.quick([0, 5, 4, 4], suit=2, declarer=1, bid=3))  # Ana clean: no carry
    assert isinstance(err.value.params["reason"], PadError)
    assert len(p.rows) == 2 and p.carry_declarer == 1


# ------------------------------------------------------------- names
def test_names_are_checked() -> None:
    rules = Rules.preset("standard")
    assert Pad(rules).names == ("Player 1", "Player 2", "Player 3", "Player 4")
    for bad, why in [
        (("A", "B", "C"), "name each of the 4 players"),
        (("A", "B", "C", " "), "every player needs a name"),
        (("A", "B", "c", "C"), "two players are called"),
        (("A", "B", "C", "x" * 41), "longer than 40"),
    ]:
        with pytest.raises(PadError, match=why):
            Pad(rules, bad)


# -------------------------------------------------------------- formats
def full_pad() -> Pad:
    p = pad("omnibus")
    p.add(Entry.quick([3, 4, 6, 0], {"QS": 2, "JD": 1}, note="Bea dealt"))
    p.add(Entry.by_points([16, 0, 0, 0], shooters=(0,), moon="add_to_others", revokes=(Revoke(3),)))
    return p


def test_json_round_trip_and_csv() -> None:
    p = full_pad()
    text = p.dumps()
    q = loads(text)
    assert q.entries == p.entries and q.rows == p.rows and q.names == p.names and q.dumps() == text
    assert loads(text.encode()).totals == p.totals
    lines = p.to_csv().splitlines()
    assert lines[0] == "hand,Ana,Bea,Carl,Dan,Ana total,Bea total,Carl total,Dan total,moon,note"
    assert lines[1] == "1,3,-6,19,0,3,-6,19,0,,Bea dealt"
    assert lines[2] == "2,-10,26,26,26,-7,20,45,26,Ana add_to_others,"


#: Names a spreadsheet would run as formulas if a CSV cell began with them (OWASP's examples).
FORMULA_NAMES = ('=HYPERLINK("http://evil","x")', "+1+1", "@SUM(A1)", "=cmd|' /C calc'!A0")


def formula_cells(text: str) -> list[str]:
    """The cells of a CSV that a spreadsheet would read as a formula (a number, ``-26`` too, is not one)."""
    cells = [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]
    return [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"-?\d+", c)]


def test_csv_never_holds_a_formula_and_keeps_negative_scores_numbers() -> None:
    """Names and notes that begin like a formula are written as text ('=...); -26 stays a number."""
    p = Pad(Rules.preset("standard"), FORMULA_NAMES)
    p.add(Entry.quick([0, 13, 0, 0], {"QS": 1}, moon="subtract_from_self", note="-2+3"))
    p.add(Entry.quick([3, 4, 6, 0], {"QS": 2}, note="\t=1+1"))
    p.add(Entry.quick([3, 4, 6, 0], {"QS": 2}, note="\r=1+1"))
    p.add(Entry.quick([3, 4, 6, 0], {"QS": 2}, note="@A1 and = inside is fine"))
    text = p.to_csv()
    assert formula_cells(text) == [], text
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0][:5] == ["hand", '\'=HYPERLINK("http://evil","x")', "'+1+1", "'@SUM(A1)", "'=cmd|' /C calc'!A0"]
    assert rows[0][5] == '\'=HYPERLINK("http://evil","x") total'
    assert rows[1] == ["1", "0", "-26", "0", "0", "0", "-26", "0", "0", "'+1+1 subtract_from_self", "'-2+3"]
    assert [r[-1] for r in rows[2:]] == ["'\t=1+1", "'\r=1+1", "'@A1 and = inside is fine"]
    # a chip game's columns too: negative chips stay numbers, a name is text
    chips = Pad(Rules.preset("hearts_1887", stake=1, players=3), ("-Ana", "Bea", "@Carl"))
    chips.add(Entry.quick([0, 0, 13], note="+5"))
    text = chips.to_csv()
    assert formula_cells(text) == [], text
    assert re.search(r",-\d+,", text), text


def hostile(text: str | bytes) -> str:
    with pytest.raises(PadError) as err:
        loads(text)
    return str(err.value)


def test_hostile_json() -> None:
    good = json.loads(full_pad().dumps())

    def variant(**change: object) -> str:
        return json.dumps({**good, **change})

    assert hostile("{").startswith("not JSON")
    assert "nested too deeply" in hostile("[" * 100_000 + "]" * 100_000)
    # the records' strict reader, in short words: a count Python could not even print
    huge = hostile(variant(hands=[{"counts": [7, 0, 0, 0]}]).replace("[7,", "[" + "1" * 5000 + ","))
    assert huge == "hands[0].counts[0]: a number of 5,000 digits; numbers have at most 40"
    assert "the key 'names' is given twice" in hostile(variant()[:-1] + ', "names": ["a", "b", "c", "d"]}')
    assert "larger than" in hostile(" " * (MAX_TEXT + 1))
    assert "not UTF-8" in hostile(b"\xff\xfe")
    assert "not a Corazones score pad" in hostile("[]")
    assert "version" in hostile(variant(version=99))
    assert "unknown field(s) extra" in hostile(variant(extra=1))
    assert "rules:" in hostile(variant(rules={"name": "standard", "players": 99}))
    assert "name each of the 4 players" in hostile(variant(names=["a"]))
    assert "hands must be a list" in hostile(variant(hands={}))
    assert "at most" in hostile(variant(hands=[{}] * 3000))
    assert "hand 1: unknown field(s) x" in hostile(variant(hands=[{"x": 1}]))
    assert "hand 1: counts must be a list of whole numbers" in hostile(variant(hands=[{"counts": [1, "2"]}]))
    assert "hand 1: 'ZZ' is not a card" in hostile(variant(hands=[{"counts": [13, 0, 0, 0], "cards": {"ZZ": [1]}}]))
    assert "hand 1: the ♥ cards add up to 12" in hostile(variant(hands=[{"counts": [12, 0, 0, 0], "cards": {}}]))
    assert "hand 2: say who took Q♠" in hostile(variant(hands=[good["hands"][0], {"counts": [13, 0, 0, 0]}]))
    assert "revoke" in hostile(variant(hands=[{"points": [26, 0, 0, 0], "revokes": [{"seat": True}]}]))
    assert "moon must be" in hostile(variant(hands=[{"points": [26, 0, 0, 0], "moon": "up"}]))
    assert "revoke penalty" in hostile(variant(revoke_penalty=-1))


@settings(max_examples=40, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
        max_leaves=20,
    )
)
def test_any_json_hand_is_read_or_refused_cleanly(junk: object) -> None:
    data = json.loads(full_pad().dumps())
    data["hands"] = [junk]
    with contextlib.suppress(PadError):
        loads(json.dumps(data))


def test_a_count_in_a_refusal_takes_each_languages_plural_form() -> None:
    pad = Pad(Rules.preset("spot_hearts"), ("Ana", "Bea", "Carl", "Dan"))
    for points, en, es in ((1, "1 point", "1 punto"), (-1, "-1 points", "-1 puntos")):
        with pytest.raises(PadError) as err:
            pad.add(Entry.by_points([points, 0, 0, 117 - points]))
        assert str(err.value) == f"Ana cannot take {en} in one hand under these rules"
        assert (
            error_text(translator("es").gettext, err.value)
            == f"Ana no puede llevarse {es} en una mano con estas reglas"
        )
        # the web app gets both English forms and the count, and picks the catalog's plural form itself
        assert error_json(err.value)["params"]["points"] == {
            "template": "{n} point",
            "plural": "{n} points",
            "n": points,
            "params": {"n": points},
        }
