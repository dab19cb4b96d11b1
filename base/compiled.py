"""Reads compiled once per process: the ORM builds and compiles a hot read's statement the first time it runs,
and every later call only binds its own values to the same SQL.

Why: under load most of a web worker's CPU went into the ORM building statements, not into the database running
them. Profiled with py-spy on the three workers during the load test's report + confirm (the thread holding the
interpreter lock sampled), half of a confirmation's CPU was Django's query building and SQL compiling
(`Query.build_filter`, `SQLCompiler.get_related_selections`, `get_default_columns`, `_order_by_pairs`, …); the
bracket slot's locking read alone cost about 3 ms of Python before it reached PostgreSQL, which then ran it in
0.3. The statement is the same every time; only the ids differ.

A `CompiledRead` wraps a function that builds the queryset from its arguments (ids and strings). On the first call
in a process it builds that queryset twice with two different sets of stand-in values, compiles both, and keeps
the SQL and where each argument's value goes among the parameters; both builds must give the same SQL and the
same places, or it refuses (a value the ORM changed or wrote into the SQL itself, such as a `contains` pattern or
a slice, cannot be bound again). Each call then binds its arguments, runs the SQL on the current connection and
turns the rows into model instances the way Django's own iterable does (the related objects `select_related`
names, the columns `only` defers, the database's converters), so callers get what the queryset would have
given them. A locking read (`base.locks.lock`) is checked and bounded on every call, as `lock` does.

What it does not take: a `None` argument (the ORM writes `IS NULL` for it, a bound value would match nothing),
`values()` (use `values_list`), `extra()` and querysets of related managers. The queryset the
function builds is still the one place the read is written.

It stands on private parts of Django's ORM (`QuerySet._iterable_class`, the compiler's `klass_info`, `select`,
`annotation_col_map`, `get_converters`, `get_related_populators`, …), so it is kept only where it pays: the reads
docs/performance.md lists with their measured gain ("Reads compiled once per process"), each on a request the load
test drives; a read that gained less is a plain queryset. `tests/core/test_compiled_registry.py` holds every read
in REGISTRY to the statement its queryset compiles to, and that private surface to the shape it was written for.
"""

from __future__ import annotations

import importlib
import inspect
import operator
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import FlatValuesListIterable, ModelIterable, ValuesListIterable, get_related_populators

from base.locks import locks_rows, prepare_lock

__all__ = ["CompiledRead", "CompileError", "REGISTRY"]

# Every compiled read the project defines, in the order their modules were imported: the one test that holds each
# to its queryset's SQL (tests/core/test_compiled_registry.py) and the bench that times each (bench/bench_compiled.py)
# walk it. A read a test builds for itself is in it too; they tell them apart by the build's module.
REGISTRY: list[CompiledRead] = []

# Two sets of stand-in values: within every integer field's range (Django answers an out-of-range lookup without
# asking the database, so a huge stand-in would compile to nothing), unlike each other, and unlikely as constants.
MOST_ARGUMENTS = 16  # a call with more (a long `__in`) runs the plain queryset: a plan for every length would pile up
_STAND_INS = tuple(
    tuple(first + step * n for n in range(MOST_ARGUMENTS)) for first, step in ((32_101, 13), (31_019, 17))
)


class CompileError(TypeError):
    """A read that cannot be compiled once and bound again: a mistake in the code, found by its first call."""


class _Plan:
    """One read's SQL on one database and how to turn its rows into what the queryset returns."""

    __slots__ = (
        "sql",
        "params",
        "slots",
        "alias",
        "model",
        "locks",
        "kind",
        "columns",
        "converters",
        "init_list",
        "fields",
        "populators",
        "annotations",
    )


