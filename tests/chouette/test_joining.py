"""Opening and joining a table: a member opens a table and invites, the invited accept on their own phones, a
newcomer asks with the table's join code and the opener (or a director) approves. Every refusal leaves the
seats, the events and the ledger as they were."""

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import translation

from base.errors import Conflict, Invalid, NotFound
from chouette import services
from chouette.models import (
    JOIN_CODE_ALPHABET,
    ChouetteSession,
    EventKind,
    LedgerEntry,
    RequestStatus,
    Seat,
    SessionEvent,
    SessionStatus,
    TableRequest,
)
from chouette.services import joining
from clubs.models import Player
from tests.clients import web
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_wrong_codes_counted_before():
    cache.clear()  # the guessing bound counts per user in the cache; ids recur between tests on SQLite
    yield
    cache.clear()


def members(club, names):
    return {name: MembershipFactory(club=club, player__name=name).player for name in names}


def opened(club, names=("A", "B", "C", "D")):
    """A table opened by A (a member, no director), the others invited."""
    p = members(club, names)
    session = services.create_session(actor=p[names[0]].user, club=club, invite=[p[n] for n in names[1:]])
    return session, p


def invitation(session, player) -> TableRequest:
    return TableRequest.objects.get(session=session, player=player, status=RequestStatus.PENDING)


def seated(session) -> list[str]:
    return sorted(session.seats.exclude(status="left").values_list("player__name", flat=True))


def footprint(session) -> tuple:
    """What a refusal must not change: the seats, the events and the ledger of the table."""
    session.refresh_from_db()
    return (
        sorted(Seat.objects.filter(session=session).values_list("player_id", "status")),
        list(SessionEvent.objects.filter(session=session).values_list("seq", "kind", "player_id", "is_current")),
        list(LedgerEntry.objects.filter(session=session).values_list("game_number", "player_id", "cents")),
        list(session.order),
    )


# --- opening with invitations ------------------------------------------------------------------------------


def test_a_member_opens_a_table_sits_down_at_once_and_the_invited_wait_for_their_own_yes(club):
    session, p = opened(club)
    assert seated(session) == ["A"]
    assert session.status == SessionStatus.SEATING
    assert len(session.join_code) == 5 and set(session.join_code) <= set(JOIN_CODE_ALPHABET)
    assert sorted(TableRequest.objects.filter(session=session).values_list("player__name", "kind", "status")) == [
        ("B", "invitation", "pending"),
        ("C", "invitation", "pending"),
        ("D", "invitation", "pending"),
    ]


def test_the_order_is_rolled_once_three_sit_and_a_later_acceptance_joins_as_a_newcomer(club):
    session, p = opened(club)
    services.answer_invitation(actor=p["B"].user, request=invitation(session, p["B"]), accept=True)
    with translation.override("en"), pytest.raises(Invalid, match="at least 3 players"):
        services.roll_for_order(actor=p["A"].user, session=session, rolls={p["A"].pk: 5, p["B"].pk: 3})
    services.answer_invitation(actor=p["C"].user, request=invitation(session, p["C"]), accept=True)
    session, ties = services.roll_for_order(
        actor=p["B"].user, session=session, rolls={p["A"].pk: 6, p["B"].pk: 4, p["C"].pk: 2}
    )
    assert ties == [] and session.status == SessionStatus.OPEN and session.order == [p[n].pk for n in "ABC"]
    services.answer_invitation(actor=p["D"].user, request=invitation(session, p["D"]), accept=True)
    session.refresh_from_db()
    assert session.order == [p[n].pk for n in "ABCD"]  # a newcomer at the bottom (the default rule)
    assert SessionEvent.objects.filter(session=session, kind=EventKind.JOIN, player=p["D"]).exists()


