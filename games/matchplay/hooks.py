"""Signal-free extension points: later apps (tournaments, ratings, notifications) learn about match events here.
Which callbacks run after each event, in what order and taking which locks, is listed in config/pipeline.py (the
one place that registers them; `on_result_confirmed` and `remove_result_callback` are for tests).

Services call `result_confirmed(match, report)` inside their transaction after a confirmation, a correction,
an override or an annulment, so a callback's writes commit or roll back together with the result. A callback
that raises aborts the confirmation. `report.outcome` says what happened (an annulment has outcome "annulled"
and no winner); `match` already carries the new denormalised result.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from base.hooks import Hook

# Called as result_confirmed(match, report).
result_confirmed = Hook()
on_result_confirmed = result_confirmed.register
remove_result_callback = result_confirmed.remove

# Called as report_submitted(match, report) when a player's report waits for the opponent's confirmation.
report_submitted = Hook()
# Called as report_disputed(match, dispute) when a version is disputed (inside the transaction).
report_disputed = Hook()
# Called as status_changed(match) inside the transaction whenever a match's status changes (started, finished,
# annulled), so pages that show the status (a tournament's bracket) know they changed.
status_changed = Hook()
# Called as match_invited(match) when a player invites another to a casual match (inside the transaction): only
# the invited player may hear of it.
match_invited = Hook()


@dataclass(frozen=True)
class MatchPlace:
    """Where a match belongs, as the app that placed it describes it. Why: two look-alike matches between the
    same players (a Swiss round and a side event the same night) were told apart by nothing on a result card.

    `label` is what cards and lists show ("Friday Swiss · Main · Round 3"); `groups` are the live groups of that
    app's pages that show the match (its flight's bracket or rounds page, its event's dashboard)."""

    label: str
    groups: tuple[str, ...] = ()


# Called as callback(matches) -> {match id: MatchPlace} by `places`, once for a whole list of matches: the app that
# placed a match (tournaments: its event, flight and round) says where it belongs, in one query per list. The
# callbacks: config/pipeline.py, PLACERS.
_placers: list[Callable[[list], dict[int, MatchPlace]]] = []


def on_place_matches(callback: Callable[[list], dict[int, MatchPlace]]) -> None:
    """Register a callback that says where the matches of a list it placed belong (registering twice: once)."""
    if callback not in _placers:
        _placers.append(callback)


def places(matches: Iterable) -> dict[int, MatchPlace]:
    """{match id: MatchPlace} for the matches some app placed (absent: a casual or club match). Each callback is
    asked once for the whole list, so a list's cards cost a constant number of queries, not one per card."""
    matches = [m for m in matches if m is not None]
    found: dict[int, MatchPlace] = {}
    if not matches:
        return found
    for callback in _placers:
        found.update(callback(matches))
    return found
