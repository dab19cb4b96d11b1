"""A stranger's probes of the variant surfaces (Dave stakes at a chouette table, the merge of the variants'
rating pools): each request once answered wrongly; now a 4xx says what would work, and nothing is stored."""

import pytest

from chouette.models import ChouetteSession, LedgerEntry
from tests.chouette.factories import table
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import make_event, members
from tournaments.models import Flight

pytestmark = pytest.mark.django_db


def _games(session):
    return f"/api/v1/chouette/sessions/{session.pk}/games/"


def _dave(player, stake, gave_up=None):
    return {"player": player.pk, "stake": stake, "gave_up": gave_up}


@pytest.mark.parametrize("copies", [2, 10_000])
def test_a_member_with_two_dave_lines_is_refused(api_as, club, copies):
    """B at 2 and again at 4 was once stored with the last line silently winning (and 10,000 lines were read)."""
    session, p, director = table(club, stake_form="dave", dave_progression="geometric")
    daves = [_dave(p["B"], 2)] * (copies - 1) + [_dave(p["B"], 4), _dave(p["C"], 1), _dave(p["D"], 1)]
    refused = api_as(director).post(_games(session), {"winner": "team", "daves": daves}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "dave_twice"
    assert not LedgerEntry.objects.filter(session=session).exists()
    german = api_as(director).post(
        _games(session), {"winner": "team", "daves": daves}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert "zwei Dave-Zeilen" in german.json()["detail"]


def test_one_dave_line_per_member_still_scores(api_as, club):
    session, p, director = table(club, stake_form="dave", dave_progression="geometric")
    daves = [_dave(p["B"], 2), _dave(p["C"], 4, "member"), _dave(p["D"], 1)]
    assert api_as(director).post(_games(session), {"winner": "team", "daves": daves}, format="json").status_code == 201


def test_only_an_admin_of_the_club_merges_its_variants(api_as, club, director_user):
    """Checked and fine: another club's admin and this club's director are refused; junk is a 400."""
    stranger = MembershipFactory(club=ClubFactory(), role="admin").player.user
    url = f"/api/v1/ratings/clubs/{club.slug}/merge-variants/"
    assert api_as(stranger).post(url, {"merge_variants": True}, format="json").status_code == 403
    refused = api_as(director_user).post(url, {"merge_variants": True}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 403
    # the refusal names what was asked (it once said "recompute its ratings" for a merge)
    assert "Varianten" in refused.json()["detail"]
    admin = MembershipFactory(club=club, role="admin").player.user
    assert api_as(admin).post(url, {"merge_variants": "NaN"}, format="json").status_code == 400
    assert api_as(admin).post(url, [1], format="json").status_code == 400


@pytest.mark.parametrize(
    "game", [{"variant": "long_nardy"}, {"stakes": "dave", "dave_progression": "arithmetic"}, {"variant": "nackgammon"}]
)
def test_a_jackpots_pods_are_played_in_the_jackpots_game(api_as, club, director_user, game):
    """A long nardy (or Dave) jackpot once filled its pods as plain backgammon flights: the pod copied the
    length, the clock and the payout, but not the game, so its matches were scored by the wrong rules."""
    event = make_event(club, director_user)
    api = api_as(director_user)
    flights = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    created = api.post(flights, {"name": "Jackpot", "kind": "jackpot", "pod_size": 4, **game}, format="json")
    assert created.status_code == 201
    for player in members(club, 4):
        entered = api.post(flights + "jackpot/entries/", {"player": player.pk}, format="json")
        assert entered.status_code == 201
    jackpot = Flight.objects.get(event=event, slug="jackpot")
    pod = Flight.objects.get(source=jackpot)
    assert (pod.variant, pod.stakes, pod.dave_progression) == (
        jackpot.variant,
        jackpot.stakes,
        jackpot.dave_progression,
    )
    matches = [slot.match for slot in pod.slots.filter(match__isnull=False).select_related("match")]
    assert matches and all((m.variant, m.stakes) == (jackpot.variant, jackpot.stakes) for m in matches)


def test_a_chouette_table_is_not_opened_in_long_nardy(api_as, club, director_user):
    """A long nardy table once opened and took cube actions and a gammon: long nardy has no cube and no gammon
    (oin and mars), and a chouette's games are scored by the one or the other."""
    players = [MembershipFactory(club=club).player for _ in range(3)]
    body = {"club": club.slug, "players": [p.pk for p in players], "variant": "long_nardy"}
    refused = api_as(director_user).post("/api/v1/chouette/sessions/", body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 400
    assert refused.json()["code"] == "nardy_no_chouette" and refused.json()["field"] == "variant"
    assert "Lange Nardy" in refused.json()["detail"]
    assert not ChouetteSession.objects.exists()
