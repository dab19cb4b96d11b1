"""Demo data of the games app: verified game records (games/records/demo.py) and club-night matches
(games/matchplay/demo.py)."""

from games.matchplay import demo as matchplay_demo
from games.records import demo as records_demo


def load(context) -> None:
    records_demo.load(context)
    matchplay_demo.load(context)
