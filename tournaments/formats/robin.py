"""Round robin and groups → knockout flights on the round-based rows (paired, ended and placed through these
classes by tournaments/services/rounds.py).

Round by round, not all at once: a round robin's schedule is fixed (the Berger table, tournaments/core/roundrobin.py),
but its rounds are paired one at a time like a Swiss's, when the round before is complete (or by the director
when the flight does not pair itself). So a table is never open before its round, results, corrections, the
boards and "my next match" work as for every round-based flight, and a withdrawal only has to say how the games
not yet paired are scored.

Numbers. At round 1 the entrants get their Berger numbers (stored as `Entry.draw_position`, 1-based), drawn by lot
from the flight's stored seed: a round robin numbers the whole field, a groups flight first deals the field by
rating into groups of balanced sizes (snake seeding, tournaments/core/groups.py, stored as `Entry.group`, 1, 2, ...)
and numbers each group by lot (its k-th `draw_position` is its number k). Every group plays its own round robin
in the same rounds (tables numbered across the groups, `Pairing.group` says whose); a smaller group has no tables
in the last rounds.

Withdrawals (tournaments.services.rounds.drop, the director chooses): the open table is forfeited to the opponent
or not scored, and so is every later game of the withdrawn player, when its round is paired — a forfeited game is
a win without a game for the opponent (stored like a bye: a win, no opponent for the tie-breaks), a game not
scored is simply not played. The standings are read from the pairings, so they follow at once.

End and places. A round robin ends after its last round; places are the standings (tie-breaks: wins,
head-to-head, Sonneborn-Berger, points difference unless the flight names its own). A groups flight places by
rank in the group (every group winner 1st, every runner-up next, ...), and when it ends its qualifiers (the top
`advance` of each group, withdrawn players left out) enter the knockout flight it feeds (feed rule `cut`) with
their cross-over seed, which the knockout's seeded draw places by the standard seed order: A1 v B2, B1 v A2, ...
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from base.errors import Invalid
from ratings.selectors import player_ratings
from tournaments.core import chances as core_chances
from tournaments.core import groups as core_groups
from tournaments.core import roundrobin
from tournaments.core.standings import ROUND_ROBIN_ORDER
from tournaments.formats.base import Format, Line, Pairs, Pool, Settings
from tournaments.models import Entry, EntryStatus, FlightFormat
from tournaments.selectors import robin as robin_read
from tournaments.selectors import rounds as rounds_read


def _active(flight) -> list[Entry]:
    return list(flight.entries.exclude(status=EntryStatus.WITHDRAWN).order_by("pk"))


def _pairs(entries: list[Entry], number: int, cycles: int) -> Pairs:
    """Round `number` of one round robin as (entry, entry or None) pairs, the withdrawn players' games scored as
    they chose: a forfeit is a win without a game for the opponent, a game not scored is left out."""
    if number > cycles * roundrobin.rounds_in_cycle(len(entries)):
        return []
    plan = roundrobin.round_of(entries, number, cycles=cycles)
    pairs: Pairs = []
    for game in plan.games:
        a, b = game.first, game.second
        out_a, out_b = a.status == EntryStatus.WITHDRAWN, b.status == EntryStatus.WITHDRAWN
        if not out_a and not out_b:
            pairs.append((a.pk, b.pk))
        elif out_a != out_b:
            gone, stays = (a, b) if out_a else (b, a)
            if gone.remaining_scored:
                pairs.append((stays.pk, None))
    if plan.bye is not None and plan.bye.status != EntryStatus.WITHDRAWN:
        pairs.append((plan.bye.pk, None))
    return pairs


class RoundRobin(Format):
    key = FlightFormat.ROUND_ROBIN
    options = frozenset({"tiebreaks", "cut_size", "cycles"})
    scheduled_games = True
    #: Everyone met everyone, so the opponents' strength says nothing and the match itself decides.
    default_tiebreaks = ROUND_ROBIN_ORDER

    def check_own(self, settings: Settings) -> None:
        if settings.cycles not in (1, 2):
            raise Invalid(_("Everyone meets once (1) or twice (2)."), field="cycles")

    def number(self, flight) -> None:
        entries = _active(flight)
        roundrobin.check(len(entries), flight.cycles)
        for number, entry in enumerate(roundrobin.draw_numbers(entries, rng_seed=flight.random_seed or 0), start=1):
            entry.draw_position, entry.group = number, 0
        Entry.objects.bulk_update(entries, ["draw_position", "group"])

    def pairs(self, flight, number: int) -> dict[int, Pairs]:
        if number == 1:
            self.number(flight)
        numbered = robin_read.numbered_entries(flight=flight)
        return {group: _pairs(entries, number, flight.cycles) for group, entries in sorted(numbered.items())}

    def total_rounds(self, flight) -> int:
        sizes = [len(e) for e in robin_read.numbered_entries(flight=flight).values() if len(e) >= 2]
        return max((flight.cycles * roundrobin.rounds_in_cycle(n) for n in sizes), default=0)

    def is_over(self, flight) -> bool:
        return flight.current_round >= self.total_rounds(flight)

    def last_round(self, flight) -> int | None:
        return self.total_rounds(flight) or None  # known once round 1 numbered the players

    def chances_sample(self, flight, state) -> tuple[core_chances.Sample, float]:
        """The rest of its schedule (the flight's own Berger table and cycles) less the games scored, ranked by
        the flight's standings with its tie-breaks."""
        members = state.groups.get(0, [])
        sample = core_chances.round_robin_sample(
            members,
            played=state.played.get(0, []),
            ratings=state.ratings,
            length=flight.length,
            cycles=flight.cycles,
            order=rounds_read.tiebreak_order(flight),
        )
        return sample, self._run_ms(flight, [members])

    def _run_ms(self, flight, groups) -> float:
        """About what one run costs (ms): the games left, and a standings table of each group."""
        last = max((flight.cycles * roundrobin.rounds_in_cycle(len(g)) for g in groups if len(g) >= 2), default=0)
        players = sum(len(g) for g in groups)
        return 0.01 * players * max(1, last - flight.current_round + 1) + 0.02 * players

    def describe(self, flight) -> list[str]:
        once = (
            _("everyone meets twice (double round robin)")
            if flight.cycles == 2
            else _("everyone meets once (round robin)")
        )
        return [self.label(), once, *super().describe(flight)[1:]]


class Groups(RoundRobin):
    """Place by rank in the group; the top `advance` of each group go on, seeded by cross-over (A1 v B2, ...)."""

    key = FlightFormat.GROUPS
    options = frozenset({"tiebreaks", "cycles", "group_size", "advance"})
    team_events = False  # the knockout a team event's groups would feed takes single players

    def check_own(self, settings: Settings) -> None:
        super().check_own(settings)
        size, advance = settings.group_size, settings.advance
        if size is None or not 2 <= int(size) <= 1024:
            raise Invalid(_("Groups need a size from 2 to 1024 players, for example 4."), field="group_size")
        if advance is None or not 1 <= int(advance) < int(size):
            message = _("From 1 to %(most)s players of each group can advance.") % {"most": int(size) - 1}
            raise Invalid(message, field="advance")

    def number(self, flight) -> None:
        entries = _active(flight)
        core_groups.check(len(entries), flight.group_size or 0, flight.advance or 0)
        ratings = player_ratings(player_ids=[e.player_id for e in entries])
        ratings.update({e.player_id: e.seeding_rating for e in entries if e.seeding_rating is not None})
        seeded = sorted(entries, key=lambda e: (-ratings.get(e.player_id, 0.0), e.pk))
        split = core_groups.split(seeded, group_size=flight.group_size or 0, advance=flight.advance or 0)
        numbered = 0  # draw positions are unique in the flight: a group's Berger number k is its k-th position
        for index, members in enumerate(split, start=1):
            for entry in roundrobin.draw_numbers(members, rng_seed=(flight.random_seed or 0) + index):
                numbered += 1
                entry.draw_position, entry.group = numbered, index
        Entry.objects.bulk_update(entries, ["draw_position", "group"])

    def chances_sample(self, flight, state) -> tuple[core_chances.Sample, float]:
        """Every group's round robin played out, places by rank in the group (as `places`)."""
        groups = [members for _group, members in sorted(state.groups.items()) if _group]
        sample = core_chances.groups_sample(
            groups,
            played=[state.played.get(group, []) for group, _m in sorted(state.groups.items()) if group],
            ratings=state.ratings,
            length=flight.length,
            cycles=flight.cycles,
            order=rounds_read.tiebreak_order(flight),
        )
        return sample, self._run_ms(flight, groups)

    def places(self, flight) -> dict[int, int | None]:
        """Place by rank in the group: 1 + everyone, in any group, ranked better in theirs."""
        ranks = {row.entry.pk: row.line.rank for table in robin_read.group_tables(flight=flight) for row in table.rows}
        ordered = sorted(ranks.values())
        places: dict[int, int | None] = dict.fromkeys(flight.entries.values_list("pk", flat=True))  # never numbered
        places.update({pk: 1 + sum(1 for r in ordered if r < rank) for pk, rank in ranks.items()})
        return places

    def feeds_cut(self, flight) -> bool:
        return True

    def pools(self, flight) -> list[Pool]:
        pools = []
        for table in robin_read.group_tables(flight=flight):
            lines = [
                Line(r.entry.pk, r.entry.player_id, r.line.rank, r.entry.name) for r in table.rows if not r.withdrawn
            ]
            pools.append(Pool(group=table.number, lines=lines, spots=min(flight.advance or 1, len(lines))))
        return pools

    def seeds(self, flight, qualified: list[list[Line]]) -> list[tuple[int, int]]:
        """Cross-over seeding: seed k is the (group, rank) the core names (withdrawn players left out: the seeds
        close up, the order stays)."""
        seeds = core_groups.crossover(len(qualified), flight.advance or 1)
        seeded, number = [], 0
        for group, rank in seeds:
            if rank <= len(qualified[group]):
                number += 1
                seeded.append((qualified[group][rank - 1].player_id, number))
        return seeded

    def describe(self, flight) -> list[str]:
        parts = super().describe(flight)[:2]  # the format, and everyone meets once or twice in a group
        parts.append(_("groups of up to %(n)s") % {"n": flight.group_size})
        parts.append(
            ngettext(
                "the best of each group plays a knockout",
                "the best %(n)s of each group play a knockout",
                flight.advance or 1,
            )
            % {"n": flight.advance}
        )
        return parts

    def round_label(
        self, flight, number: int, *, group: int = 0, table: int | None = None, section: str = "", last: int = 0
    ) -> str:
        if not group:
            return super().round_label(flight, number, table=table)
        values = {"group": core_groups.label(group - 1), "round": number, "table": table}
        if table is None:
            return _("Group %(group)s, round %(round)s") % values
        return _("Group %(group)s, round %(round)s, table %(table)s") % values

    def standings_groups(self, flight) -> list:
        return robin_read.group_tables(flight=flight)
