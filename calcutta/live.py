"""Who may watch a Calcutta board live: whoever may open it (calcutta.selectors.visible_calcuttas)."""

from base.live import register_group
from calcutta import selectors

register_group("calcutta", lambda user, pk: selectors.visible_calcuttas(user=user).filter(pk=pk).exists())
