"""Live pages of the games app: who may watch a record's verification, an upload batch's progress, a match's page and
a club's directors' desk, and the one table of what every match event pushes.

What happens after each match event (the match-play hooks fire inside the service's transaction; the groups go out
in one push after it commits, base.live.notify_group):

| event (hook)                                        | match page | both players | directors' desk | tournament pages |
| --------------------------------------------------- | ---------- | ------------ | --------------- | ---------------- |
| started (status_changed → in progress)              | yes        | yes          | –               | yes              |
| reported (report_submitted)                         | yes        | yes          | yes             | yes              |
| disputed (report_disputed)                          | yes        | yes          | yes             | yes              |
| confirmed (result_confirmed, a player's version)    | yes        | yes          | yes             | yes              |
| overridden (result_confirmed, a director's version) | yes        | yes          | yes             | yes              |
| annulled (result_confirmed, outcome annulled)       | yes        | yes          | yes             | yes              |

- match page: `match-<match>`, whoever may see the match (its page, banners, versions and forms).
- both players: `user-<user>` of player A and player B (their home page's panels and the header's bell and
  "to confirm" badge, on every page they have open); a casual match's players too.
- directors' desk: `desk-<club>` of the match's club, its directors and admins ("Results to decide"); none for
  a casual match without a club, and not for a start, which puts nothing on that list.
- tournament pages: the groups of the app that placed the match (games.matchplay.hooks.places: tournaments says
  `flight-<flight>` and `event-<event>`: the bracket or rounds page and the event's dashboard, whose directors
  decide tournament matches); none for a casual or club match.

Why one table: the pushes were scattered over the apps, and only a confirmation was in them, so an opponent's
phone showed a report only after a reload. Two more pushes ride along and are not repeated here: the bracket's own
push once a result moves it (tournaments/live.py tells the pages of the players it moved, e.g. the next
opponent), and notifications.services, which tells the pages of everyone it stores a bell line for (a director's
bell on a dispute). Each event costs a constant number of groups and queries, whatever the number of open pages:
a page refetches its own fragment.
"""

from base.live import group_name, notify_group, register_group
from clubs import access
from clubs.models import Club
from games.matchplay import hooks
from games.matchplay import selectors as match_selectors
from games.models.matches import Match, MatchContext, MatchOutcome, MatchStatus, ReporterRole
from games.records import selectors

register_group("record", lambda user, pk: selectors.visible_records(user=user).filter(pk=pk).exists())
register_group("batch", lambda user, pk: selectors.visible_batches(user=user).filter(pk=pk).exists())
register_group("match", lambda user, pk: match_selectors.visible_match(user=user, pk=pk) is not None)
register_group("desk", lambda user, pk: access.has_role(user, Club(pk=pk), "director"))  # or admin, or staff

STARTED, REPORTED, DISPUTED, CONFIRMED, OVERRIDDEN, ANNULLED = (
    "started", "reported", "disputed", "confirmed", "overridden", "annulled"
)  # fmt: skip
MATCH_PAGE, PLAYERS, DESK, TOURNAMENT = "match page", "both players", "directors' desk", "tournament pages"
EVERYONE = (MATCH_PAGE, PLAYERS, DESK, TOURNAMENT)

# The table above, as the code reads it: event -> who is told.
TOLD: dict[str, tuple[str, ...]] = {
    STARTED: (MATCH_PAGE, PLAYERS, TOURNAMENT),
    REPORTED: EVERYONE,
    DISPUTED: EVERYONE,
    CONFIRMED: EVERYONE,
    OVERRIDDEN: EVERYONE,
    ANNULLED: EVERYONE,
}


def groups_told(event: str, match: Match) -> list[str]:
    """The live groups `event` of `match` tells, by the table. At most one query: the tournament's pages of a
    tournament match (the players come with the locked match, whose lock read takes them along)."""
    told = TOLD[event]
    groups = []
    if MATCH_PAGE in told:
        groups.append(group_name("match", match.pk))
    if PLAYERS in told:
        groups += [group_name("user", user) for user in _users_of(match) if user is not None]
    if DESK in told and match.club_id is not None:
        groups.append(group_name("desk", match.club_id))
    if TOURNAMENT in told and match.context == MatchContext.TOURNAMENT:
        place = hooks.places([match]).get(match.pk)
        groups += list(place.groups) if place is not None else []
    return groups


def tell(event: str, match: Match) -> None:
    """Push `event` of `match` to whoever the table says, after the transaction commits."""
    notify_group(*groups_told(event, match))


def _users_of(match: Match) -> list[int | None]:
    if Match.player_a.is_cached(match) and Match.player_b.is_cached(match):
        return [p.user_id if p is not None else None for p in (match.player_a, match.player_b)]
    return list(
        Match.objects.filter(pk=match.pk).values_list("player_a__user", "player_b__user").first() or (None, None)
    )


def result_event(report) -> str:
    """Which of the result rows of the table a confirmed version is."""
    if report.outcome == MatchOutcome.ANNULLED:
        return ANNULLED
    return OVERRIDDEN if report.role == ReporterRole.DIRECTOR else CONFIRMED


# The callbacks of the match-play hooks (config/pipeline.py wires them in).


def started(match) -> None:
    """status_changed: a start is told; the other status changes are results, told by `result_told`."""
    if match.status == MatchStatus.IN_PROGRESS:
        tell(STARTED, match)


def reported(match, _report) -> None:
    tell(REPORTED, match)


def disputed(match, _dispute) -> None:
    tell(DISPUTED, match)


def result_told(match, report) -> None:
    tell(result_event(report), match)


def invited(match) -> None:
    """games hook: the invited player's home page refetches to show the invitation (nobody else hears of it)."""
    side = match.invitee_side()
    player = None if side is None else match.players[side]
    if player is not None and player.user_id:
        notify_group(group_name("user", player.user_id))
