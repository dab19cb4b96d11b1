"""Property tests: any game the core accepts sums to zero; rotation keeps every seated player exactly once;
settlement transfers bring every balance to zero with at most n-1 transfers."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.core import rotation
from chouette.core import session as core
from chouette.core.errors import ChouetteError
from chouette.core.scoring import BOX, RESPONSES, TEAM, CubeEvent, GameEntry
from chouette.core.settlement import apply_transfers, fewest_transfers
from chouette.core.table_options import BOX_KEEPS, BOX_MIN_TAKES, CUBES, PARTNER_SPLIT, Rules

PLAYERS = list(range(1, 9))

rules_strategy = st.builds(
    Rules,
    cubes=st.sampled_from(CUBES),
    box_keeps=st.sampled_from(BOX_KEEPS),
    box_min_takes=st.sampled_from(BOX_MIN_TAKES),
    partner_split=st.sampled_from(PARTNER_SPLIT),
    partner_from=st.sampled_from([0, 5, 6]),
    jacoby=st.booleans(),
    raccoon=st.booleans(),
    automatic_doubles=st.integers(0, 2),
)


@st.composite
def games(draw, members):
    events = []
    for _ in range(draw(st.integers(0, 4))):
        who = draw(st.lists(st.sampled_from(members), min_size=1, max_size=len(members), unique=True))
        answers = tuple((m, draw(st.sampled_from(RESPONSES))) for m in who)
        events.append(CubeEvent(draw(st.sampled_from([BOX, TEAM])), answers))
    return GameEntry(
        events=tuple(events),
        winner=draw(st.sampled_from([BOX, TEAM])),
        kind=draw(st.sampled_from(["single", "gammon", "backgammon"])),
        automatic_doubles=draw(st.integers(0, 2)),
    )


@st.composite
def sessions(draw):
    n = draw(st.integers(3, 8))
    order = tuple(draw(st.permutations(PLAYERS))[:n])
    stakes = {p: draw(st.sampled_from([100, 200, 500])) for p in PLAYERS}
    actions = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(
            st.sampled_from([core.GAME, core.GAME, core.GAME, core.JOIN, core.LEAVE, core.SIT_OUT, core.RETURN])
        )
        actions.append((kind, draw(st.sampled_from(PLAYERS)), draw(games(list(PLAYERS))), draw(st.booleans())))
    return order, stakes, actions


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(), rules_strategy)
def test_every_accepted_game_sums_to_zero_and_rotation_keeps_each_seated_player_once(data, rules):
    order, stakes, actions = data
    state = core.replay([core.Event(core.START, order=order)], rules=rules, stakes=stakes)
    everyone = set(order)
    for kind, player, entry, with_partner in actions:
        before = list(state.order)
        if kind == core.GAME:
            partner = before[-1] if with_partner and len(before) >= 4 else None
            team = rotation.team_for(before, partner)
            entry = GameEntry(**{**entry.__dict__, "events": _only(entry.events, team), "partner": partner})
            event = core.Event(core.GAME, entry=entry)
        else:
            event = core.Event(kind, player=player)
        try:
            game = core.apply(state, event, rules=rules, stakes=stakes)
        except ChouetteError:
            assert state.order == before  # a refused event changes nothing
            continue
        if kind == core.JOIN:
            everyone.add(player)
        if game is not None:
            assert sum(game.scored.points.values()) == 0
            assert sum(game.money.values()) == 0
            assert sorted(game.order_after) == sorted(game.order_before)
        assert len(state.order) == len(set(state.order))
        assert not set(state.order) & set(state.sitting_out)
        assert set(state.order) | set(state.sitting_out) | set(state.departed) == everyone
    assert sum(state.money.values()) == 0 and sum(state.points.values()) == 0


def _only(events, team):
    kept = []
    for event in events:
        answers = tuple((m, r) for m, r in event.responses if m in team)
        if answers:
            kept.append(CubeEvent(event.doubler, answers))
    return tuple(kept)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-5000, 5000), min_size=1, max_size=10))
def test_settlement_balances_every_account_with_at_most_n_minus_one_transfers(amounts):
    amounts = [*amounts, -sum(amounts)]
    balances = {f"P{i}": a for i, a in enumerate(amounts)}
    transfers = fewest_transfers(balances)
    assert all(t.cents > 0 and t.payer != t.payee for t in transfers)
    assert set(apply_transfers(balances, transfers).values()) <= {0}
    assert len(transfers) <= max(0, sum(1 for a in amounts if a) - 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 300), min_size=1, max_size=4))
def test_settlement_is_minimal_when_the_table_splits_into_pairs(amounts):
    balances = {}
    for i, a in enumerate(amounts):
        balances[f"W{i}"], balances[f"L{i}"] = a, -a
    assert len(fewest_transfers(balances)) == len(amounts)
