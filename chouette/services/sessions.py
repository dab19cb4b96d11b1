"""Writes for a session's life: open a table, set or roll the starting order, settle at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Invalid
from chouette import hooks, selectors
from chouette import permissions as access
from chouette.core import order as order_core
from chouette.core import settlement as money_core
from chouette.core.errors import ChouetteError
from chouette.core.table_options import Rules
from chouette.models import (
    ChouetteSession,
    EventKind,
    Seat,
    SessionEvent,
    SessionStatus,
    Transfer,
    TransferKind,
)
from chouette.services import common, joining
from clubs import access as club_access
from clubs.models import Club, Player
from games.matchplay.services.play import check_variant
from games.models.variants import DaveProgression, GameVariant, StakeForm

# --- sessions --------------------------------------------------------------------------------------------


@transaction.atomic
def create_session(
    *,
    actor,
    club: Club,
    players: Sequence[Player] = (),
    invite: Sequence[Player] = (),
    stake_cents: int = 100,
    stakes: Mapping[int, int] | None = None,
    rules: Mapping | None = None,
    name: str = "",
    currency: str = "EUR",
    order: Sequence[int] | None = None,
    variant: str = GameVariant.STANDARD,
    stake_form: str = StakeForm.CUBE,
    dave_progression: str = DaveProgression.GEOMETRIC,
    **settings: str,
) -> ChouetteSession:
    """Open a table at a club with its players, stakes (one per player, default for all) and rule options.
    With `order` (player ids, box first) the session starts at once; otherwise the players roll for it.
    `stake_form` dave: the stakes rise by Daves (`dave_progression`) instead of cubes; a game then names each
    member's final stake and who gave up. `settings`: the variant's (backward_hits, head_doubles, six_block).

    `invite`: members asked to the table (chouette.services.joining): each accepts or declines on their own
    phone; a director's walk-ins among them sit down at once. Without `players` the opener sits down alone."""
    club_access.require(actor, "chouette.start", club)
    settings = check_variant(variant=variant, stakes=stake_form, dave_progression=dave_progression, **settings)
    if variant == GameVariant.LONG_NARDY:  # a chouette's games are scored by cubes or Daves, gammons included
        message = _("A chouette is played with the doubling cube or with Daves; long nardy has neither.")
        raise Invalid(message, code="nardy_no_chouette", field="variant")
    if rules and "dave" in rules:  # the stake form is the session's field, not a rule option
        raise ChouetteError("unknown_rule", "There is no rule called dave.", field="rules", name="dave")
    try:
        rule_set = Rules.from_dict(rules)
    except ChouetteError as exc:
        exc.field = "rules"
        raise exc from None
    except TypeError:
        raise Invalid(_("Unknown or malformed rule options."), field="rules") from None
    players = list(dict.fromkeys(players))
    invite = [p for p in dict.fromkeys(invite) if p not in players]
    if not players:
        own = club_access.player_of(actor)
        players = [own] if own is not None else []
    # Without an order the table stays open for seating: the others sit down themselves before the dice.
    fewest = 3 if order is not None else 1
    if invite and order is not None:
        message = _("Set the order once the invited players have sat down: roll or set it on the table's page.")
        raise Invalid(message, field="order")
    if not fewest <= len(players) <= rule_set.max_players or len(players) + len(invite) > rule_set.max_players:
        raise Invalid(_("A chouette needs 3 to %(max)s players.") % {"max": rule_set.max_players}, field="players")
    access.require_seat(actor, club, players)
    common.check_member(club, players)
    common.check_stake(stake_cents, "stake_cents")
    stakes = dict(stakes or {})
    for player_id, value in stakes.items():
        common.check_stake(value, "stakes")
        if player_id not in {p.pk for p in players}:
            raise Invalid(_("A stake is given for someone who is not at the table."), field="stakes")
    session = joining.create_with_join_code(
        club=club,
        name=name.strip()[:120],
        rules=rule_set.as_dict(),
        default_stake_cents=stake_cents,
        currency=(currency or "EUR").upper()[:3],
        created_by=actor,
        variant=variant,
        stakes=stake_form,
        dave_progression=dave_progression,
        **settings,
    )
    Seat.objects.bulk_create(
        [Seat(session=session, player=p, stake_cents=stakes.get(p.pk, stake_cents)) for p in players]
    )
    hooks.seated(session, list(players))
    if invite:
        joining.invite_locked(common.lock_session(session), actor, invite)
    if order is not None:
        return set_order(actor=actor, session=session, order=order)
    return session


