"""Nothing a user can send gives a 500, and every refusal of the core has a translated sentence."""

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.messages import MESSAGES
from tests.chouette.factories import table

CORE = Path(__file__).resolve().parents[2] / "chouette" / "core"


def test_every_core_refusal_has_a_translated_sentence():
    codes = set()
    for source in CORE.glob("*.py"):
        codes |= set(re.findall(r'(?:ChouetteError|_err)\(\s*"([a-z_]+)"', source.read_text()))
    assert len(codes) > 40
    assert codes - set(MESSAGES) == set()  # even the internal event kind reads as a sentence if it ever surfaces


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.text(max_size=8))
answers = st.fixed_dictionaries(
    {
        "player": st.one_of(scalars, st.sampled_from(["A", "B", "C", "D"])),
        "response": st.one_of(scalars, st.sampled_from(["take", "drop", "beaver", "raccoon"])),
    }
)
events = st.fixed_dictionaries(
    {"doubler": st.one_of(scalars, st.sampled_from(["box", "team"])), "responses": st.lists(answers, max_size=4)}
)
games = st.fixed_dictionaries(
    {},
    optional={
        "events": st.one_of(scalars, st.lists(events, max_size=3)),
        "winner": st.one_of(scalars, st.sampled_from(["box", "team"])),
        "kind": st.one_of(scalars, st.sampled_from(["single", "gammon", "backgammon"])),
        "acting_captain": st.one_of(scalars, st.sampled_from(["A", "B", "C", "D"])),
        "partner": st.one_of(scalars, st.sampled_from(["A", "D"])),
        "automatic_doubles": scalars,
        "claimed": st.one_of(
            scalars, st.lists(st.fixed_dictionaries({"player": scalars, "points": scalars}), max_size=3)
        ),
        "member_results": st.one_of(
            scalars, st.lists(st.fixed_dictionaries({"player": scalars, "winner": scalars}), max_size=2)
        ),
        "expected_number": scalars,
    },
)


def resolve(value, ids):
    """Swap the letters A-D for the seated players' ids, anywhere in the body."""
    if isinstance(value, dict):
        return {k: resolve(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, ids) for v in value]
    return ids.get(value, value) if isinstance(value, str) else value


@pytest.mark.django_db
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(body=games)
def test_any_game_body_gets_an_answer_never_a_500(api_as, club, body):
    if not hasattr(club, "_chouette"):
        club._chouette = table(club)
    session, players, director = club._chouette
    ids = {name: p.pk for name, p in players.items()}
    response = api_as(director).post(
        f"/api/v1/chouette/sessions/{session.pk}/games/", resolve(body, ids), format="json"
    )
    assert response.status_code in (200, 201, 400, 409), response.content
