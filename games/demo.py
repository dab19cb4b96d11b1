"""Demo data of the games app: verified game records (games/records/demo.py), club-night matches
(games/matchplay/demo.py) and analysed records of club-night matches (games/analysis/demo.py)."""

from games.analysis import demo as analysis_demo
from games.matchplay import demo as matchplay_demo
from games.records import demo as records_demo


def load(context) -> None:
    records_demo.load(context)
    matchplay_demo.load(context)
    analysis_demo.load(context)
