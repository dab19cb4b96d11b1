"""The prize list (every flight's pool, return %, places, winners, prizes handed over) and a club's own payout
tables. Views only call services and selectors."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from base.idempotency import idempotent_page
from base.numbers import parse_id
from base.web import attempt
from clubs import access, paycodes
from clubs import selectors as club_selectors
from tournaments import selectors, services
from tournaments.core import payout_tables
from tournaments.models import FeeCategory

BAND_LINE = re.compile(r"^\s*(\d{1,6})\s*(?:(?:-|–|to)\s*(\d{1,6}))?\s*(\+)?\s*:\s*(.*)$")


def _event(request, club, slug):
    return selectors.event_or_404(user=request.user, club_slug=club, slug=slug)


@idempotent_page
def prizes(request, club, slug):
    """Anyone who sees the event sees the prize list; its directors choose each flight's table and house take
    and record the prizes handed over (POST)."""
    event = _event(request, club, slug)
    if request.method == "POST":
        found = selectors.flight_for(event=event, slug=request.POST.get("flight", ""))
        if found is None:
            raise Http404(_("No such flight."))
        if request.POST.get("action") == "table":
            attempt(
                request,
                lambda: services.set_flight_payouts(
                    actor=request.user,
                    flight=found,
                    table=request.POST.get("table", ""),
                    house_percent=request.POST.get("house_percent", ""),
                    house_fixed=request.POST.get("house_fixed", "") or "0",
                    added_money=request.POST.get("added_money", "") or "0",
                ),
                _("Saved."),
            )
        elif request.POST.get("action") == "received":
            player = parse_id(request.POST.get("player"))
            attempt(
                request,
                lambda: services.confirm_prize_received(actor=request.user, flight=found, player_id=player or 0),
                _("Confirmed received."),
            )
        else:
            player = parse_id(request.POST.get("player"))
            attempt(
                request,
                lambda: services.record_prize_paid(actor=request.user, flight=found, player_id=player or 0),
                _("Prize recorded as paid."),
            )
        return redirect("tournaments:prizes", club=event.club.slug, slug=event.slug)
    directs = access.can(request.user, "event.direct", event)
    prizes = selectors.prize_list(event=event, viewer=request.user)
    return render(
        request,
        "tournaments/prizes.html",
        {
            "event": event,
            "prizes": prizes,
            "codes": prize_codes(event, prizes) if directs else [],
            "directs": directs,
            "own_player": getattr(access.player_of(request.user), "pk", None),
            "presets": [(key, name) for key, name, _table in selectors.presets()],
            "club_tables": selectors.club_payout_tables(club=event.club) if directs else [],
        },
    )


def prize_codes(event, prizes) -> list[tuple]:
    """For the directors who pay them: an EPC transfer code for each prize not yet paid whose winner has stored a
    bank account, and the payment link from the winner's stored handle: (flight id, winner, code, link), either
    may be None. One query, none without unpaid prizes."""
    due = [
        (p.flight, w)
        for p in prizes
        if p.table is not None
        for a in p.table.awards
        for w in a.winners
        if w.amount > 0 and w.paid is None
    ]
    if not due:
        return []
    accounts = club_selectors.bank_accounts(player_ids={w.player_id for _f, w in due})
    codes = []
    for flight, winner in due:
        text = _("Prize %(event)s %(flight)s") % {"event": event.name, "flight": flight.name}
        account = accounts.get(winner.player_id)
        code = paycodes.transfer_code(account, winner.amount, text, event.currency)
        link = paycodes.pay_link(account, winner.amount, event.currency)
        if code is not None or link is not None:
            codes.append((flight.pk, winner, code, link))
    return codes


def read_bands(text: str) -> list[dict] | str:
    """Bands from lines like "2-8: 65 35" and "33+: 40 20 12 12 8 8"; a message for a line it cannot read."""
    bands = []
    for number, line in enumerate(text.strip().splitlines()[:50], 1):
        if not line.strip():
            continue
        found = BAND_LINE.match(line)
        if found is None:
            return _('Line %(n)s: write a band as "2-8: 65 35", or "33+: 40 20 12 12 8 8" for the last.') % {
                "n": number
            }
        low, high, plus, percents = found.groups()
        high = None if plus else (high or low)
        bands.append({"from": low, "to": high, "percents": percents.replace(",", " ").replace("%", " ").split()})
    return bands


@login_required
@idempotent_page
def club_tables(request, club):
    """A club's own payout tables: its directors list them and add one."""
    found = club_selectors.visible_club(user=request.user, slug=club)
    if found is None:
        raise Http404(_("No such club."))
    access.require(request.user, "payout_table.manage", found)
    if request.method == "POST":
        bands = read_bands(request.POST.get("bands", ""))
        if isinstance(bands, str):
            messages.error(request, bands)
        elif attempt(
            request,
            lambda: services.create_payout_table(
                actor=request.user, club=found, name=request.POST.get("name", ""), bands=bands
            ),
            _("Payout table saved."),
        ):
            return redirect("tournaments:payout-tables", club=found.slug)
    tables = [(t, payout_tables.parse_bands(t.bands)) for t in selectors.club_payout_tables(club=found)]
    return render(
        request,
        "tournaments/payout_tables.html",
        {
            "club": found,
            "tables": tables,
            "presets": [(name, table.describe()) for _key, name, table in selectors.presets()],
            "typed": request.POST if request.method == "POST" else {},
        },
    )


def flight_of(request, club, slug, flight):
    found = selectors.flight_for(event=_event(request, club, slug), slug=flight)
    if found is None:
        raise Http404(_("No such flight."))
    return found


@login_required
@idempotent_page
def payments(request, club, slug, flight):
    """A flight's entries with their fees: who has not paid, totals by method; the director records payments,
    refunds and waivers (append-only), sets a member's or junior's fee and the flight's fee settings."""
    found = flight_of(request, club, slug, flight)
    access.require(request.user, "event.direct", found.event)
    if request.method == "POST":
        action = request.POST.get("action", "record")
        if action == "settings":
            attempt(
                request,
                lambda: services.set_fee_settings(
                    actor=request.user,
                    flight=found,
                    member_fee=request.POST.get("member_fee", ""),
                    junior_fee=request.POST.get("junior_fee", ""),
                    payment_required=request.POST.get("payment_required") == "on",
                ),
                _("Saved."),
            )
        else:
            entry = selectors.entry_in(flight=found, pk=parse_id(request.POST.get("entry")) or 0)
            if entry is None:
                raise Http404(_("No such entry in this flight."))
            if action == "category":
                attempt(
                    request,
                    lambda: services.set_fee_category(
                        actor=request.user, entry=entry, category=request.POST.get("category", "")
                    ),
                    _("Saved."),
                )
            else:
                seen = parse_id(request.POST.get("seen"))
                attempt(
                    request,
                    lambda: services.record_payment(
                        actor=request.user,
                        entry=entry,
                        kind=request.POST.get("kind", "payment"),
                        method=request.POST.get("method", "cash"),
                        amount=request.POST.get("amount", "") or "0",
                        reference=request.POST.get("reference", ""),
                        seen=seen if seen is not None else 0,
                    ),
                    _("Recorded."),
                )
        return redirect("tournaments:flight-payments", club=club, slug=slug, flight=flight)
    return render(
        request,
        "tournaments/payments.html",
        {
            "event": found.event,
            "flight": found,
            "fees": selectors.flight_fees(flight=found),
            "left_out": selectors.unpaid_left_out(flight=found),
            "categories": FeeCategory.choices,
        },
    )
