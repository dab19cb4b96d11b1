from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    nav_items = [(_("Matches"), "games:match-list"), (_("Game records"), "games:record-list")]

    def ready(self) -> None:
        from base.messages import register
        from base.queue import sweepers
        from games import messages
        from games.formats.ids import IdFormatError
        from games.formats.notation import RecordFormatError
        from games.records.services import sweep_due_records
        from games.rules.scoring import ScoringError

        # Every refusal of the games cores reads in the reader's language, in the API and on the pages.
        register(ScoringError, messages.SCORING)
        register(RecordFormatError, messages.RECORD_FORMAT)
        register(IdFormatError, messages.ID_FORMAT)
        sweepers.register(sweep_due_records)
