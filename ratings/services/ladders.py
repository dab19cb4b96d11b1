"""Writes for club ladders: create, join, challenge, and move the ladder when a challenge match is decided."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid, NotAllowed
from base.locks import lock
from clubs import access
from clubs import selectors as club_selectors
from clubs.models import Club, Membership, Player
from games.matchplay import services as matchplay
from games.models.matches import Match, MatchContext, MatchOutcome
from ratings import hooks
from ratings.core import ladder as core
from ratings.models import CHALLENGE_TRANSITIONS, ChallengeStatus, Ladder, LadderChallenge, LadderPosition


def _order(ladder: Ladder) -> list[int]:
    return list(ladder.positions.order_by("position").values_list("player_id", flat=True))


def _write_order(ladder: Ladder, order: list[int]) -> None:
    rows = {p.player_id: p for p in ladder.positions.all()}
    changed = []
    for index, player_id in enumerate(order, start=1):
        row = rows.get(player_id)
        if row is None:
            LadderPosition.objects.create(ladder=ladder, player_id=player_id, position=index)
        elif row.position != index:
            row.position = index
            changed.append(row)
    LadderPosition.objects.bulk_update(changed, ["position"])


def _lock(ladder: Ladder) -> Ladder:
    return lock(Ladder.objects).get(pk=ladder.pk)


def _set_status(challenge: LadderChallenge, status: str) -> None:
    if status not in CHALLENGE_TRANSITIONS[ChallengeStatus(challenge.status)]:
        raise Conflict(
            _("This challenge is already %(status)s.") % {"status": challenge.get_status_display()},
            code="challenge_closed",
        )
    challenge.status = status


@transaction.atomic
def create_ladder(*, actor, club: Club, name: str, reach: int = 3, match_length: int = 11) -> Ladder:
    access.require(actor, "ladder.create", club)
    name = (name or "").strip()
    if not name:
        raise Invalid(_("Give the ladder a name."), field="name")
    if reach < 1:
        raise Invalid(_("A player must be able to challenge at least 1 place above."), field="reach")
    if match_length < 1:
        raise Invalid(_("Ladder matches are played to at least 1 point."), field="match_length")
    slug = slugify(name)[:60] or "ladder"
    if Ladder.objects.filter(club=club, slug=slug).exists():
        raise Invalid(_("This club already has a ladder with this name."), field="name")
    return Ladder.objects.create(club=club, name=name, slug=slug, reach=reach, match_length=match_length)


@transaction.atomic
def join_ladder(*, actor, ladder: Ladder, player: Player | None = None) -> LadderPosition:
    """A member joins (at the bottom); a director may put any member of the club on the ladder."""
    own = club_selectors.player_for_user(actor)
    player = player or own
    if player is None:
        raise Invalid(_("Choose the player who joins the ladder."), field="player")
    if player != own:
        access.require(actor, "ladder.place_player", ladder)
    if not Membership.objects.filter(club=ladder.club, player=player, is_active=True).exists():
        raise Invalid(_("Only members of the club can join its ladder."), field="player")
    # Race: two players joining at once would both take the same bottom place; the ladder lock orders them.
    ladder = _lock(ladder)
    existing = ladder.positions.filter(player=player).first()
    if existing is not None:
        return existing
    order = core.join(_order(ladder), player.pk)
    return LadderPosition.objects.create(ladder=ladder, player=player, position=len(order))


@transaction.atomic
def challenge(*, actor, ladder: Ladder, defender: Player) -> LadderChallenge:
    """The actor's player challenges `defender`; creates the (casual, club) match to play."""
    challenger = club_selectors.player_for_user(actor)
    if challenger is None:
        raise NotAllowed(_("Sign in as a player to challenge someone."))
    # Race: two challenges of the same defender at once; the ladder lock makes the second see the first.
    ladder = _lock(ladder)
    core.can_challenge(_order(ladder), challenger.pk, defender.pk, ladder.reach)  # a LadderError names the defender
    busy = ladder.challenges.filter(status=ChallengeStatus.OPEN)
    if (
        busy.filter(challenger__in=[challenger, defender]).exists()
        or busy.filter(defender__in=[challenger, defender]).exists()
    ):
        raise Conflict(
            _("One of you already has an open challenge on this ladder: play or cancel it first."),
            code="challenge_open",
        )
    match = matchplay.create_match(
        actor=actor,
        player_a=challenger,
        player_b=defender,
        length=ladder.match_length,
        context=MatchContext.CASUAL,
        club=ladder.club,
        invite=False,  # both are on their club's ladder, which is the agreement to be challenged there
    )
    created = LadderChallenge.objects.create(ladder=ladder, challenger=challenger, defender=defender, match=match)
    hooks.challenge_created(created)
    return created


@transaction.atomic
def cancel_challenge(*, actor, challenge: LadderChallenge) -> LadderChallenge:
    challenge = lock(LadderChallenge.objects).get(pk=challenge.pk)
    access.require(actor, "ladder.cancel_challenge", challenge)
    _set_status(challenge, ChallengeStatus.CANCELLED)
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "decided_at"])
    return challenge


def on_result_confirmed(match: Match, report) -> None:
    """games.matchplay.hooks callback: the first result of a challenge match moves the ladder."""
    if match.context == MatchContext.TOURNAMENT:
        return  # a challenge's match is a casual one (create_challenge): a tournament's result costs no query here
    challenge = LadderChallenge.objects.filter(match=match, status=ChallengeStatus.OPEN).first()
    if challenge is None:
        return
    ladder = _lock(challenge.ladder)
    if match.outcome == MatchOutcome.ANNULLED or match.winner_id is None:
        _set_status(challenge, ChallengeStatus.CANCELLED)
    else:
        won = match.winner_id == challenge.challenger_id
        order = _order(ladder)
        if challenge.challenger_id in order and challenge.defender_id in order:
            _write_order(ladder, core.apply_result(order, challenge.challenger_id, challenge.defender_id, won))
        _set_status(challenge, ChallengeStatus.DECIDED)
        challenge.challenger_won = won
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "challenger_won", "decided_at"])
