"""The expert plays every variant legally and reproducibly, and finds the right card in telling positions."""

from __future__ import annotations

import random

import pytest

from corazones.core import Action, Game, Kind, Rules
from corazones.core.cards import parse_card
from corazones.core.deal import Deal
from corazones.core.observation import Observation
from corazones.players import standard
from corazones.players.belief import Belief
from corazones.players.expert import RACE_ROUNDS, ExpertBot, Scorer, _pass_candidates, _survivors, equivalent_classes
from corazones.players.heuristic_bot import HeuristicBot
from corazones.players.heuristics import View
from corazones.players.hints import describe, suggest
from corazones.players.registry import make_player
from corazones.players.rollout import Context, play_out
from corazones.players.search import TreeNode, eval_play, solvable, solve_rest, tree_deal
from corazones.players.table import play_game
from tests.helpers import random_action


def small(seed: int, **kw: object) -> ExpertBot:
    return ExpertBot(seed, worlds=6, time_limit=None, pass_worlds=4, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("preset", "kw"),
    [
        ("standard", {}),
        ("cancellation_hearts", {"players": 8}),
        ("auction_hearts", {}),
        ("black_maria", {}),
        ("partnership", {}),
        ("chasse_coeur", {}),
        ("kitty", {"players": 5}),
        ("omnibus", {}),
        ("hearts_1887", {}),
        ("spot_hearts", {"players": 3}),
    ],
)
def test_plays_whole_hands_legally_in_every_family(preset: str, kw: dict[str, object]) -> None:
    rules = Rules.preset(preset, **kw)
    g = Game(rules, seed=11)
    players = [small(s) if s % 2 == 0 else HeuristicBot(s) for s in range(rules.players)]
    play_game(g, players, max_hands=2)  # Game.apply raises on any illegal action
    assert len(g.history) == 2 or g.over


@pytest.mark.parametrize(
    ("preset", "kw"), [("standard", {}), ("cancellation_hearts", {"players": 8}), ("auction_hearts", {})]
)
def test_options_play_legally(preset: str, kw: dict[str, object]) -> None:
    """The moon plan and simulated passes stay legal."""
    rules = Rules.preset(preset, **kw)
    g = Game(rules, seed=4)
    players: list[object] = [HeuristicBot(s) for s in range(rules.players)]
    players[0] = ExpertBot(0, worlds=4, time_limit=None, pass_worlds=3, shoot=True)
    players[1] = ExpertBot(1, worlds=4, time_limit=None, pass_worlds=3, infer=False)
    players[2] = ExpertBot(2, worlds=4, time_limit=None, pass_worlds=3, pass_prior=True)
    players[3 % rules.players] = ExpertBot(3, worlds=4, time_limit=None, pass_worlds=3, policy="duel")
    play_game(g, players, max_hands=1)  # type: ignore[arg-type]
    assert g.history


def test_plays_a_whole_game_to_its_end() -> None:
    rules = Rules.preset("standard", target=30)
    g = Game(rules, seed=5)
    play_game(g, [small(s) if s % 2 else HeuristicBot(s) for s in range(4)])
    assert g.over and g.winners


def test_same_seed_same_moves() -> None:
    def moves(seed: int) -> list[Action]:
        g = Game(Rules.preset("standard"), seed=21)
        play_game(g, [small(seed + s) for s in range(4)], max_hands=1)
        return g.actions

    assert moves(1) == moves(1)


def test_second_worker_gives_the_same_answer() -> None:
    g = Game(Rules.preset("standard"), seed=8)
    rng = random.Random(8)
    found = 0
    while found < 3 and not g.over:
        seat = g.to_act()[0]
        if g.decision_kind() is Kind.PLAY and len(g.legal_actions(seat)) > 2:
            obs = g.observation(seat)
            one = ExpertBot(3, worlds=8, time_limit=None, workers=1).search(obs)
            two = ExpertBot(3, worlds=8, time_limit=None, workers=2).search(obs)
            assert one == two
            found += 1
        g.apply(random_action(g, rng))
    assert found == 3


