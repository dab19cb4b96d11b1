"""The pipeline, declared once: what runs after each domain event, in order, whose code each step is and which
rows it locks; and the lock order those locks must follow.

Why one module: the apps below never import the apps above them, so an app offers a hook (`base.hooks.Hook`) and
the apps above plug their callbacks into it. That wiring used to be scattered over the apps' `ready()`,
`receivers.py` and `live.py` modules, ran in the order Django happened to load them (INSTALLED_APPS), and was
nowhere to be read: following a confirmed result lost the trail at `hooks.result_confirmed(...)`. Here every
step of every hook is listed in the order it runs, with the locks it takes, and `install()` (called once by
`config.apps.PipelineConfig.ready`, the last app to be ready) is the only code that registers them.

A step is the dotted path of its callback (the function stays in its app), the app that owns it, the lock-order
models it may lock (in the order it takes them) and the hooks it fires in turn (their steps run inside it, after
its own locks). `install()` checks that the steps of each event, taken in list order, lock in an order the lock
order allows: a list that would lock a later model before an earlier one fails at startup, naming the step.

The same goes for the other places an app plugs into a lower one: the query conditions the ratings ask the apps
above for, the answer "where does this match belong", the match directors, the badges loaded with the user, the
periodic sweepers, and the modules that register live-page groups and permission rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

# The models in the order a transaction may lock them, earliest first (docs/architecture.md, "Locks"). A
# transaction locks a model for the first time only before every later model it holds; it may lock more rows of
# a model it already holds. base.locks checks every lock against it at runtime (settings.LOCK_ORDER_CHECK).
LOCK_ORDER: tuple[str, ...] = (
    "accounts.LoginFailureWindow",  # 1. sign-in throttling, alone
    "clubs.WalkInClaim",  # 2. a claim locks its player; an invitation the invitee's player, then the membership
    "clubs.Player",
    "clubs.Membership",
    "clubs.Club",  # 3. approving a club recomputes the overall rating pool (approval_changed → RatingPool)
    "chouette.ChouetteSession",  # 4. a chouette table, alone
    "games.GameRecord",  # 5. record verification and its sweep, alone
    "games.RecordAnalysis",  # the analysis sweep, alone
    # 6. an event's places: a registration, a withdrawal or a waiting-list change locks the event before its flight,
    # so the places counted across an event with a cap are counted one change at a time (tournaments.services
    # .waiting). A path already holding a flight (a drop, a confirmation) never locks it: it offers a freed place
    # after its commit.
    "tournaments.Event",
    "tournaments.Flight",  # registration, the draw, a withdrawal (→ the walkover's match and its slots)
    "games.Match",  # 7. a confirmation: its match, then its slot and the slots it fills (or its round's pairing),
    "tournaments.Slot",  # then the event's boards, to free the finished match's board and call the next
    "tournaments.Pairing",
    "tournaments.Board",
    "calcutta.Calcutta",  # 8. a bid, a sale, the settlement after a bracket result
    "calcutta.SyndicateOffer",
    "ratings.EventPoints",  # 9. an event's points after a bracket result
    "ratings.RatingPool",  # 10. a confirmed result shares its pools and locks the two players' ratings in them
    "ratings.PlayerRating",
    "ratings.Ladder",  # 11. a challenge result moves the ladder
    "ratings.LadderChallenge",
)

# The two places the code enters an earlier level after a later one today, (held, then locked): each can wait on
# a confirmation that takes the pair the other way round. PostgreSQL then aborts one of the two after
# deadlock_timeout (1 s), answered 409 "busy"; taking them in order needs the bracket walk reordered.
KNOWN_INVERSIONS: dict[tuple[str, str], str] = {
    ("tournaments.Slot", "games.Match"): "clearing a bracket slot (a late placement, an override) annuls its match",
    ("ratings.RatingPool", "ratings.EventPoints"): (
        "an override unrates the results it voids before the event's points are awarded again"
    ),
}


@dataclass(frozen=True)
class Step:
    """One callback of a hook: `call` is its dotted path, `owner` the app whose code it is, `locks` the lock-order
    models it may lock (in that order), `fires` the hooks it calls in turn after its own locks."""

    call: str
    owner: str
    locks: tuple[str, ...] = ()
    fires: tuple[str, ...] = ()


@dataclass(frozen=True)
class Event:
    """A domain event: the hook its service calls inside its transaction, the models the caller holds locked when
    it does (what every step must lock after), and the steps in the order they run."""

    hook: str
    held: tuple[str, ...]
    steps: tuple[Step, ...]


MATCH_HOOKS = "games.matchplay.hooks"
FLIGHT_RESULTS_CHANGED = "tournaments.hooks.flight_results_changed"

EVENTS: tuple[Event, ...] = (
    # A result is confirmed, corrected, overridden or annulled (games.matchplay.services.reports, .play), after
    # the service locked its match and stored the result.
    Event(
        f"{MATCH_HOOKS}.result_confirmed",
        held=("games.Match",),
        steps=(
            # First: it locks no row, so the slot and rating rows the steps below lock are held the shorter.
            Step("notifications.receivers.result_confirmed", "notifications"),
            Step("games.live.result_told", "games"),  # the live pages (after the commit): games/live.py, TOLD
            # The bracket slot, else the round's table, else the team board; then the flight's other apps.
            Step(
                "tournaments.receivers.result_confirmed",
                "tournaments",
                locks=("games.Match", "tournaments.Slot", "tournaments.Pairing"),
                fires=(FLIGHT_RESULTS_CHANGED,),
            ),
            Step(
                "ratings.services.pools.on_result_confirmed",
                "ratings",
                locks=("ratings.RatingPool", "ratings.PlayerRating"),
            ),
            Step("ratings.services.ladders.on_result_confirmed", "ratings", locks=("ratings.Ladder",)),
        ),
    ),
    # A player's report waits for the opponent's confirmation.
    Event(
        f"{MATCH_HOOKS}.report_submitted",
        held=("games.Match",),
        steps=(
            Step("games.live.reported", "games"),
            Step("notifications.receivers.report_submitted", "notifications"),
        ),
    ),
    # A reported version is disputed.
    Event(
        f"{MATCH_HOOKS}.report_disputed",
        held=("games.Match",),
        steps=(
            Step("games.live.disputed", "games"),
            Step("notifications.receivers.report_disputed", "notifications"),
        ),
    ),
    # A match's status changed (started, finished, annulled).
    Event(
        f"{MATCH_HOOKS}.status_changed",
        held=("games.Match",),
        steps=(
            Step("games.live.started", "games"),
            Step("tournaments.services.common.match_status_changed", "tournaments"),  # the bracket's version
        ),
    ),
    # A player invites another to a casual match.
    Event(
        f"{MATCH_HOOKS}.match_invited",
        held=(),
        steps=(
            Step("games.live.invited", "games"),
            Step("notifications.receivers.match_invited", "notifications"),
        ),
    ),
    # A flight's results changed (a result, a correction, a re-route, a void; the flight or event finished):
    # fired by the tournaments services after the bracket is updated, holding its flight or its match and slots.
    Event(
        FLIGHT_RESULTS_CHANGED,
        held=("tournaments.Flight", "games.Match", "tournaments.Slot", "tournaments.Pairing"),
        steps=(
            Step("tournaments.live.flight_changed", "tournaments"),  # the live pages (after the commit)
            Step("tournaments.services.boards.results_changed", "tournaments", locks=("tournaments.Board",)),
            Step("tournaments.services.common.flight_results_changed", "tournaments"),  # the bracket's version
            Step("calcutta.services.settlement.on_flight_results_changed", "calcutta", locks=("calcutta.Calcutta",)),
            Step("points.services.on_flight_results_changed", "points", locks=("ratings.EventPoints",)),
        ),
    ),
    # A flight's draw is published and its round-1 matches exist.
    Event(
        "tournaments.hooks.draw_released",
        held=("tournaments.Flight",),
        steps=(Step("notifications.receivers.draw_released", "notifications"),),
    ),
    # A capped flight's or event's waiting list offered a freed place (tournaments.services.waiting, the event
    # and the flight locked, or the event alone when a place freed elsewhere in it is handed on).
    Event(
        "tournaments.hooks.place_offered",
        held=("tournaments.Event", "tournaments.Flight"),
        steps=(Step("notifications.receivers.place_offered", "notifications"),),
    ),
    # A tournament match can be played (board None), or was called to a board (after that call committed).
    Event(
        "tournaments.hooks.match_called",
        held=(),
        steps=(Step("notifications.receivers.match_called", "notifications"),),
    ),
    # A club's approval changed: its directors' decisions enter or leave the overall pool.
    Event(
        "clubs.hooks.approval_changed",
        held=("clubs.Club",),
        steps=(Step("ratings.services.pools.on_club_approval_changed", "ratings", locks=("ratings.RatingPool",)),),
    ),
    # A player's name or display name changed: the brackets they are in render again, their Calcutta bidders
    # take the name their club shows.
    Event(
        "clubs.hooks.player_renamed",
        held=(),
        steps=(
            Step("tournaments.services.common.player_renamed", "tournaments"),
            Step("calcutta.services.setup.player_renamed", "calcutta"),
        ),
    ),
    # A club allowed display names or stopped allowing them: the brackets of its events render again.
    Event(
        "clubs.hooks.display_names_switched",
        held=(),
        steps=(
            Step("tournaments.services.common.display_names_switched", "tournaments"),
            Step("calcutta.services.setup.display_names_switched", "calcutta"),
        ),
    ),
    # Players sat down at a chouette table.
    Event(
        "chouette.hooks.seated",
        held=("chouette.ChouetteSession",),
        steps=(Step("notifications.receivers.seated", "notifications"),),
    ),
    # A settle-up (a chouette transfer, a Calcutta owner's, a prize) is still open a day on (base.settle_up's
    # periodic sweep, once per row).
    Event(
        "base.settle_up.still_open",
        held=(),
        steps=(Step("notifications.receivers.transfer_open", "notifications"),),
    ),
    # A ladder challenge was created.
    Event(
        "ratings.hooks.challenge_created",
        held=("ratings.Ladder",),
        steps=(Step("notifications.receivers.challenge_created", "notifications"),),
    ),
)

# The periodic sweep (core.sweep): each sweeper re-sends its app's due work, each in its own transactions.
SWEEPERS: tuple[Step, ...] = (
    Step("accounts.services.sweep_password_reset_mails", "accounts"),
    Step("games.records.services.sweep_due_records", "games"),
    Step("games.analysis.services.sweep_due_analyses", "games"),
    Step("ratings.services.pools.sweep_pending_pools", "ratings"),
    Step("notifications.services.sweep_due", "notifications"),
    Step("tournaments.services.waiting.sweep_offers", "tournaments"),  # passes on waiting-list offers past due
    Step("base.settle_up.sweep_reminders", "base"),  # settle-ups still open a day on: every kind, once each
    Step("base.idempotency.sweep_idempotent_requests", "base"),  # forgets idempotency keys past their 24 h
)

# Query conditions the ratings ask the apps above for (ratings.hooks): hook -> the functions building them.
CONDITIONS: dict[str, tuple[Step, ...]] = {
    # Ways a player shows they belong to a match's club, so a director's decision about them counts overall.
    "ratings.hooks.club_consent": (Step("tournaments.receivers.entered_a_club_event", "tournaments"),),
    # Matches no pool rates although played out (a doubles or consultation pair's).
    "ratings.hooks.not_rated": (Step("tournaments.receivers.played_by_pairs", "tournaments"),),
}

# Who says where a match belongs (games.matchplay.hooks.places: a result card's label, a push's groups).
PLACERS: tuple[Step, ...] = (Step("tournaments.panels.match_places", "tournaments"),)

# Who else directs a match besides its club's directors (games.models.matches.register_director_check).
DIRECTOR_CHECKS: tuple[Step, ...] = (Step("tournaments.permissions.directs_match", "tournaments"),)

# Counts loaded together with the signed-in user (accounts.badges): name -> the function building its subquery.
BADGES: dict[str, str] = {
    "to_confirm_count": "games.matchplay.selectors.to_confirm_count_subquery",  # the menu's badges
    "to_decide_count": "games.matchplay.selectors.to_decide_count_subquery",
    "directs_open_events": "tournaments.selectors.directs_open_events_subquery",  # the home page's director list
    "open_table_kinds": "tournaments.selectors.tables.open_table_kinds_subquery",  # the home page's next tables
    "unread_notifications": "notifications.selectors.unread_count_subquery",  # the header's bell
}

# The modules that register live-page group kinds (base.live.register_group): who may watch which group.
LIVE_MODULES: tuple[str, ...] = ("games.live", "tournaments.live", "calcutta.live", "chouette.live")

# The modules that register permission rules (clubs.access.rule), so every rule exists before the first request.
PERMISSION_MODULES: tuple[str, ...] = (
    "clubs.permissions",
    "games.matchplay.permissions",
    "games.records.permissions",
    "tournaments.permissions",
    "calcutta.permissions",
    "ratings.permissions",
    "chouette.permissions",
    "notifications.permissions",
)


def event(hook: str) -> Event:
    """The declared event of this hook (dotted path)."""
    for declared in EVENTS:
        if declared.hook == hook:
            return declared
    raise KeyError(hook)


def check_locks(events: tuple[Event, ...] | None = None) -> None:
    """Refuse (ImproperlyConfigured) an event whose steps, taken in list order with the hooks they fire, would
    lock models in an order the lock order does not allow. base.locks must be configured (`install` does it)."""
    from base.locks import refusal  # noqa: PLC0415 - base.locks reads the settings

    def walk(declared: Event, held: set[str], path: str) -> None:
        for step in declared.steps:
            for label in step.locks:
                problem = refusal(held, label)
                if problem is not None:
                    raise ImproperlyConfigured(
                        f"config/pipeline.py: {path} → {step.call} ({step.owner}) would take the locks out of order: "
                        f"{problem}"
                    )
                held.add(label)
            for fired in step.fires:
                walk(by_hook[fired], held, f"{path} → {step.call} → {fired}")

    events = EVENTS if events is None else events
    by_hook = {declared.hook: declared for declared in events}
    for declared in events:
        walk(declared, set(declared.held), declared.hook)


def install() -> None:
    """Wire every step into its hook in list order, import the live and permission modules, and install and
    check the lock order. Called once, by config.apps.PipelineConfig.ready, after every app is loaded. A hook
    that already holds a callback the list does not name (registered somewhere else) fails here."""
    from accounts import badges  # noqa: PLC0415 - the apps' modules import models
    from base import locks  # noqa: PLC0415
    from games.matchplay.hooks import on_place_matches  # noqa: PLC0415
    from games.models.matches import register_director_check  # noqa: PLC0415

    locks.configure(order=LOCK_ORDER, inversions=KNOWN_INVERSIONS)
    check_locks()
    for module in (*PERMISSION_MODULES, *LIVE_MODULES):
        import_module(module)
    wiring = [(declared.hook, declared.steps) for declared in EVENTS]
    wiring += [("base.queue.sweepers", SWEEPERS), *CONDITIONS.items()]
    for hook_path, steps in wiring:
        hook = import_string(hook_path)
        wanted = [import_string(step.call) for step in steps]
        if list(hook.registered()) not in ([], wanted):  # empty at startup; the same list if installed again
            raise ImproperlyConfigured(
                f"{hook_path} has callbacks registered outside config/pipeline.py: "
                f"{', '.join(map(_name, hook.registered()))}. List them as its steps there instead."
            )
        for callback in wanted:
            hook.register(callback)
    for step in PLACERS:
        on_place_matches(import_string(step.call))
    for step in DIRECTOR_CHECKS:
        register_director_check(import_string(step.call))
    for name, path in BADGES.items():
        badges.register(name, import_string(path))


def _name(callback) -> str:
    return f"{getattr(callback, '__module__', '?')}.{getattr(callback, '__qualname__', callback)}"
