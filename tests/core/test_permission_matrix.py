"""The permission matrix: every API operation (from the OpenAPI schema) and every page (from the URL resolver),
as each role — anonymous, outsider, member, involved player, director, club admin, site staff.

- Every operation and page has an entry in the declared policy below (who may); a new endpoint without one, or
  an entry for an endpoint that is gone, fails the test, so nothing is routed without a decision.
- Each write by a role without the right is refused and writes nothing to the database: 401/403/404 where the
  entry gives a body the right roles would succeed with (the refusal is about the role, not the input); for
  the rest never 2xx and never 5xx.
- Each read, by every role: the money of a chouette table (its unique stake and totals) appears only to the
  table's players and the club's directors, and a private club's member only to site staff.

The objects in the URLs are real: the demo club's event, match, session, Calcutta, … so a refusal is never the
404 of a missing object, except where noted.
"""

import io
import re
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from calcutta.models import Calcutta
from chouette import services as chouette_services
from clubs.models import Club, Membership, Player, Role
from data.models import EventTemplate
from games.models import GameRecord, Match
from ratings.models import Ladder
from tests.clients import api, web
from tests.core.api_sweep import api_operations, fill_with, page_patterns
from tournaments.models import Entry, Event, Slot

pytestmark = pytest.mark.django_db

PASSWORD = "matrix-password"
ROLES = ("anonymous", "outsider", "member", "involved", "director", "admin", "staff")

ANYONE = frozenset(ROLES)
SIGNED_IN = ANYONE - {"anonymous"}
MEMBERS = frozenset({"member", "involved", "director", "admin", "staff"})
PLAYERS = frozenset({"involved", "director", "admin", "staff"})  # the involved player and the club's directors
DIRECTORS = frozenset({"director", "admin", "staff"})
ADMINS = frozenset({"admin", "staff"})
STAFF = frozenset({"staff"})
NOBODY = frozenset()  # pages that only show or do something for the user themselves (their own data)

STAKE = 987_654  # the secret table's stake: its money is 9876.54 a point
MONEY_SEEN_BY = PLAYERS
PRIVATE_NAME = "Zyxwv Secretmember"
PRIVATE_SEEN_BY = STAFF


@dataclass(frozen=True)
class May:
    """Who may: `write` for POST/PUT/PATCH/DELETE, `read` for GET. `body` is a request the allowed roles would
    succeed with (its keys are filled from the world: see _body); with it, a refusal must be 401/403/404."""

    read: frozenset = ANYONE
    write: frozenset = NOBODY
    body: dict | None = None


# --- the declared policy: API operations -------------------------------------------------------------------

