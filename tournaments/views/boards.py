"""The director's calling page (made for a phone: one tap calls, frees or moves) and the printable call slips.
The page posts to itself with the action in `do`; the services decide, refusals are shown as messages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from base.web import attempt
from clubs import access
from tournaments import selectors
from tournaments.services import boards as board_services


def _int(request, name: str) -> int | None:
    value = request.POST.get(name, "")
    # ASCII and short: str.isdigit passes "²" and 5000 digits, which int() refuses (0 stays 0: no grace period)
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


def _act(request, event) -> None:
    """Run the posted action (each one tap on the page)."""
    do, actor = request.POST.get("do"), request.user
    if do == "call":
        attempt(
            request,
            lambda: board_services.call_next(actor=actor, event=event),
            lambda call: (
                _("%(a)s – %(b)s: board %(n)s.")
                % {"a": call.slot.entry_a.name, "b": call.slot.entry_b.name, "n": call.board.number}
            ),
        )
    elif do in ("auto_on", "auto_off"):
        on = do == "auto_on"
        attempt(
            request,
            lambda: board_services.set_auto_call(actor=actor, event=event, on=on),
            _("Auto-call is on.") if on else _("Auto-call is paused."),
        )
    elif do == "setup" and _int(request, "count"):
        count, grace = _int(request, "count"), _int(request, "grace_minutes")
        attempt(
            request,
            lambda: board_services.set_boards(actor=actor, event=event, count=count, grace_minutes=grace),
            ngettext("%(n)s board.", "%(n)s boards.", count) % {"n": count},
        )
    elif do in ("free", "move", "lateness"):
        _act_on_board(request, event, do)


def _act_on_board(request, event, do: str) -> None:
    actor = request.user
    if do == "free":
        board = selectors.board_in(event=event, number=_int(request, "board"))
        if board is None:
            raise Http404(_("No such board."))
        attempt(request, lambda: board_services.free_board(actor=actor, board=board), _("The board is free."))
        return
    call = selectors.call_in(event=event, pk=_int(request, "call"))
    if call is None:
        raise Http404(_("No such call."))
    if do == "move":
        board = selectors.board_in(event=event, number=_int(request, "board"))
        if board is None:
            raise Http404(_("No such board."))
        attempt(
            request,
            lambda: board_services.move_call(actor=actor, call=call, board=board),
            _("Moved to board %(n)s.") % {"n": board.number},
        )
    else:
        side = 1 if request.POST.get("late_side") == "1" else 0
        attempt(
            request,
            lambda: board_services.apply_lateness(actor=actor, call=call, late_side=side),
            _("Lateness penalty applied."),
        )


@login_required
def calling(request, club, slug):
    event = selectors.event_or_404(user=request.user, club_slug=club, slug=slug)
    access.require(request.user, "event.direct", event)
    if request.method == "POST":
        _act(request, event)
        return redirect(reverse("tournaments:calling", kwargs={"club": club, "slug": slug}))
    return render(request, "tournaments/calling.html", {"event": event, "calling": selectors.calling(event=event)})


@login_required
def call_slips(request, club, slug):
    event = selectors.event_or_404(user=request.user, club_slug=club, slug=slug)
    access.require(request.user, "event.direct", event)
    return render(request, "tournaments/call_slips.html", {"event": event, "calls": selectors.open_calls(event=event)})