def test_declining_seats_nobody_and_the_answer_is_kept(club):
    session, p = opened(club)
    before = footprint(session)
    row = services.answer_invitation(actor=p["B"].user, request=invitation(session, p["B"]), accept=False)
    assert row.status == RequestStatus.DECLINED and row.decided_by == p["B"].user and row.decided_at
    assert footprint(session) == before
    with pytest.raises(Conflict):  # answered once: a second tap changes nothing
        services.answer_invitation(actor=p["B"].user, request=row, accept=True)
    assert footprint(session) == before


def test_nobody_accepts_someone_elses_invitation(club, director_user):
    session, p = opened(club)
    before = footprint(session)
    for actor in (p["A"].user, p["C"].user, director_user, PlayerFactory().user):
        with pytest.raises(PermissionDenied):
            services.answer_invitation(actor=actor, request=invitation(session, p["B"]), accept=True)
    assert footprint(session) == before and invitation(session, p["B"]).status == RequestStatus.PENDING


def test_a_walk_in_is_seated_by_a_director_and_a_player_is_told_so(club, director_user):
    p = members(club, ("A", "B"))
    walk_in = Player.objects.create(name="Walter", created_by_club=club)
    with translation.override("en"), pytest.raises(Invalid, match="a director of the club seats walk-ins"):
        services.create_session(actor=p["A"].user, club=club, invite=[p["B"], walk_in])
    assert not ChouetteSession.objects.exists()
    session = services.create_session(actor=p["A"].user, club=club, invite=[p["B"]])
    with pytest.raises(Invalid):
        services.invite(actor=p["A"].user, session=session, players=[walk_in])
    made = services.invite(actor=director_user, session=session, players=[walk_in])
    assert made == [] and seated(session) == ["A", "Walter"]  # seated at once: there is nobody to ask


def test_invitations_are_refused_for_strangers_doubles_and_more_than_the_free_seats(club):
    session, p = opened(club, ("A", "B"))
    stranger = MembershipFactory(club=ClubFactory()).player
    with translation.override("en"):
        with pytest.raises(Invalid, match="not a member of this club"):
            services.invite(actor=p["A"].user, session=session, players=[stranger])
        with pytest.raises(Invalid, match="already invited"):
            services.invite(actor=p["A"].user, session=session, players=[p["B"]])
        with pytest.raises(Invalid, match="already at the table"):
            services.invite(actor=p["A"].user, session=session, players=[p["A"]])
        session.rules = {**session.rules, "max_players": 3, "partner_from": 0}
        session.save(update_fields=["rules"])
        extra = members(club, ("X", "Y"))
        with pytest.raises(Invalid, match="1 free seats"):
            services.invite(actor=p["A"].user, session=session, players=[extra["X"], extra["Y"]])
    assert TableRequest.objects.filter(session=session).count() == 1


def test_only_the_tables_players_and_the_clubs_directors_invite(club, director_user):
    session, p = opened(club, ("A", "B"))
    bystander, newcomer = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    with pytest.raises(PermissionDenied):
        services.invite(actor=bystander.user, session=session, players=[newcomer])
    with pytest.raises(PermissionDenied):  # invited is not seated: B cannot invite before accepting
        services.invite(actor=p["B"].user, session=session, players=[newcomer])
    assert len(services.invite(actor=director_user, session=session, players=[newcomer])) == 1


# --- joining by code ---------------------------------------------------------------------------------------


def started(club):
    """A table A opened and played one game at; B and C accepted."""
    session, p = opened(club, ("A", "B", "C"))
    for name in "BC":
        services.answer_invitation(actor=p[name].user, request=invitation(session, p[name]), accept=True)
    services.set_order(actor=p["A"].user, session=session, order=[p[n].pk for n in "ABC"])
    services.record_game(actor=p["A"].user, session=session, game={"winner": "team"}, expected_number=1)
    session.refresh_from_db()
    return session, p


