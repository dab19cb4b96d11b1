"""The Swiss and the triple elimination (a modified Swiss): paired by score groups from the standings
(tournaments.core.swiss), the first ended by its rounds or one unbeaten player, the second by one player left
with fewer than three losses."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from base.errors import Invalid
from tournaments.core import chances as core_chances
from tournaments.core import swiss
from tournaments.formats.base import Format, Pairs, Settings
from tournaments.models import EntryStatus, FlightFormat, Pairing, PairingResult
from tournaments.selectors import rounds as read


class _PairedByScore(Format):
    """Both pair the standings' score groups top down with no rematch while one can be avoided."""

    late_entries_while_running = True
    options = frozenset({"tiebreaks", "cut_size"})

    def score_group(self, line) -> int:
        raise NotImplementedError

    def still_in(self, line) -> bool:
        return True

    def pairs(self, flight, number: int) -> dict[int, Pairs]:
        table = read.flight_standings(flight=flight)
        met = read.opponents_met(flight=flight)
        players = [
            swiss.SwissPlayer(
                row.entry.pk,
                group=self.score_group(row.line),
                had_bye=row.line.byes > 0,
                opponents=frozenset(met.get(row.entry.pk, ())),
                rank=row.line.rank,
            )
            for row in table
            if row.entry.status != EntryStatus.WITHDRAWN and self.still_in(row.line)
        ]
        return {0: swiss.pair_round(players, rng_seed=flight.random_seed or 0, round_number=number)}

    def chances_rule(self, flight) -> core_chances.SwissRule:
        raise NotImplementedError

    def chances_sample(self, flight, state) -> tuple[core_chances.Sample, float]:
        """The current round's open tables, then each later round paired as `pairs` pairs it (the score groups
        from the standings with the flight's tie-breaks, its stored seed), until the format's end."""
        sample = core_chances.swiss_sample(
            state.entrants,
            played=state.games,
            open_tables=state.open_tables,
            met=state.met,
            ratings=state.ratings,
            length=flight.length,
            rule=self.chances_rule(flight),
            played_rounds=flight.current_round,
            withdrawn=state.withdrawn,
            out_round=state.out_round,
            order=read.tiebreak_order(flight),
            pair_seed=flight.random_seed or 0,
        )
        last = self.last_round(flight)
        left = max(1, last - flight.current_round if last else len(state.entrants).bit_length())
        return sample, core_chances.swiss_run_ms(len(state.entrants), left)


class Swiss(_PairedByScore):
    key = FlightFormat.SWISS
    options = frozenset({"rounds", "until_one_unbeaten", "tiebreaks", "cut_size"})

    def check_own(self, settings: Settings) -> None:
        if settings.rounds is not None and not 1 <= int(settings.rounds) <= 99:
            raise Invalid(_("Play between 1 and 99 rounds."), field="rounds")
        if settings.rounds is None and not settings.until_one_unbeaten:
            message = _("A Swiss needs a number of rounds (1 to 99) or “until one unbeaten”.")
            raise Invalid(message, field="rounds")

    def check_field(self, flight, entrants: int) -> None:
        swiss.check_settings(rounds=flight.rounds, until_one_unbeaten=flight.until_one_unbeaten, entrants=entrants)
        super().check_field(flight, entrants)

    def score_group(self, line) -> int:
        return line.wins

    def chances_rule(self, flight) -> core_chances.SwissRule:
        return core_chances.SwissRule(rounds=flight.rounds, until_one_unbeaten=flight.until_one_unbeaten)

    def last_round(self, flight) -> int | None:
        return None if flight.until_one_unbeaten else flight.rounds

    def is_over(self, flight) -> bool:
        table = [r for r in read.flight_standings(flight=flight) if not r.withdrawn]
        return (
            swiss.swiss_is_over(
                rounds=flight.rounds,
                until_one_unbeaten=flight.until_one_unbeaten,
                played_rounds=flight.current_round,
                unbeaten=sum(1 for r in table if r.line.losses == 0),
            )
            or len(table) < 2
        )

    def describe(self, flight) -> list[str]:
        parts = [self.label()]
        if flight.rounds:
            parts.append(ngettext("%(n)s round", "%(n)s rounds", flight.rounds) % {"n": flight.rounds})
        if flight.until_one_unbeaten:
            parts.append(_("until one unbeaten"))
        return parts + super().describe(flight)[1:]


class TripleElimination(_PairedByScore):
    key = FlightFormat.TRIPLE_ELIMINATION

    def score_group(self, line) -> int:
        return -line.losses

    def still_in(self, line) -> bool:
        return line.losses < swiss.TRIPLE_OUT

    def chances_rule(self, flight) -> core_chances.SwissRule:
        return core_chances.TripleRule()

    def is_over(self, flight) -> bool:
        table = [r for r in read.flight_standings(flight=flight) if not r.withdrawn]
        return sum(1 for r in table if r.line.losses < swiss.TRIPLE_OUT) <= 1

    def places(self, flight) -> dict[int, int | None]:
        """By the round a player went out (the third loss, or the round they dropped), latest first."""
        table = read.flight_standings(flight=flight)
        losses: dict[int, int] = {}
        out_round = {r.entry.pk: r.entry.out_round or 0 for r in table if r.entry.status == EntryStatus.WITHDRAWN}
        decided = Pairing.objects.filter(
            flight=flight, result__in=[PairingResult.PLAYED, PairingResult.FORFEIT, PairingResult.DOUBLE_FORFEIT]
        )
        for a, b, winner, number in decided.order_by("round").values_list("entry_a", "entry_b", "winner", "round"):
            for loser in (a, b):
                if loser is not None and loser != winner:
                    losses[loser] = losses.get(loser, 0) + 1
                    if losses[loser] == swiss.TRIPLE_OUT:
                        out_round.setdefault(loser, number)
        for withdrawn in out_round:
            losses[withdrawn] = max(losses.get(withdrawn, 0), swiss.TRIPLE_OUT)
        return swiss.triple_places([r.entry.pk for r in table], losses=losses, out_round=out_round)

    def describe(self, flight) -> list[str]:
        return [self.label(), _("out at the third loss"), *super().describe(flight)[1:]]
