"""People-facing text for the scoring refusals of the pure core (which speaks English and sides 0 and 1).

The translated table lives in games/messages.py (SCORING, registered by code); this adds what only a match knows:
the name of the player a side stands for.
"""

from base.errors import DomainError
from base.messages import translate
from games.models.matches import Match


def with_players(exc: DomainError, match: Match) -> DomainError:
    """The refusal with `player` (the name of the side it is about) in its params; returned for raising on."""
    if "side" in exc.params:
        exc.params = {**exc.params, "player": match.players[int(exc.params["side"])].name}
    return exc


def readable(exc: DomainError, match: Match) -> str:
    """The core's refusal in the reader's language, naming the player instead of side 0 or 1; the core's own
    words when the code has no translation or the refusal was raised without the numbers its message needs."""
    return translate(with_players(exc, match))
