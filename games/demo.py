"""Demo data of the games app: verified game records (games/records/demo.py)."""

from games.records import demo as records_demo


def load(context) -> None:
    records_demo.load(context)
