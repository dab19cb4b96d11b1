"""The bracket engine's refusals in the reader's language, by code (registered in TournamentsConfig.ready, so the API
and the pages read a BracketError alike).
"""

from django.utils.translation import gettext_lazy

MESSAGES = {
    "payout_template_not_list": gettext_lazy("Give the payout template as a list of shares."),
    "payout_share_shape": gettext_lazy("Each share is {flight, place, percent}."),
    "payout_share_incomplete": gettext_lazy("Each share needs a place (1, 2, ...) and a percent."),
    "payout_share_range": gettext_lazy("A place is 1 or more and a percent between 0 and 100."),
    "payout_place_twice": gettext_lazy("A place appears twice in the template."),
    "payout_not_100": gettext_lazy("The shares must add up to 100%."),
    "flight_not_laid_out": gettext_lazy("%(flight)s is not laid out yet."),
    "no_source_flight": gettext_lazy("%(flight)s has no source flight."),
    "source_unfinished": gettext_lazy("Not every player of the source flight has played a match yet."),
    "slot_not_ready": gettext_lazy("This slot is not ready to be played."),
    "already_withdrawn": gettext_lazy("This player is out of the flight already."),
    "slot_taken": gettext_lazy("%(flight)s %(slot)s is already taken."),
    "no_bye_left": gettext_lazy("No bye is left in the draw: a late entry needs a free place next to a bye."),
    "result_not_undoable": gettext_lazy("A played result is not taken back by the in-memory engine."),
    "feeds_no_flight": gettext_lazy("%(flight)s feeds no flight."),
    "too_few_entrants": gettext_lazy("A draw needs at least two entrants."),
    "duplicate_entrant": gettext_lazy("An entrant appears twice."),
    "byes_need_on_time": gettext_lazy(
        "%(byes)s byes but only %(on_time)s entrants registered in time: byes go to on-time entrants."
    ),
    "bad_bracket_size": gettext_lazy("A bracket size is a power of two, at least 2."),
    "fed_source_too_small": gettext_lazy("A fed flight needs a source bracket of at least 4."),
    "double_too_small": gettext_lazy("Double elimination needs at least 3 entrants."),
}