def test_time_limit_bounds_the_search() -> None:
    g = Game(Rules.preset("standard", passes=("hold",)), seed=2)
    seat = g.to_act()[0]
    g.apply(g.legal_actions(seat)[0])  # the forced 2♣ lead
    obs = g.observation(g.to_act()[0])
    res = ExpertBot(1, worlds=100_000, time_limit=0.2).search(obs)
    assert 1 <= res.worlds < 100_000


def test_a_race_drops_only_options_clearly_behind() -> None:
    rng = random.Random(3)
    lead = [rng.gauss(0.0, 5.0) for _ in range(100)]
    cols = [
        lead,
        [x - 3.0 + rng.gauss(0.0, 1.0) for x in lead],  # far behind on the same deals: out
        [x - 0.1 + rng.gauss(0.0, 5.0) for x in lead],  # within chance: stays
        [x + 0.0 for x in lead],  # level with the leader: stays
    ]
    assert _survivors([0, 1, 2, 3], cols, 100) == [0, 2, 3]


def test_close_options_get_more_deals_than_clear_ones() -> None:
    """Every option sees the first round; the winner is among those that saw the whole budget."""
    g = Game(Rules.preset("standard", passes=("hold",)), seed=6)
    g.apply(g.legal_actions(g.to_act()[0])[0])  # the forced 2♣ lead
    while len(g.legal_actions(g.to_act()[0])) < 3:
        g.apply(g.legal_actions(g.to_act()[0])[0])
    obs = g.observation(g.to_act()[0])
    bot = ExpertBot(2, worlds=80, time_limit=None)
    moves = [grp[0] for grp in equivalent_classes(obs, [a.card for a in g.legal_actions(obs.seat)])]
    means, _, counts = bot._race("play", obs, moves, ([-1],), 80, True)
    assert min(counts) >= 80 // RACE_ROUNDS and max(counts) <= 80
    best = max(range(len(moves)), key=lambda i: (counts[i], means[i]))
    res = ExpertBot(2, worlds=80, time_limit=None).search(obs)
    assert res.worlds == max(counts)
    assert res.values[res.choice] == means[best]


