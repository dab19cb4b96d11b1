"""Bulk inserts of raw rows, for the few writes that store hundreds of thousands of rows at once (a rating pool's
rebuild, the benchmarks' inputs).

Model instances through bulk_create cost tens of microseconds each in SQL compilation alone; these take the values
as the columns store them (ids, numbers, date-times) and hand them to the driver in one go.
"""

from collections.abc import Iterable, Sequence
from itertools import chain, islice

from django.db import connection

# Column types whose values PostgreSQL's COPY takes in binary form, straight from the Python values (int, float,
# bool, aware datetime): the text form formats every float with repr, five times the client's CPU for a
# million explanation rows, and the server parses it again.
BINARY_TYPES = frozenset(("bigint", "integer", "smallint", "double precision", "boolean", "timestamp with time zone"))


def insert_rows(model, field_names: Sequence[str], rows: Iterable[Sequence]) -> None:
    """Insert `rows` (one value per name in `field_names`, in that order) into the model's table.

    PostgreSQL: one COPY … FROM STDIN, which the driver streams in C — several times faster than INSERT …
    SELECT FROM unnest(arrays), whose array literals are built value by value in Python; in binary form when
    every column is a number, a boolean or a date-time (BINARY_TYPES), so a date-time must then be a datetime,
    not text. SQLite: INSERTs of as
    many rows each as the bound-parameter limit allows (a multi-row VALUES), repeated with executemany: SQLite
    pays its per-statement work (AUTOINCREMENT's sequence row, the statement journal) once per batch instead of
    once per row, a fifth less time than one executemany row by row.
    """
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    fields = [model._meta.get_field(name) for name in field_names]
    columns = ", ".join(quote(field.column) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            types = [field.db_type(connection) for field in fields]
            binary = all(t in BINARY_TYPES for t in types)
            with cursor.cursor.copy(
                f"COPY {table} ({columns}) FROM STDIN{' (FORMAT BINARY)' if binary else ''}"
            ) as copy:
                if binary:
                    copy.set_types(types)
                write = copy.write_row
                for row in rows:
                    write(row)
            return
        width = len(field_names)
        per = max(1, connection.features.max_query_params // width)
        one = "(" + ", ".join(["%s"] * width) + ")"
        rows = iter(rows)
        full, rest = [], []
        while batch := list(chain.from_iterable(islice(rows, per))):
            (full if len(batch) == per * width else rest).append(batch)
            if len(full) == 100:  # bounded memory: a million rows are not flattened all at once
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * per)}", full)
                full = []
        if full:
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * per)}", full)
        for batch in rest:  # the last, shorter batch
            cursor.execute(f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * (len(batch) // width))}", batch)
