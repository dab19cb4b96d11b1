"""The member import: a preview row by row, nothing applied before the confirmation, then all in one transaction;
the same file again changes nothing; the members file exported and imported again changes nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from clubs.models import Membership, Player
from data import imports, services
from tests.clients import web
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}

SAMPLE = (
    "name;email;rating;number\n"
    "Anna Neu;anna@example.org;1612,5;BC-1\n"
    "Bernd Neu;;1500;BC-2\n"
    "Anna Neu;anna@example.org;1612,5;BC-1\n"  # row 4: the same as row 2
    "=cmd;nomail;abc;BC-3\n"  # row 5: bad e-mail and rating
)


def _url(club):
    return reverse("data:import-members", kwargs={"slug": club.slug})


def _rows(plan):
    return [(row.line, row.action) for row in plan.rows]


def _snapshot(club):
    return sorted(
        Membership.objects.filter(club=club).values_list("player__name", "email", "rating", "number", "status")
    )


def test_the_preview_says_row_by_row_what_happens_and_changes_nothing(club, director_user):
    before = _snapshot(club)
    with translation.override("en"):
        response = web(director_user).post(_url(club), {"text": SAMPLE})
    assert response.status_code == 200
    plan = response.context["plan"]
    assert _rows(plan) == [(2, "create"), (3, "create"), (4, "refuse"), (5, "refuse")]
    reasons = {row.line: row.reason for row in plan.rows}
    assert reasons[4] == "the same as row 2"
    assert "is no e-mail address" in reasons[5] and "is not a number" in reasons[5]
    body = response.content.decode()
    assert 'data-row="5"' in body and "Apply these changes" in body
    assert _snapshot(club) == before  # a preview writes nothing


def test_confirming_applies_the_preview_and_the_same_file_again_changes_nothing(club, director_user):
    client = web(director_user)
    plan = client.post(_url(club), {"text": SAMPLE}).context["plan"]
    response = client.post(_url(club), {"text": SAMPLE, "digest": plan.digest, "confirm": "1"})
    assert response.status_code == 302
    anna = Membership.objects.get(club=club, player__name="Anna Neu")
    assert (anna.email, anna.rating, anna.number, anna.is_active) == ("anna@example.org", 1612.5, "BC-1", True)
    assert anna.player.user is None and anna.player.created_by_club == club  # a walk-in of the club
    after = _snapshot(club)

    again = client.post(_url(club), {"text": SAMPLE}).context["plan"]
    assert _rows(again) == [(2, "unchanged"), (3, "unchanged"), (4, "refuse"), (5, "refuse")]
    assert not again.changes_anything
    client.post(_url(club), {"text": SAMPLE, "digest": again.digest, "confirm": "1"})
    assert _snapshot(club) == after


def test_an_update_a_match_by_number_and_an_invitation_of_a_player_with_an_account(club, director_user):
    member = MembershipFactory(club=club, player__name="Clara Alt", number="BC-9")
    user = UserFactory(email="dora@example.org")
    dora = Player.objects.create(name="Dora", user=user)
    text = "number,name,rating,email\nBC-9,Clara A.,1701.25,\n,Dora D,,DORA@example.org\n"
    plan = imports.plan(club=club, text=text)
    assert _rows(plan) == [(2, "update"), (3, "invite")]
    services.import_members(actor=director_user, club=club, text=text, digest=plan.digest)
    member.refresh_from_db()
    assert member.rating == 1701.25 and member.player.name == "Clara Alt"  # matched by number, name kept
    invited = Membership.objects.get(club=club, player=dora)
    assert (invited.status, invited.is_active, invited.email) == ("invited", False, "dora@example.org")
    assert _rows(imports.plan(club=club, text=text)) == [(2, "unchanged"), (3, "unchanged")]


def test_a_headerless_pasted_list_takes_name_email_rating_number(club):
    plan = imports.plan(club=club, text="Eva Liste\tEVA@example.org\t1480\nFritz\n")
    assert [(r.name, r.email, r.rating, r.number) for r in plan.rows] == [
        ("Eva Liste", "eva@example.org", imports.Decimal("1480.00"), ""),
        ("Fritz", "", None, ""),
    ]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("name;email\nJürgen;j@example.org\n".encode("latin-1"), "Row 2 is not UTF-8 text"),
        (b"email;rating\nx@example.org;1500\n", "Row 1 names the columns email, rating but no name column"),
        (b"", "empty"),
        (b"name\n" + b"x" * imports.MAX_BYTES, "larger than 1 MB"),
        ("name\n" + "".join(f"P{i}\n" for i in range(imports.MAX_ROWS + 1)), "at most 5,000"),
        ("name\n" + "A" * 200_000, "Row 2 cannot be read: a cell is far too long"),  # answered 500
    ],
)
def test_a_file_that_cannot_be_read_is_refused_saying_why(club, director_user, raw, message):
    raw = raw.encode() if isinstance(raw, str) else raw
    upload = SimpleUploadedFile("members.csv", raw, content_type="text/csv")
    with translation.override("en"):
        response = web(director_user).post(_url(club), {"file": upload})
    assert response.status_code == 400
    assert message in response.content.decode()


@pytest.mark.parametrize("rating", ["NaN", "-Infinity", "1e999999", "sNaN", "5000.01"])
def test_a_rating_that_is_no_number_or_out_of_range_refuses_its_row_saying_so(club, director_user, rating):
    """ "NaN" passed the old reading (its quantize) and then failed its comparison with a 500."""
    with translation.override("en"):
        response = web(director_user).post(_url(club), {"text": f"name;rating\nX;{rating}\n"})
    assert response.status_code == 200
    assert "the rating" in response.content.decode() and rating in response.content.decode()


def test_two_members_of_one_name_and_a_clash_of_addresses_are_refused(club):
    MembershipFactory(club=club, player__name="Hans Gleich")
    MembershipFactory(club=club, player__name="Hans  gleich")
    MembershipFactory(club=club, player__name="Ina", email="ina@example.org")
    with translation.override("en"):
        plan = imports.plan(club=club, text="name,email\nHans Gleich,\nIna,other@example.org\nIna,ina@example.org\n")
    assert _rows(plan) == [(2, "refuse"), (3, "refuse"), (4, "unchanged")]
    assert plan.rows[0].reason.startswith("2 members are called Hans Gleich")


def test_nothing_is_applied_when_one_row_fails_and_a_changed_club_asks_for_a_new_preview(
    club, director_user, monkeypatch
):
    text = "name\nOne\nTwo\nThree\n"
    plan = imports.plan(club=club, text=text)
    before = _snapshot(club)
    from clubs import services as club_services

    made = []
    real = club_services.create_player

    def fail_on_the_third(**kwargs):
        made.append(kwargs["name"])
        if len(made) == 3:
            raise RuntimeError("the disk is full")
        return real(**kwargs)

    monkeypatch.setattr(club_services, "create_player", fail_on_the_third)
    with pytest.raises(RuntimeError):
        services.import_members(actor=director_user, club=club, text=text, digest=plan.digest)
    assert _snapshot(club) == before  # one transaction: the first two are gone too
    monkeypatch.setattr(club_services, "create_player", real)

    MembershipFactory(club=club, player__name="Two")  # someone adds "Two" meanwhile
    response = web(director_user).post(_url(club), {"text": text, "digest": plan.digest, "confirm": "1"})
    assert response.status_code == 409
    assert _rows(response.context["plan"]) == [(2, "create"), (3, "unchanged"), (4, "create")]
    assert _snapshot(club) == sorted(before + [("Two", "", None, "", "accepted")])


def test_only_the_club_s_directors_import(club, member_user, outsider_user):
    assert web(member_user).post(_url(club), {"text": "name\nX\n"}).status_code == 403
    assert web(outsider_user).get(_url(club)).status_code == 403
    hidden = ClubFactory(is_public=False)
    assert web(outsider_user).get(_url(hidden)).status_code == 404
    assert not Player.objects.filter(name="X").exists()


def test_round_trip_export_members_then_import_changes_nothing_and_keeps_every_member(club, director_user):
    MembershipFactory(club=club, player__name="Ärger; Groß", email="a@example.org", rating=1612.345, number="7")
    MembershipFactory(club=club, player__name="=Formel", email="", rating=None, number="")
    MembershipFactory(club=club, player__name='Quote "Q"', email="q@example.org", rating=1500.0, number="N-8")
    before = _snapshot(club)
    client = web(director_user)
    for language in ({"HTTP_ACCEPT_LANGUAGE": "en"}, GERMAN):
        exported = client.get(reverse("data:club-members", kwargs={"slug": club.slug}), **language)
        upload = SimpleUploadedFile("members.csv", exported.content, content_type="text/csv")
        plan = client.post(_url(club), {"file": upload}).context["plan"]
        assert {row.action for row in plan.rows} == {"unchanged"}, [(r.line, r.name, r.reason) for r in plan.rows]
        assert len(plan.rows) == Membership.objects.filter(club=club, is_active=True).count()
        client.post(_url(club), {"text": plan.text, "digest": plan.digest, "confirm": "1"})
        assert _snapshot(club) == before
