"""The director's calling page (one tap to call, free, move, apply lateness), the call slips, and the board
shown to players on the bracket and their home page."""

import datetime
import re

import pytest
from django.urls import reverse

from tournaments.models import Call
from tournaments.services import boards

from .builders import drawn_event

pytestmark = pytest.mark.django_db


def _page(client, event):
    return client.get(reverse("tournaments:calling", args=[event.club.slug, event.slug])).content.decode()


def _post(client, event, **data):
    url = reverse("tournaments:calling", args=[event.club.slug, event.slug])
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_director_runs_the_boards_from_the_phone_page(client, club, director_user, member_user):
    event, flights = drawn_event(club, director_user, 8)
    client.force_login(member_user)
    assert client.get(reverse("tournaments:calling", args=[club.slug, event.slug])).status_code == 403
    client.force_login(director_user)
    _post(client, event, do="setup", count="2")
    page = _post(client, event, do="call")
    assert re.search(r"board 1\.", page)
    call = Call.objects.get()
    assert call.board.number == 1
    page = _post(client, event, do="move", call=str(call.pk), board="2")
    assert "Moved to board 2." in page
    page = _post(client, event, do="auto_on")
    assert "Auto-call is on." in page and Call.objects.filter(freed_at__isnull=True).count() == 2
    assert "Waiting (2)" in page
    page = _post(client, event, do="free", board="2")
    assert "The board is free." in page
    assert Call.objects.filter(freed_at__isnull=True).count() == 2  # auto-call filled board 2 again
    assert "Pause auto-call" in _page(client, event)
    slips = client.get(reverse("tournaments:call-slips", args=[club.slug, event.slug])).content.decode()
    assert slips.count('class="call-slip"') == 2 and "Board 1" in slips and "Board 2" in slips
    bracket = client.get(flights["main"].get_absolute_url()).content.decode()
    assert bracket.count('class="called-board"') == 2


def test_lateness_is_offered_after_the_grace_period_and_applied_with_one_tap(client, club, director_user):
    event, _flights = drawn_event(club, director_user, 4)
    boards.set_boards(actor=director_user, event=event, count=1)
    call = boards.call_next(actor=director_user, event=event)
    client.force_login(director_user)
    assert "penalty point" not in _page(client, event)
    Call.objects.filter(pk=call.pk).update(called_at=call.called_at - datetime.timedelta(minutes=7))
    page = _page(client, event)
    assert "1 penalty point due" in page
    page = _post(client, event, do="lateness", call=str(call.pk), late_side="1")
    assert "Lateness penalty applied." in page
    call.slot.match.refresh_from_db()
    assert call.slot.match.penalty_b == 1
    assert "penalty point due" not in _page(client, event)


def test_the_player_sees_the_board_on_their_home_page(client, club, director_user, user_factory):
    event, _flights = drawn_event(club, director_user, 4)
    boards.set_boards(actor=director_user, event=event, count=3)
    boards.call_next(actor=director_user, event=event)
    call = boards.call_next(actor=director_user, event=event)
    player = call.slot.entry_b.player
    player.user = user_factory()
    player.save(update_fields=["user"])
    client.force_login(player.user)
    home = client.get(reverse("home")).content.decode()
    assert "My next tournament matches" in home
    assert re.search(r'class="called-board">Board 2<', home)