def _require_enough_players(session: ChouetteSession) -> None:
    if session.seats.count() < 3:
        raise Invalid(_("A chouette needs at least 3 players; wait until the others have sat down."), field="order")


def _start(session: ChouetteSession, order: Sequence[int], actor) -> ChouetteSession:
    _require_enough_players(session)
    seated = set(session.seats.values_list("player_id", flat=True))
    if sorted(order) != sorted(seated):
        raise Invalid(_("List every player at the table exactly once, box first."), field="order")
    common.transition(session, SessionStatus.OPEN)
    session.started_at = timezone.now()
    session.save(update_fields=["status", "started_at"])
    start = SessionEvent.objects.create(
        session=session, seq=1, kind=EventKind.START, payload={"order": list(order)}, created_by=actor
    )
    common.advance(session, start)
    return session


@transaction.atomic
def set_order(*, actor, session: ChouetteSession, order: Sequence[int]) -> ChouetteSession:
    """The starting order entered by hand (player ids: box, captain, crew)."""
    session = common.lock_to_play(session, actor)
    common.require_status(session, SessionStatus.SEATING, _("The starting order is already set."))
    return _start(session, [int(p) for p in order], actor)


@transaction.atomic
def roll_for_order(*, actor, session: ChouetteSession, rolls: Mapping[int, int]) -> tuple[ChouetteSession, list]:
    """One round of rolls for the starting order: first everyone, then only the players still tied. Every
    roll is kept on the seat. Returns the session (open once the order stands) and the groups still tied."""
    session = common.lock_to_play(session, actor)
    common.require_status(session, SessionStatus.SEATING, _("The starting order is already set."))
    _require_enough_players(session)
    seats = {s.player_id: s for s in session.seats.select_related("player")}
    current = {pid: list(s.rolls) for pid, s in seats.items()}
    due = set(order_core.due_to_roll(current))
    given = {int(k): v for k, v in rolls.items()}
    if set(given) != due:
        names = ", ".join(sorted(seats[pid].player.name for pid in due))
        raise Invalid(_("Now %(names)s roll (and nobody else).") % {"names": names}, field="rolls")
    for pid, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
            raise Invalid(_("A roll is a number from 1 to 12 (one die or both)."), field="rolls")
        current[pid].append(value)
        seats[pid].rolls = current[pid]
        seats[pid].save(update_fields=["rolls"])
    ties = common.core_call(session, lambda: order_core.ties_to_reroll(current))
    if ties:
        return session, ties
    order = common.core_call(session, lambda: order_core.order_by_rolls(current))
    return _start(session, order, actor), []


@transaction.atomic
def finish_session(*, actor, session: ChouetteSession) -> list[Transfer]:
    """End the night: everyone's money (after cash-outs already paid) settled with the fewest transfers."""
    session = common.lock_to_play(session, actor)
    common.require_status(session, SessionStatus.OPEN, _("Only an open session can be settled."))
    balances = selectors.balances_after_payments(session)
    transfers = common.core_call(session, lambda: money_core.fewest_transfers(balances))
    rows = Transfer.objects.bulk_create(
        [
            Transfer(session=session, kind=TransferKind.SETTLEMENT, payer_id=t.payer, payee_id=t.payee, cents=t.cents)
            for t in transfers
        ]
    )
    common.transition(session, SessionStatus.FINISHED)
    session.finished_at = timezone.now()
    session.revision += 1
    session.save(update_fields=["status", "finished_at", "revision"])
    return rows