def test_it_drops_the_queen_of_spades_under_the_ace() -> None:
    """A♠ led: holding Q♠ and a low spade, it plays the queen under the ace."""
    rules = Rules.preset("standard", passes=("hold",), first_lead="eldest", no_points_first_trick=False)
    cards = [parse_card(t) for t in ["AS", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]]
    seat1 = [parse_card(t) for t in ["QS", "3S", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD"]]
    seat2 = [parse_card(t) for t in ["2S", "4S", "5S", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"]]
    rest = [c for c in range(52) if c not in cards + seat1 + seat2]
    g = Game(rules, seed=0)
    g.deal = Deal(rules, [cards, seat1, seat2, rest], (), dealer=3)
    g.apply(Action.play(0, "AS"))
    obs = g.observation(1)
    bot = small(0)
    assert bot.choose_play(obs) == parse_card("QS")
    assert "QS" in bot.last_reason


def test_equivalent_cards_are_tried_once() -> None:
    g = Game(Rules.preset("standard", passes=("hold",)), seed=4)
    seat = g.to_act()[0]
    obs = g.observation(seat)
    groups = equivalent_classes(obs, [a.card for a in obs.legal])
    flat = sorted(c for grp in groups for c in grp)
    assert flat == sorted(a.card for a in obs.legal)
    vals = obs.card_values
    for grp in groups:
        assert len({c // 13 for c in grp}) == 1
        assert len({vals[c] for c in grp}) == 1


def test_scorer_counts_the_moon_and_the_end_of_the_game() -> None:
    rules = Rules.preset("standard", passes=("hold",), target=30)
    hands = [[c for c in range(52) if c % 4 == s] for s in range(4)]
    g = Game(rules, seed=0)
    obs = g.observation(0)
    scorer = Scorer(obs)
    d = Deal.at_play(rules, hands)
    d.pts = [26, 0, 0, 0]
    d.pos = [26, 0, 0, 0]
    d.shooter = 0
    d.phase = "moon"
    d.turn = 0
    scorer.settle_moon(d)
    # from 0-0-0-0 to a target of 30, adding 26 to others cannot end the game: subtracting is worth more
    assert d.moon_choice == "subtract_from_self"
    assert d.hand_scores()[0] == -26


def test_moon_charge_costs_another_sides_moon_and_only_that() -> None:
    rules = Rules.preset("standard", passes=("hold",))
    hands = [[c for c in range(52) if c % 4 == s] for s in range(4)]
    obs = Game(rules, seed=0).observation(1)

    def moon_by(seat: int) -> Deal:
        d = Deal.at_play(rules, hands)
        d.pts = [26 if s == seat else 0 for s in range(4)]
        d.pos = list(d.pts)
        d.shooter, d.phase, d.turn = seat, "moon", seat
        return d

    plain, charged = Scorer(obs), Scorer(obs, moon_charge=0.5)  # half the moon's 26 points
    for seat in (0, 2, 3):
        a, b = moon_by(seat), moon_by(seat)
        assert charged.outcome(b, 1)[0] == pytest.approx(plain.outcome(a, 1)[0] - 13.0)
        assert charged.outcome(b, 1)[1] == plain.outcome(a, 1)[1]  # the points shown are the hand's own
    # our own moon, and a hand without one, cost nothing more
    assert charged.outcome(moon_by(1), 1) == plain.outcome(moon_by(1), 1)
    d = Deal.at_play(rules, hands)
    d.pts, d.pos, d.phase = [13, 5, 4, 4], [13, 5, 4, 4], "done"
    assert charged.value(d, 1) == plain.value(d, 1)
    with pytest.raises(ValueError, match="moon_charge"):
        ExpertBot(moon_charge=-1)


def test_others_weight_prices_the_points_of_other_seats() -> None:
    """At a level match a weight of 1/3 scores a hand as the duplicate arena does: the others' mean minus ours."""
    rules = Rules.preset("standard", passes=("hold",))
    hands = [[c for c in range(52) if c % 4 == s] for s in range(4)]
    obs = Game(rules, seed=0).observation(1)
    d = Deal.at_play(rules, hands)
    d.pts, d.pos, d.phase = [13, 5, 4, 4], [13, 5, 4, 4], "done"
    assert Scorer(obs, others_weight=1 / 3).value(d, 1) == pytest.approx(-5 + (13 + 4 + 4) / 3)
    assert Scorer(obs).value(d, 1) == pytest.approx(-5 + 0.15 * (13 + 4 + 4))
    # another seat's moon, at 0-0-0-0: the shooter takes 26 off its own score, we take nothing,
    # and we fall 26 behind it: a third of that against the others' mean
    d.pts, d.pos, d.phase, d.shooter, d.turn = [26, 0, 0, 0], [26, 0, 0, 0], "moon", 0, 0
    assert Scorer(obs, others_weight=1 / 3).outcome(d, 1) == (pytest.approx(-26 / 3), 0.0)
    with pytest.raises(ValueError, match="others_weight"):
        ExpertBot(others_weight=-0.1)
    with pytest.raises(ValueError, match="tree_explore"):
        ExpertBot(tree=True, tree_explore=0)
    with pytest.raises(ValueError, match="tree_follow"):
        ExpertBot(tree=True, tree_follow=-1)


def test_suggest_gives_a_legal_move_and_a_reason() -> None:
    for level in ("expert", "random"):
        g = Game(Rules.preset("standard"), seed=9)
        rng = random.Random(9)
        for _ in range(30):
            seat = g.to_act()[0]
            obs = g.observation(seat)
            hint = suggest(obs, level)
            action, why = hint.action, hint.text()
            assert g.is_legal(action), (action, why)
            assert isinstance(why, str) and len(why) > 5
            g.apply(random_action(g, rng))
    g = Game(Rules.preset("standard"), seed=9)
    obs = g.observation(0)
    with pytest.raises(ValueError, match="no decision"):
        suggest(g.observation(0).__class__(**{**{f: getattr(obs, f) for f in obs.__slots__}, "decision": None}))


def test_describe_names_a_duck() -> None:
    rules = Rules.preset("standard", passes=("hold",))
    g = Game(rules, seed=3)
    rng = random.Random(3)
    while True:
        seat = g.to_act()[0]
        obs = g.observation(seat)
        if obs.trick:
            led = obs.trick[0][1] // 13
            win = max(c for _, c in obs.trick if c // 13 == led)
            lower = [a for a in obs.legal if a.card // 13 == led and a.card < win]
            if lower and len(obs.legal) > 1:
                assert describe(obs, lower[0])[0].template.startswith("duck under")
                return
        g.apply(random_action(g, rng))


def test_registry_knows_the_expert() -> None:
    bot = make_player("expert", 1)
    assert isinstance(bot, ExpertBot) and bot.workers == 1


@pytest.mark.parametrize(("preset", "kw"), [("standard", {}), ("cancellation_hearts", {"players": 5}), ("omnibus", {})])
def test_pass_candidates_are_distinct_legal_passes_led_by_the_standard_pass(preset: str, kw: dict[str, object]) -> None:
    rules = Rules.preset(preset, **kw)
    for seed in range(5):
        g = Game(rules, seed=seed)
        seat = g.to_act()[0]
        obs = g.observation(seat)
        assert obs.decision is Kind.PASS
        cands = _pass_candidates(obs, list(obs.hand), rules.pass_count, 8)
        assert cands[0] == sorted(standard.pass_cards(obs))
        assert 2 <= len(cands) <= 8
        assert len({tuple(c) for c in cands}) == len(cands)
        for c in cands:
            g.clone().apply(Action.pass_cards(seat, c))  # raises if the pass is not legal


@pytest.mark.parametrize(("preset", "kw"), [("standard", {}), ("partnership", {}), ("black_maria", {})])
def test_simulated_passes_of_the_others_are_the_standard_players(preset: str, kw: dict[str, object]) -> None:
    """On the true deal, the others' simulated passes are what `standard` passes from their own seats."""
    from corazones.players.belief import World
    from corazones.players.search import their_passes

    g = Game(Rules.preset(preset, **kw), seed=12)
    assert g.decision_kind() is Kind.PASS
    n = g.rules.players
    world = World([list(g.deal.hand(s)) for s in range(n)], [])
    got = their_passes(g.observation(0), world)
    assert got[0] == []
    for s in range(1, n):
        assert sorted(got[s]) == sorted(standard.pass_cards(g.observation(s)))


def test_it_follows_the_standard_moon_plan_when_standard_would_shoot() -> None:
    """A position where ``standard`` plays for the moon: the expert plays its card, and says why."""
    from corazones.players.heuristics import View

    found = 0
    for seed in range(300):
        g = Game(Rules.preset("standard"), seed=seed)
        players = [make_player("standard", seed * 4 + s) for s in range(4)]
        while not g.history and found < 3:
            seat = g.to_act()[0]
            obs = g.observation(seat)
            if obs.decision is Kind.PLAY:
                cards = [a.card for a in obs.legal]
                view = View(obs)
                if len(equivalent_classes(obs, cards)) > 1 and standard.shooting(view, cards):
                    bot = small(seed)
                    assert bot.choose_play(obs) == standard.shoot_card(view, cards)
                    assert bot.last is not None and bot.last.moon
                    assert "moon" in bot.last_reason
                    found += 1
            g.apply(players[seat].act(obs))
        if found >= 3:
            return
    pytest.fail("no position where the standard player shoots the moon in 300 deals")


# ---------------------------------------------------------------------------------- exact endgame
def endgame(seed: int, cards: int) -> Game:
    """A hand of four ``standard`` players played until every hand holds ``cards`` cards."""
    game = Game(Rules.preset("standard", passes=("hold",)), seed=seed)
    while max(h.bit_count() for h in game.deal.h1) > cards:
        seat = game.deal.turn
        game.apply(Action.play(seat, standard.play(game.observation(seat))))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_solve_rest_finishes_the_hand_and_no_first_card_does_better_for_the_mover(seed: int) -> None:
    game = endgame(seed, 2)
    d = game.deal
    seat = d.turn
    scorer = Scorer(game.observation(seat))
    done = solve_rest(d.clone(), scorer)
    assert done.phase != "play"
    mine = d.clone()
    best = solve_rest(mine, scorer)
    scorer.settle_moon(best)
    value = scorer.value(best, seat)
    m = d.legal_mask(seat)
    for c in range(52):
        if m >> c & 1:
            e = d.clone()
            e.play_card(c)
            other = solve_rest(e, scorer)
            scorer.settle_moon(other)
            assert scorer.value(other, seat) <= value + 1e-9


def test_solvable_only_with_few_cards_and_one_deck() -> None:
    assert not solvable(endgame(1, 4).deal, 3)
    assert solvable(endgame(1, 3).deal, 3)
    game = Game(Rules.preset("cancellation_hearts", players=8), seed=1)
    assert not solvable(game.deal, 13)


def test_expert_with_the_exact_endgame_plays_a_hand_reproducibly() -> None:
    def moves() -> list[Action]:
        seen: list[Action] = []
        bots = [small(s, solve=2) if s % 2 == 0 else make_player("standard", s) for s in range(4)]
        play_game(Game(Rules.preset("standard"), seed=5), bots, on_action=lambda _g, a: seen.append(a), max_hands=1)
        return seen

    assert moves() == moves()
    with pytest.raises(ValueError, match="solve must be 0"):
        ExpertBot(1, solve=-1)


def test_moon_options_reach_every_worker_and_change_the_values_under_the_watch() -> None:
    # a position where one opponent alone has taken points, so the watch names it and playouts see moons
    g = Game(Rules.preset("standard", passes=("hold",)), seed=11)
    found = None
    while found is None and not g.over:
        seat = g.to_act()[0]
        obs = g.observation(seat)
        watched = ExpertBot(0)._watch(View(obs))[0] >= 0
        if g.decision_kind() is Kind.PLAY and len(g.legal_actions(seat)) > 2 and watched:
            found = obs
        g.apply(Action.play(seat, standard.play(obs)))
    assert found is not None
    styled = {"moon_charge": 1.0, "stoppers": True, "others_weight": 1 / 3}
    one = ExpertBot(3, worlds=16, time_limit=None, workers=1, **styled).search(found)
    two = ExpertBot(3, worlds=16, time_limit=None, workers=2, **styled).search(found)
    plain = ExpertBot(3, worlds=16, time_limit=None, workers=1).search(found)
    assert one == two
    assert one.values != plain.values


@pytest.mark.parametrize(("preset", "kw"), [("standard", {}), ("black_maria", {}), ("partnership", {})])
def test_the_pass_prior_reaches_every_worker_and_changes_the_values(preset: str, kw: dict[str, object]) -> None:
    """With ``pass_prior`` the sampled deals follow the pass, the same in a helper process as here."""
    rules = Rules.preset(preset, **kw)
    g = Game(rules, seed=5)
    found = None
    while found is None and not g.over:
        seat = g.to_act()[0]
        obs = g.observation(seat)
        if g.decision_kind() is Kind.PLAY and len(g.legal_actions(seat)) > 2 and obs.received:
            found = obs
        g.apply(HeuristicBot(seat).act(obs))
    assert found is not None
    one = ExpertBot(3, worlds=16, time_limit=None, workers=1, pass_prior=True).search(found)
    two = ExpertBot(3, worlds=16, time_limit=None, workers=2, pass_prior=True).search(found)
    even = ExpertBot(3, worlds=16, time_limit=None, workers=1).search(found)
    assert one == two
    assert one.values != even.values


def test_the_duel_weights_reach_every_worker_and_change_the_values() -> None:
    """``policy="duel"`` plays the playouts by the duel's weights, in a helper process as here."""
    g = Game(Rules.preset("standard"), seed=9)
    found = None
    while found is None and not g.over:
        seat = g.to_act()[0]
        obs = g.observation(seat)
        if g.decision_kind() is Kind.PLAY and len(g.legal_actions(seat)) > 2 and not obs.trick:
            found = obs
        g.apply(HeuristicBot(seat).act(obs))
    assert found is not None
    one = ExpertBot(3, worlds=16, time_limit=None, workers=1, policy="duel").search(found)
    two = ExpertBot(3, worlds=16, time_limit=None, workers=2, policy="duel").search(found)
    hand = ExpertBot(3, worlds=16, time_limit=None, workers=1).search(found)
    assert one == two
    assert one.values != hand.values
    with pytest.raises(ValueError, match="policy must be one of duel, hand, not 'best'"):
        ExpertBot(policy="best")


@pytest.mark.parametrize(
    "preset", ["standard", "black_maria", "partnership", "kitty", "cancellation_hearts", "spot_hearts"]
)
def test_the_tree_search_plays_whole_hands_legally_and_the_same_for_a_seed(preset: str) -> None:
    """``tree=True`` searches a tree shared by every sampled deal; its cards are legal and reproducible."""
    rules = Rules.preset(preset)
    moves: list[list[int]] = []
    for _ in range(2):
        g = Game(rules, seed=4)
        bot = ExpertBot(1, worlds=12, time_limit=None, tree=True)
        chosen = []
        while not g.over and g.hand_index == 0:
            seat = g.to_act()[0]
            obs = g.observation(seat)
            if seat == 0 and g.decision_kind() is Kind.PLAY:
                action = bot.act(obs)
                assert action in g.legal_actions(seat)
                chosen.append(action.card)
            else:
                action = HeuristicBot(seat).act(obs)
            g.apply(action)
        moves.append(chosen)
    assert moves[0] == moves[1]
    assert len(moves[0]) >= 10


def _seat_0_with_a_choice() -> tuple[Observation, list[int]]:
    """Seat 0's first play decision with three cards or more to choose from, and those cards."""
    g = Game(Rules.preset("standard", passes=("hold",)), seed=2)
    while g.to_act()[0] != 0 or len(g.legal_actions(0)) < 3:
        seat = g.to_act()[0]
        g.apply(HeuristicBot(seat).act(g.observation(seat)))
    obs = g.observation(0)
    moves = sorted({a.card for a in g.legal_actions(0)})
    return obs, moves


def test_the_tree_grows_below_the_root_and_counts_every_descent() -> None:
    """Each sampled deal adds one descent per card to choose from; later cards (ours and the others') get nodes."""
    obs, moves = _seat_0_with_a_choice()
    root = TreeNode(-1)
    scorer = Scorer(obs)
    belief = Belief(obs)
    for i in range(30):
        rng = random.Random(i)
        tree_deal(obs, scorer, belief.sample(rng), root, moves, len(moves), 0.7, rng)
    assert set(root.children) == set(moves)
    assert sum(k.visits for k in root.children.values()) == 30 * len(moves)
    deeper = [k for k in root.children.values() if k.children]
    assert deeper  # a second card (the next seat's reply) was chosen by the tree, not the playout
    assert all(k.mover == 0 for k in root.children.values())


def test_a_position_seen_too_seldom_is_played_out_as_the_flat_search_plays_it() -> None:
    """Below ``follow`` visits a node is a leaf: on one sampled deal each card's value is the flat search's."""
    obs, moves = _seat_0_with_a_choice()
    scorer = Scorer(obs)
    world = Belief(obs).sample(random.Random(5))
    flat, _ = eval_play(obs, scorer, world, moves, [-1])
    root = TreeNode(-1)
    tree_deal(obs, scorer, world, root, moves, 10 * len(moves), 0.7, random.Random(5), follow=10**9)
    for m, value in zip(moves, flat, strict=True):
        child = root.children[m]
        assert not child.children
        assert child.total / child.visits == pytest.approx(value)


@pytest.mark.parametrize("preset", ["standard", "partnership", "hearts_1887", "auction_hearts"])
def test_every_seats_value_at_once_is_each_seats_value(preset: str) -> None:
    """``Scorer.values`` (the tree's and the endgame solver's) agrees with ``value`` seat by seat, chips included."""
    g = Game(Rules.preset(preset), seed=3)
    checked = 0
    while not g.over and checked < 8:
        seat = g.to_act()[0]
        obs = g.observation(seat)
        if g.decision_kind() is Kind.PLAY:
            scorer = Scorer(obs)
            world = Belief(obs).sample(random.Random(checked))
            d = Deal.from_observation(obs, world.hands, world.kitty)
            play_out(d, Context(d))
            scorer.settle_moon(d)
            assert scorer.values(d) == [scorer.value(d, s) for s in range(d.n)]
            checked += 1
        g.apply(HeuristicBot(seat).act(obs))
    assert checked == 8