def test_a_code_asks_and_the_opener_seats_the_newcomer_where_the_rotation_says(club):
    session, p = started(club)
    newcomer = MembershipFactory(club=club, player__name="N").player
    row, new = services.join_by_code(
        actor=newcomer.user, code=f" {session.join_code.lower()[:2]}-{session.join_code[2:]}"
    )
    assert new and row.kind == "join" and row.status == RequestStatus.PENDING
    assert services.join_by_code(actor=newcomer.user, code=session.join_code) == (row, False)  # asked again
    assert newcomer.pk not in session.order
    services.answer_join_request(actor=p["A"].user, request=row, approve=True)
    session.refresh_from_db()
    assert session.order == [p["B"].pk, p["C"].pk, p["A"].pk, newcomer.pk]  # B took the box; N at the bottom
    assert SessionEvent.objects.get(session=session, kind=EventKind.JOIN).player == newcomer


def test_a_director_approves_and_refuses_too_and_nobody_else_does(club, director_user):
    session, p = started(club)
    asking = [MembershipFactory(club=club).player for _ in range(2)]
    rows = [services.join_by_code(actor=a.user, code=session.join_code)[0] for a in asking]
    before = footprint(session)
    other_director = MembershipFactory(club=ClubFactory(), role="director").player.user
    for actor in (p["B"].user, asking[1].user, PlayerFactory().user, other_director):
        with pytest.raises(PermissionDenied):
            services.answer_join_request(actor=actor, request=rows[0], approve=True)
    with pytest.raises(Conflict):  # an invitation is answered by its invitee, not approved
        services.answer_join_request(actor=p["A"].user, request=_an_invitation(session, p), approve=True)
    assert footprint(session) == before
    services.answer_join_request(actor=director_user, request=rows[1], approve=False)
    assert footprint(session) == before
    services.answer_join_request(actor=director_user, request=rows[0], approve=True)
    assert asking[0].pk in ChouetteSession.objects.get(pk=session.pk).order


def _an_invitation(session, p):
    invited = MembershipFactory(club=session.club).player
    return services.invite(actor=p["A"].user, session=session, players=[invited])[0]


def test_a_code_refused_for_a_wrong_or_finished_or_other_clubs_table_says_the_same_and_changes_nothing(club):
    session, p = started(club)
    member = MembershipFactory(club=club).player
    done, q = started(ClubFactory())
    finished_code = done.join_code
    services.finish_session(actor=q["A"].user, session=done)
    before = footprint(session)
    with translation.override("en"):
        refusals = []
        for actor, code in (
            (member.user, "ZZZZZ" if session.join_code != "ZZZZZ" else "YYYYY"),  # wrong
            (member.user, "AB"),  # not a code at all
            (member.user, finished_code),  # its table finished
            (PlayerFactory().user, session.join_code),  # not a member of the club
            (MembershipFactory(club=ClubFactory()).player.user, session.join_code),  # another club's table
        ):
            with pytest.raises(NotFound) as refused:
                services.join_by_code(actor=actor, code=code)
            refusals.append(str(refused.value.message))
    assert len(set(refusals)) == 1 and "Check the code with the players" in refusals[0]
    assert footprint(session) == before and not TableRequest.objects.filter(kind="join").exists()


def test_a_full_table_refuses_the_code_and_says_what_to_do(club):
    session, p = started(club)
    session.rules = {**session.rules, "max_players": 3, "partner_from": 0}
    session.save(update_fields=["rules"])
    before = footprint(session)
    with translation.override("en"), pytest.raises(Conflict, match="full .*open a new table"):
        services.join_by_code(actor=MembershipFactory(club=club).player.user, code=session.join_code)
    with pytest.raises(Conflict):  # and a seated player is told they sit here already
        services.join_by_code(actor=p["B"].user, code=session.join_code)
    assert footprint(session) == before


