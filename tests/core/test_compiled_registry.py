"""Every compiled read the project keeps (base.compiled.REGISTRY), held to its queryset here once, and the private
Django surface CompiledRead stands on, held to the shape it was written against.

Why one test instead of a check on every call: the suite used to build and compile each compiled read's queryset
again on every call it made (COMPILED_READS_CHECK), which cost the whole suite that work on every request it
sent. A read is a statement and where its arguments go; holding that statement to what the ORM compiles for
sample arguments of every arity it takes says the same, once. The surface test makes a Django upgrade that moves
one of the internals fail here, by name, instead of somewhere deep in a confirmation."""

import inspect

import django
import pytest
from django.db import connection, transaction
from django.db.models import Count, QuerySet
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    RelatedPopulator,
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.query import Query

from base.compiled import MOST_ARGUMENTS, REGISTRY, CompiledRead, CompileError, called_as_exists, project_reads
from games.models.matches import Match

pytestmark = pytest.mark.django_db

READS = project_reads()


def _samples(read: CompiledRead) -> list[tuple]:
    """Argument tuples for the read: its fixed arguments, and for a read that takes `*ids` one and several of them
    (its callers never send none: an empty `__in` is answered without the database, and a read with fixed arguments
    as well refuses to compile it). Strings where the read takes strings, ids elsewhere; values unlike the compile's
    stand-ins."""
    parameters = inspect.signature(read.build).parameters.values()
    fixed = sum(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters)
    counts = [fixed]
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        counts = [fixed + 1, fixed + 3]
    return [tuple(f"sample {n}" if n in read.strings else 7_000 + 11 * n for n in range(count)) for count in counts]


def test_the_registry_holds_every_read_the_project_defines():
    assert READS, "no compiled read found: project_reads() looks for `CompiledRead(` in the project's modules"
    defined = {id(read) for read in READS.values()}
    project = [r for r in REGISTRY if not getattr(r.build, "__module__", "").startswith("tests.")]
    assert all(id(read) in defined for read in project), "a compiled read that is not a module-level name"


@pytest.mark.parametrize("name", sorted(READS))
def test_each_compiled_read_sends_what_its_queryset_compiles_to(name):
    read = READS[name]
    with transaction.atomic():  # a locking read compiles only where it may run
        for args in _samples(read):
            assert len(args) <= MOST_ARGUMENTS
            read.check(*args, exists=called_as_exists(name))


def test_the_check_refuses_a_statement_that_differs_from_its_queryset():
    """The check is what the test above relies on: a build that reads more than its arguments is caught."""
    state = {"public": True}
    read = CompiledRead(lambda club_id: Match.objects.filter(club_id=club_id, is_public=state["public"]))
    read.check(5)
    state["public"] = False
    with pytest.raises(CompileError, match="compiles to"):
        read.check(5)


# --- the private Django surface --------------------------------------------------------------------------------

# The Django release CompiledRead's use of the internals below was last read against. A new one fails here first:
# read base/compiled.py's `_compile` and `_run` against its source, then move this on.
CHECKED_AGAINST = (5, 2)


def test_the_django_release_is_the_one_compiled_reads_were_checked_against():
    assert django.VERSION[:2] == CHECKED_AGAINST, (
        f"Django {django.get_version()}: base.compiled uses private ORM internals checked against "
        f"{CHECKED_AGAINST}; re-read them (this file lists each) and update CHECKED_AGAINST"
    )


def _signature(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_private_functions_compiled_reads_call_keep_their_signatures():
    assert _signature(get_related_populators) == ["klass_info", "select", "db"]
    assert _signature(RelatedPopulator.populate) == ["self", "row", "from_obj"]
    assert _signature(SQLCompiler.get_converters) == ["self", "expressions"]
    assert _signature(SQLCompiler.has_composite_fields) == ["self", "expressions"]
    assert _signature(SQLCompiler.as_sql)[:1] == ["self"]
    assert _signature(Query.exists)[:2] == ["self", "limit"]
    assert _signature(Query.get_compiler)[:2] == ["self", "using"]
    assert _signature(Match.from_db) == ["db", "field_names", "values"]
    assert all(isinstance(kind, type) for kind in (ModelIterable, ValuesListIterable, FlatValuesListIterable))


def test_the_private_attributes_compiled_reads_read_have_their_shape():
    """What `_compile` reads off a queryset and a compiled statement, on one that uses every part of it:
    select_related, only, an annotation, a converter (a date-time on SQLite)."""
    queryset = (
        Match.objects.select_related("club", "player_a")
        .only("pk", "status", "finished_at", "club__name", "player_a__name")
        .annotate(reported=Count("reports"))
        .filter(pk=1)
    )
    assert isinstance(queryset, QuerySet)
    assert queryset._iterable_class is ModelIterable
    assert queryset.values_list("pk")._iterable_class is ValuesListIterable
    assert queryset.values_list("pk", flat=True)._iterable_class is FlatValuesListIterable
    assert queryset._known_related_objects == {} and queryset._prefetch_related_lookups == ()
    assert Match.objects.filter(pk=1).select_for_update().query.select_for_update is True  # base.locks.locks_rows

    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    assert isinstance(sql, str) and isinstance(params, tuple | list)
    assert compiler.has_extra_select is False
    assert isinstance(compiler.col_count, int) and compiler.col_count == len(compiler.select)
    expression, (column_sql, _column_params), _alias = compiler.select[0]
    assert isinstance(column_sql, str)
    assert expression.target.attname == "id"  # init_list: `f[0].target.attname` for the model's own columns
    info = compiler.klass_info
    assert info["model"] is Match and all(isinstance(i, int) for i in info["select_fields"])
    assert {related["model"].__name__ for related in info["related_klass_infos"]} == {"Club", "Player"}
    assert set(compiler.annotation_col_map) == {"reported"}
    fields = [s[0] for s in compiler.select[: compiler.col_count]]
    assert compiler.has_composite_fields(fields) is False
    converters = compiler.get_converters(fields)
    assert isinstance(converters, dict)
    for position, (functions, converted) in converters.items():
        assert isinstance(position, int) and all(callable(f) for f in functions) and converted is not None
    populators = get_related_populators(info, compiler.select, queryset.db)
    assert len(populators) == 2 and all(isinstance(p, RelatedPopulator) for p in populators)
    assert connection.vendor in ("sqlite", "postgresql")  # the two backends CompiledRead's binding was read on
