"""Reads of the data app: feed tokens and what the calendar feeds show, a person's own data, event templates."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from calcutta.models import Bidder, Holding
from chouette.models import LedgerEntry, Seat
from clubs.models import BankAccount, Membership, Player, Role
from data.models import EventTemplate, FeedToken
from games.models.matches import Match, MatchReport
from notifications.models import Notification, NotificationSettings
from ratings.models import PlayerRating, RatedMatch
from tournaments import selectors as tournament_selectors
from tournaments.models import Entry

#: A club feed holds the events from this many days back on, and every later one.
FEED_PAST_DAYS = 400
#: A person's feed holds at most this many open tables (each event's tables of the day are far fewer).
FEED_TABLES = 200


def feed_token_of(*, user) -> FeedToken | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return FeedToken.objects.filter(user=user).first()


def user_of_feed_token(token: str):
    """The active user whose feed token this is, or None (an unknown or revoked token)."""
    if not token or len(token) > 64:
        return None
    row = FeedToken.objects.select_related("user").filter(token=token).first()
    if row is None or not row.user.is_active:
        return None
    return row.user


def club_feed_events(*, club, user) -> list:
    """The club's events the user may see (an anonymous calendar app: the public events of a public club), from
    FEED_PAST_DAYS back on, the soonest first."""
    since = timezone.localdate() - datetime.timedelta(days=FEED_PAST_DAYS)
    events = tournament_selectors.visible_events(user=user).filter(club=club, ends_on__gte=since)
    return list(events.order_by("starts_on", "pk"))


def own_tables(*, user) -> list:
    """The user's tables still to play that have a match (a round paired, a bracket match made, a board
    called), soonest first."""
    tables = tournament_selectors.player_tables(user=user, limit=FEED_TABLES)
    return [table for table in tables if table.match is not None]


# --- a person's own data ---------------------------------------------------------------------------------------

#: Columns never put in the download: secrets (a password hash, a token's key) are no data about the person.
SECRET_COLUMNS = {"password", "key", "token", "digest", "secret"}


def _rows(queryset) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in SECRET_COLUMNS} for row in queryset.values()]


def personal_data(*, user) -> dict:
    """Everything stored about the person, as rows of plain values (the JSON download): the account and its
    settings, the player, memberships, entries, matches with every report version, ratings and rated matches,
    chouette seats and ledger lines, Calcutta bidders and holdings, notifications, the bank account for transfer
    codes. A fixed number of queries."""
    data: dict = {"account": _rows(get_user_model().objects.filter(pk=user.pk))}
    data["notification_settings"] = _rows(NotificationSettings.objects.filter(user=user))
    data["notifications"] = _rows(Notification.objects.filter(recipient=user).order_by("pk"))
    data["calendar_feed"] = [{"created_at": row.created_at} for row in FeedToken.objects.filter(user=user)]
    player = Player.objects.filter(user=user).first()
    bidders = Bidder.objects.filter(Q(user=user) | Q(player=player) if player is not None else Q(user=user))
    data["calcutta_bidders"] = _rows(bidders.order_by("pk"))
    data["calcutta_holdings"] = _rows(Holding.objects.filter(bidder__in=bidders).order_by("pk"))
    if player is None:
        return data
    matches = Match.objects.filter(player_a=player) | Match.objects.filter(player_b=player)
    rated = RatedMatch.objects.filter(winner=player) | RatedMatch.objects.filter(loser=player)
    data.update(
        player=_rows(Player.objects.filter(pk=player.pk)),
        memberships=_rows(Membership.objects.filter(player=player).order_by("pk")),
        bank_account=_rows(BankAccount.objects.filter(player=player)),  # their own, for their transfer codes
        entries=_rows(Entry.objects.filter(player=player).order_by("pk")),
        matches=_rows(matches.order_by("pk")),
        match_reports=_rows(MatchReport.objects.filter(match__in=matches).order_by("match_id", "version")),
        ratings=_rows(PlayerRating.objects.filter(player=player).order_by("pk")),
        rated_matches=_rows(rated.order_by("played_at", "pk")),
        chouette_seats=_rows(Seat.objects.filter(player=player).order_by("pk")),
        chouette_ledger=_rows(LedgerEntry.objects.filter(player=player).order_by("session_id", "game_number")),
    )
    return data


def clubs_directed_for_notice(*, player) -> dict[int, list[int]]:
    """Club id -> the user ids of its directors and admins, for the clubs the player is an active member of."""
    clubs = list(Membership.objects.filter(player=player, is_active=True).values_list("club_id", flat=True))
    directors = Membership.objects.filter(
        club_id__in=clubs, is_active=True, role__in=[Role.DIRECTOR, Role.ADMIN], player__user__isnull=False
    ).exclude(player=player)
    found: dict[int, list[int]] = {club: [] for club in clubs}
    for club_id, user_id in directors.values_list("club_id", "player__user_id"):
        found[club_id].append(user_id)
    return found


# --- event templates ----------------------------------------------------------------------------------------


def club_event_templates(*, club) -> list[EventTemplate]:
    """The club's event templates by name."""
    return list(EventTemplate.objects.filter(club=club).order_by("name", "id"))


def event_template(*, club, pk) -> EventTemplate | None:
    """One of the club's templates; None for another club's (or none): a template never crosses clubs."""
    return EventTemplate.objects.filter(club=club, pk=pk).select_related("club").first() if pk else None
