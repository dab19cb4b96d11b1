"""The tournaments API as ViewSets, one module per domain: events, flights and entries (events), boards and
calls (boards), rounds (rounds), stages and qualifying ties (stages). Routed in tournaments/api_urls.py."""

from tournaments.api import boards, events, money, rounds, stages, waiting

__all__ = ["boards", "events", "money", "rounds", "stages", "waiting"]