def test_a_table_filled_meanwhile_refuses_the_approval(club):
    session, p = opened(club, ("A", "B", "C"))
    row, _ = services.join_by_code(actor=MembershipFactory(club=club).player.user, code=session.join_code)
    for name in "BC":
        services.answer_invitation(actor=p[name].user, request=invitation(session, p[name]), accept=True)
    session.rules = {**session.rules, "max_players": 3, "partner_from": 0}
    session.save(update_fields=["rules"])
    with translation.override("en"), pytest.raises(Invalid, match="full"):
        services.answer_join_request(actor=p["A"].user, request=row, approve=True)
    assert seated(session) == ["A", "B", "C"] and TableRequest.objects.get(pk=row.pk).status == "pending"


def test_an_invited_player_who_uses_the_code_sits_down_at_once(club):
    session, p = opened(club, ("A", "B"))
    row, _ = services.join_by_code(actor=p["B"].user, code=session.join_code)
    assert row.kind == "invitation" and row.status == RequestStatus.ACCEPTED and seated(session) == ["A", "B"]


def test_guessing_is_bounded_the_right_code_too_after_ten_misses(club):
    session, p = opened(club, ("A", "B"))
    guesser = MembershipFactory(club=club).player.user
    wrong = "ZZZZZ" if session.join_code != "ZZZZZ" else "YYYYY"
    for _ in range(joining.WRONG_CODES_ALLOWED):
        with pytest.raises(NotFound):
            services.join_by_code(actor=guesser, code=wrong)
    with translation.override("en"), pytest.raises(Conflict, match="Too many codes"):
        services.join_by_code(actor=guesser, code=session.join_code)
    assert services.join_by_code(actor=p["B"].user, code=session.join_code)[0].status == "accepted"  # others not


def test_a_code_is_unique_among_open_tables_in_the_database_and_free_again_once_finished(club):
    session, p = started(club)
    other, _ = opened(club, ("E", "F"))
    with pytest.raises(IntegrityError), transaction.atomic():
        ChouetteSession.objects.filter(pk=other.pk).update(join_code=session.join_code)
    services.finish_session(actor=p["A"].user, session=session)
    ChouetteSession.objects.filter(pk=other.pk).update(join_code=session.join_code)
    assert ChouetteSession.objects.filter(join_code=session.join_code).count() == 2


# --- pages ---------------------------------------------------------------------------------------------------


def test_the_invited_player_sees_it_on_their_home_page_and_accepts_in_one_tap(club):
    session, p = opened(club, ("A", "B"))
    with translation.override("en"):
        home = web(p["B"].user).get("/").content.decode()
    row = invitation(session, p["B"])
    assert "invites you to" in home and f"/chouette/requests/{row.pk}/accept/" in home
    assert f"/chouette/requests/{row.pk}/accept/" in web(p["B"].user).get("/chouette/").content.decode()
    response = web(p["B"].user).post(f"/chouette/requests/{row.pk}/accept/")
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    assert seated(session) == ["A", "B"]


def test_someone_elses_invitation_is_404_on_the_page(club):
    session, p = opened(club, ("A", "B", "C"))
    row = invitation(session, p["B"])
    for user in (p["A"].user, p["C"].user):
        assert web(user).post(f"/chouette/requests/{row.pk}/accept/").status_code == 404
    assert web().post(f"/chouette/requests/{row.pk}/accept/").status_code == 302  # to the sign-in page
    assert seated(session) == ["A"]


def test_the_table_page_shows_the_code_and_qr_to_its_players_only_and_the_opener_approves_there(club):
    session, p = opened(club, ("A", "B"))
    url = session.get_absolute_url()
    shown = f"data-join-code>{session.join_code}<"
    page = web(p["A"].user).get(url).content.decode()
    assert shown in page and 'class="segno"' in page and f"/chouette/join/{session.join_code}/" in page
    for viewer in (None, MembershipFactory(club=club).player.user, PlayerFactory().user):
        text = web(viewer).get(url).content.decode()
        assert shown not in text and 'class="segno"' not in text and f"/join/{session.join_code}/" not in text
    newcomer = MembershipFactory(club=club, player__name="Nina").player
    web(newcomer.user).post("/chouette/join/", {"code": session.join_code})
    row = TableRequest.objects.get(player=newcomer)
    with translation.override("en"):
        page = web(p["A"].user).get(url).content.decode()
        assert "Nina asks to join" in page and "Approve Nina" in page
        assert "Approve Nina" not in web(p["B"].user).get(url).content.decode()  # B only invited
        assert "1 player asks to join" in web(p["A"].user).get("/").content.decode()  # the opener's home page
        assert "asks to join" not in web(p["B"].user).get("/").content.decode()
    assert web(p["A"].user).post(f"/chouette/requests/{row.pk}/approve/").status_code == 302
    assert seated(session) == ["A", "Nina"]


