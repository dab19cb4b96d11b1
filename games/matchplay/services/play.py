"""Writes for a match and its live scoresheet: create and start a match, enter a game, take the last one back."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, DomainError, Invalid, NotAllowed
from clubs import access
from clubs.models import Club, Player
from games.matchplay import hooks
from games.matchplay import state as core
from games.matchplay.permissions import MatchDraft
from games.matchplay.services import common
from games.models.matches import (
    Match,
    MatchContext,
    MatchGame,
    MatchStatus,
    invitation_cutoff,
)
from games.models.variants import DEFAULT_FORM, SETTING_CHOICES, SETTINGS_OF, DaveProgression, GameVariant, StakeForm

# --- matches ---------------------------------------------------------------------------------------------


@transaction.atomic
def create_match(
    *,
    actor,
    player_a: Player,
    player_b: Player,
    length: int,
    context: str = MatchContext.CASUAL,
    club: Club | None = None,
    crawford_rule: bool = True,
    holland_rule: bool = False,
    is_public: bool = True,
    scheduled_at=None,
    variant: str = GameVariant.STANDARD,
    stakes: str = StakeForm.CUBE,
    dave_progression: str = DaveProgression.GEOMETRIC,
    invite: bool = True,
    **settings: str,
) -> Match:
    """Directors create matches at their club; a player may also start a casual match against someone.

    A casual match a player creates (not a director at the match's club) is an invitation: status "invited",
    seen only by the two players, until the other player accepts it (`accept_invitation`). Why: otherwise anyone
    could put a match with any player on that player's record, and read the name of a player seen nowhere else.
    `invite=False` only where the other player agreed elsewhere: a ladder challenge between two players their
    club put on its ladder (ratings.services.ladders)."""
    if not getattr(actor, "is_authenticated", False):
        raise NotAllowed(_("Sign in to create a match."))
    if player_a.pk == player_b.pk:
        raise Invalid(_("A match needs two different players."), field="player_b")
    if length < 1:
        raise Invalid(_("A match is played to at least 1 point (money play is not a match)."), field="length")
    access.require(actor, "match.create", MatchDraft(player_a=player_a, player_b=player_b, context=context, club=club))
    settings = check_variant(variant=variant, stakes=stakes, dave_progression=dave_progression, **settings)
    invitation = invite and is_invitation(actor=actor, context=context, club=club)
    if invitation:
        _refuse_invitee_without_account(actor, player_a, player_b)
    match = Match.objects.create(
        variant=variant,
        stakes=stakes,
        dave_progression=dave_progression,
        **settings,
        player_a=player_a,
        player_b=player_b,
        length=length,
        context=context,
        club=club,
        crawford_rule=crawford_rule,
        holland_rule=holland_rule,
        is_public=is_public,
        scheduled_at=scheduled_at,
        created_by=actor,
        status=MatchStatus.INVITED if invitation else MatchStatus.SCHEDULED,
        invited_at=timezone.now() if invitation else None,
    )
    if invitation:
        hooks.match_invited(match)
    return match


def is_invitation(*, actor, context: str, club: Club | None) -> bool:
    """Whether a match the actor creates waits for the other player's acceptance: every casual match but one a
    director of the match's club creates there (the club acts for its players, as for a club night)."""
    return context == MatchContext.CASUAL and not (club is not None and access.is_director(actor, club))


def _refuse_invitee_without_account(actor, player_a: Player, player_b: Player) -> None:
    """Only a player with an account can accept; a walk-in's matches are created by a director of its club."""
    field, other = ("player_b", player_b) if player_a.user_id == actor.pk else ("player_a", player_a)
    if other.user_id is None:
        message = _(
            "This player has no account to accept your invitation; a director of their club can create the match."
        )
        raise Invalid(message, code="invitee_without_account", field=field)


@transaction.atomic
def accept_invitation(*, actor, match: Match) -> Match:
    """The invited player accepts: the match is scheduled, and from now on it is seen and played as any other."""
    match = common.lock_invitation(match)  # accepting twice at once, or while the inviter withdraws
    _require_open_invitation(match)
    access.require(actor, "match.accept", match)
    common.transition(match, MatchStatus.SCHEDULED)
    match.save(update_fields=["status"])
    return match


@transaction.atomic
def decline_invitation(*, actor, match: Match) -> None:
    """The invited player declines: the match is deleted, so nothing of it stays on anybody's record."""
    match = common.lock_invitation(match)
    _require_open_invitation(match)
    access.require(actor, "match.decline", match)
    match.delete()


@transaction.atomic
def withdraw_invitation(*, actor, match: Match) -> None:
    """The inviter takes the invitation back before it is accepted: the match is deleted."""
    match = common.lock_invitation(match)
    _require_open_invitation(match)
    access.require(actor, "match.withdraw", match)
    match.delete()


def _require_open_invitation(match: Match) -> None:
    if match.status != MatchStatus.INVITED:
        raise Conflict(_("This match is not an invitation waiting for an answer."), code="not_an_invitation")
    if match.invited_at is not None and match.invited_at <= invitation_cutoff():
        raise Conflict(_("This invitation has expired."), code="invitation_expired")


def check_variant(*, variant: str, stakes: str, dave_progression: str, **settings: str | None) -> dict[str, str]:
    """Refuse an unknown variant, stake form or progression, and Dave stakes off the standard board (the
    database checks the same; this says it in words, on the field). Flights and chouette sessions ask it too.

    `settings`: the variant's settings (backward_hits, head_doubles, six_block; None or absent: the default).
    A setting of another variant than the one chosen is refused rather than stored unread. Returns all three."""
    if variant not in GameVariant.values:
        raise Invalid(_("Choose one of: %(choices)s.") % {"choices": ", ".join(GameVariant.values)}, field="variant")
    if stakes not in StakeForm.values:
        raise Invalid(_("Choose the cube or Daves."), field="stakes")
    if dave_progression not in DaveProgression.values:
        raise Invalid(_("Choose a geometric or an arithmetic progression."), field="dave_progression")
    if stakes == StakeForm.DAVE and variant != GameVariant.STANDARD:
        raise Invalid(_("Daves are played on the standard board only."), code="dave_on_standard", field="stakes")
    unknown = set(settings) - set(SETTING_CHOICES)
    if unknown:
        raise Invalid(_("This field cannot be changed here."), field=sorted(unknown)[0])
    chosen = {name: settings.get(name) or DEFAULT_FORM[name] for name in SETTING_CHOICES}
    for name, value in chosen.items():
        if value not in SETTING_CHOICES[name].values:
            choices = ", ".join(SETTING_CHOICES[name].values)
            raise Invalid(_("Choose one of: %(choices)s.") % {"choices": choices}, field=name)
        if value != DEFAULT_FORM[name] and name not in SETTINGS_OF.get(variant, ()):
            message = _("This setting belongs to another game than %(game)s.") % {"game": GameVariant(variant).label}
            raise Invalid(message, code="setting_not_for_variant", field=name)
    return chosen


@transaction.atomic
def start_match(*, actor, match: Match) -> Match:
    match = common.lock_match(match)
    common.require_participant_or_director(actor, match)
    if match.status == MatchStatus.IN_PROGRESS:
        return match
    common.transition(match, MatchStatus.IN_PROGRESS)
    match.started_at = timezone.now()
    match.save(update_fields=["status", "started_at"])
    return match


def _start_state(match: Match):
    return core.start_state(
        length=match.length,
        crawford_rule=match.crawford_rule,
        holland_rule=match.holland_rule,
        penalties=(match.penalty_a, match.penalty_b),
        form=common.form_of(match),
    )


def _entries(games) -> list[core.GameEntry]:
    return [core.GameEntry(g.winner_side, g.kind, g.cube, g.resign_level) for g in games]


def scoresheet_state(match: Match, games=None):
    """The live state after the recorded games (games may be passed in when already loaded)."""
    games = list(match.games.all()) if games is None else games
    final, _scored = core.replay(_start_state(match), _entries(games), form=common.form_of(match))
    return final


def _field_of(code: str) -> str:
    return "cube" if code in ("cube_in_crawford_game", "drop_in_crawford_game", "bad_cube") else "winner_side"


@transaction.atomic
def record_game(
    *, actor, match: Match, winner_side: int, kind: str = "single", cube: int = 1, resign_level: int | None = None
) -> MatchGame:
    """Add the next game to the scoresheet (the first game starts the match)."""
    match = common.lock_match(match)  # two phones adding "game 3" at once would otherwise both number it 3
    common.require_participant_or_director(actor, match)
    if match.status not in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS):
        raise Conflict(
            _("This match already has a result; report a correction instead of adding games."), code="has_result"
        )
    games = list(match.games.order_by("number"))
    number = len(games) + 1
    try:
        before = scoresheet_state(match, games)
        entry = core.GameEntry(winner_side, kind, cube, resign_level)
        _after, scored = core.play_game(before, entry, number=number, form=common.form_of(match))
    except DomainError as exc:
        raise common.scoring_error(exc.field or _field_of(exc.code), exc, match) from exc
    except ValueError:
        raise Invalid(_("Choose single, gammon, backgammon, drop or resign."), field="kind") from None
    if match.status == MatchStatus.SCHEDULED:
        common.transition(match, MatchStatus.IN_PROGRESS)
        match.started_at = timezone.now()
        match.save(update_fields=["status", "started_at"])
    return MatchGame.objects.create(
        match=match,
        number=number,
        winner_side=winner_side,
        kind=kind,
        cube=cube,
        resign_level=resign_level,
        points=scored.points,
        score_a_after=scored.scores_after[0],
        score_b_after=scored.scores_after[1],
        crawford_game=scored.crawford_game,
        recorded_by=actor,
    )


@transaction.atomic
def undo_last_game(*, actor, match: Match) -> None:
    match = common.lock_match(match)
    common.require_participant_or_director(actor, match)
    if match.status != MatchStatus.IN_PROGRESS:
        raise Conflict(_("Games can only be taken back while the match is in progress."), code="not_in_progress")
    last = match.games.order_by("-number").first()
    if last is None:
        raise Conflict(_("There is no game to take back."), code="nothing_to_undo")
    last.delete()
