"""What a round-based flight's pairing is made from, kept so it can be read back and reproduced: the pairing seed
a director may set before round 1, and the standings each round was paired from (RoundStandings).

Why kept: the live standings change with every later result and every correction, so "the table this round was
paired from" cannot be recomputed later; and the same seed with the same state pairs the same round, so a
director who sets (or reads) the seed can reproduce a pairing.

Called by tournaments.services.rounds (`_pair_next`, inside its transaction, the flight row locked) and
tournaments.services.events (`update_flight`).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid
from tournaments.core.tiebreaks import TIEBREAKS
from tournaments.formats import format_of
from tournaments.models import Flight, RoundStandings
from tournaments.selectors import rounds as read

#: The largest pairing seed (as a knockout draw's seed): a BigIntegerField holds it and JSON clients keep it exact
#: up to 2**53, the seeds this system makes itself.
MAX_SEED = 2**62


def pairing_seed(flight: Flight, seed: int | str | None) -> int | None:
    """The seed a director sets for a flight in rounds, checked: only before round 1 is paired (after that the
    rounds already made were paired with the old one), and only for a flight in rounds (a knockout takes its seed
    when it is drawn). None: a new seed is made when round 1 is paired."""
    if not flight.is_round_based:
        message = _("A knockout takes its seed when it is drawn: give the seed to the draw.")
        raise Invalid(message, field="pairing_seed")
    if seed is not None:
        try:
            seed = int(seed)  # the page posts text
        except (TypeError, ValueError):
            seed = -1
        if not 0 <= seed <= MAX_SEED:
            message = _("A pairing seed is a whole number from 0 to %(most)s, or empty for a new one.")
            raise Invalid(message % {"most": MAX_SEED}, field="pairing_seed")
    if flight.current_round:
        raise Conflict(
            _(
                "Round %(round)s is paired already: the pairing seed is set before round 1 is paired, and "
                "then it stays (it reproduces the rounds paired with it)."
            )
            % {"round": flight.current_round},
            code="pairing_seed_fixed",
        )
    return seed


def _row(row, group: int) -> dict:
    line = row.line
    values = {key: int(getattr(line, key)) for key in TIEBREAKS}
    return {
        "entry": row.entry.pk,
        "player": row.entry.name,
        "group": group,
        "rank": line.rank,
        "withdrawn": row.withdrawn,
        "losses": line.losses,
        "byes": line.byes,
        "points_against": line.points_against,
        **values,
    }


def record_round_standings(flight: Flight, round_number: int) -> RoundStandings:
    """Keep the standings `round_number` is paired from (those after the round before), with the tie-break order
    and the seed in effect. A groups flight keeps each group's table, group A first. Constant queries."""
    groups = format_of(flight).standings_groups(flight)
    if groups:
        rows = [_row(row, table.number) for table in groups for row in table.rows]
    else:
        rows = [_row(row, 0) for row in read.flight_standings(flight=flight)]
    return RoundStandings.objects.create(
        flight=flight,
        round=round_number,
        rows=rows,
        order=list(read.tiebreak_order(flight)),
        seed=flight.random_seed,
    )
