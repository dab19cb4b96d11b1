"""Row locks: one way to take them, one order to take them in.

Why: a service that decides on rows it read (the high bid, the free bracket position, the current rating) must
lock them first, or two requests at once both decide on the same old state. Every such lock goes through
`lock(...)`, which

- refuses to run outside a transaction (a `SELECT … FOR UPDATE` in autocommit locks nothing beyond its own
  statement): `LockError` at once, a mistake in the code, never the user's;
- bounds the wait on PostgreSQL (`SET LOCAL lock_timeout`, settings.LOCK_TIMEOUT_MS): a request stuck behind a
  slow one gives up instead of holding a worker. The database's "lock not available" (SQLSTATE 55P03), and the
  "deadlock detected" (40P01) it answers one of two transactions that wait on each other, abort the whole
  transaction; the API's exception handler then answers 409 `Conflict` with the code "busy", the web pages
  show the message (`is_busy`, `BUSY_MESSAGE`): "Someone else is changing this right now; try again in a
  moment." The error is turned into the answer at the edge, after the transaction rolled back, not where the
  statement failed: code that catches a Conflict to go on (a Calcutta that cannot settle) must not go on
  with a transaction the database has aborted;
- knows the lock order and, with settings.LOCK_ORDER_CHECK (on in DEBUG and in the tests), refuses a lock
  taken out of order within one transaction (`LockError`): two transactions that lock the same rows in
  opposite orders deadlock, and the check finds such code the first time a test runs it.

The lock order is declared in config/pipeline.py, next to the steps that run after each domain event and the
locks each takes, and installed here at startup (`configure`; docs/architecture.md, "Locks", says why each model
has its place). A transaction locks a model for the first time only before every later model it holds; it may lock
more rows of a model it already holds (a Calcutta locked again by the helper a service calls; the later slots of
a bracket walk). Two inversions are taken today and tolerated by name (`KNOWN_INVERSIONS`); any other is refused.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils.translation import gettext_lazy

__all__ = [
    "BUSY_MESSAGE",
    "KNOWN_INVERSIONS",
    "LOCK_ORDER",
    "LockError",
    "batch",
    "configure",
    "is_busy",
    "lock",
    "locks_rows",
    "prepare_lock",
    "refusal",
    "share",
]

#: The models in the order a transaction may lock them ("app_label.ModelName"; the module docstring says why), and
#: the inversions tolerated by name, (held, then locked) -> why. config/pipeline.py declares both next to the steps
#: that take the locks and installs them at startup (`configure`): base imports no app. Until then every lock is
#: refused as out of place when the order is checked.
LOCK_ORDER: tuple[str, ...] = ()
KNOWN_INVERSIONS: dict[tuple[str, str], str] = {}
_RANK: dict[str, int] = {}


def configure(*, order: tuple[str, ...], inversions: dict[tuple[str, str], str]) -> None:
    """Install the lock order and its tolerated inversions (config.pipeline.install, once at startup). An
    inversion must name two models of the order, the later one held first: anything else is a typo."""
    global LOCK_ORDER, KNOWN_INVERSIONS, _RANK
    rank = {label: index for index, label in enumerate(order)}
    if len(rank) != len(order):
        raise LockError("The lock order names a model twice.")
    for held, then in inversions:
        if held not in rank or then not in rank or rank[held] <= rank[then]:
            raise LockError(f"The inversion ({held}, {then}) is not an earlier model locked after a later one.")
    LOCK_ORDER, KNOWN_INVERSIONS, _RANK = tuple(order), dict(inversions), rank


def refusal(held, label: str) -> str | None:
    """Why a transaction holding the models `held` may not lock `label` now (None: it may). The one rule of the
    order: the runtime check (`lock`) and config.pipeline's check of its declared steps both ask it."""
    rank = _RANK.get(label)
    if rank is None:
        return f"{label} is not in base.locks.LOCK_ORDER: give it its place there (config/pipeline.py) and in the docs."
    if label in held:
        return None
    later = sorted(h for h in held if _RANK.get(h, -1) > rank and (h, label) not in KNOWN_INVERSIONS)
    if later:
        return (
            f"{label} locked after {', '.join(later)} in one transaction: the lock order (base.locks) "
            "puts it before. Lock it first, or move it in the order if every path takes them this way."
        )
    return None


#: PostgreSQL SQLSTATEs of a lock wait given up: lock_timeout ran out, or the transaction lost a deadlock.
BUSY_SQLSTATES = frozenset({"55P03", "40P01"})
BUSY_MESSAGE = gettext_lazy("Someone else is changing this right now; try again in a moment.")


class LockError(RuntimeError):
    """A lock taken where it cannot work or out of order: a mistake in the code, not in the request."""


def is_busy(exc: BaseException) -> bool:
    """Whether `exc` is the database giving up a lock wait (answered 409 "busy", see the module docstring)."""
    if not isinstance(exc, DatabaseError):
        return False
    cause = exc.__cause__
    return (getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)) in BUSY_SQLSTATES


