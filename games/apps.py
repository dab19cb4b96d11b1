from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from accounts import badges
from base.messages import register
from base.queue import sweepers
from games import messages
from games.dave.errors import DaveError
from games.formats.ids import IdFormatError
from games.formats.notation import RecordFormatError
from games.nardy.errors import NardyError
from games.rules.scoring import ScoringError

ACCESS_RULES = ("games.matchplay.rules", "games.records.rules")


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    nav_items = [(_("Matches"), "games:match-list"), (_("Game records"), "games:record-list")]
    panels = {"my_home": "games.matchplay.panels.my_home"}

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig module is imported before the models are ready.
        from games.matchplay.selectors import (  # noqa: PLC0415 - the selectors import models
            to_confirm_count_subquery,
            to_decide_count_subquery,
        )
        from games.records.services import sweep_due_records  # noqa: PLC0415 - the services import models

        # Every refusal of the games cores reads in the reader's language, in the API and on the pages.
        register(ScoringError, messages.SCORING)
        register(RecordFormatError, messages.RECORD_FORMAT)
        register(IdFormatError, messages.ID_FORMAT)
        register(NardyError, messages.NARDY)
        register(DaveError, messages.DAVE)
        sweepers.register(sweep_due_records)
        badges.register("to_confirm_count", to_confirm_count_subquery)  # the menu's badges, loaded with the user
        badges.register("to_decide_count", to_decide_count_subquery)
        # clubs.access loads every app's <app>/rules.py, but the games app's `rules` is its pure rules engine
        # (games/rules/): its access rules live with their parts, and are registered here.
        for rules in ACCESS_RULES:
            import_module(rules)
