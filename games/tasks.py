"""Celery autodiscovery looks here: the games app's tasks live next to their services."""

from games.analysis.tasks import analyse_game_record
from games.records.tasks import verify_game_record

__all__ = ["analyse_game_record", "verify_game_record"]
