"""A signal-free extension point: later apps (tournaments, ratings) learn about confirmed results here.

    from games.matchplay.hooks import on_result_confirmed

    @on_result_confirmed
    def advance_bracket(match, report):
        ...

Services call `result_confirmed(match, report)` inside their transaction after a confirmation, a correction,
an override or an annulment, so a callback's writes commit or roll back together with the result. A callback
that raises aborts the confirmation. `report.outcome` says what happened (an annulment has outcome "annulled"
and no winner); `match` already carries the new denormalised result.
"""

from base.hooks import Hook

# Called as result_confirmed(match, report).
result_confirmed = Hook()
on_result_confirmed = result_confirmed.register
remove_result_callback = result_confirmed.remove

# Called as report_submitted(match, report) when a player's report waits for the opponent's confirmation.
report_submitted = Hook()
# Called as report_disputed(match, dispute) when a version is disputed (inside the transaction).
report_disputed = Hook()
# Called as status_changed(match) inside the transaction whenever a match's status changes (started, finished,
# annulled), so pages that show the status (a tournament's bracket) know they changed.
status_changed = Hook()
# Called as match_invited(match) when a player invites another to a casual match (inside the transaction): only
# the invited player may hear of it.
match_invited = Hook()