API = {
    "POST /api/v1/auth/token/": May(write=ANYONE),
    "GET /api/v1/auth/tokens/": May(read=SIGNED_IN),  # each user's own tokens only
    "DELETE /api/v1/auth/tokens/{id}/": May(write=NOBODY),  # only one's own token: none of the roles owns this id
    "GET /api/v1/calcuttas/": May(),
    "POST /api/v1/calcuttas/": May(write=DIRECTORS),
    "GET /api/v1/calcuttas/{id}/": May(),
    "POST /api/v1/calcuttas/{id}/auctioneer/": May(write=DIRECTORS, body={"action": "open"}),
    "GET /api/v1/calcuttas/{id}/bidders/": May(),
    "POST /api/v1/calcuttas/{id}/bidders/": May(write=SIGNED_IN),  # a signed-in user registers themselves
    "GET /api/v1/calcuttas/{id}/bids/": May(),
    "POST /api/v1/calcuttas/{id}/bids/": May(  # for a guest: the auctioneer; a bidder bids only as themselves
        write=DIRECTORS, body={"lot": 1, "bidder": "$guest_bidder", "amount": "50.00"}
    ),
    "GET /api/v1/calcuttas/{id}/board/": May(),
    "POST /api/v1/calcuttas/{id}/buy-back/": May(
        write=DIRECTORS, body={"lot": 1, "bidder": "$guest_bidder", "share": "1/4"}
    ),
    "GET /api/v1/calcuttas/{id}/holdings/": May(),
    "GET /api/v1/calcuttas/{id}/lots/": May(),
    "PUT /api/v1/calcuttas/{id}/lots/": May(write=DIRECTORS, body={"lots": []}),
    "POST /api/v1/calcuttas/{id}/lots/propose/": May(write=DIRECTORS, body={"style": "pair_lesser", "singles": 2}),
    "POST /api/v1/calcuttas/{id}/order/": May(write=DIRECTORS, body={"reseed": True}),
    "GET /api/v1/calcuttas/{id}/owners/{bidder_id}/": May(read=PLAYERS),  # the bidder (Anna) and the directors
    "POST /api/v1/calcuttas/{id}/paid/": May(write=DIRECTORS, body={"bidder": "$bidder", "paid": True}),
    "PATCH /api/v1/calcuttas/{id}/settings/": May(write=DIRECTORS, body={"self_bidding": True}),
    "POST /api/v1/calcuttas/{id}/settle/": May(write=DIRECTORS, body={}),
    "GET /api/v1/calcuttas/{id}/settlement/": May(),  # the owners' lines filtered for the caller
    "GET /api/v1/calcuttas/{id}/transfers/": May(),  # filtered: every owner's for directors, one's own for an owner
    # an owner's settle-up with the club: the club's side is its directors' (the owner acts only for their own side)
    "POST /api/v1/calcuttas/{id}/transfers/{transfer}/paid/": May(write=DIRECTORS),
    "POST /api/v1/calcuttas/{id}/transfers/{transfer}/received/": May(write=DIRECTORS),
    "POST /api/v1/calcuttas/{id}/syndicate/": May(
        write=DIRECTORS,
        body={"lot": 1, "holder": "$guest_bidder", "shares": [{"bidder": "$guest_bidder", "share": "1"}]},
    ),
    "GET /api/v1/calcuttas/{id}/syndicate-offers/": May(),
    "POST /api/v1/calcuttas/{id}/syndicate-offers/{offer_id}/answer/": May(write=NOBODY),  # no offer waits
    "GET /api/v1/chouette/clubs/{slug}/balances/": May(),  # rows filtered: see the money check
    "GET /api/v1/chouette/sessions/": May(),
    "POST /api/v1/chouette/sessions/": May(
        write=DIRECTORS, body={"club": "$club", "players": "$three_members", "stake_cents": 100}
    ),
    "GET /api/v1/chouette/sessions/{id}/": May(),
    "GET /api/v1/chouette/sessions/{id}/games/": May(),
    "POST /api/v1/chouette/sessions/{id}/games/": May(write=PLAYERS, body={"winner": "team"}),
    "POST /api/v1/chouette/sessions/{id}/games/{number}/correct/": May(
        write=PLAYERS, body={"winner": "box", "reason": "misread"}
    ),
    "POST /api/v1/chouette/sessions/{id}/games/undo/": May(write=PLAYERS, body={}),
    "GET /api/v1/chouette/sessions/{id}/history/": May(),
    "GET /api/v1/chouette/sessions/{id}/live/": May(),
    "POST /api/v1/chouette/sessions/{id}/order/": May(  # the order is set already: 409 for them
        write=PLAYERS, body={"order": "$three_members"}
    ),
    "POST /api/v1/chouette/sessions/{id}/seats/": May(
        write=PLAYERS, body={"player": "$seated_other", "action": "sit_out"}
    ),
    "GET /api/v1/chouette/sessions/{id}/settlement/": May(read=MONEY_SEEN_BY),
    "GET /api/v1/chouette/sessions/{id}/requests/": May(),
    "POST /api/v1/chouette/sessions/{id}/invitations/": May(write=PLAYERS, body={"players": "$free_member"}),
    "GET /api/v1/chouette/requests/": May(read=SIGNED_IN),  # each user's own, and those they may answer
    # The world's request is the member's join request: theirs to see, the opener's (admin) and directors' to answer.
    "GET /api/v1/chouette/requests/{id}/": May(read=frozenset({"member"}) | DIRECTORS),
    "POST /api/v1/chouette/requests/{id}/approve/": May(write=DIRECTORS, body={}),
    "POST /api/v1/chouette/requests/{id}/refuse/": May(write=DIRECTORS, body={}),
    "POST /api/v1/chouette/requests/{id}/accept/": May(write=NOBODY),  # a join request is no invitation: 409
    "POST /api/v1/chouette/requests/{id}/decline/": May(write=NOBODY),
    "POST /api/v1/chouette/join/": May(write=MEMBERS, body={"code": "$code"}),  # the involved: seated, 409
    "POST /api/v1/chouette/sessions/{id}/settlement/": May(write=PLAYERS, body={}),
    "GET /api/v1/clubs/": May(),
    "POST /api/v1/clubs/": May(write=SIGNED_IN),
    "GET /api/v1/clubs/{slug}/": May(),
    "PUT /api/v1/clubs/{slug}/": May(write=ADMINS, body={"name": "Renamed", "slug": "$club"}),
    "PATCH /api/v1/clubs/{slug}/": May(write=ADMINS, body={"name": "Renamed"}),
    "GET /api/v1/events/": May(),
    "POST /api/v1/events/": May(write=DIRECTORS),
    "GET /api/v1/events/{club}/{slug}/": May(),
    "PATCH /api/v1/events/{club}/{slug}/": May(write=DIRECTORS, body={"name": "Renamed"}),
    "GET /api/v1/events/{club}/{slug}/dashboard/": May(read=DIRECTORS),
    "GET /api/v1/events/{club}/{slug}/boards/": May(read=DIRECTORS),
    "PUT /api/v1/events/{club}/{slug}/boards/": May(write=DIRECTORS, body={"count": 2}),
    "POST /api/v1/events/{club}/{slug}/boards/auto-call/": May(write=DIRECTORS, body={"on": False}),
    "POST /api/v1/events/{club}/{slug}/boards/call-next/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/boards/{number}/free/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/calls/{id}/move/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/calls/{id}/lateness/": May(write=DIRECTORS),
    "GET /api/v1/events/{club}/{slug}/forecast/": May(read=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/": May(write=DIRECTORS),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/": May(),
    "PATCH /api/v1/events/{club}/{slug}/flights/{flight}/": May(write=DIRECTORS, body={"clock_rule": "preferred"}),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/draw/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/draw/confirm/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/draw/release/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/draw/swap/": May(write=DIRECTORS, body={"a": 0, "b": 1}),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/entries/": May(write=SIGNED_IN),  # oneself, or a director
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/check-in/": May(write=PLAYERS),
    "DELETE /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/check-in/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/withdraw/": May(write=PLAYERS),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/members/": May(),
    "PUT /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/members/": May(write=PLAYERS),  # captain
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/teams/": May(write=DIRECTORS),  # each player enterable
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/slots/{id}/boards/": May(),
    "PUT /api/v1/events/{club}/{slug}/flights/{flight}/payouts/": May(write=DIRECTORS),
    "PUT /api/v1/events/{club}/{slug}/flights/{flight}/payout-table/": May(write=DIRECTORS, body={"table": "club"}),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/prizes/{player}/paid/": May(write=DIRECTORS),  # no prize: 409
    # the winner (the involved player) or a director confirms a prize received
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/prizes/{player}/received/": May(write=PLAYERS),
    "GET /api/v1/events/my-fees/": May(read=SIGNED_IN),  # the caller's own fees
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/payments/": May(read=DIRECTORS),
    "PUT /api/v1/events/{club}/{slug}/flights/{flight}/fees/": May(write=DIRECTORS, body={"payment_required": False}),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/payments/": May(
        write=DIRECTORS, body={"method": "cash", "amount": "1.00"}
    ),
    "PUT /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/fee-category/": May(
        write=DIRECTORS, body={"category": "standard"}
    ),
    "PUT /api/v1/events/{club}/{slug}/cap/": May(write=DIRECTORS, body={"cap": None}),
    "PUT /api/v1/events/{club}/{slug}/flights/{flight}/cap/": May(write=DIRECTORS, body={"cap": None}),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/": May(read=SIGNED_IN),  # a player: own place
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/": May(write=SIGNED_IN),  # no cap: 409
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/close/": May(write=DIRECTORS, body={}),
    # nobody waits on the demo's first flight: no spot to answer or move (404 for everyone)
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/{id}/accept/": May(write=NOBODY),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/{id}/decline/": May(write=NOBODY),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/waiting-list/{id}/move/": May(write=NOBODY),
    "GET /api/v1/payout-tables/{club}/": May(read=DIRECTORS),
    "POST /api/v1/payout-tables/{club}/": May(
        write=DIRECTORS, body={"name": "Matrix", "bands": [{"from": 2, "to": None, "percents": ["100"]}]}
    ),
    # a club's event templates: its directors list, save, rename, delete and start from them
    "GET /api/v1/clubs/{club}/event-templates/": May(read=DIRECTORS),
    "POST /api/v1/clubs/{club}/event-templates/": May(write=DIRECTORS, body={"event": "$event", "name": "Matrix"}),
    "GET /api/v1/clubs/{club}/event-templates/{id}/": May(read=DIRECTORS),
    "PATCH /api/v1/clubs/{club}/event-templates/{id}/": May(write=DIRECTORS, body={"name": "Matrix renamed"}),
    "DELETE /api/v1/clubs/{club}/event-templates/{id}/": May(write=DIRECTORS),
    "POST /api/v1/clubs/{club}/event-templates/{id}/start/": May(
        write=DIRECTORS, body={"name": "Matrix night", "starts_on": "2030-01-01"}
    ),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/placements/": May(),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/reentries/": May(write=SIGNED_IN),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/slots/{id}/override/": May(read=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/slots/{id}/override/": May(write=DIRECTORS),
    "GET /api/v1/events/{club}/{slug}/prizes/": May(),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/standings/": May(),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/groups/": May(),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/next-stage/": May(),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/ties/{id}/lot/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/rounds/": May(write=DIRECTORS),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/rounds/{number}/": May(),
    "GET /api/v1/events/{club}/{slug}/flights/{flight}/rounds/{number}/standings/": May(),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/rounds/current/edit/preview/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/rounds/current/edit/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/pairings/{id}/correction/preview/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/pairings/{id}/correction/": May(write=DIRECTORS),
    "POST /api/v1/events/{club}/{slug}/flights/{flight}/entries/{id}/drop/": May(write=PLAYERS),
    "GET /api/v1/events/next-matches/": May(read=SIGNED_IN),
    "GET /api/v1/game-records/": May(read=SIGNED_IN),
    "POST /api/v1/game-records/": May(  # anyone signed in uploads; attached to a match: its players, directors
        write=PLAYERS, body={"text": "1 point match\n", "match": "$match"}
    ),
    "GET /api/v1/game-records/{id}/": May(read=frozenset({"staff"}) | {"admin"}),  # the demo's uploader: director
    "GET /api/v1/matches/": May(),
    "POST /api/v1/matches/": May(  # a club-night match between two members: the club's directors only
        write=DIRECTORS,
        body={"player_a": "$other", "player_b": "$third", "length": 5, "context": "club_night", "club": "$club"},
    ),
    "GET /api/v1/matches/{id}/": May(),
    # The world's match is accepted already: no role may answer or withdraw it (an invitation's own matrix:
    # tests/games/matchplay/test_invitations.py::test_who_may_do_what_with_an_invitation).
    "POST /api/v1/matches/{id}/accept/": May(write=NOBODY),
    "POST /api/v1/matches/{id}/decline/": May(write=NOBODY),
    "POST /api/v1/matches/{id}/withdraw/": May(write=NOBODY),
    "POST /api/v1/matches/{id}/annul/": May(write=DIRECTORS, body={"comment": "test"}),
    "POST /api/v1/matches/{id}/confirm/": May(write=PLAYERS),
    "GET /api/v1/matches/{id}/disputes/": May(),
    "POST /api/v1/matches/{id}/disputes/": May(write=PLAYERS),
    "GET /api/v1/matches/{id}/games/": May(),
    "POST /api/v1/matches/{id}/games/": May(write=PLAYERS),
    "POST /api/v1/matches/{id}/lateness/": May(write=DIRECTORS),
    "POST /api/v1/matches/{id}/override/": May(
        write=DIRECTORS, body={"method": "final_score", "score_a": 0, "score_b": 0, "comment": "matrix"}
    ),
    "GET /api/v1/matches/{id}/reports/": May(),
    "POST /api/v1/matches/{id}/reports/": May(write=PLAYERS),
    "POST /api/v1/matches/{id}/start/": May(write=PLAYERS),
    "GET /api/v1/me/": May(read=SIGNED_IN),
    "GET /api/v1/memberships/": May(),
    "POST /api/v1/memberships/": May(write=DIRECTORS, body={"club": "$club", "username": "outsider"}),
    "GET /api/v1/memberships/{id}/": May(),
    "PATCH /api/v1/memberships/{id}/": May(write=ADMINS, body={"role": "director"}),
    "POST /api/v1/memberships/{id}/accept/": May(write=NOBODY),  # the membership is accepted already
    "POST /api/v1/memberships/{id}/decline/": May(write=NOBODY),
    "POST /api/v1/memberships/{id}/leave/": May(write=frozenset({"involved", "admin", "staff"}), body={}),
    "GET /api/v1/players/": May(),
    "POST /api/v1/players/": May(write=DIRECTORS, body={"club": "$club", "name": "Walk In"}),
    "GET /api/v1/players/{id}/": May(),
    "PUT /api/v1/players/{id}/": May(write=frozenset({"involved", "staff"}), body={"name": "Renamed"}),
    "PATCH /api/v1/players/{id}/": May(write=frozenset({"involved", "staff"}), body={"name": "Renamed"}),
    "GET /api/v1/ratings/": May(),
    "GET /api/v1/ratings/clubs/{slug}/events/{event}/points/": May(),
    "PUT /api/v1/ratings/clubs/{slug}/events/{event}/points/": May(write=DIRECTORS),
    "GET /api/v1/ratings/clubs/{slug}/ladders/": May(),
    "POST /api/v1/ratings/clubs/{slug}/ladders/": May(write=DIRECTORS, body={"name": "Matrix ladder"}),
    "GET /api/v1/ratings/clubs/{slug}/ladders/{ladder}/": May(),
    "POST /api/v1/ratings/clubs/{slug}/ladders/{ladder}/challenges/": May(write=MEMBERS),
    "POST /api/v1/ratings/clubs/{slug}/ladders/{ladder}/challenges/{id}/cancel/": May(write=PLAYERS),
    "POST /api/v1/ratings/clubs/{slug}/ladders/{ladder}/join/": May(write=MEMBERS),
    "GET /api/v1/ratings/clubs/{slug}/leaderboard/": May(),
    "POST /api/v1/ratings/clubs/{slug}/recompute/": May(write=ADMINS, body={}),
    "POST /api/v1/ratings/clubs/{slug}/merge-variants/": May(write=ADMINS, body={"merge_variants": True}),
    "GET /api/v1/ratings/clubs/{slug}/seasons/": May(),
    "POST /api/v1/ratings/clubs/{slug}/seasons/": May(write=DIRECTORS),
    "GET /api/v1/ratings/players/{id}/": May(),
    "GET /api/v1/ratings/players/{id}/vs/{other}/": May(),
    "GET /api/v1/walk-in-claims/": May(read=SIGNED_IN),
    "GET /api/v1/walk-in-claims/{id}/": May(read=SIGNED_IN),
    "POST /api/v1/walk-in-claims/": May(write=SIGNED_IN),  # a signed-up person claims a walk-in player
    "POST /api/v1/walk-in-claims/{id}/confirm/": May(write=DIRECTORS),
    "POST /api/v1/walk-in-claims/{id}/refuse/": May(write=DIRECTORS),
    "GET /api/v1/record-uploads/": May(read=SIGNED_IN),
    "GET /api/v1/record-uploads/{id}/": May(read=frozenset({"admin", "staff"})),
}

