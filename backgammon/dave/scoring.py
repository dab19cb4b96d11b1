"""Money play with Dave: a session's games as each player's net result in stake units.

Why units: the stake progression counts units (1, 2, 4 … or 1, 2, 3 …); what a unit is worth in money is the
club's or the session's agreement, applied last (`amounts`). Chouette and club money play record one result per
pairing (in a chouette: the box against each team member), so a result names its two players and the ledger of
every session sums to zero.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from backgammon.dave.errors import DaveError
from backgammon.dave.stake import Progression
from backgammon.verification import Verdict


@dataclass(frozen=True)
class DaveResult:
    """One game between two players: `winner` gains `units` stake units and `loser` pays them."""

    winner: str
    loser: str
    units: int

    def __post_init__(self) -> None:
        if self.winner == self.loser:
            raise DaveError("invalid_result", f"{self.winner} cannot win a game against themself", field="loser")
        if self.units < 1:
            raise DaveError(
                "invalid_result", f"a game is worth at least one stake unit, not {self.units}", field="units"
            )


def net_units(results: Iterable[DaveResult], players: Iterable[str] = ()) -> dict[str, int]:
    """Each player's net in stake units (won minus paid), in the order first met; `players` lists those to show
    even without a game (a net of 0). The values always sum to zero."""
    net = dict.fromkeys(players, 0)
    for result in results:
        net[result.winner] = net.get(result.winner, 0) + result.units
        net[result.loser] = net.get(result.loser, 0) - result.units
    return net


def results_of(verdict: Verdict) -> list[DaveResult]:
    """The scored games of a verified two-player record (backgammon.dave.verification) as results; a game whose
    replay failed has no winner and is left out."""
    players = verdict.players
    return [
        DaveResult(game.winner, players[1] if game.winner == players[0] else players[0], game.points)
        for game in verdict.games
        if game.winner is not None and game.points
    ]


def amounts(net: dict[str, int], unit: Decimal) -> dict[str, Decimal]:
    """The net in money at `unit` per stake unit."""
    if unit <= 0:
        raise DaveError("invalid_result", f"a stake unit is worth more than 0, not {unit}", field="unit")
    return {player: units * unit for player, units in net.items()}


# The game kinds a scoresheet with Dave stakes takes: played out, given up (the Dave refused), resigned.
SCORESHEET_KINDS = ("single", "drop", "resign")


def scoresheet_stake(*, progression: Progression, kind: str, stake: int) -> int:
    """What a game entered on a scoresheet (a match or a chouette table) with Dave stakes is worth: the stake it
    was played for, given up at, or resigned at. The stake must be one the progression reaches (1, 2, 4 … or
    1, 2, 3 …); there is no gammon or backgammon in this form."""
    if kind not in SCORESHEET_KINDS:
        raise DaveError(
            "dave_no_gammon", f"with Dave stakes a game is won, given up or resigned, not '{kind}'", field="kind",
            kind=kind,
        )  # fmt: skip
    if progression.level_of(stake) is None:
        raise DaveError(
            "wrong_stake", f"{stake} is not a stake of the {progression.value} progression", field="cube",
            stake=stake, progression=progression.value,
        )  # fmt: skip
    return stake
