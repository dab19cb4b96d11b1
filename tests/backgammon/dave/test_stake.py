"""The Dave stake rules, one test per rule, and properties of the state machine over random sequences."""

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from backgammon.dave.errors import DaveError
from backgammon.dave.stake import Progression, StakeState
from base.errors import DomainError

GEOMETRIC, ARITHMETIC = Progression.GEOMETRIC, Progression.ARITHMETIC


def _started(progression=GEOMETRIC, *, turn=0) -> StakeState:
    """A game after the opening roll, `turn` to roll next."""
    return StakeState(progression).roll(1 - turn)


def _refused(call, code):
    with pytest.raises(DaveError) as caught:
        call()
    assert caught.value.code == code
    return caught.value


def test_both_progressions_give_the_agreed_stakes():
    assert [GEOMETRIC.stake(level) for level in range(6)] == [1, 2, 4, 8, 16, 32]
    assert [ARITHMETIC.stake(level) for level in range(6)] == [1, 2, 3, 4, 5, 6]
    assert [GEOMETRIC.level_of(stake) for stake in (1, 2, 3, 8, 0)] == [0, 1, None, 3, None]
    assert ARITHMETIC.level_of(7) == 6


@pytest.mark.parametrize(("progression", "stakes"), [(GEOMETRIC, [2, 4, 8]), (ARITHMETIC, [2, 3, 4])])
def test_each_accepted_dave_moves_one_step_on_the_progression(progression, stakes):
    state, offerer, seen = _started(progression), 0, []
    for _ in stakes:
        state = state.offer(offerer).accept(1 - offerer)
        seen.append(state.stake)
        state = state.roll(offerer)  # the offerer plays on; the acceptor is on roll and may offer the next
        offerer = 1 - offerer
    assert seen == stakes


def test_at_first_either_player_may_offer():
    assert _started(turn=0).may_offer(0)
    assert _started(turn=1).may_offer(1)


def test_after_an_accepted_dave_only_the_acceptor_may_offer():
    state = _started(turn=0).offer(0).accept(1)
    assert state.holder == 1
    state = state.roll(0)  # Anna plays; Boris is on roll and holds the Dave
    assert state.may_offer(1)
    state = state.roll(1)  # Anna on roll again, but she does not hold it
    error = _refused(lambda: state.offer(0), "dave_not_yours")
    assert error.is_conflict


def test_a_dave_comes_before_ones_own_roll_never_after_it():
    state = _started(turn=0)
    _refused(lambda: state.offer(1), "dave_after_roll")  # Boris has just rolled; it is Anna's turn
    _refused(lambda: StakeState().offer(0), "dave_after_roll")  # nobody has rolled the opening roll yet


def test_nothing_happens_while_a_dave_awaits_its_answer():
    state = _started().offer(0)
    _refused(lambda: state.roll(0), "dave_unanswered")
    _refused(lambda: state.offer(0), "dave_unanswered")
    _refused(lambda: state.win(0), "dave_unanswered")
    _refused(lambda: state.accept(0), "dave_not_offered")  # one's own Dave
    _refused(lambda: _started().accept(1), "dave_not_offered")


@pytest.mark.parametrize(("progression", "before", "offered"), [(GEOMETRIC, 4, 8), (ARITHMETIC, 3, 4)])
def test_giving_up_pays_the_stake_before_the_offered_raise(progression, before, offered):
    state = _started(progression)
    for offerer in (0, 1):  # two accepted Daves: Anna offers, Boris accepts, Boris offers, Anna accepts
        state = state.offer(offerer).accept(1 - offerer).roll(offerer)
    assert state.stake == before and state.next_stake == offered
    state = state.offer(0).give_up(1)  # Anna accepted last and is on roll: her Dave, Boris gives up
    assert (state.winner, state.points) == (0, before)
    _refused(lambda: state.roll(0), "game_over")


def test_a_won_game_is_worth_the_stake_with_no_gammon():
    """The board a game ended on is not asked: a gammon or a backgammon pays the stake, as a single does."""
    state = _started(ARITHMETIC).offer(0).accept(1).roll(0).offer(1).accept(0)
    assert state.win(1).points == 3 == state.stake


def test_a_resignation_pays_the_current_stake_never_an_unaccepted_raise():
    state = _started().offer(0).accept(1).roll(0).offer(1)
    assert (state.resign(0).winner, state.resign(0).points) == (1, 2)


def test_out_of_turn_roll_and_settings_are_refused():
    _refused(lambda: _started(turn=0).roll(1), "out_of_turn")
    error = _refused(lambda: Progression.named("fibonacci"), "invalid_settings")
    assert isinstance(error, DomainError) and not error.is_conflict
    assert Progression.named(" Arithmetic ") is ARITHMETIC


# --- properties ---------------------------------------------------------------------------------------------

_OPERATIONS = ("offer", "accept", "give_up", "roll", "win", "resign")
_ENDS = {"give_up", "win", "resign"}


def _possible(state: StakeState) -> list[tuple[str, int, StakeState]]:
    """Every operation either player may do now, with the state after it; every other attempt is refused with
    a code about the state of the game."""
    possible = []
    for name in _OPERATIONS:
        for player in (0, 1):
            try:
                possible.append((name, player, getattr(state, name)(player)))
            except DaveError as error:
                assert error.code in DaveError.conflicts
    return possible


@settings(max_examples=200, deadline=None)
@given(progression=st.sampled_from(list(Progression)), data=st.data())
def test_the_stake_is_always_in_the_progression_and_offers_alternate(progression, data):
    """A random walk through games: at each step one of the allowed operations (one that ends the game only
    now and then, so that games run long)."""
    state = StakeState(progression)
    accepted_offerers: list[int] = []
    values = {progression.stake(level) for level in range(100)}
    for _ in range(data.draw(st.integers(1, 100))):
        for player in (0, 1):  # the offer rule, said independently: before one's own roll, if one may
            allowed = (not state.is_over and state.offered_by is None and state.turn == player
                       and state.holder in (None, player))
            assert state.may_offer(player) == allowed
        possible = _possible(state)
        if not possible:
            assert state.is_over
            break
        ending = [move for move in possible if move[0] in _ENDS]
        going_on = [move for move in possible if move[0] not in _ENDS]
        pick_end = not going_on or (ending and data.draw(st.integers(0, 29)) == 0)
        name, player, after = data.draw(st.sampled_from(ending if pick_end else going_on))
        if name == "accept":
            accepted_offerers.append(1 - player)
            assert after.holder == player and after.stake == state.next_stake
        if after.is_over:
            assert after.points == state.stake  # whatever ended it, never the unaccepted raise
        state = after
        assert state.stake in values and state.level == len(accepted_offerers)
    # after the first accepted Dave, each accepted offer is by the other player than the one before
    assert all(a != b for a, b in zip(accepted_offerers, accepted_offerers[1:], strict=False))
    event(f"accepted Daves: {min(len(accepted_offerers), 3)}{'+' if len(accepted_offerers) >= 3 else ''}")
