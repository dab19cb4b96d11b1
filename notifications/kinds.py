"""What each kind of notification says: a label for the preferences page, a line for the person it is about
(in-app and e-mail) and, for the kinds a club's webhook posts, a line for everybody.

Why here and rendered late: a notification stores names and numbers only (`params`), and is worded when it is
shown or sent, under `translation.override(<the recipient's language>)`, so each person reads their language.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

EMAIL, IN_APP = "email", "in_app"
CHANNELS = (IN_APP, EMAIL)


@dataclass(frozen=True)
class Kind:
    code: str
    label: object  # lazy text
    public: bool = False  # posted to the club's webhook too
    email_default: bool = True


KINDS = {
    kind.code: kind
    for kind in (
        Kind("match_ready", gettext_lazy("Your match is ready"), public=True),
        # In the app only unless the person chooses mail: anyone who sees a player may invite them.
        Kind("match_invitation", gettext_lazy("Someone invites you to a match"), email_default=False),
        Kind("confirm_wanted", gettext_lazy("A result waits for your confirmation")),
        Kind("report_confirmed", gettext_lazy("Your report was confirmed")),
        Kind("report_disputed", gettext_lazy("Your report was disputed")),
        Kind("report_overridden", gettext_lazy("A director set your result")),
        Kind("club_result", gettext_lazy("A result in a club you direct"), public=True, email_default=False),
        Kind("draw_released", gettext_lazy("A draw is released"), public=True),
        Kind("dispute_for_director", gettext_lazy("A dispute waits for a director")),
        Kind("chouette_seated", gettext_lazy("You were seated at a chouette table")),
        Kind("ladder_challenge", gettext_lazy("A ladder challenge came in"), public=True),
        Kind("place_offered", gettext_lazy("A place came free for you on a waiting list")),
        Kind("transfer_reminder", gettext_lazy("A settle-up transfer is still open")),
        Kind("member_left", gettext_lazy("A member of your club deleted their account"), email_default=False),
    )
}


def personal(kind: str, p: dict) -> str:
    """The line the recipient reads (call under the recipient's language)."""
    if kind == "match_ready":
        if p.get("where") and p.get("board"):
            return _("Your match against %(opponent)s is ready: %(where)s, board %(board)s.") % p
        if p.get("where"):
            return _("Your match against %(opponent)s is ready: %(where)s.") % p
        if p.get("board"):
            return _("Your match against %(opponent)s is ready: board %(board)s.") % p
        return _("Your match against %(opponent)s is ready.") % p
    if kind == "match_invitation":
        return _("%(opponent)s invites you to a %(length)s-point match: accept or decline it.") % p
    if kind == "confirm_wanted":
        return _("%(opponent)s reported the result of your match (%(score)s): confirm or dispute it.") % p
    if kind == "report_confirmed":
        return _("%(opponent)s confirmed your report of your match (%(score)s).") % p
    if kind == "report_disputed":
        return _("%(opponent)s disputed your report of your match: a director will decide.") % p
    if kind == "report_overridden":
        return _("A director set the result of your match against %(opponent)s: %(score)s.") % p
    if kind == "dispute_for_director":
        return _("The result of %(a)s v %(b)s is disputed and waits for your decision.") % p
    if kind == "chouette_seated":
        return _("You were seated at the chouette table %(table)s.") % p
    if kind == "ladder_challenge":
        return _("%(challenger)s challenged you on the ladder %(ladder)s.") % p
    if kind == "place_offered":
        return _("A place in %(flight)s came free for you: accept it within %(hours)s hours, or it passes on.") % p
    if kind == "transfer_reminder" and p.get("role") == "payee":
        return _("%(other)s marked %(amount)s to you paid (%(table)s): confirm you received it.") % p
    if kind == "transfer_reminder":
        return _("You still owe %(other)s %(amount)s from %(table)s: pay it and mark it paid.") % p
    if kind == "member_left":
        return (
            _("A member of %(club)s deleted their account; their results stay in the club's records as %(former)s.") % p
        )
    return public(kind, p)


def public(kind: str, p: dict) -> str:
    """The line for everybody (the club's webhook, a director's list)."""
    if kind == "match_ready":
        if p.get("where") and p.get("board"):
            return _("%(a)s v %(b)s is ready: %(where)s, board %(board)s.") % p
        if p.get("where"):
            return _("%(a)s v %(b)s is ready: %(where)s.") % p
        if p.get("board"):
            return _("%(a)s v %(b)s is ready: board %(board)s.") % p
        return _("%(a)s v %(b)s is ready.") % p
    if kind == "club_result":
        return _("Result: %(a)s v %(b)s %(score)s.") % p
    if kind == "draw_released":
        return _("The draw of %(event)s is released.") % p
    if kind == "ladder_challenge":
        return _("%(challenger)s challenged %(defender)s on the ladder %(ladder)s.") % p
    return str(KINDS[kind].label)


def subject(kind: str) -> str:
    return str(KINDS[kind].label)
