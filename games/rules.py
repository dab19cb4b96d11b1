"""The games app's rules for clubs.access, one module per part (imported here so ClubsConfig.ready finds them)."""

from games.matchplay import rules as matchplay_rules

__all__ = ["matchplay_rules"]
