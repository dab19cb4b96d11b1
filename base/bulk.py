"""Bulk inserts of raw rows, for the few writes that store hundreds of thousands of rows at once (a rating pool's
rebuild, the benchmarks' inputs).

Model instances through bulk_create cost tens of microseconds each in SQL compilation alone; these take the values
as the columns store them (ids, numbers, date-times) and hand them to the driver in one go.
"""

from collections.abc import Iterable, Sequence

from django.db import connection


def insert_rows(model, field_names: Sequence[str], rows: Iterable[Sequence]) -> None:
    """Insert `rows` (one value per name in `field_names`, in that order) into the model's table.

    PostgreSQL: one COPY … FROM STDIN, which the driver streams in C — several times faster than INSERT …
    SELECT FROM unnest(arrays), whose array literals are built value by value in Python. SQLite: one
    executemany of a prepared INSERT.
    """
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in field_names)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                write = copy.write_row
                for row in rows:
                    write(row)
        else:
            marks = ", ".join(["%s"] * len(field_names))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
