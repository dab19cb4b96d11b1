"""Who may watch a Calcutta board live: whoever may open it (calcutta.selectors.visible_calcuttas). The board is
the same for everyone who may watch it, so every open board is sent the board's data itself after each step (a
fragment, base.live): built once per process and step, not fetched once per phone."""

from django.conf import settings
from django.utils import translation

from base.live import Fragment, register_fragment, register_group
from calcutta import selectors


def _board(pk: int, variant: str) -> Fragment | None:
    """The board's data in the language `variant` names (its labels and amounts as the reader writes them), at
    the auction's step: what the board API answers that reader."""
    if variant not in dict(settings.LANGUAGES):
        return None
    calcutta = selectors.calcutta_by_pk(pk)
    if calcutta is None:
        return None
    with translation.override(variant):
        data = selectors.board(calcutta=calcutta)
    return Fragment(version=data["version"], regions={}, data=data)


register_group("calcutta", lambda user, pk: selectors.visible_calcuttas(user=user).filter(pk=pk).exists())
register_fragment("calcutta", _board)
