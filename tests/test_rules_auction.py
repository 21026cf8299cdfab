"""Auction Hearts (RULES.md §3 auction_hearts, Foster 1897) and its ``chips_pool`` settlement (§4)."""

from __future__ import annotations

import pytest

from corazones.core import Action, Deal, Game, IllegalActionError, Kind, RecordError, Rules
from corazones.core.cards import HEARTS, SPADES, parse_card
from corazones.core.scoring import settle_chips_pool
from tests.helpers import TOP, boss_policy, deal_snapshot, legal, spread

AUCTION = Rules.preset("auction_hearts")


def fresh(dealer: int = 3, chips: list[int] | None = None, hands: list[list[int]] | None = None) -> Deal:
    h = hands if hands is not None else spread(TOP, {})
    return Deal(AUCTION, h, (), dealer, "hold", chips=chips if chips is not None else [25] * 4)


@pytest.mark.parametrize(("dealer", "order"), [(3, [0, 1, 2, 3]), (1, [2, 3, 0, 1])])
def test_bidding_once_each_from_eldest_to_dealer(dealer: int, order: list[int]) -> None:
    """'starting with eldest hand and ending with the dealer, each player in turn may bid once'."""
    d = fresh(dealer)
    assert d.phase == "bid" and d.decision_kind() is Kind.BID
    seen = []
    for amount in (1, 0, 2, 0):
        seen.append(d.turn)
        d.apply(Action.bid(d.turn, amount))
    assert seen == order
    assert d.phase == "declare", "after the dealer's bid the high bidder names the suit"
    assert d.turn == order[2] and d.declarer == order[2] and d.high_bid == 2
    assert d.bids == list(zip(order, (1, 0, 2, 0), strict=True))


def test_bids_must_be_higher_than_the_last_bid() -> None:
    d = fresh()
    d.apply(Action.bid(0, 3))
    before = deal_snapshot(d)
    for bad in (3, 2, -1):  # built by hand: Action.bid itself refuses a negative amount (below)
        with pytest.raises(IllegalActionError, match=r"bid -?\d+ is not allowed; allowed: 0 \(no bid\) or 4 to 25"):
            d.apply(Action(Kind.BID, 1, (), bad))
        assert deal_snapshot(d) == before
    with pytest.raises(RecordError, match="from 0 \\(no bid\\)"):
        Action.bid(1, -1)
    d.apply(Action.bid(1, 4))
    assert d.high_bid == 4 and d.declarer == 1


def test_bid_is_capped_by_the_bidders_chips() -> None:
    """A bid is paid in chips, so no seat may bid more than it holds (engine choice, docs/rules.md)."""
    d = fresh(chips=[25, 5, 25, 2])
    d.apply(Action.bid(0, 3))
    assert d.bid_range(1) == [0, 4, 5]
    with pytest.raises(IllegalActionError, match=r"allowed: 0 \(no bid\) or 4 to 5"):
        d.apply(Action.bid(1, 6))
    d.apply(Action.bid(1, 5))
    d.apply(Action.bid(2, 0))
    assert d.bid_range(3) == [0]
    with pytest.raises(IllegalActionError, match=r"allowed: 0 \(no bid\)$"):
        d.apply(Action.bid(3, 6))


def test_out_of_turn_and_second_bids_are_refused() -> None:
    d = fresh()
    with pytest.raises(IllegalActionError, match=r"not seat 2's turn to bid; waiting for seat\(s\) 0"):
        d.apply(Action.bid(2, 1))
    d.apply(Action.bid(0, 1))
    with pytest.raises(IllegalActionError, match="not seat 0's turn"):
        d.apply(Action.bid(0, 2))
    with pytest.raises(IllegalActionError, match="play is not possible now: the game waits for bid"):
        d.apply(Action.play(1, d.hand(1)[0]))


