"""The callbacks this app offers the lower apps' hooks (config/pipeline.py wires them in): each works out who is
told what, and hands it to `services.notify` (people) and `services.notify_club` (the club's webhook). They run
inside the caller's transaction, so a rolled-back change tells nobody, and they cost a constant number of queries
whatever the number of people told (the players' names and users in one query, the club's directors in one)."""

from base.compiled import CompiledRead
from base.numbers import format_cents
from clubs.models import Membership, Player, Role
from games.models.matches import Match, MatchOutcome
from notifications import services
from tournaments import selectors as tournament_selectors
from tournaments.models import Entry


def _players(match) -> list[tuple[int | None, str]]:
    """(user id, name) of player A and player B: from the match when it carries both players already (a match
    service locks it with them), else in one query. The name is the public one at the match's club (a display
    name where the club allows it): these texts go to the opponent, the club's directors and its webhook alike."""
    if Match.player_a.is_cached(match) and Match.player_b.is_cached(match):
        players = [
            (p.user_id, p.name, p.display_name) if p is not None else None for p in (match.player_a, match.player_b)
        ]
    else:
        rows = Player.objects.filter(pk__in=[match.player_a_id, match.player_b_id]).values_list(
            "pk", "user_id", "name", "display_name"
        )
        found = {pk: (user_id, name, display_name) for pk, user_id, name, display_name in rows}
        players = [found.get(pid) for pid in (match.player_a_id, match.player_b_id)]
    return [(None, "") if p is None else (p[0], _public_name(match, p[1], p[2])) for p in players]


def _public_name(match, name: str, display_name: str) -> str:
    """The club is read only for a player with a display name (a match of no club shows the name)."""
    if display_name and match.club_id is not None and match.club.allow_display_names:
        return display_name
    return name


def _directors(club_id: int | None) -> list[int]:
    if club_id is None:
        return []
    return _DIRECTORS_OF_CLUB.all(club_id)


# A set of recipients: unsorted (the default order, club and player names, only joins two tables); every confirmed
# result of a club asks, so it is compiled once per process (base.compiled).
_DIRECTORS_OF_CLUB = CompiledRead(
    lambda club_id: (
        Membership.objects.filter(
            club_id=club_id, is_active=True, role__in=[Role.DIRECTOR, Role.ADMIN], player__user__isnull=False
        )
        .order_by()
        .values_list("player__user_id", flat=True)
    )
)


def _score(report) -> str:
    if report.score_a is None:
        return "–"
    return f"{report.score_a}–{report.score_b}"


def result_confirmed(match, report) -> None:
    """The reporter hears their report was confirmed; after a director's report (an override, an annulment) both
    players hear it; the club's directors see the result in their list; the club's webhook posts it.

    The first step of a confirmation (config/pipeline.py): it locks no row, so running before the bracket and the
    ratings, whose slot and rating rows stay locked to the commit, shortens how long a confirmation holds them."""
    (user_a, name_a), (user_b, name_b) = _players(match)
    key = f"match:{match.pk}:v{report.version}"
    score = _score(report)
    url = match.get_absolute_url()
    if report.role == "director" or report.outcome == MatchOutcome.ANNULLED:
        players = (
            "report_overridden",
            key,
            {user_a: {"opponent": name_b, "score": score}, user_b: {"opponent": name_a, "score": score}},
            url,
        )
    else:
        reporter = report.submitted_by_id
        opponent = name_b if reporter == user_a else name_a
        players = ("report_confirmed", key, {reporter: {"opponent": opponent, "score": score}}, url)
    public = {"a": name_a, "b": name_b, "score": score}
    watchers = {uid: public for uid in _directors(match.club_id) if uid not in (user_a, user_b)}
    services.notify_all([players, ("club_result", key, watchers, url)])
    services.notify_club(match.club_id, "club_result", key, public, url=url)


def report_submitted(match, report) -> None:
    (user_a, name_a), (user_b, name_b) = _players(match)
    other, reporter_name = (user_b, name_a) if report.submitted_by_id == user_a else (user_a, name_b)
    params = {"opponent": reporter_name, "score": _score(report)}
    services.notify(
        "confirm_wanted", f"match:{match.pk}:v{report.version}", {other: params}, url=match.get_absolute_url()
    )


