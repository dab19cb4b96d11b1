"""Round robin and groups → knockout flights on the round-based rows (tournaments/services/rounds.py).

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

from ratings.selectors import player_ratings
from tournaments.core import groups as core_groups
from tournaments.core import roundrobin
from tournaments.models import Entry, EntryStatus, Flight, FlightFormat
from tournaments.selectors import robin as robin_read
from tournaments.services import rounds


def _active(flight: Flight) -> list[Entry]:
    return list(flight.entries.exclude(status=EntryStatus.WITHDRAWN).order_by("pk"))


def _number_round_robin(flight: Flight) -> None:
    entries = _active(flight)
    roundrobin.check(len(entries), flight.cycles)
    for number, entry in enumerate(roundrobin.draw_numbers(entries, rng_seed=flight.random_seed or 0), start=1):
        entry.draw_position, entry.group = number, 0
    Entry.objects.bulk_update(entries, ["draw_position", "group"])


def _number_groups(flight: Flight) -> None:
    entries = _active(flight)
    core_groups.check(len(entries), flight.group_size or 0, flight.advance or 0)
    ratings = player_ratings(player_ids=[e.player_id for e in entries])
    seeded = sorted(entries, key=lambda e: (-ratings.get(e.player_id, 0.0), e.pk))
    split = core_groups.split(seeded, group_size=flight.group_size or 0, advance=flight.advance or 0)
    numbered = 0  # draw positions are unique in the flight: a group's Berger number k is its k-th position
    for index, members in enumerate(split, start=1):
        for entry in roundrobin.draw_numbers(members, rng_seed=(flight.random_seed or 0) + index):
            numbered += 1
            entry.draw_position, entry.group = numbered, index
    Entry.objects.bulk_update(entries, ["draw_position", "group"])


def _pairs(entries: list[Entry], number: int, cycles: int) -> list[tuple[int, int | None]]:
    """Round `number` of one round robin as (entry, entry or None) pairs, the withdrawn players' games scored as
    they chose: a forfeit is a win without a game for the opponent, a game not scored is left out."""
    if number > cycles * roundrobin.rounds_in_cycle(len(entries)):
        return []
    plan = roundrobin.round_of(entries, number, cycles=cycles)
    pairs: list[tuple[int, int | None]] = []
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


def round_robin_pairs(flight: Flight, number: int) -> list[tuple[int, int | None]]:
    if number == 1:
        _number_round_robin(flight)
    return _pairs(robin_read.numbered_entries(flight=flight).get(0, []), number, flight.cycles)


def groups_pairs(flight: Flight, number: int) -> dict[int, list[tuple[int, int | None]]]:
    if number == 1:
        _number_groups(flight)
    numbered = robin_read.numbered_entries(flight=flight)
    return {group: _pairs(entries, number, flight.cycles) for group, entries in sorted(numbered.items())}


def total_rounds(flight: Flight) -> int:
    sizes = [len(entries) for entries in robin_read.numbered_entries(flight=flight).values() if len(entries) >= 2]
    return max((flight.cycles * roundrobin.rounds_in_cycle(n) for n in sizes), default=0)


def is_over(flight: Flight) -> bool:
    return flight.current_round >= total_rounds(flight)


def group_places(flight: Flight) -> dict[int, int | None]:
    """Place by rank in the group: 1 + everyone, in any group, ranked better in theirs."""
    ranks = {row.entry.pk: row.line.rank for table in robin_read.group_tables(flight=flight) for row in table.rows}
    ordered = sorted(ranks.values())
    places: dict[int, int | None] = dict.fromkeys(flight.entries.values_list("pk", flat=True))  # never numbered
    places.update({pk: 1 + sum(1 for r in ordered if r < rank) for pk, rank in ranks.items()})
    return places


def qualifiers(flight: Flight) -> list[tuple[int, int]]:
    """(player id, knockout seed) of each group's top `advance`, by cross-over seeding (withdrawn players left
    out: the seeds close up, the order stays)."""
    tables = [table.rows for table in robin_read.group_tables(flight=flight)]
    advance = flight.advance or 1
    seeds = core_groups.crossover(len(tables), advance)
    seeded = []
    for seed, (group, rank) in enumerate(seeds, start=1):
        standing = [row for row in tables[group] if row.entry.status != EntryStatus.WITHDRAWN]
        if rank <= len(standing):
            seeded.append((standing[rank - 1].entry.player_id, seed))
    return seeded


rounds.PAIRERS[FlightFormat.ROUND_ROBIN] = round_robin_pairs
rounds.PAIRERS[FlightFormat.GROUPS] = groups_pairs
rounds.ENDS[FlightFormat.ROUND_ROBIN] = is_over
rounds.ENDS[FlightFormat.GROUPS] = is_over
rounds.PLACES[FlightFormat.GROUPS] = group_places
rounds.QUALIFIERS[FlightFormat.GROUPS] = qualifiers
