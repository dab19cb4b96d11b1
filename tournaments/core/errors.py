"""The one error type of the bracket engine."""

from __future__ import annotations

from base.errors import DomainError


class BracketError(DomainError):
    """A request the bracket rules refuse; `field` names what to fix, `message` says how.

    A malformed payout template or bracket size is bad input (400); a request the bracket cannot take in its
    present state (a slot taken or not ready, no bye left, a source flight unfinished, too few or too many entries
    for the format) is a conflict (409).
    """

    conflicts = frozenset(
        {
            "flight_not_laid_out",
            "no_source_flight",
            "source_unfinished",
            "slot_not_ready",
            "already_withdrawn",
            "slot_taken",
            "no_bye_left",
            "result_not_undoable",
            "feeds_no_flight",
            "too_few_entrants",
            "byes_need_on_time",
            "swap_two_byes",
            "swap_bye_to_late",
            "round_robin_too_small",
            "round_robin_too_large",
            "groups_too_few_entrants",
            "groups_too_many_entrants",
            "qualifiers_uneven",
            "cut_too_large",
        }
    )