def test_declarer_names_suit_and_leads_but_not_the_penalty_suit_to_trick_one() -> None:
    """'The highest bidder ... names the penalty suit (each card of it costs 1), and leads the first
    trick, and may not lead the penalty suit to it'."""
    d = fresh()
    for s, b in ((0, 0), (1, 2), (2, 0), (3, 0)):
        d.apply(Action.bid(s, b))
    with pytest.raises(IllegalActionError, match="not seat 0's turn to declare"):
        d.apply(Action.declare(0, "S"))
    with pytest.raises(IllegalActionError, match="declare a suit index 0-3"):
        d.apply(Action(Kind.DECLARE, 1, (), 7))
    d.apply(Action.declare(1, "S"))
    assert d.penalty_suit == SPADES and d.phase == "play"
    assert d.turn == 1 and d.first_card == -1
    vals = d.values
    assert vals[parse_card("2S")] == 1 and vals[parse_card("QS")] == 1 and vals[parse_card("AH")] == 0
    assert sum(vals[c] for c in range(52)) == 13
    held = legal(d)
    assert held and not any(c.endswith("S") for c in held)
    assert {c for c in (d.hand(1)) if c // 13 != SPADES} == {parse_card(c) for c in held}


def test_declarer_holding_only_the_penalty_suit_may_lead_it() -> None:
    r = AUCTION
    hands = [
        [parse_card(c) for c in ["2S", "3S"]],
        [parse_card(c) for c in ["2C", "3C"]],
        [parse_card(c) for c in ["2D", "3D"]],
        [parse_card(c) for c in ["2H", "3H"]],
    ]
    d = Deal(r, hands, (), 3, "hold", chips=[25] * 4)
    d.apply(Action.bid(0, 1))
    for s in (1, 2, 3):
        d.apply(Action.bid(s, 0))
    d.apply(Action.declare(0, "S"))
    assert legal(d) == {"2S", "3S"}


def test_all_pass_hearts_are_the_penalty_suit_and_eldest_leads() -> None:
    """'If all pass, hearts is the penalty suit and eldest hand leads.'"""
    d = fresh(dealer=2)
    for s in (3, 0, 1, 2):
        d.apply(Action.bid(s, 0))
    assert d.phase == "play" and d.declarer is None
    assert d.penalty_suit == HEARTS
    assert d.turn == 3 and d.leader == 3


def test_pool_carries_over_and_previous_declarer_names_suit_without_bidding() -> None:
    """§4 chips_pool: when one player takes all, the pool carries over to the next hand, 'whose bidding
    winner from the failed hand names the suit without bidding'."""
    g = Game(AUCTION, seed=1)
    g.dealer = 3
    g.deal = Deal(AUCTION, spread(TOP, {}), (), 3, "hold", chips=g.chips)
    g.apply(Action.bid(0, 2))
    for s in (1, 2, 3):
        g.apply(Action.bid(s, 0))
    g.apply(Action.declare(0, "H"))
    policy = boss_policy(set())
    while g.hand_index == 0:
        s = g.to_act()[0]
        g.apply(Action.play(s, policy(g.deal, s, g.deal.legal_mask(s))))
    h = g.history[0]
    assert h.penalty_cards == (13, 0, 0, 0)
    assert h.bid == 2
    assert h.chips_delta == (-15, 0, 0, 0), "13 penalty cards plus the bid go into the pool"
    assert g.pool == 15 and g.chips == [10, 25, 25, 25]
    d = g.deal
    assert d.phase == "declare" and d.turn == 0 and d.bids == []
    assert g.decision_kind() is Kind.DECLARE
    g.apply(Action.declare(0, "D"))
    assert g.deal.penalty_suit == 1 and g.deal.turn == 0, "the previous declarer leads"
    while g.hand_index == 1:
        s = g.to_act()[0]
        g.apply(g.legal_actions(s)[0])
    assert g.history[1].bid == 0, "naming the suit after a failed hand costs no bid"
    assert sum(g.chips) + g.pool == 100


def test_chips_pool_single_clean_player_wins_the_pool() -> None:
    out = settle_chips_pool([5, 0, 4, 4], pool=3, bid=2, declarer=0)
    assert out.delta == (-7, 3 + 13 + 2, -4, -4)
    assert out.pool == 0 and out.winners == (1,)


def test_chips_pool_two_clean_players_split_and_odd_chip_stays() -> None:
    """'two such players split it (odd chip stays)'."""
    out = settle_chips_pool([6, 0, 7, 0], pool=0, bid=0, declarer=None)
    assert out.delta == (-6, 6, -7, 6) and out.pool == 1 and out.winners == (1, 3)
    out = settle_chips_pool([6, 0, 5, 0], pool=1, bid=3, declarer=2)
    assert out.delta == (-6, 7, -8, 7) and out.pool == 1


@pytest.mark.parametrize(
    "taken",
    [
        [13, 0, 0, 0],  # one took all (three clean)
        [13, 0, 0],  # one took all, three players: two clean but still no winner
        [3, 0, 0, 0, 10],  # more than two clean
        [3, 3, 3, 4],  # everyone took some
    ],
)
def test_chips_pool_carries_over(taken: list[int]) -> None:
    """'otherwise (more than two clean, one took all, or everyone took some) the pool carries over'."""
    out = settle_chips_pool(taken, pool=4, bid=1, declarer=0)
    assert out.winners == ()
    assert out.pool == 4 + sum(taken) + 1
    assert out.delta[0] == -taken[0] - 1
    assert all(out.delta[i] == -taken[i] for i in range(1, len(taken)))


def test_auction_game_ends_when_a_player_has_no_chips() -> None:
    """'The game ends when a player has no chips, or after an agreed number of hands.'"""
    g = Game(AUCTION.replace(stake=2), seed=4)
    import random

    rng = random.Random(4)
    while not g.over:
        assert min(g.chips) > 0
        s = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(s)))
    assert min(g.chips) <= 0
    assert g.winners == tuple(s for s in range(4) if g.chips[s] == max(g.chips))
    g2 = Game(AUCTION.replace(hands=2), seed=4)
    while not g2.over:
        s = g2.to_act()[0]
        g2.apply(g2.legal_actions(s)[0])
    assert len(g2.history) == 2 or min(g2.chips) <= 0