class CompiledRead:
    """`read = CompiledRead(lambda match_id: Slot.objects.filter(match_id=match_id)[:1])`, then `read.first(7)`,
    `read.all(7)` or `read.exists(7)`. The arguments are ints unless `strings` names their positions; a build
    `lambda pool, *players: ….filter(pool_id=pool, player_id__in=players)` takes any number of them (compiled
    once for each number up to MOST_ARGUMENTS; past that the plain queryset runs)."""

    def __init__(self, build: Callable[..., QuerySet], *, strings: tuple[int, ...] = ()) -> None:
        self.build = build
        self.strings = frozenset(strings)
        self._plans: dict[tuple[bool, int], _Plan] = {}  # by exists() and arity; one database alias per process
        self._lock = threading.Lock()
        REGISTRY.append(self)

    def __repr__(self) -> str:
        return f"CompiledRead({getattr(self.build, '__qualname__', self.build)!r})"

    # --- calls ------------------------------------------------------------------------------------------------

    def all(self, *args: Any) -> list:
        if len(args) > MOST_ARGUMENTS:
            return list(self.build(*self._values(args)))
        return self._run(self._plan(len(args), exists=False), args)

    def first(self, *args: Any):
        """The first row, or None: the queryset's own order and slice decide which (slice it `[:1]`)."""
        rows = self.all(*args)
        return rows[0] if rows else None

    def exists(self, *args: Any) -> bool:
        if len(args) > MOST_ARGUMENTS:
            return self.build(*self._values(args)).exists()
        return bool(self._fetch(self._plan(len(args), exists=True), args))

    # --- running ----------------------------------------------------------------------------------------------

    def _values(self, args: tuple) -> list:
        values = []
        for position, value in enumerate(args):
            if position in self.strings:
                if not isinstance(value, str):
                    raise CompileError(f"{self!r}: argument {position} must be a string, not {value!r}")
                values.append(value)
            else:
                values.append(operator.index(value))  # None, floats and strings are refused here
        return values

    def _bind(self, plan: _Plan, values: list) -> list:
        params = list(plan.params)
        for position, argument, wrap in plan.slots:
            params[position] = values[argument] if wrap is None else wrap(values[argument])
        return params

    def _fetch(self, plan: _Plan, args: tuple) -> list:
        values = self._values(args)
        if plan.sql is None:
            return []
        params = self._bind(plan, values)
        if plan.locks:
            prepare_lock(plan.model, plan.alias)
        with connections[plan.alias].cursor() as cursor:
            cursor.execute(plan.sql, params)
            return cursor.fetchall()

    def _run(self, plan: _Plan, args: tuple) -> list:
        rows = self._fetch(plan, args)
        if not rows:
            return []
        connection = connections[plan.alias]
        if plan.converters:
            converted = []
            for row in rows:
                row = list(row)
                for position, (functions, expression) in plan.converters:
                    value = row[position]
                    for function in functions:
                        value = function(value, expression, connection)
                    row[position] = value
                converted.append(row)
            rows = converted
        if plan.kind is FlatValuesListIterable:
            return [row[0] for row in rows]
        if plan.kind is ValuesListIterable:
            return [tuple(row[: plan.columns]) for row in rows]
        start, end = plan.fields
        objects = []
        for row in rows:
            obj = plan.model.from_db(plan.alias, plan.init_list, row[start:end])
            for populator in plan.populators:
                populator.populate(row, obj)
            for name, position in plan.annotations:
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects

    def check(self, *args: Any, exists: bool = False) -> None:
        """Hold what a call with these arguments would send to what its queryset, built with the same values,
        compiles to; runs nothing. Raises CompileError on any difference: a build that reads anything but its
        arguments, or an argument that changes the statement's shape, would otherwise bind the first call's
        statement for ever. tests/core/test_compiled_registry.py calls it for every read in REGISTRY."""
        values = self._values(args)
        plan = self._plan(len(args), exists=exists)
        queryset = self.build(*values)
        query = queryset.query.exists() if exists else queryset.query
        try:
            sql, expected = query.get_compiler(using=queryset.db).as_sql()
        except EmptyResultSet:
            sql, expected = None, ()
        params = [] if plan.sql is None else self._bind(plan, values)
        bound = [(type(value).__name__, value) for value in params]
        if sql != plan.sql or [(type(value).__name__, value) for value in expected] != bound:
            raise CompileError(
                f"{self!r} would run {plan.sql!r} with {params!r}, but its queryset compiles to {sql!r} "
                f"with {expected!r}"
            )

    # --- compiling --------------------------------------------------------------------------------------------

    def _plan(self, arity: int, *, exists: bool) -> _Plan:
        """The plan for this many arguments: a build that takes `*ids` (for an `__in`) is compiled once for each
        number of them it is called with."""
        plan = self._plans.get((exists, arity))
        if plan is None:
            with self._lock:
                plan = self._plans.get((exists, arity))
                if plan is None:
                    first, second = (self._queryset(stand_ins, arity) for stand_ins in _STAND_INS)
                    plan = self._plans[(exists, arity)] = self._compile(first, second, arity, exists=exists)
        return plan

    def _queryset(self, stand_ins: tuple[int, ...], arity: int) -> QuerySet:
        queryset = self.build(*self._stand_ins(stand_ins[:arity]))
        if not isinstance(queryset, QuerySet):
            raise CompileError(f"{self!r} must build a QuerySet, not {type(queryset).__name__}")
        if queryset._known_related_objects or queryset._prefetch_related_lookups:
            raise CompileError(f"{self!r}: a related manager's queryset or prefetch_related cannot be compiled")
        return queryset

    def _stand_ins(self, numbers: tuple[int, ...]) -> list:
        return [f"\x1fcompiled-read-{n}\x1f" if position in self.strings else n for position, n in enumerate(numbers)]

    def _compile(self, first: QuerySet, second: QuerySet, arity: int, *, exists: bool) -> _Plan:
        compiled = []
        for queryset, stand_ins in ((first, _STAND_INS[0]), (second, _STAND_INS[1])):
            query = queryset.query.exists() if exists else queryset.query
            compiler = query.get_compiler(using=queryset.db)
            try:
                sql, params = compiler.as_sql()
            except EmptyResultSet:  # an empty `__in`: nothing to ask the database
                sql, params = None, ()
            values = self._stand_ins(stand_ins[:arity])
            # PostgreSQL's backend hands integers over wrapped in psycopg's Int2/Int4/Int8, which fix the type
            # the server plans with: a bound value is wrapped again in the same type.
            slots = tuple(
                (position, values.index(param), None if type(param) in (int, str) else type(param))
                for position, param in enumerate(params)
                if isinstance(param, int | str) and not isinstance(param, bool) and param in values
            )
            compiled.append((sql, tuple(params), slots, compiler))
        (sql, params, slots, compiler), (sql_2, _params_2, slots_2, _) = compiled
        if sql != sql_2 or slots != slots_2:
            raise CompileError(f"{self!r}: the ORM wrote an argument into the SQL itself; it cannot be bound again")
        if {argument for _position, argument, _wrap in slots} != set(range(arity)):
            raise CompileError(
                f"{self!r}: an argument changed on its way into the SQL (a pattern, a cast): {sql!r} {params!r}"
            )
        bound = {position for position, _argument, _wrap in slots}
        for position, value in enumerate(params):
            if position not in bound and isinstance(value, str) and "compiled-read" in value:
                raise CompileError(f"{self!r}: a string argument was changed on its way into the SQL")
        plan = _Plan()
        plan.sql, plan.params, plan.slots, plan.alias = sql, params, slots, first.db
        plan.model = first.model
        plan.locks = locks_rows(first)
        if exists:
            plan.kind, plan.converters = None, ()
            return plan
        kind = first._iterable_class
        if kind not in (ModelIterable, ValuesListIterable, FlatValuesListIterable):
            raise CompileError(f"{self!r}: values() and named rows are not compiled; use instances or values_list")
        if compiler.has_extra_select:
            raise CompileError(f"{self!r}: extra() is not compiled")
        columns = compiler.col_count
        fields = [s[0] for s in compiler.select[0:columns]]
        if compiler.has_composite_fields(fields):
            raise CompileError(f"{self!r}: composite fields are not compiled")
        plan.kind, plan.columns = kind, columns
        plan.converters = tuple(compiler.get_converters(fields).items())
        if kind is ModelIterable:
            klass_info, select = compiler.klass_info, compiler.select
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            plan.fields = (start, end)
            plan.init_list = [f[0].target.attname for f in select[start:end]]
            plan.populators = tuple(get_related_populators(klass_info, select, first.db))
            plan.annotations = tuple((compiler.annotation_col_map or {}).items())
        return plan


def project_reads() -> dict[str, CompiledRead]:
    """Every compiled read the project's own modules define, by `module.NAME`: each source file that says
    `CompiledRead(` is imported (so none is missed because nothing imported its module yet) and its module-level
    reads collected. For the registry test and the bench, not for requests."""
    root = Path(settings.BASE_DIR)
    skipped = {"tests", "bench", "loadtest", "tools", "migrations", "node_modules"}
    reads: dict[str, CompiledRead] = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative == Path("base/compiled.py") or any(p.startswith(".") or p in skipped for p in relative.parts):
            continue
        if "CompiledRead(" not in path.read_text(encoding="utf-8"):
            continue
        module = importlib.import_module(".".join(relative.with_suffix("").parts))
        for name, value in vars(module).items():
            if isinstance(value, CompiledRead):
                reads[f"{module.__name__}.{name}"] = value
    return reads


def called_as_exists(name: str) -> bool:
    """Whether the module that defines the read `module.NAME` calls it as `.exists()` (its plan then is the
    EXISTS statement, which leaves out what only the rows need: an annotation's arguments may not be in it)."""
    module, attribute = name.rsplit(".", 1)
    return f"{attribute}.exists(" in inspect.getsource(importlib.import_module(module))
