"""The signed-in user's home page: what to do next, gathered from the apps' selectors.

Every list is one query keyed on the user (not on their history), so the page costs the same few queries for a
new member and for one with years of matches (tests/core/test_home.py holds it to that)."""

from __future__ import annotations

from django.db.models import Q


def personal_home(user) -> dict:
    from chouette.models import SessionStatus
    from chouette.selectors import visible_sessions
    from games.matchplay import selectors as match_selectors
    from ratings.models import PlayerRating
    from tournaments.models import Entry, EntryStatus, EventStatus, Slot, SlotResult

    to_confirm = list(match_selectors.reports_to_confirm(user=user)[:20])
    for report in to_confirm:
        report.reporter_name = match_selectors.reporter_name(report.match, report)
    disputes = list(match_selectors.open_disputes(user=user)[:20])
    open_matches = match_selectors.my_open_matches(user=user)
    mine = Q(entry_a__player__user=user) | Q(entry_b__player__user=user)
    slots = list(
        Slot.objects.filter(mine, result__in=[SlotResult.READY, SlotResult.PENDING])
        .exclude(flight__event__status=EventStatus.FINISHED)
        .select_related("flight__event__club", "entry_a__player", "entry_b__player")
        .order_by("flight__event__starts_on", "round")[:5]
    )
    entries = list(
        Entry.objects.filter(player__user=user)
        .exclude(status=EntryStatus.WITHDRAWN)
        .exclude(flight__event__status=EventStatus.FINISHED)
        .select_related("flight__event__club")
        .order_by("flight__event__starts_on", "flight__event__name")[:10]
    )
    tables = list(
        visible_sessions(user=user)
        .filter(seats__player__user=user, status__in=[SessionStatus.SEATING, SessionStatus.OPEN])
        .order_by("-created_at")[:5]
    )
    ratings = list(
        PlayerRating.objects.filter(player__user=user, pool__club__isnull=True).select_related("player")[:1]
    )
    slot_match_ids = {s.match_id for s in slots if s.match_id}
    return {
        "to_confirm": to_confirm,
        "disputes": disputes,
        "open_matches": [m for m in open_matches if m.pk not in slot_match_ids],
        "slots": slots,
        "entries": entries,
        "tables": tables,
        "rating": ratings[0] if ratings else None,
    }
