"""Event templates: an event's setup saved for its club, and next week's event started from it in one step."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation

from base.errors import Conflict, Invalid
from data import services
from data.models import EventTemplate
from tests.clients import web
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import make_event
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import ClubPayoutTable, Event

pytestmark = pytest.mark.django_db

#: Every setting of a flight a template carries, compared one by one between the old flight and the new.
COMPARED = (
    "name", "slug", "order", "kind", "format", "feed_rule", "feed_rounds", "entry_round", "entry_fee", "reentry_fee",
    "length", "final_length", "round_lengths", "seeding", "separate_clubs", "clock_rule", "clock_seconds_per_point",
    "clock_delay_seconds", "rounds", "until_one_unbeaten", "auto_pair", "tiebreaks", "cut_size", "cycles",
    "group_size", "advance", "variant", "stakes", "dave_progression", "backward_hits", "head_doubles", "six_block",
    "team_kind", "team_size", "qualifying_ties", "grand_final_reset", "third_place", "playoff_second", "seed_top_n",
    "max_reentries", "reentry_until_round", "pod_size", "member_fee", "junior_fee", "payment_required",
    "payout_template", "payout_table", "club_payout_table_id", "house_percent", "house_fixed", "added_money",
)  # fmt: skip
#: Links to other flights, compared by the short name of the flight they name.
LINKED = ("source", "awards_entry_to")
#: Times of day, compared as the days after the event's first day and the local time.
TIMED = ("check_in_deadline", "reentry_deadline")


def club_night(club, director):
    """An event using much of what a template keeps: a knockout main with fees, a club payout table and a
    payout template naming a later flight; a consolation; a Swiss side flight with a cut; deadlines."""
    event = make_event(club, director, name="Club night 1", house_percent=5)
    tournament_services.update_event(
        actor=director, event=event, closes_at=_local(event.starts_on, 1, 23, 30), ends_on=event.starts_on
    )
    main = tournament_services.add_flight(
        actor=director, event=event, name="Main", entry_fee="20", length=5, final_length=7,
        round_lengths={"3": 9}, seeding="rating", seed_top_n=4, third_place=True, max_reentries=2,
        clock_rule="required", clock_seconds_per_point=90, check_in_deadline=_local(event.starts_on, 0, 19, 0),
        reentry_fee="15", reentry_deadline=_local(event.starts_on, 0, 21, 0),
    )  # fmt: skip
    cons = tournament_services.add_flight(
        actor=director, event=event, name="Consolation", kind="consolation", source=main, length=3,
        feed_rule="fresh_draw",
    )  # fmt: skip
    swiss = tournament_services.add_flight(
        actor=director, event=event, name="Swiss", format="swiss", rounds=4, tiebreaks=["wins", "buchholz"],
        cut_size=4, variant="nackgammon",
    )  # fmt: skip
    tournament_services.set_fee_settings(actor=director, flight=main, member_fee="15", junior_fee="10")
    table = tournament_services.create_payout_table(
        actor=director, club=club, name="Nights", bands=[{"from": 2, "to": None, "percents": ["70", "30"]}]
    )
    tournament_services.set_flight_payouts(
        actor=director, flight=main, table=f"club-{table.pk}", house_fixed="1", added_money="50"
    )
    tournament_services.set_flight_payouts(actor=director, flight=cons, table="winner", house_percent="10")
    tournament_services.set_payout_template(
        actor=director, flight=swiss, template=[{"flight": "swiss", "place": 1, "percent": 60},
                                                {"flight": "consolation", "place": 1, "percent": 40}],
    )  # fmt: skip
    return event


def _local(day, days, hour, minute):
    from django.utils import timezone

    moment = datetime.datetime.combine(day + datetime.timedelta(days=days), datetime.time(hour, minute))
    return timezone.make_aware(moment)


def _setting(flight, name, event):
    from django.utils import timezone

    value = getattr(flight, name)
    if name in LINKED:
        return value.slug if value is not None else None
    if name in (*TIMED, "closes_at") and value is not None:
        local = timezone.localtime(value)
        return (local.date() - event.starts_on).days, local.time()
    return value


def assert_same_setup(old: Event, new: Event):
    before, after = tournament_selectors.flights(event=old), tournament_selectors.flights(event=new)
    assert [f.slug for f in after] == [f.slug for f in before]
    for was, now in zip(before, after, strict=True):
        for name in (*COMPARED, *LINKED, *TIMED):
            assert _setting(now, name, new) == _setting(was, name, old), (was.slug, name)
    for name in ("is_public", "registration_open", "house_percent", "currency", "auto_call"):
        assert getattr(new, name) == getattr(old, name), name
    assert (new.ends_on - new.starts_on) == (old.ends_on - old.starts_on)
    assert _setting(new, "closes_at", new) == _setting(old, "closes_at", old)


def test_save_then_start_gives_the_same_flights_field_by_field(club, director_user):
    old = club_night(club, director_user)
    template = services.save_event_template(actor=director_user, event=old, name="Club night")
    assert template.made_from == "Club night 1" and len(template.setup["flights"]) == 4  # with the Swiss cut
    day = old.starts_on + datetime.timedelta(days=7)
    new = services.start_event_from_template(actor=director_user, template=template, name="Club night 2",
                                             starts_on=day)  # fmt: skip
    new.refresh_from_db()
    old.refresh_from_db()
    assert (new.name, new.slug, new.starts_on, new.club_id) == ("Club night 2", "club-night-2", day, club.pk)
    assert_same_setup(old, new)
    assert not any(f.entries.exists() for f in tournament_selectors.flights(event=new))
    assert director_user in new.directors.all()


def test_a_template_survives_its_event_and_is_renamed_and_deleted(club, director_user):
    old = make_event(club, director_user, name="Once")
    tournament_services.add_flight(actor=director_user, event=old, name="Main", entry_fee="5")
    template = services.save_event_template(actor=director_user, event=old, name="Weekly")
    old.flights.all().delete()
    old.delete()
    template.refresh_from_db()
    new = services.start_event_from_template(
        actor=director_user, template=template, name="Next", starts_on=datetime.date(2026, 6, 1)
    )
    assert [(f.name, str(f.entry_fee)) for f in new.flights.all()] == [("Main", "5.00")]
    services.rename_event_template(actor=director_user, template=template, name="Thursdays")
    assert EventTemplate.objects.get(pk=template.pk).name == "Thursdays"
    services.delete_event_template(actor=director_user, template=template)
    assert not EventTemplate.objects.filter(pk=template.pk).exists()
    assert Event.objects.filter(pk=new.pk).exists()  # the event started from it stays


def test_bad_input_is_refused_with_a_message_and_nothing_made(club, director_user):
    old = make_event(club, director_user, name="Source")
    tournament_services.add_flight(actor=director_user, event=old, name="Main")
    template = services.save_event_template(actor=director_user, event=old, name="T")
    with translation.override("en"):
        for name in ("", "   ", "x" * 81, "line\nbreak", "tab\there"):
            with pytest.raises(Invalid, match="1 to 80 characters"):
                services.save_event_template(actor=director_user, event=old, name=name)
        with pytest.raises(Invalid, match="already"):
            services.save_event_template(actor=director_user, event=old, name="T")
        with pytest.raises(Invalid, match="name"):
            services.start_event_from_template(actor=director_user, template=template, name=" ",
                                               starts_on=datetime.date(2026, 6, 1))  # fmt: skip
        with pytest.raises(Invalid, match="date"):
            services.start_event_from_template(actor=director_user, template=template, name="X", starts_on="soon")
        with pytest.raises(Conflict, match="short name"):  # the source's slug is taken
            services.start_event_from_template(actor=director_user, template=template, name="Source",
                                               starts_on=datetime.date(2026, 6, 1))  # fmt: skip
    assert Event.objects.filter(club=club).count() == 1


def test_a_template_whose_club_payout_table_was_deleted_is_refused_with_a_message(club, director_user):
    old = club_night(club, director_user)
    template = services.save_event_template(actor=director_user, event=old, name="Nights")
    tournament_services.set_flight_payouts(actor=director_user, flight=old.flights.get(slug="main"), table="winner")
    ClubPayoutTable.objects.filter(club=club).delete()
    with translation.override("en"), pytest.raises(Invalid, match="Main of this template"):
        services.start_event_from_template(actor=director_user, template=template, name="Later",
                                           starts_on=datetime.date(2026, 6, 1))  # fmt: skip
    assert not Event.objects.filter(name="Later").exists()


def test_another_clubs_template_is_refused(club, director_user):
    other = ClubFactory()
    other_director = MembershipFactory(club=other, role="director").player.user
    event = make_event(other, other_director, name="Theirs")
    tournament_services.add_flight(actor=other_director, event=event, name="Main")
    theirs = services.save_event_template(actor=other_director, event=event, name="Theirs")
    with pytest.raises(PermissionDenied):
        services.start_event_from_template(actor=director_user, template=theirs, name="Mine",
                                           starts_on=datetime.date(2026, 6, 1))  # fmt: skip
    with pytest.raises(PermissionDenied):
        services.save_event_template(actor=director_user, event=event, name="Stolen")
    # the pages find a template within the club of the URL: another club's id is a 404 there
    url = reverse("data:event-template", kwargs={"slug": club.slug, "pk": theirs.pk})
    assert web(director_user).get(url).status_code == 404
    assert Event.objects.filter(name="Mine").count() == 0


# --- the pages, the API, the demo ------------------------------------------------------------------------------


def test_the_pages_save_list_start_rename_and_delete(club, director_user, member_user):
    old = club_night(club, director_user)
    client = web(director_user)
    listing = reverse("data:event-templates", kwargs={"slug": club.slug})
    saved = client.post(listing, {"event": old.slug, "name": "Thursday night"})
    template = EventTemplate.objects.get(club=club)
    assert saved.status_code == 302 and saved["Location"] == reverse(
        "data:event-template", kwargs={"slug": club.slug, "pk": template.pk}
    )
    with translation.override("en"):
        assert "Save as a template" in client.get(old.get_absolute_url()).content.decode()
        page = client.get(listing).content.decode()
        assert "Thursday night" in page and "Main, Consolation, Swiss" in page
    url = reverse("data:event-template", kwargs={"slug": club.slug, "pk": template.pk})
    started = client.post(url, {"action": "start", "event_name": "Thursday 2", "starts_on": "2026-05-08"})
    new = Event.objects.get(club=club, slug="thursday-2")
    assert started["Location"] == new.get_absolute_url() and new.starts_on == datetime.date(2026, 5, 8)
    assert_same_setup(old, new)
    with translation.override("en"):
        refused = client.post(url, {"action": "start", "event_name": "X", "starts_on": "next week"}, follow=True)
        assert "Give the first day as a date." in refused.content.decode()
        refused = client.post(url, {"action": "rename", "name": ""}, follow=True)
        assert "1 to 80 characters" in refused.content.decode()
    client.post(url, {"action": "rename", "name": "Thursdays"})
    assert EventTemplate.objects.get(pk=template.pk).name == "Thursdays"
    assert web(member_user).get(url).status_code == 403
    client.post(url, {"action": "delete"})
    assert not EventTemplate.objects.exists() and Event.objects.filter(pk=new.pk).exists()


def test_the_api_saves_starts_and_refuses(club, director_user, api_as):
    old = club_night(club, director_user)
    client = api_as(director_user)
    base = f"/api/v1/clubs/{club.slug}/event-templates/"
    made = client.post(base, {"event": old.slug, "name": "Night"}, format="json", HTTP_IDEMPOTENCY_KEY="save-1")
    assert made.status_code == 201, made.content
    again = client.post(base, {"event": old.slug, "name": "Night"}, format="json", HTTP_IDEMPOTENCY_KEY="save-1")
    assert again.status_code == 201 and EventTemplate.objects.count() == 1  # the retry replays, saves nothing
    pk = made.json()["id"]
    assert [f["slug"] for f in made.json()["flights"]] == ["main", "consolation", "swiss", "swiss-cut"]
    start = client.post(f"{base}{pk}/start/", {"name": "Night 2", "starts_on": "2026-05-08"}, format="json",
                        HTTP_IDEMPOTENCY_KEY="start-1")  # fmt: skip
    assert start.status_code == 201, start.content
    assert start.json()["flights"] == ["main", "consolation", "swiss", "swiss-cut"]
    assert_same_setup(old, Event.objects.get(club=club, slug=start.json()["slug"]))
    with translation.override("en"):
        bad = client.post(f"{base}{pk}/start/", {"name": "", "starts_on": "2026-05-08"}, format="json")
        assert bad.status_code == 400
        bad = client.patch(f"{base}{pk}/", {"name": "x" * 81}, format="json")
        assert bad.status_code == 400 and "name" in bad.content.decode()
        bad = client.patch(f"{base}{pk}/", {"name": "a\u0007b"}, format="json")
        assert bad.status_code == 400 and "1 to 80 characters" in bad.content.decode()
        missing = client.post(base, {"event": "no-such-event", "name": "N"}, format="json")
        assert missing.status_code == 400 and "no such event" in missing.content.decode()
    other = ClubFactory()
    other_director = MembershipFactory(club=other, role="director").player.user
    theirs_event = make_event(other, other_director, name="Theirs")
    tournament_services.add_flight(actor=other_director, event=theirs_event, name="Main")
    theirs = services.save_event_template(actor=other_director, event=theirs_event, name="Theirs")
    assert client.post(f"{base}{theirs.pk}/start/", {"name": "Mine", "starts_on": "2026-05-08"},
                       format="json").status_code == 404  # fmt: skip
    assert client.delete(f"{base}{pk}/").status_code == 204


def test_the_demo_club_night_template_starts_the_spring_opens_flights_in_one_step():
    from django.core.management import call_command

    from clubs.models import Club, Membership

    call_command("load_demo")
    club = Club.objects.get(slug="bc-berlin")
    director = Membership.objects.get(club=club, player__user__username="director").player.user
    template = EventTemplate.objects.get(club=club, name="Club night")
    url = reverse("data:event-template", kwargs={"slug": club.slug, "pk": template.pk})
    day = datetime.date.today() + datetime.timedelta(days=7)
    response = web(director).post(url, {"event_name": "Club night next week", "starts_on": day.isoformat()})
    new = Event.objects.get(club=club, name="Club night next week")
    assert response["Location"] == new.get_absolute_url()
    assert [(f.slug, f.kind) for f in tournament_selectors.flights(event=new)] == [
        ("main", "main"), ("consolation", "consolation"), ("last-chance", "last_chance")
    ]  # fmt: skip
    assert_same_setup(Event.objects.get(club=club, slug="spring-open"), new)
    call_command("load_demo")  # again: the one template
    assert EventTemplate.objects.filter(club=club).count() == 1