def test_the_join_page_asks_by_code_and_refuses_what_names_no_table_without_saying_more(club):
    session, p = opened(club, ("A", "B"))
    member = MembershipFactory(club=club).player
    assert web().get("/chouette/join/").status_code == 302  # sign-in first
    form = web(member.user).get(f"/chouette/join/{session.join_code}/").content.decode()
    assert f'value="{session.join_code}"' in form
    with translation.override("en"):
        refused = web(member.user).post("/chouette/join/", {"code": "ZZZZ9"}, follow=True)
        outsider = web(PlayerFactory().user).post("/chouette/join/", {"code": session.join_code}, follow=True)
    for response in (refused, outsider):
        text = response.content.decode()
        assert response.status_code == 200 and "No open table of your clubs has this code" in text
        assert f"/join/{session.join_code}/" not in text and "data-join-code" not in text
    response = web(member.user).post("/chouette/join/", {"code": session.join_code})
    assert response.status_code == 302 and TableRequest.objects.filter(player=member, kind="join").exists()


def test_a_member_opens_a_table_with_invitations_from_the_form(club):
    p = members(club, ("A", "B", "C"))
    form = web(p["A"].user).get(f"/chouette/{club.slug}/new/").content.decode()
    assert 'name="invite"' in form and 'name="players"' not in form
    body = {"invite": [p["B"].pk, p["C"].pk], "stake_cents": 100, "max_players": 10, "partner_from": 6}
    body |= {"cubes": "multi", "box_keeps": "beats_captain", "acting_captain": "highest_taker"}
    body |= {"box_min_takes": "none", "partner_split": "odd_to_box", "newcomer": "bottom", "automatic_doubles": 0}
    response = web(p["A"].user).post(f"/chouette/{club.slug}/new/", body)
    session = ChouetteSession.objects.get()
    assert response.status_code == 302 and seated(session) == ["A"]
    assert TableRequest.objects.filter(session=session, status="pending").count() == 2


# --- API -------------------------------------------------------------------------------------------------------