def match_invited(match) -> None:
    """Only the invited player hears of an invitation (never the club's directors, never its webhook)."""
    side = match.invitee_side()
    if side is None:
        return
    (user_a, name_a), (user_b, name_b) = _players(match)
    invitee, inviter_name = (user_b, name_a) if side == 1 else (user_a, name_b)
    params = {"opponent": inviter_name, "length": match.length}
    services.notify("match_invitation", f"match:{match.pk}:invited", {invitee: params}, url=match.get_absolute_url())


def report_disputed(match, dispute) -> None:
    (user_a, name_a), (user_b, name_b) = _players(match)
    reporter = dispute.report.submitted_by_id
    opponent = name_b if reporter == user_a else name_a
    key, url = f"dispute:{dispute.pk}", match.get_absolute_url()
    services.notify("report_disputed", key, {reporter: {"opponent": opponent}}, url=url)
    services.notify(
        "dispute_for_director", key, dict.fromkeys(_directors(match.club_id), {"a": name_a, "b": name_b}), url=url
    )


def match_called(match, board) -> None:
    """A match is ready (board None), or called to a board: both players hear it, the webhook posts it. A call
    names the table ("Round 3, table 2", "Semi-final") in every format, so a Swiss player knows where to sit."""
    (user_a, name_a), (user_b, name_b) = _players(match)
    board = "" if board is None else str(getattr(board, "number", board))
    key = f"match:{match.pk}" if not board else f"match:{match.pk}:board:{board}"
    url = match.get_absolute_url()
    # Named for a call to a board only: a round's start tells every table at once, and a result's confirmation
    # tells the next match, both without a lookup per table.
    table = tournament_selectors.match_table(match=match) if board else None
    where = "" if table is None else table.label
    services.notify(
        "match_ready",
        key,
        {
            user_a: {"opponent": name_b, "board": board, "where": where},
            user_b: {"opponent": name_a, "board": board, "where": where},
        },
        url=url,
    )
    services.notify_club(
        match.club_id, "match_ready", key, {"a": name_a, "b": name_b, "board": board, "where": where}, url=url
    )


def draw_released(flight) -> None:
    event = flight.event
    name = f"{event.name} – {flight.name}" if flight.name else event.name
    users = Entry.objects.filter(flight=flight, player__user__isnull=False).values_list("player__user_id", flat=True)
    key, url, params = f"flight:{flight.pk}", flight.get_absolute_url(), {"event": name}
    services.notify("draw_released", key, dict.fromkeys(users, params), url=url)
    services.notify_club(event.club_id, "draw_released", key, params, url=url)


def seated(session, players) -> None:
    users = [p.user_id for p in players]
    services.notify(
        "chouette_seated",
        f"chouette:{session.pk}",
        dict.fromkeys(users, {"table": session.name or f"#{session.pk}"}),
        url=session.get_absolute_url(),
    )


def challenge_created(challenge) -> None:
    ladder = challenge.ladder
    club = ladder.club  # the ladder's club decides whether display names stand in (the texts go to its members)
    params = {
        "challenger": challenge.challenger.public_name_at(club),
        "defender": challenge.defender.public_name_at(club),
        "ladder": ladder.name,
    }
    key, url = f"challenge:{challenge.pk}", ladder.get_absolute_url()
    services.notify("ladder_challenge", key, {challenge.defender.user_id: params}, url=url)
    services.notify_club(ladder.club_id, "ladder_challenge", key, params, url=url)


def place_offered(spot) -> None:
    """The player a waiting list offers a freed place hears it, with the hours they have to accept."""
    flight = spot.flight
    name = f"{flight.event.name} – {flight.name}"
    params = {"flight": name, "hours": flight.offer_hours}
    services.notify("place_offered", f"waiting:{spot.pk}", {spot.player.user_id: params}, url=flight.get_absolute_url())


def transfer_open(row) -> None:
    """A settle-up still open a day on (base.settle_up: a chouette transfer, a Calcutta owner's settle-up, a
    prize): the payer is reminded to pay, or, once it is marked paid, the payee to confirm it arrived."""
    due = row.reminder()
    if due is None:
        return
    users = [*due.users, *_directors(due.directors_of)]
    params = {"other": due.other, "amount": format_cents(due.cents), "table": due.where, "role": due.role}
    services.notify("transfer_reminder", due.key, dict.fromkeys(users, params), url=due.url)
