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
    "third_place_too_small": gettext_lazy(
        "A third-place match needs two semi-finals: at least 3 entrants, or switch it off."
    ),
    "playoff_with_third_place": gettext_lazy(
        "A playoff for 2nd places 3rd itself: switch the third-place match off, or the playoff."
    ),
    "cut_too_large": gettext_lazy(
        "A cut of the top %(cut)s needs more than the %(entrants)s players in round 1: cut to the top %(most)s "
        "or fewer (at least 2), or leave the cut off."
    ),
    "swap_positions": gettext_lazy("Give two different positions of the draw line, 0 to %(last)s."),
    "swap_two_byes": gettext_lazy("This swap would pair two byes: swap a player with a player instead."),
    "swap_bye_to_late": gettext_lazy("This swap would give a bye to a late entrant: byes go to on-time entrants."),
    "bad_tiebreaks": gettext_lazy("The tie-break order names each criterion once, from: %(known)s."),
    "round_robin_cycles": gettext_lazy("A round robin is played once (single) or twice (double)."),
    "round_robin_too_small": gettext_lazy("A round robin needs at least 2 entrants; it has %(entrants)s."),
    "round_robin_too_large": gettext_lazy(
        "A round robin takes at most %(most)s entrants; it has %(entrants)s. Split them into groups."
    ),
    "groups_too_few_entrants": gettext_lazy("Groups and a knockout need at least 3 entrants; there are %(entrants)s."),
    "groups_too_many_entrants": gettext_lazy("Groups take at most %(most)s entrants; there are %(entrants)s."),
    "group_size_too_small": gettext_lazy(
        "A group needs at least 2 players; %(entrants)s entrants fit groups of 2 to %(entrants)s, "
        "for example %(suggestion)s."
    ),
    "group_size_too_large": gettext_lazy(
        "Groups of %(size)s need more than the %(entrants)s entrants: choose a size from 2 to %(entrants)s."
    ),
    "group_of_one": gettext_lazy(
        "Groups of %(size)s leave one player alone among %(entrants)s entrants: use groups of 3 or more."
    ),
    "advance_out_of_range": gettext_lazy(
        "From 1 to %(most)s players can advance from each group: the smallest group has %(smallest)s."
    ),
    "knockout_too_small": gettext_lazy(
        "Only 1 player would reach the knockout: let 2 advance from the group, or use groups of at most %(largest)s."
    ),
    "no_such_round": gettext_lazy("This round robin has rounds 1 to %(rounds)s."),
    "qualifiers_uneven": gettext_lazy("Every group sends the same number of qualifiers, 2 or more in all."),
    "swiss_needs_an_end": gettext_lazy("A Swiss needs a number of rounds or “until one unbeaten”."),
    "too_many_rounds": gettext_lazy("%(entrants)s players can play at most %(most)s rounds without a rematch."),
}

# A payout table that grows with the field (tournaments.core.payout_tables.PayoutTableError).
PAYOUT_TABLE_MESSAGES = {
    "payout_table_unknown": gettext_lazy("No payout table %(key)s: choose one of %(known)s or one of the club's own."),
    "band_bound": gettext_lazy("A band's %(what)s is a whole number of entrants, e.g. 8."),
    "band_bound_range": gettext_lazy("A band's %(what)s is between 2 and %(max)s entrants."),
    "bands_empty": gettext_lazy("Give at least one band, e.g. from 2 entrants, open-ended, paying 100%%."),
    "bands_too_many": gettext_lazy("A table has at most %(max)s bands."),
    "band_shape": gettext_lazy("Each band is {from, to, percents}; leave 'to' empty on the last band."),
    "band_percents_shape": gettext_lazy("A band pays 1 to %(max)s places: give their percentages."),
    "band_percent_range": gettext_lazy("Each place's percentage is more than 0 and at most 100, e.g. 12.5."),
    "bands_start": gettext_lazy("The first band must start at 2 entrants (it starts at %(low)s)."),
    "band_reversed": gettext_lazy("Band %(band)s ends before it starts: make 'to' at least %(low)s."),
    "band_under_100": gettext_lazy(
        "Band %(band)s totals %(total)s%%: its places must total exactly 100%% (add %(diff)s%%)."
    ),
    "band_over_100": gettext_lazy(
        "Band %(band)s totals %(total)s%%: its places must total exactly 100%% (take away %(diff)s%%)."
    ),
    "band_too_many_places": gettext_lazy(
        "Band %(band)s pays %(places)s places but a field of %(low)s has only %(low)s players: start it at "
        "%(places)s or pay fewer places."
    ),
    "band_rising": gettext_lazy(
        "Band %(band)s pays a lower place more than a higher one: list the percentages from 1st down, largest first."
    ),
    "bands_overlap": gettext_lazy("Bands %(a)s and %(b)s overlap: start the second at %(next)s."),
    "bands_gap": gettext_lazy("Fields of %(low)s to %(high)s entrants have no band: start band %(b)s at %(low)s."),
    "bands_open_end": gettext_lazy(
        "The last band (%(band)s) must be open-ended: leave its 'to' empty so any larger field is paid too."
    ),
}

# An entry's fee account (tournaments.core.fees.FeeError).
FEE_MESSAGES = {
    "fee_kind": gettext_lazy("Record a payment, refund or waiver."),
    "already_waived": gettext_lazy("This entry's fee is waived already."),
    "fee_method": gettext_lazy("Pay by cash, transfer or online (a waiver is its own kind)."),
    "fee_amount": gettext_lazy("The amount is more than 0, e.g. 20.00."),
    "fee_reference": gettext_lazy("An online payment needs its reference (e.g. the payment id)."),
    "refund_too_large": gettext_lazy("A refund is at most what was paid: %(paid)s."),
}

# The preset payout tables' names (tournaments.core.payout_tables.PRESETS, which speaks English), by key.
PRESET_NAMES = {
    "winner": gettext_lazy("Winner takes all"),
    "club": gettext_lazy("Club standard (2 places up to 8, 3 up to 16, 4 up to 32, 6 above)"),
    "top10": gettext_lazy("Top 10% of the field"),
    "top25": gettext_lazy("Top 25% of the field"),
}
