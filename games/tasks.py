"""Celery autodiscovery looks here: the games app's tasks live next to their services."""

from games.records.tasks import verify_game_record

__all__ = ["verify_game_record"]
