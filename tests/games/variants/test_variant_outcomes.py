"""Each variant's scoresheet offers its own results only (a backgammon match no oin or mars, a long nardy match
no gammon, Dave stakes no gammon), and a result the variant does not have is refused naming those it has: on
the page, through the API and in the service."""

import pytest
from django.test import Client
from django.utils import translation

from games.matchplay import services
from games.matchplay.forms import GameForm
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.refusals import ValidationError

pytestmark = pytest.mark.django_db

OFFERED = {
    ("standard", "cube"): ["single", "gammon", "backgammon", "drop", "resign"],
    ("nackgammon", "cube"): ["single", "gammon", "backgammon", "drop", "resign"],
    ("hypergammon", "cube"): ["single", "gammon", "backgammon", "drop", "resign"],
    ("backward", "cube"): ["single", "gammon", "backgammon", "drop", "resign"],
    ("long_nardy", "cube"): ["oin", "mars", "resign"],
    ("standard", "dave"): ["single", "drop", "resign"],
}


def _match(club, **kwargs):
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    return MatchFactory(club=club, player_a=a, player_b=b, length=5, **kwargs)


@pytest.mark.parametrize(("variant", "stakes"), list(OFFERED))
def test_the_scoresheet_offers_only_the_results_of_the_matchs_game(club, variant, stakes):
    match = _match(club, variant=variant, stakes=stakes)
    form = GameForm(match=match)
    assert [value for value, _label in form.fields["kind"].choices] == OFFERED[variant, stakes]
    if "resign_level" in form.fields:
        levels = [value for value, _label in form.fields["resign_level"].choices if value != ""]
        assert levels == ([1, 2] if variant == "long_nardy" else [1, 2, 3])


def test_the_backgammon_match_page_has_no_oin_or_mars(club):
    match = _match(club)
    client = Client()
    client.force_login(match.player_a.user)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'value="gammon"' in page
    assert 'value="oin"' not in page and 'value="mars"' not in page and "Oin" not in page


def test_an_oin_posted_to_a_backgammon_scoresheet_is_refused_naming_the_results_it_has(club):
    match = _match(club)
    client = Client()
    client.force_login(match.player_a.user)
    page = client.post(f"/matches/{match.pk}/games/", {"winner_side": "0", "kind": "oin", "cube": "1"}, follow=True)
    text = page.content.decode()
    assert "In Backgammon a game ends in: Single game, Gammon, Backgammon, Dropped double, Resignation." in text
    assert not match.games.exists()


def test_the_refusal_reads_in_german(club):
    match = _match(club, variant="long_nardy")
    client = Client()
    client.force_login(match.player_a.user)
    with translation.override("en"):
        page = client.post(
            f"/matches/{match.pk}/games/",
            {"winner_side": "0", "kind": "gammon", "cube": "1"},
            follow=True,
            headers={"accept-language": "de"},
        ).content.decode()
    assert "In Lange Nardy endet ein Spiel mit: Oin" in page
    assert not match.games.exists()


def test_the_service_refuses_an_oin_in_backgammon_naming_what_works(club):
    match = _match(club)
    with pytest.raises(ValidationError) as refused:
        services.record_game(actor=match.player_a.user, match=match, winner_side=0, kind="oin")
    assert refused.value.error_dict["kind"][0].code == "no_such_result"
    assert "single, gammon or backgammon, a dropped double or a resignation" in " ".join(refused.value.messages)
    assert not match.games.exists()


def test_the_api_refuses_a_mars_in_nackgammon(club):
    from rest_framework.test import APIClient

    match = _match(club, variant="nackgammon")
    client = APIClient()
    client.force_authenticate(match.player_a.user)
    refused = client.post(f"/api/v1/matches/{match.pk}/games/", {"winner_side": 0, "kind": "mars"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "no_such_result" and refused.json()["field"] == "kind"
    assert "oin and mars are long nardy's" in refused.json()["detail"]