def test_the_api_opens_invites_accepts_declines_joins_approves_and_refuses(club, api_as):
    p = members(club, ("A", "B", "C", "D", "E"))
    created = api_as(p["A"].user).post(
        "/api/v1/chouette/sessions/", {"club": club.slug, "invite": [p["B"].pk, p["C"].pk]}, format="json"
    )
    assert created.status_code == 201
    session = ChouetteSession.objects.get(pk=created.json()["id"])
    assert created.json()["join_code"] == session.join_code
    table_url = f"/api/v1/chouette/sessions/{session.pk}/"
    assert api_as(None).get(table_url).json()["join_code"] is None
    assert len(api_as(None).get(table_url + "requests/").json()) == 2
    mine = api_as(p["B"].user).get("/api/v1/chouette/requests/").json()["results"]
    assert [(r["kind"], r["table"]) for r in mine] == [("invitation", str(session))]
    b_row, c_row = invitation(session, p["B"]), invitation(session, p["C"])
    assert api_as(p["C"].user).post(f"/api/v1/chouette/requests/{b_row.pk}/accept/").status_code == 404
    accepted = api_as(p["B"].user).post(f"/api/v1/chouette/requests/{b_row.pk}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert api_as(p["C"].user).post(f"/api/v1/chouette/requests/{c_row.pk}/decline/").json()["status"] == "declined"
    more = api_as(p["B"].user).post(table_url + "invitations/", {"players": [p["C"].pk]}, format="json")
    assert more.status_code == 201 and more.json()[0]["name"] == "C"
    assert (
        api_as(p["E"].user).post(table_url + "invitations/", {"players": [p["C"].pk]}, format="json").status_code == 403
    )

    asked = api_as(p["D"].user).post("/api/v1/chouette/join/", {"code": session.join_code.lower()}, format="json")
    assert asked.status_code == 201 and asked.json()["kind"] == "join"
    again = api_as(p["D"].user).post("/api/v1/chouette/join/", {"code": session.join_code}, format="json")
    assert again.status_code == 200 and again.json()["id"] == asked.json()["id"]
    row = asked.json()["id"]
    assert api_as(p["B"].user).post(f"/api/v1/chouette/requests/{row}/approve/").status_code == 404  # not theirs
    approved = api_as(p["A"].user).post(f"/api/v1/chouette/requests/{row}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "accepted"
    asked = api_as(p["E"].user).post("/api/v1/chouette/join/", {"code": session.join_code}, format="json")
    refused = api_as(p["A"].user).post(f"/api/v1/chouette/requests/{asked.json()['id']}/refuse/")
    assert refused.json()["status"] == "declined" and seated(session) == ["A", "B", "D"]


def test_the_api_refuses_codes_alike_and_needs_a_sign_in(club, api_as):
    session, p = opened(club, ("A", "B"))
    assert api_as(None).post("/api/v1/chouette/join/", {"code": session.join_code}, format="json").status_code in (
        401,
        403,
    )
    with translation.override("en"):
        wrong = api_as(MembershipFactory(club=club).player.user).post(
            "/api/v1/chouette/join/", {"code": "ZZZZ9"}, format="json"
        )
        stranger = api_as(PlayerFactory().user).post(
            "/api/v1/chouette/join/", {"code": session.join_code}, format="json"
        )
    assert wrong.status_code == stranger.status_code == 404
    assert wrong.json()["code"] == stranger.json()["code"] == "join_code_unknown"
    assert wrong.json()["detail"] == stranger.json()["detail"]
    too_long = api_as(p["B"].user).post("/api/v1/chouette/join/", {"code": "X" * 200}, format="json")
    assert too_long.status_code == 400
    assert not TableRequest.objects.filter(kind="join").exists()


def test_the_joining_texts_read_in_german(club):
    session, p = opened(club, ("A", "B"))
    member = MembershipFactory(club=club).player
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    refused = web(member.user).post("/chouette/join/", {"code": "ZZZZ9"}, follow=True, **german).content.decode()
    assert "Kein offener Tisch deiner Clubs hat diesen Code" in refused
    home = web(p["B"].user).get("/", **german).content.decode()
    assert "lädt dich an diesen Tisch ein" in home
    table = web(p["A"].user).get(session.get_absolute_url(), **german).content.decode()
    assert "An diesem Tisch mitspielen" in table and "B: eingeladen, noch keine Antwort" in table


def test_asking_what_the_join_and_invite_endpoints_take_answers_and_an_empty_invitation_list_is_refused(club, api_as):
    """The schema fuzzer's finds: OPTIONS on the join endpoint answered 500 (a DRF mixin on a view without one), and
    an empty list of players to invite was refused though the schema allowed it (it now says minItems 1)."""
    p = members(club, ("A", "B"))
    client = api_as(p["A"].user)
    assert client.options("/api/v1/chouette/join/", {"code": "0"}, format="json").status_code == 200
    session = services.create_session(actor=p["A"].user, club=club, players=[], invite=[p["B"]])
    empty = client.post(f"/api/v1/chouette/sessions/{session.pk}/invitations/", {"players": []}, format="json")
    assert empty.status_code == 400 and list(empty.json()["errors"]) == ["players"]
