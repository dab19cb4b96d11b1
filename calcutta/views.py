"""Web pages for Calcutta auctions: the list, the director's setup, the auctioneer's screen, the public board
(phones and a projector), an owner's page and the printable settlement. Views only call services and selectors."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base import idempotency
from base.idempotency import idempotent_page
from base.messages import translate
from base.web import attempt, settle_up_step
from calcutta import core, forms, selectors, services
from calcutta.models import ActionKind, Bidder, Calcutta, CalcuttaStatus
from clubs import access as club_access
from clubs import paycodes
from clubs import selectors as club_selectors


def _calcutta(request, pk) -> Calcutta:
    try:
        return selectors.calcutta_for(user=request.user, pk=pk)
    except Calcutta.DoesNotExist:
        raise Http404(_("No such Calcutta.")) from None


def _require_director(request, calcutta: Calcutta) -> None:
    club_access.require(request.user, "calcutta.direct", calcutta)


def _bidder(calcutta: Calcutta, bidder_id) -> Bidder:
    try:
        found = selectors.bidder_at(calcutta, int(bidder_id))
    except (TypeError, ValueError):
        found = None
    if found is None:
        raise Http404(_("No such bidder at this Calcutta."))
    return found


def _form_errors(request, form) -> None:
    idempotency.refused(request)  # the redirect back is no answer a retry of this form should get
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        messages.error(request, f"{label}: {' '.join(errors)}" if label else " ".join(errors))


def calcutta_list(request):
    calcuttas = selectors.newest_calcuttas(user=request.user)[:100]
    flights = list(selectors.flights_to_start(user=request.user)[:200]) if request.user.is_authenticated else []
    form = forms.CreateForm(flights=flights, initial={"payout_places": "70, 30"})
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        form = forms.CreateForm(request.POST, flights=flights)
        if form.is_valid():
            values = dict(form.cleaned_data)
            flight = next(f for f in flights if f.pk == values.pop("flight"))
            created = []
            if attempt(
                request,
                lambda: created.append(services.create_calcutta(actor=request.user, flight=flight, **values)),
                _("Calcutta created. Register the bidders and make the lots."),
            ):
                return redirect(created[0])
        else:
            _form_errors(request, form)
    return render(request, "calcutta/list.html", {"calcuttas": calcuttas, "form": form, "flights": flights})


def detail(request, pk, proposal=None, propose_form=None):
    calcutta = _calcutta(request, pk)
    is_director = club_access.can(request.user, "calcutta.direct", calcutta)
    setup = calcutta.status == CalcuttaStatus.SETUP
    context = {
        "calcutta": calcutta,
        "board": selectors.board(calcutta=calcutta),
        "bidders": selectors.bidders(calcutta=calcutta),
        "is_director": is_director,
        "setup": setup,
        "my_bidder": selectors.bidder_of_user(calcutta, request.user),
        "settlement": selectors.current_settlement(calcutta),
    }
    if is_director:
        context |= {
            "settings_form": forms.SettingsForm.for_calcutta(calcutta),
            "bidder_form": forms.BidderForm(players=selectors.club_players(calcutta=calcutta)),
            "lot_rows": selectors.lot_rows(calcutta, proposal) if setup else [],
            "proposal": proposal is not None,
            "propose_form": propose_form or forms.ProposeForm(),
            "order_text": ", ".join(str(n) for n in calcutta.order),
        }
    return render(request, "calcutta/detail.html", context)


@require_POST
@login_required
def update_settings(request, pk):
    calcutta = _calcutta(request, pk)
    form = forms.SettingsForm(request.POST)
    if form.is_valid():
        attempt(
            request,
            lambda: services.update_settings(actor=request.user, calcutta=calcutta, **form.cleaned_data),
            _("Settings saved."),
        )
    else:
        _form_errors(request, form)
    return redirect(calcutta)


@require_POST
@login_required
def set_lots(request, pk):
    calcutta = _calcutta(request, pk)
    _require_director(request, calcutta)
    groups: dict[int, list[int]] = {}
    for key, value in request.POST.items():
        if not key.startswith("lot-") or not value.strip():
            continue
        try:
            entry_id, number = int(key[4:]), int(value)
        except ValueError:
            messages.error(request, _("Lot numbers are whole numbers; leave the box empty for the field."))
            return redirect(calcutta)
        if number < 1 or number > 9999:
            messages.error(request, _("Lot numbers start at 1; leave the box empty for the field."))
            return redirect(calcutta)
        groups.setdefault(number, []).append(entry_id)
    ordered = [groups[number] for number in sorted(groups)]
    attempt(
        request,
        lambda: services.set_lots(actor=request.user, calcutta=calcutta, groups=ordered),
        _("Lots saved (renumbered 1, 2, … in the order of their numbers)."),
    )
    return redirect(calcutta)


@require_POST
@login_required
def propose_lots(request, pk):
    calcutta = _calcutta(request, pk)
    _require_director(request, calcutta)
    form = forms.ProposeForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(calcutta)
    try:
        proposal = selectors.propose_lots(calcutta=calcutta, **form.cleaned_data)
    except core.CalcuttaError as exc:
        messages.error(request, translate(exc))
        return redirect(calcutta)
    messages.info(request, _("A grouping by rating is filled in below; edit it and save the lots."))
    return detail(request, pk, proposal=proposal, propose_form=form)


@require_POST
@login_required
def set_order(request, pk):
    calcutta = _calcutta(request, pk)
    text = request.POST.get("order", "")
    try:
        order = [int(part) for part in text.replace(";", ",").replace(" ", ",").split(",") if part.strip()]
    except ValueError:
        messages.error(request, _("Write the lot numbers separated by commas, e.g. 3, 1, 2."))
        return redirect(calcutta)
    attempt(
        request,
        lambda: services.set_order(
            actor=request.user, calcutta=calcutta, order=order, reseed=bool(request.POST.get("reseed"))
        ),
        _("Auction order saved."),
    )
    return redirect(calcutta)


@require_POST
@login_required
def register_bidder(request, pk):
    calcutta = _calcutta(request, pk)
    players = selectors.club_players(calcutta=calcutta)
    form = forms.BidderForm(request.POST, players=players)
    if form.is_valid():
        player = selectors.club_player(calcutta, form.cleaned_data["player"]) if form.cleaned_data["player"] else None
        attempt(
            request,
            lambda: services.register_bidder(
                actor=request.user, calcutta=calcutta, name=form.cleaned_data["name"], player=player
            ),
            _("Bidder registered."),
        )
    else:
        _form_errors(request, form)
    return redirect(request.POST.get("next") == "auctioneer" and reverse("calcutta:auctioneer", args=[pk]) or calcutta)


def auctioneer(request, pk):
    calcutta = _calcutta(request, pk)
    _require_director(request, calcutta)
    board = selectors.board(calcutta=calcutta)
    current = board["current"]
    bidders = selectors.bidders_by_name(calcutta)
    bid_form = forms.BidForm(
        bidders=bidders,
        initial={
            "lot": current["number"] if current else 0,
            "amount": current["minimum_next_bid_display"] if current else "",
            "idempotency_key": uuid.uuid4().hex,
        },
    )
    context = {
        "calcutta": calcutta,
        "board": board,
        "fair": selectors.fair_values(calcutta=calcutta),
        "bid_form": bid_form,
        "steps": [
            (kind, ActionKind(kind).label, enabled)
            for kind, enabled in selectors.auctioneer_steps(calcutta=calcutta, current=current).items()
        ],
        "bidder_form": forms.BidderForm(),
    }
    return render(request, "calcutta/auctioneer.html", context)


@require_POST
@login_required
def step(request, pk):
    calcutta = _calcutta(request, pk)
    action = request.POST.get("action", "")
    label = ActionKind(action).label if action in ActionKind.values else action
    attempt(request, lambda: services.auctioneer_step(actor=request.user, calcutta=calcutta, action=action), label)
    return redirect("calcutta:auctioneer", pk=pk)


@require_POST
@login_required
@idempotent_page
def bid(request, pk):
    calcutta = _calcutta(request, pk)
    bidders = selectors.bidders_by_name(calcutta)
    form = forms.BidForm(request.POST, bidders=bidders)
    back = request.POST.get("next") == "board" and reverse("calcutta:board", args=[pk])
    if form.is_valid():
        values = form.cleaned_data
        bidder = next(b for b in bidders if b.pk == values["bidder"])
        attempt(
            request,
            lambda: services.place_bid(
                actor=request.user,
                calcutta=calcutta,
                lot_number=values["lot"],
                bidder=bidder,
                amount=values["amount"] or 0,
                idempotency_key=values["idempotency_key"],
            ),
            _("Bid of %(amount)s by %(name)s.")
            % {"amount": selectors.display_money(values["amount"] or 0), "name": bidder},
        )
    else:
        _form_errors(request, form)
    return redirect(back or reverse("calcutta:auctioneer", args=[pk]))


def board(request, pk):
    calcutta = _calcutta(request, pk)
    projector = request.GET.get("projector") == "1"
    my_bidder = selectors.bidder_of_user(calcutta, request.user)
    context = {
        "calcutta": calcutta,
        "board": selectors.board(calcutta=calcutta),
        "projector": projector,
        "my_bidder": my_bidder,
        "idempotency_key": uuid.uuid4().hex,
    }
    return render(request, "calcutta/board.html", context)


def owner(request, pk, bidder):
    calcutta = _calcutta(request, pk)
    the_bidder = _bidder(calcutta, bidder)
    club_access.require(request.user, "calcutta.see_owner_report", the_bidder)
    is_director = club_access.can(request.user, "calcutta.direct", calcutta)
    is_self = request.user.is_authenticated and the_bidder.user_id == request.user.pk
    report = selectors.owner_report(calcutta=calcutta, bidder=the_bidder)
    context = {
        "calcutta": calcutta,
        "report": report,
        # what the holdings can expect, until the settlement says what they won
        "fair": None if report["settlement"] else selectors.fair_values(calcutta=calcutta),
        "is_director": is_director,
        "can_change": (is_director or is_self) and calcutta.status in (CalcuttaStatus.CLOSED, CalcuttaStatus.SETTLED),
        "syndicate_form": forms.SyndicateForm(),
        "buy_back_form": forms.OwnershipForm(),
        "offers": selectors.offer_rows(calcutta=calcutta, user=request.user, bidder=the_bidder),
    }
    return render(request, "calcutta/owner.html", context)


@require_POST
@login_required
def set_paid(request, pk, bidder):
    calcutta = _calcutta(request, pk)
    the_bidder = _bidder(calcutta, bidder)
    paid = request.POST.get("paid") == "1"
    attempt(
        request,
        lambda: services.set_paid(actor=request.user, calcutta=calcutta, bidder=the_bidder, paid=paid),
        _("Marked as paid.") if paid else _("Marked as not paid."),
    )
    return redirect(request.POST.get("next") == "detail" and calcutta.get_absolute_url() or the_bidder)


@require_POST
@login_required
def syndicate(request, pk, bidder):
    calcutta = _calcutta(request, pk)
    holder = _bidder(calcutta, bidder)
    form = forms.SyndicateForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(holder)
    by_name = {b.name.casefold(): b for b in selectors.bidders_by_name(calcutta)}
    unknown = [name for name, _share in form.cleaned_data["shares"] if name.casefold() not in by_name]
    if unknown:
        messages.error(
            request, _("Not registered as bidders: %(names)s. Register them first.") % {"names": ", ".join(unknown)}
        )
        return redirect(holder)
    shares = {by_name[name.casefold()]: share for name, share in form.cleaned_data["shares"]}
    attempt(
        request,
        lambda: services.offer_syndicate(
            actor=request.user, calcutta=calcutta, lot_number=form.cleaned_data["lot"], holder=holder, shares=shares
        ),
        _offer_said,
    )
    return redirect(holder)


def _offer_said(offer) -> str:
    if offer.status == "formed":
        return _("Syndicate formed.")
    if offer.status == "declined":
        return _("Offer declined.")
    names = ", ".join(selectors.waiting_names(offer))
    return _("Offer noted; the syndicate forms when %(names)s accept.") % {"names": names}


@require_POST
@login_required
def answer_offer(request, pk, offer):
    """Accept or decline a syndicate offer (for yourself; a director for guests without a login)."""
    calcutta = _calcutta(request, pk)
    found = selectors.offer_at(calcutta, offer)
    if found is None:
        raise Http404(_("No such syndicate offer."))
    accept = request.POST.get("accept") == "1"
    attempt(request, lambda: services.answer_syndicate(actor=request.user, offer=found, accept=accept), _offer_said)
    back = _bidder(calcutta, request.POST.get("bidder")) if request.POST.get("bidder") else found.holder
    return redirect(back)


@require_POST
@login_required
def buy_back(request, pk, bidder):
    calcutta = _calcutta(request, pk)
    player = _bidder(calcutta, bidder)
    form = forms.OwnershipForm(request.POST)
    if form.is_valid():
        attempt(
            request,
            lambda: services.buy_back(
                actor=request.user,
                calcutta=calcutta,
                lot_number=form.cleaned_data["lot"],
                bidder=player,
                share=form.cleaned_data["share"],
            ),
            _("Buy-back recorded."),
        )
    else:
        _form_errors(request, form)
    return redirect(player)


def settlement(request, pk):
    calcutta = _calcutta(request, pk)
    # each owner's money only to that owner and the directors (calcutta.see_owner_report)
    report = selectors.settlement_report(calcutta=calcutta, user=request.user)
    is_director = report["sees_all"]  # calcutta.direct, asked once
    transfers = selectors.owner_transfers(calcutta, user=request.user, sees_all=is_director)
    codes, links = owner_codes(request.user, calcutta, transfers, is_director=is_director)
    context = {
        "calcutta": calcutta,
        "report": report,
        "is_director": is_director,
        "transfers": transfers,
        "open_transfers": [t for t in transfers if t.confirmed_at is None],
        "codes": codes,
        "links": links,
        "uid": request.user.pk if request.user.is_authenticated else None,
    }
    return render(request, "calcutta/settlement.html", context)


def owner_codes(user, calcutta, transfers, *, is_director: bool) -> tuple[dict[int, paycodes.PayCode], dict]:
    """EPC transfer codes for the owners' settle-ups not yet received, by transfer id: what the club pays an owner
    (to the owner's stored bank account) and what an owner owes the club (to the club's account, set by its
    admins). Shown to the club's directors and to each owner for their own transfer only; nobody else sees an
    IBAN. And the payment links from the payee's stored handle, by transfer id, for the payer only: the owner who
    owes the club, the directors where the club pays. At most two queries, none without such transfers."""
    uid = user.pk if user.is_authenticated else None
    shown = [
        t
        for t in transfers
        if t.confirmed_at is None and (is_director or (uid is not None and t.bidder.user_id == uid))
    ]
    to_owners = [t for t in shown if not t.to_club and t.bidder.player_id]
    accounts = club_selectors.bank_accounts(player_ids={t.bidder.player_id for t in to_owners}) if to_owners else {}
    club_account = None
    if any(t.to_club for t in shown):
        club_account = club_selectors.club_bank_account(club=calcutta.flight.event.club)
    text = _("Calcutta %(flight)s") % {"flight": calcutta.flight}
    codes, links = {}, {}
    for t in shown:
        account = club_account if t.to_club else accounts.get(t.bidder.player_id)
        code = paycodes.transfer_code(account, t.cents, text, calcutta.flight.event.currency)
        if code is not None:
            codes[t.pk] = code
        pays = (uid is not None and t.bidder.user_id == uid) if t.to_club else is_director
        link = paycodes.pay_link(account, t.cents, calcutta.flight.event.currency) if pays else None
        if link is not None and t.paid_at is None:
            links[t.pk] = link
    return codes, links


@login_required
@require_POST
@idempotent_page
def settle_transfer(request, pk, transfer, step):
    """The payer marks an owner's settle-up paid; the payee (for the club: a director) confirms it arrived."""
    calcutta = _calcutta(request, pk)
    settle_up_step(
        request,
        step,
        paid=services.mark_transfer_paid,
        received=services.confirm_transfer_received,
        actor=request.user,
        calcutta=calcutta,
        transfer_id=transfer,
    )
    return redirect("calcutta:settlement", pk=pk)


@require_POST
@login_required
def settle(request, pk):
    calcutta = _calcutta(request, pk)
    if services.resettle(actor=request.user, calcutta=calcutta) is None:
        calcutta.refresh_from_db()
        messages.error(
            request, calcutta.settlement_note or _("The Calcutta cannot be settled before the auction closes.")
        )
    else:
        messages.success(request, _("Settled from the bracket as it stands."))
    return redirect("calcutta:settlement", pk=pk)