def lock(rows, **options):
    """`rows.select_for_update(**options)` (a manager or queryset; `of`, `skip_locked`, … as Django takes them),
    checked and bounded as the module docstring says. Returns the locking queryset, still lazy: filter, get,
    first or get_or_create it as before.

    The lock is FOR NO KEY UPDATE unless `no_key=False` is asked for: a service locks a row to decide on its
    values, never its key, and a plain FOR UPDATE also blocks the key-share lock PostgreSQL takes on a row that a
    new row references. A rating pool's rebuild inserting explanation rows that reference matches then waited
    on a confirmation holding a match, which waited on the pool: a deadlock under load."""
    options.setdefault("no_key", True)
    locked = rows.select_for_update(**options)
    prepare_lock(rows.model, locked.db)
    return locked


def share(model, pks, *fields: str, using: str = "default") -> dict:
    """Read `fields` of the rows with these primary keys and hold them FOR SHARE to the end of the transaction;
    returns {pk: (values)} (a row that does not exist is left out). Many transactions may share a row at once,
    while one that locks it (`lock`) waits for them all, and they for it. A confirmed result shares its rating
    pools this way (in one query), so results of any events are rated side by side while a pool's rebuild still
    has the pool to itself. Checked and bounded like `lock`; SQLite, which writes one transaction at a time
    anyway, just reads."""
    pks = list(pks)
    if not pks:
        return {}
    connection = prepare_lock(model, using)
    columns = ", ".join(connection.ops.quote_name(model._meta.get_field(f).column) for f in fields)
    table, key = connection.ops.quote_name(model._meta.db_table), connection.ops.quote_name(model._meta.pk.column)
    suffix = " FOR SHARE" if connection.vendor == "postgresql" else ""
    marks = ", ".join(["%s"] * len(pks))
    sql = f"SELECT {key}, {columns} FROM {table} WHERE {key} IN ({marks}) ORDER BY {key}{suffix}"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, pks)
        return {row[0]: tuple(row[1:]) for row in cursor.fetchall()}


def locks_rows(queryset) -> bool:
    """Whether the queryset is a locking read (`lock`'s): a compiled read (base.compiled) of one checks and bounds
    its lock with `prepare_lock` on every call."""
    return bool(queryset.query.select_for_update)


def prepare_lock(model, using: str):
    """The checks and the bounded wait every row lock takes (module docstring); returns the connection. `lock`
    and `share` call it; so does a compiled locking read (base.compiled), which runs `lock`'s statement again
    without building the queryset."""
    connection = transaction.get_connection(using)
    label = model._meta.label
    if not connection.in_atomic_block:
        raise LockError(f"lock({label}) outside a transaction: wrap the service in transaction.atomic.")
    held = _held(connection)
    if settings.LOCK_ORDER_CHECK:
        held.check(label)
    if connection.vendor == "postgresql" and not held.timeout_set:
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = {int(settings.LOCK_TIMEOUT_MS)}")
        held.timeout_set = True
    return connection


@contextmanager
def batch(using=None):
    """One transaction around many service calls (the demo loader): all or nothing, while the lock order is
    checked for each call on its own, as in a test. The batch holds every lock it took until its end, so it is
    for setup work, not for running while people use the site."""
    block = transaction.atomic(using=using)
    block._lock_batch = True
    with block:
        yield


class _Held:
    """What one transaction locked so far (the models), and whether its lock timeout is set."""

    def __init__(self, scope: tuple, hooks: list) -> None:
        self.scope, self.hooks = scope, hooks
        self.labels: set[str] = set()
        self.timeout_set = False

    def check(self, label: str) -> None:
        problem = refusal(self.labels, label)
        if problem is not None:
            raise LockError(problem)
        self.labels.add(label)


def _held(connection) -> _Held:
    """The record of the current transaction, made afresh when a new one began.

    A transaction is recognised without a query: Django replaces the connection's list of on-commit callbacks
    when a transaction ends (commit or rollback) or rolls back to a savepoint, so a record made with an older
    list belongs to a transaction that is over. Inside a test case or a `batch`, whose atomic block stays open
    around many service calls, the transaction is the outermost block within the innermost of them, told apart
    by its savepoint.
    """
    scope = _scope(connection)
    held = getattr(connection, "_locks_held", None)
    if held is None or held.hooks is not connection.run_on_commit or held.scope != scope:
        held = connection._locks_held = _Held(scope, connection.run_on_commit)
    return held


def _scope(connection) -> tuple:
    """The transaction's block: the first one inside the innermost test-case or batch block (the first of all
    outside them), and its savepoint."""
    blocks = connection.atomic_blocks
    depth = 0
    for index, block in enumerate(blocks):
        if block._from_testcase or getattr(block, "_lock_batch", False):
            depth = index + 1
    depth = min(depth, len(blocks) - 1)
    return (depth, connection.savepoint_ids[depth - 1] if depth else None)
