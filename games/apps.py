from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from backgammon.dave.errors import DaveError
from backgammon.matchfiles.ids import IdFormatError
from backgammon.matchfiles.notation import RecordFormatError
from backgammon.nardy.errors import NardyError
from backgammon.scoring import ScoringError
from base.messages import register
from games import messages


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    nav_items = [(_("Matches"), "games:match-list"), (_("Game records"), "games:record-list")]
    panels = {"my_home": "games.matchplay.panels.my_home"}

    def ready(self) -> None:
        # Every refusal of the games cores reads in the reader's language, in the API and on the pages.
        register(ScoringError, messages.SCORING)
        register(RecordFormatError, messages.RECORD_FORMAT)
        register(IdFormatError, messages.ID_FORMAT)
        register(NardyError, messages.NARDY)
        register(DaveError, messages.DAVE)
