"""Who may watch a chouette table live: whoever may open it (chouette.selectors.visible_sessions)."""

from base.live import register_group
from chouette import selectors

register_group("chouette", lambda user, pk: selectors.visible_sessions(user=user).filter(pk=pk).exists())