# --- the declared policy: pages (GET shows, POST acts) --------------------------------------------------------

PAGES = {
    "/": May(),
    "/health/": May(),
    "/health/live/": May(),
    "/accounts/login/": May(write=ANYONE),
    # /accounts/logout/ is left out of the sweeps (it would sign the sweeping user out half-way)
    "/accounts/": May(read=SIGNED_IN),
    "/accounts/tokens/": May(read=NOBODY, write=SIGNED_IN),  # POST makes a token for oneself
    "/accounts/tokens/<int:token_id>/revoke/": May(read=NOBODY, write=NOBODY),  # only one's own token
    "/accounts/password_change/": May(read=SIGNED_IN, write=SIGNED_IN),
    "/accounts/password_change/done/": May(read=SIGNED_IN),
    "/accounts/password_reset/": May(write=ANYONE),
    "/accounts/password_reset/done/": May(),
    "/accounts/reset/<uidb64>/<token>/": May(),
    "/accounts/reset/done/": May(),
    "/api/schema/": May(),
    "/api/docs/": May(),
    "/clubs/": May(write=SIGNED_IN),
    "/clubs/<slug:slug>/": May(),
    "/clubs/<slug:slug>/walk-in/": May(write=DIRECTORS),  # refused with a message on the club page
    "/clubs/<slug:slug>/settings/": May(read=ADMINS, write=ADMINS, body={"allow_display_names": "on"}),
    "/players/<int:pk>/": May(),
    "/players/<int:pk>/claim/": May(write=SIGNED_IN),
    "/clubs/<slug:slug>/invite/": May(write=DIRECTORS),
    "/clubs/<slug:slug>/bank-account/": May(read=ADMINS, write=ADMINS, body={"holder": "Club", "iban": ""}),
    "/invitations/": May(read=SIGNED_IN),
    "/me/display-name/": May(read=SIGNED_IN, write=SIGNED_IN, body={"display_name": "Matrix"}),  # one's own
    "/me/bank-account/": May(read=SIGNED_IN, write=SIGNED_IN, body={"holder": "Someone", "iban": ""}),  # one's own
    "/invitations/<int:pk>/accept/": May(write=NOBODY),  # the invitee's own answer (none is open here)
    "/invitations/<int:pk>/decline/": May(write=NOBODY),
    "/claims/<int:pk>/confirm/": May(write=DIRECTORS),
    "/claims/<int:pk>/refuse/": May(write=DIRECTORS),
    "/records/": May(read=SIGNED_IN),
    "/records/upload/": May(read=SIGNED_IN, write=SIGNED_IN),
    "/records/uploads/<int:pk>/": May(read=frozenset({"admin", "staff"})),
    "/records/<int:pk>/": May(read=frozenset({"admin", "staff"})),
    # asking for a record's analysis: whoever sees the record (the service then needs everyone's consent)
    "/records/<int:pk>/analyse/": May(write=frozenset({"admin", "staff"})),
    "/records/analysis/settings/": May(read=SIGNED_IN, write=SIGNED_IN),  # one's own switch (a club's: its admins)
    "/matches/": May(),
    "/matches/new/": May(read=SIGNED_IN, write=SIGNED_IN),
    "/matches/<int:pk>/lateness/": May(write=DIRECTORS),
    "/matches/mine/": May(read=SIGNED_IN),
    "/matches/to-decide/": May(read=SIGNED_IN),
    "/matches/<int:pk>/": May(),
    "/matches/<int:pk>/games/": May(write=PLAYERS),
    "/matches/<int:pk>/games/undo/": May(write=PLAYERS),
    "/matches/<int:pk>/report/": May(read=PLAYERS, write=PLAYERS),
    "/matches/<int:pk>/reports/<int:version>/confirm/": May(write=PLAYERS),
    "/matches/<int:pk>/reports/<int:version>/dispute/": May(write=PLAYERS),
    "/matches/<int:pk>/annul/": May(write=DIRECTORS, body={"comment": "test"}),
    "/matches/<int:pk>/accept/": May(write=NOBODY),  # the world's match is no invitation (see the API's entries)
    "/matches/<int:pk>/decline/": May(write=NOBODY),
    "/matches/<int:pk>/withdraw/": May(write=NOBODY),
    "/events/": May(write=DIRECTORS),
    "/events/next-match/": May(read=SIGNED_IN),
    "/events/<slug:club>/<slug:slug>/": May(),
    "/events/<slug:club>/<slug:slug>/dashboard/": May(read=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/boards/": May(read=DIRECTORS, write=DIRECTORS, body={"do": "auto_off"}),
    "/events/<slug:club>/<slug:slug>/boards/slips/": May(read=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/registration/": May(write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/prizes/": May(write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/payments/": May(
        read=DIRECTORS, write=DIRECTORS, body={"action": "settings"}
    ),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/waiting-list/": May(
        read=SIGNED_IN, write=DIRECTORS, body={"action": "close"}
    ),
    "/clubs/<slug:club>/payout-tables/": May(read=DIRECTORS, write=DIRECTORS, body={"name": "T", "bands": "2+: 100"}),
    "/events/<slug:club>/<slug:slug>/closing-time/": May(write=DIRECTORS, body={"closes_at": ""}),
    "/events/<slug:club>/<slug:slug>/cap/": May(write=DIRECTORS, body={"cap": ""}),
    "/events/<slug:club>/<slug:slug>/withdrawal-refund/": May(
        write=DIRECTORS, body={"withdrawal_refund_percent": "100"}
    ),
    "/events/<slug:club>/<slug:slug>/flights/new/": May(read=DIRECTORS, write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/": May(),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/register/": May(write=SIGNED_IN),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/day-settings/": May(
        write=DIRECTORS, body={"clock_rule": "none", "clock_seconds_per_point": "120", "clock_delay_seconds": "12"}
    ),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/draw/<str:step>/": May(write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/entries/<int:pk>/withdraw/": May(write=PLAYERS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/entries/<int:pk>/check-in/": May(write=PLAYERS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/entries/<int:pk>/check-in/undo/": May(write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/entries/<int:pk>/re-enter/": May(write=PLAYERS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/slots/<int:pk>/override/": May(read=DIRECTORS, write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/rounds/next/": May(write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/ties/<int:pk>/": May(write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/pairing-seed/": May(write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/entries/<int:pk>/drop/": May(write=PLAYERS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/rounds/current/edit/": May(read=DIRECTORS, write=DIRECTORS),
    "/events/<slug:club>/<slug:slug>/<slug:flight>/pairings/<int:pk>/correction/": May(read=DIRECTORS, write=DIRECTORS),
    "/calcuttas/": May(write=DIRECTORS),
    "/calcuttas/<int:pk>/": May(),
    "/calcuttas/<int:pk>/settings/": May(write=DIRECTORS),
    "/calcuttas/<int:pk>/lots/": May(write=DIRECTORS),
    "/calcuttas/<int:pk>/lots/propose/": May(write=DIRECTORS),
    "/calcuttas/<int:pk>/order/": May(write=DIRECTORS),
    "/calcuttas/<int:pk>/bidders/": May(write=SIGNED_IN),
    "/calcuttas/<int:pk>/auctioneer/": May(read=DIRECTORS),
    "/calcuttas/<int:pk>/auctioneer/step/": May(write=DIRECTORS, body={"action": "open"}),
    "/calcuttas/<int:pk>/bids/": May(write=SIGNED_IN),
    "/calcuttas/<int:pk>/board/": May(),
    "/calcuttas/<int:pk>/owners/<int:bidder>/": May(read=PLAYERS),  # the bidder (Anna) and the directors
    "/calcuttas/<int:pk>/owners/<int:bidder>/paid/": May(write=DIRECTORS, body={"paid": "1"}),
    "/calcuttas/<int:pk>/owners/<int:bidder>/syndicate/": May(write=DIRECTORS),
    "/calcuttas/<int:pk>/owners/<int:bidder>/buy-back/": May(write=DIRECTORS),
    "/calcuttas/<int:pk>/syndicate-offers/<int:offer>/answer/": May(write=NOBODY),
    "/calcuttas/<int:pk>/settlement/": May(),
    "/calcuttas/<int:pk>/settle/": May(write=DIRECTORS),
    "/ratings/": May(),
    "/players/<int:pk>/rating/": May(),
    "/players/<int:pk>/vs/<int:other>/": May(),
    "/clubs/<slug:slug>/leaderboard/": May(),
    "/clubs/<slug:slug>/error-rates/": May(),  # only figures of players who said yes, where the club ranks
    "/clubs/<slug:slug>/seasons/add/": May(read=DIRECTORS, write=DIRECTORS),
    "/clubs/<slug:slug>/events/<slug:event>/points/": May(write=DIRECTORS),
    "/clubs/<slug:slug>/ladders/": May(write=DIRECTORS),
    "/clubs/<slug:slug>/ladders/<slug:ladder>/": May(),
    "/clubs/<slug:slug>/ladders/<slug:ladder>/join/": May(write=MEMBERS),
    "/clubs/<slug:slug>/ladders/<slug:ladder>/challenge/": May(write=MEMBERS),
    "/sw.js": May(),  # the offline table's service worker: the same script for everyone
    "/manifest.webmanifest": May(),
    "/chouette/": May(),
    "/chouette/<slug:slug>/new/": May(read=MEMBERS, write=MEMBERS),
    "/chouette/<slug:slug>/<int:pk>/": May(),
    "/chouette/<slug:slug>/<int:pk>/live/": May(),
    "/chouette/<slug:slug>/<int:pk>/state.json": May(),
    "/chouette/<slug:slug>/<int:pk>/order/": May(write=PLAYERS),
    "/chouette/<slug:slug>/<int:pk>/games/": May(write=PLAYERS, body={"winner": "team"}),
    # its confirmation page (who may take the game back, what leaves the ledger): for the table's players
    "/chouette/<slug:slug>/<int:pk>/games/undo/": May(read=PLAYERS, write=PLAYERS, body={}),
    "/chouette/<slug:slug>/<int:pk>/games/<int:number>/correct/": May(
        read=PLAYERS, write=PLAYERS, body={"winner": "box", "reason": "misread"}
    ),
    "/chouette/<slug:slug>/<int:pk>/seats/": May(write=PLAYERS, body={"player": "$seated_other", "action": "sit_out"}),
    "/chouette/<slug:slug>/<int:pk>/finish/": May(write=PLAYERS, body={}),
    "/chouette/<slug:slug>/<int:pk>/settlement/": May(read=MONEY_SEEN_BY),
    "/chouette/<slug:slug>/<int:pk>/settlement/<int:transfer>/<slug:step>/": May(write=PLAYERS),  # no such transfer
    "/calcuttas/<int:pk>/settlement/<int:transfer>/<slug:step>/": May(write=NOBODY),  # not settled: no transfer
    "/chouette/<slug:slug>/<int:pk>/invite/": May(write=PLAYERS, body={"players": "$free_member"}),
    "/chouette/join/": May(read=SIGNED_IN, write=MEMBERS),
    "/chouette/join/<str:code>/": May(read=SIGNED_IN, write=MEMBERS),
    "/chouette/requests/<int:pk>/<str:answer>/": May(write=DIRECTORS, body={}),  # "approve" the member's request
    "/notifications/": May(read=SIGNED_IN),  # each user's own
    "/notifications/read/": May(write=SIGNED_IN),  # marks one's own read
    "/notifications/<int:pk>/read/": May(write=SIGNED_IN),  # one's own only: another's id changes nothing
    "/notifications/preferences/": May(read=SIGNED_IN, write=SIGNED_IN),
    "/notifications/unsubscribe/<str:token>/": May(write=ANYONE),  # the signed token is the check
    "/clubs/<slug:slug>/webhook/": May(read=ADMINS, write=ADMINS),
    # data: CSV exports hold only what the export's page shows the role (a private club's: nothing to outsiders)
    "/export/events/<slug:club>/<slug:slug>/results.csv": May(),
    "/export/events/<slug:club>/<slug:slug>/results.xlsx": May(),  # the same rows as the CSV
    "/export/events/<slug:club>/<slug:slug>/federation.csv": May(),
    "/export/events/<slug:club>/<slug:slug>/federation.xlsx": May(),  # the same rows as the CSV
    "/export/events/<slug:club>/<slug:slug>/<slug:flight>/entries.csv": May(),
    "/export/events/<slug:club>/<slug:slug>/<slug:flight>/entries.xlsx": May(),  # the same rows as the CSV
    "/export/events/<slug:club>/<slug:slug>/<slug:flight>/standings.csv": May(),  # a knockout: 404 for all
    "/export/events/<slug:club>/<slug:slug>/<slug:flight>/standings.xlsx": May(),  # the same rows as the CSV
    "/export/clubs/<slug:slug>/rated-matches.csv": May(),
    "/export/clubs/<slug:slug>/rated-matches.xlsx": May(),  # the same rows as the CSV
    "/export/clubs/<slug:slug>/standings.csv": May(),
    "/export/clubs/<slug:slug>/standings.xlsx": May(),  # the same rows as the CSV
    "/export/clubs/<slug:slug>/members.csv": May(read=DIRECTORS),  # e-mail addresses
    "/export/clubs/<slug:slug>/members.xlsx": May(read=DIRECTORS),  # the same rows as the CSV
    "/export/chouette/<slug:slug>/<int:pk>/ledger.csv": May(read=MONEY_SEEN_BY),
    "/export/chouette/<slug:slug>/<int:pk>/ledger.xlsx": May(read=MONEY_SEEN_BY),  # the same rows as the CSV
    "/export/calcuttas/<int:pk>/settlement.csv": May(read=PLAYERS),  # a bidder (Anna): their own line
    "/export/calcuttas/<int:pk>/settlement.xlsx": May(read=PLAYERS),  # the same rows as the CSV
    "/feeds/clubs/<slug:slug>/events.ics": May(),  # what the visitor (or the token's person) sees
    "/feeds/<str:token>/matches.ics": May(),  # the token is the check: a wrong one is 404 to everyone
    "/me/calendar/": May(read=SIGNED_IN, write=SIGNED_IN),  # one's own feed link: make or revoke it
    "/embed/events/<slug:club>/<slug:slug>/<slug:flight>/": May(),  # what an anonymous visitor sees, framable
    "/embed/events/<slug:club>/<slug:slug>/<slug:flight>/snippet/": May(),
    "/me/data/": May(read=SIGNED_IN),  # each person's own
    "/me/data.json": May(read=SIGNED_IN),  # each person's own data only
    "/me/leave/": May(read=SIGNED_IN, write=SIGNED_IN),  # one's own account, with one's own password
    "/events/<slug:club>/<slug:slug>/<slug:flight>/seeding-ratings/": May(  # a preview: writes nothing
        read=DIRECTORS, write=DIRECTORS, body={"text": "federation_id;name;rating\nX-1;Matrix Player;1500"}
    ),
    "/clubs/<slug:slug>/event-templates/": May(read=DIRECTORS, write=DIRECTORS, body={"event": "$event", "name": "M"}),
    "/clubs/<slug:slug>/event-templates/<int:pk>/": May(read=DIRECTORS, write=DIRECTORS),
    "/clubs/<slug:slug>/members/import/": May(  # the body is a preview: it writes nothing, even for directors
        read=DIRECTORS, write=DIRECTORS, body={"text": "name\nMatrix Import"}
    ),
}

REFUSED = (401, 403, 404)
WRITE_SQL = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
NOT_DATA = ("django_session", "axes_")  # sign-in bookkeeping, not the data a refusal must leave alone


# --- the world ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The demo, plus one user per role, a chouette table at the demo club with a unique stake (its money is
    the secret), and a private club with a member whose name is the other secret. Built once for the module."""
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            yield _build_world()
            transaction.set_rollback(True)


def _build_world() -> dict:
    import os

    before = os.environ.get("DEMO_PASSWORD")
    os.environ["DEMO_PASSWORD"] = PASSWORD
    try:
        call_command("load_demo", stdout=io.StringIO())
    finally:  # later modules load the demo with its own password: the matrix's must not leak into them
        if before is None:
            del os.environ["DEMO_PASSWORD"]
        else:
            os.environ["DEMO_PASSWORD"] = before
    User = get_user_model()
    club = Club.objects.get(slug="bc-berlin")

    def user_with_player(name: str, role: str | None = None, **flags):
        user = User.objects.create_user(username=name, password=PASSWORD, **flags)
        player = Player.objects.create(name=name.title(), user=user)
        if role is not None:
            Membership.objects.create(club=club, player=player, role=role)
        return user

    users = {
        "anonymous": None,
        "outsider": user_with_player("outsider"),
        "member": user_with_player("member", Role.PLAYER),
        "involved": User.objects.get(username="anna"),
        "director": user_with_player("tdirector", Role.DIRECTOR),
        "admin": User.objects.get(username="director"),  # the demo's club admin
        "staff": user_with_player("staff", is_staff=True, is_superuser=True),
    }
    anna, bernd, clara = (User.objects.get(username=n).player for n in ("anna", "bernd", "clara"))
    session = chouette_services.create_session(
        actor=users["admin"],
        club=club,
        players=[anna, bernd, clara],
        stake_cents=STAKE,
        order=[anna.pk, bernd.pk, clara.pk],
    )
    chouette_services.record_game(actor=users["admin"], session=session, game={"winner": "team"})
    invitee = user_with_player("invitee", Role.PLAYER).player  # a member nobody has asked to the table yet
    join_request, _new = chouette_services.join_by_code(actor=users["member"], code=session.join_code)
    hidden = Club.objects.create(name="Hidden", slug="hidden", is_public=False)
    Membership.objects.create(club=hidden, player=Player.objects.create(name=PRIVATE_NAME, created_by_club=hidden))

    event = Event.objects.filter(club=club).order_by("pk").first()
    flight = event.flights.order_by("pk").first()
    calcutta = Calcutta.objects.filter(flight__event__club=club).first()
    match = Match.objects.filter(player_a=anna).first() or Match.objects.filter(player_b=anna).first()
    ladder = Ladder.objects.filter(club=club).first()
    record = GameRecord.objects.first()
    ids = {
        "club": club.slug,
        "slug": club.slug,
        "event": event.slug,
        "flight": flight.slug,
        "entry": Entry.objects.filter(flight=flight).values_list("pk", flat=True).first() or 999999,
        "slot": Slot.objects.filter(flight=flight).values_list("pk", flat=True).first() or 999999,
        "session": session.pk,
        "calcutta": calcutta.pk if calcutta else 999999,
        "bidder": calcutta.bidders.values_list("pk", flat=True).first() if calcutta else 999999,
        "guest_bidder": calcutta.bidders.filter(user=None).values_list("pk", flat=True).first() if calcutta else 0,
        "match": match.pk if match else 999999,
        "ladder": ladder.slug if ladder else "none",
        "record": record.pk if record else 999999,
        "batch": record.batches.values_list("pk", flat=True).first() if record else 999999,
        "membership": Membership.objects.get(club=club, player=anna).pk,
        "player": anna.pk,
        "other": bernd.pk,
        "third": clara.pk,
        "number": 1,
        "version": 1,
        "outsider_player": users["outsider"].player.pk,
        "seated_other": bernd.pk,
        "three_members": [p.pk for p in (anna, bernd, clara)],
        "free_member": [invitee.pk],
        "code": session.join_code,
        "request": join_request.pk,
        "answer": "approve",
        "template": EventTemplate.objects.filter(club=club).values_list("pk", flat=True).first() or 999999,
    }
    return {"users": users, "ids": ids, "session": session}


# The object a path's placeholder stands for, by the path segment before it ({id} after "matches/" is a match).
SEGMENT = {
    "calcuttas": "calcutta",
    "sessions": "session",
    "matches": "match",
    "memberships": "membership",
    "players": "player",
    "game-records": "record",
    "records": "record",
    "record-uploads": "batch",
    "uploads": "batch",
    "entries": "entry",
    "slots": "slot",
    "challenges": "match",
    "owners": "bidder",
    "chouette": "session",
    "reports": "version",
    "requests": "request",
    "event-templates": "template",
}
BY_NAME = {"bidder_id": "bidder", "bidder": "bidder", "offer_id": "number", "offer": "number", "step": "draw"}


def _url(pattern: str, ids: dict) -> str:
    segments = re.split(r"/", pattern)

    for_event = "{club}" in pattern or "<slug:club>" in pattern

    def value(name: str, index: int):
        if name == "slug" and for_event:
            return ids["event"]
        if name in ids and name not in ("player",):
            return ids[name]
        if name in BY_NAME:
            return ids.get(BY_NAME[name], "x")
        if name in ("uidb64", "token", "path"):
            return "x"
        before = [
            s for s in segments[: segments.index(_placeholder(segments, index))] if s and "{" not in s and "<" not in s
        ]
        kind = SEGMENT.get(before[-1] if before else "", "player")
        return ids.get(kind, 999999)

    return fill_with(pattern, value)


def _placeholder(segments: list[str], index: int) -> str:
    found = [s for s in segments if "{" in s or "<" in s]
    return found[index]


def _body(body: dict | None, ids: dict) -> dict:
    def resolve(value):
        if isinstance(value, str) and value.startswith("$"):
            return ids[value[1:]]
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        return value

    return resolve(body or {})


def _data_writes(context) -> list[str]:
    writes = [q["sql"] for q in context.captured_queries if WRITE_SQL.match(q["sql"])]
    return [sql for sql in writes if not any(table in sql for table in NOT_DATA)]


# --- the tests ----------------------------------------------------------------------------------------------


def test_every_operation_and_page_has_a_declared_policy_and_no_entry_is_stale(db):
    operations = {f"{op.method.upper()} {op.path}" for op in api_operations()}
    pages = {p for p in page_patterns() if not p.startswith("/media/")}  # uploaded files, served in DEBUG only
    assert sorted(operations - set(API)) == [], "API operations without a declared policy"
    assert sorted(set(API) - operations) == [], "policies for API operations that are gone"
    assert sorted(pages - set(PAGES)) == [], "pages without a declared policy"
    assert sorted(set(PAGES) - pages) == [], "policies for pages that are gone"


class Clients:
    """One client per role, signed in once for a whole sweep: a client per request signed in anew (a session
    row, last_login) and built its handler anew for each of the matrix's thousands of requests. A refused
    request changes nothing a later one depends on; `still_signed_in` shows no request of the sweep signed a
    role out (which would make every later refusal of that role prove nothing)."""

    def __init__(self, world, client_for):
        self.users = world["users"]
        self.client_for = client_for
        self.clients = {}

    def __call__(self, role: str):
        if role not in self.clients:
            self.clients[role] = self.client_for(self.users[role])
        return self.clients[role]

    def still_signed_in(self) -> list[str]:
        if self.client_for is not web:  # API clients are authenticated per request, with no session to lose
            return []
        return [
            role
            for role, client in self.clients.items()
            if self.users[role] is not None and client.session.get("_auth_user_id") != str(self.users[role].pk)
        ]


def _refusals(world, client_for, entries, method_of):
    problems = []
    ids = world["ids"]
    clients = Clients(world, client_for)
    for key, policy in entries.items():
        for method in method_of(key):
            allowed = policy.write if method != "GET" else policy.read
            for role in ROLES:
                if role in allowed:
                    continue
                url = _url(key.split(" ", 1)[-1], ids)
                client = clients(role)
                with CaptureQueriesContext(connection) as context:
                    if method == "GET":
                        response = client.get(url)
                    elif client_for is api:
                        response = client.generic(
                            method, url, _json(_body(policy.body, ids)), content_type="application/json"
                        )
                    else:
                        response = client.post(url, _body(policy.body, ids))
                status = response.status_code
                strict = method == "GET" or policy.body is not None
                if client_for is web:
                    if status == 302 and "/login" in response["Location"]:
                        status = 401  # the sign-in page is the web's 401
                    if status == 405:
                        status = 404  # a page that does not take this method
                if strict:
                    ok = status in REFUSED
                elif client_for is web:
                    ok = status < 500  # a page that shows something ignores a POST; writes are checked below
                else:
                    ok = status < 500 and not 200 <= status < 300
                writes = _data_writes(context) if method != "GET" else []
                if not ok or writes:
                    problems.append(
                        f"{role:9} {method} {url} -> {status}{' writes: ' + writes[0][:80] if writes else ''}"
                    )
    problems += [f"{role:9} was signed out during the sweep" for role in clients.still_signed_in()]
    return problems


def _json(body) -> str:
    import json

    return json.dumps(body)


def test_no_api_write_or_private_read_lets_a_role_without_the_right_in(world):
    def methods(key):
        return [key.split(" ", 1)[0]]

    problems = _refusals(world, api, API, methods)
    assert problems == [], "\n".join(problems)


def test_no_page_lets_a_role_without_the_right_in(world):
    def methods(key):
        policy = PAGES[key]
        return (["GET"] if policy.read != ANYONE else []) + (["POST"] if policy.write != ANYONE else [])

    pages = {key: policy for key, policy in PAGES.items() if key != "/accounts/logout/"}
    problems = _refusals(world, web, pages, methods)
    assert problems == [], "\n".join(problems)


def _markers(cents: int) -> list[str]:
    whole, rest = divmod(abs(cents), 100)
    return [str(abs(cents)), f"{whole}.{rest:02d}", f"{whole},{rest:02d}", f"{whole:,}.{rest:02d}"]


def test_money_and_private_members_are_read_only_by_those_who_may(world):
    secrets = {"money": _markers(STAKE) + _markers(2 * STAKE), "private member": [PRIVATE_NAME]}
    seen_by = {"money": MONEY_SEEN_BY, "private member": PRIVATE_SEEN_BY}
    ids = world["ids"]
    urls = [(api, _url(key.split(" ", 1)[1], ids)) for key in API if key.startswith("GET ")]
    urls += [(web, _url(key, ids)) for key in PAGES if key != "/accounts/logout/"]
    clients = {client_for: Clients(world, client_for) for client_for in (api, web)}
    leaks = []
    for role in ROLES:
        hidden = [text for kind, texts in secrets.items() if role not in seen_by[kind] for text in texts]
        for client_for, url in urls:
            response = clients[client_for](role).get(url)
            body = response.content.decode(errors="replace")
            leaks += [f"{role:9} GET {url}: {text}" for text in hidden if text in body]
    leaks += [f"{role:9} was signed out during the sweep" for role in clients[web].still_signed_in()]
    assert leaks == [], "\n".join(leaks)
    # The check sees the secrets where they are allowed: it is not blind.
    table = f"/api/v1/chouette/sessions/{ids['session']}/"
    assert str(-2 * STAKE) in api(world["users"]["involved"]).get(table).content.decode()


def test_the_roles_with_the_right_get_past_the_check_so_the_refusals_above_are_about_the_role(world):
    """Each entry with a body is tried by every role it allows (each in a savepoint rolled back after): none is
    refused (401/403), so the body is one the check judges, not one refused for its input."""
    from django.db import transaction

    ids = world["ids"]
    refused = []
    for entries, client_for in ((API, api), (PAGES, web)):
        for key, policy in entries.items():
            if policy.body is None:
                continue
            method, path = key.split(" ", 1) if client_for is api else ("POST", key)
            url = _url(path, ids)
            for role in sorted(policy.write):
                with transaction.atomic():
                    client = client_for(world["users"][role])
                    if client_for is api:
                        body = _json(_body(policy.body, ids))
                        response = client.generic(method, url, body, content_type="application/json")
                    else:
                        response = client.post(url, _body(policy.body, ids))
                    transaction.set_rollback(True)
                if response.status_code in (401, 403) or response.status_code >= 500:
                    refused.append(f"{role:9} {method} {url} -> {response.status_code}")
    assert refused == [], "\n".join(refused)
