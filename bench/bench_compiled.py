"""Compiled reads (base.compiled) against their plain querysets: the time of one call of each, on a warm
connection, in a throwaway test database (on PostgreSQL when DATABASE_URL names it; the figures in
docs/performance.md are from there).

Each read is called the way its module calls it (`.exists()` where the source says so, else the rows), with
sample ids that match no row: what differs between the two ways is the Python that builds and compiles the
statement, which a matching row does not change (both make their instances the same way, Django's `from_db`);
the database's part is in both figures alike. Locking reads run inside a transaction, as they must. Printed per
read: the plain queryset's time per call, the compiled read's, and the gain (plain minus compiled), medians of
ROUNDS rounds of CALLS calls each, alternating the two so a noisy neighbour hits both."""

import inspect
import statistics
import time

from django.db import transaction

from base.compiled import CompiledRead, called_as_exists, project_reads
from bench.scratch import scratch_database

CALLS = 200
ROUNDS = 7
# How many ids a read that takes `*ids` is called with: the two players of a match, a confirmation's entries.
VARIADIC = 2


def sample_arguments(read: CompiledRead) -> tuple:
    """Arguments for one call: stand-in ids, and short strings where the read takes strings."""
    parameters = inspect.signature(read.build).parameters.values()
    fixed = [p for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    count = len(fixed) + (VARIADIC if any(p.kind is p.VAR_POSITIONAL for p in parameters) else 0)
    return tuple(f"sample-{n}" if n in read.strings else 900_001 + n for n in range(count))


def _per_call(call) -> float:
    start = time.perf_counter()
    for _ in range(CALLS):
        call()
    return (time.perf_counter() - start) / CALLS * 1e6


def measure(read: CompiledRead, exists: bool) -> tuple[float, float]:
    """(plain µs, compiled µs) per call."""
    args = sample_arguments(read)
    if exists:
        compiled, plain = (lambda: read.exists(*args)), (lambda: read.build(*args).exists())
    else:
        compiled, plain = (lambda: read.all(*args)), (lambda: list(read.build(*args)))
    plains, compileds = [], []
    with transaction.atomic():  # a locking read refuses to run outside one; the others do not mind
        compiled(), plain()  # the compiled read's plan, the connection's prepared statements
        for _ in range(ROUNDS):
            plains.append(_per_call(plain))
            compileds.append(_per_call(compiled))
    return statistics.median(plains), statistics.median(compileds)


def main() -> None:
    reads = project_reads()
    with scratch_database():
        from django.db import connection

        print(f"# compiled reads on {connection.vendor}, {CALLS} calls x {ROUNDS} rounds each, µs per call")
        for name, read in reads.items():
            plain, compiled = measure(read, called_as_exists(name))
            label = name.replace(".", "_").lower()
            print(f"compiled_{label}_plain: {plain:.0f} us")
            print(f"compiled_{label}_compiled: {compiled:.0f} us")
            print(f"compiled_{label}_gain: {plain - compiled:.0f} us")
