from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base import panels, paylinks
from base.errors import Invalid, NotAllowed
from base.idempotency import idempotent_page
from base.web import attempt
from clubs import access, selectors, services
from clubs.forms import InviteForm, WalkInPlayerForm


def _providers(typed, account) -> dict:
    """The payment link providers a handle may be stored for, (key, name), and the one chosen: what was typed,
    else what is stored."""
    chosen = typed.get("pay_provider") or getattr(account, "pay_provider", "")
    return {"providers": [(p.key, p.name) for p in paylinks.PROVIDERS.values()], "chosen_provider": chosen}


def club_list(request):
    clubs = selectors.visible_clubs(user=request.user).with_member_counts().order_by("name")
    return render(request, "clubs/club_list.html", {"clubs": clubs})


def club_detail(request, slug):
    club = get_object_or_404(selectors.visible_clubs(user=request.user), slug=slug)
    can_direct = access.can(request.user, "club.direct", club)
    return render(
        request,
        "clubs/club_detail.html",
        {
            "club": club,
            "members": selectors.club_members(club=club),
            "can_direct": can_direct,
            "can_edit": can_direct and access.can(request.user, "club.edit", club),
            "form": WalkInPlayerForm(),
            "invite_form": InviteForm(),
            "claims": selectors.pending_claims(club=club) if can_direct else [],
            "panels": panels.collect("club", request, club),
        },
    )


@login_required
@idempotent_page
def club_settings(request, slug):
    """The club's switches for its admins (club.edit): for now whether its pages show display names."""
    club = get_object_or_404(selectors.visible_clubs(user=request.user), slug=slug)
    access.require(request.user, "club.edit", club)
    if request.method == "POST":
        allowed = request.POST.get("allow_display_names") == "on"
        if attempt(
            request,
            lambda: services.update_club(actor=request.user, club=club, allow_display_names=allowed),
            _("Saved."),
        ):
            return redirect("clubs:club-settings", slug=club.slug)
    return render(request, "clubs/club_settings.html", {"club": club})


@require_POST
def add_walk_in(request, slug):
    club = get_object_or_404(selectors.visible_clubs(user=request.user), slug=slug)
    form = WalkInPlayerForm(request.POST)
    if form.is_valid():
        try:
            player = services.create_player(actor=request.user, club=club, **form.cleaned_data)
        except (PermissionDenied, ValidationError, NotAllowed, Invalid) as exc:
            _say_why(request, exc)
        else:
            messages.success(request, _("%(name)s joined the club.") % {"name": player.name})
    else:
        messages.error(request, _("Please give the player's name (and at most a two-letter country code)."))
    return redirect(club)


def player_detail(request, pk):
    player = get_object_or_404(selectors.visible_players(user=request.user), pk=pk)
    memberships = selectors.player_memberships(player=player, user=request.user)
    return render(
        request,
        "clubs/player_detail.html",
        {
            "player": player,
            "is_own": player.user_id is not None and player.user_id == request.user.pk,
            "memberships": memberships,
            "can_claim": access.can(request.user, "walk_in.claim", player),
            "panels": panels.collect("player", request, player),
        },
    )


def _say_why(request, exc: Exception) -> None:
    """A refusal or a validation error as a message on the next page (services word them for the user)."""
    if isinstance(exc, ValidationError | Invalid):
        messages.error(request, " ".join(exc.messages))
    else:
        messages.error(request, str(exc) or _("You do not have the right to do this."))


@require_POST
def invite(request, slug):
    club = get_object_or_404(selectors.visible_clubs(user=request.user), slug=slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the username of the person to invite."))
        return redirect(club)
    try:
        membership = services.invite(actor=request.user, club=club, username=form.cleaned_data["username"])
    except (PermissionDenied, ValidationError, NotAllowed, Invalid) as exc:
        _say_why(request, exc)
    else:
        messages.success(
            request, _("%(name)s is invited; they join once they accept.") % {"name": membership.player.name}
        )
    return redirect(club)


@login_required
@idempotent_page
def club_bank_account(request, slug):
    """The club's own bank account, for the transfer codes of what owners owe the club. Its admins only."""
    club = get_object_or_404(selectors.visible_clubs(user=request.user), slug=slug)
    access.require(request.user, "club.edit", club)
    if request.method == "POST":
        done = attempt(
            request,
            lambda: services.set_club_bank_account(
                actor=request.user,
                club=club,
                holder=request.POST.get("holder", ""),
                iban=request.POST.get("iban", ""),
                bic=request.POST.get("bic", ""),
                pay_provider=request.POST.get("pay_provider", ""),
                pay_handle=request.POST.get("pay_handle", ""),
            ),
            _("Saved."),
        )
        if done:
            return redirect("clubs:club-bank-account", slug=club.slug)
    account = selectors.club_bank_account(club=club)
    typed = request.POST if request.method == "POST" else {}
    return render(
        request,
        "clubs/club_bank_account.html",
        {"club": club, "account": account, "typed": typed, **_providers(typed, account)},
    )


@login_required
def invitations(request):
    """The signed-in user's invitations to answer, and their walk-in claims."""
    return render(
        request,
        "clubs/invitations.html",
        {
            "invitations": selectors.invitations_for(user=request.user),
            "claims": selectors.visible_claims(user=request.user).filter(user=request.user),
        },
    )


@require_POST
@login_required
def answer_invitation(request, pk, answer):
    membership = get_object_or_404(selectors.invitations_for(user=request.user), pk=pk)
    try:
        services.respond_to_invitation(actor=request.user, membership=membership, accept=answer == "accept")
    except (PermissionDenied, ValidationError, NotAllowed, Invalid) as exc:
        _say_why(request, exc)
    else:
        if answer == "accept":
            messages.success(request, _("Welcome to %(club)s.") % {"club": membership.club.name})
        else:
            messages.success(request, _("You declined the invitation of %(club)s.") % {"club": membership.club.name})
    return redirect("clubs:invitations")


@require_POST
@login_required
def claim(request, pk):
    player = get_object_or_404(selectors.visible_players(user=request.user), pk=pk)
    try:
        services.claim_walk_in(actor=request.user, player=player)
    except (PermissionDenied, ValidationError, NotAllowed, Invalid) as exc:
        _say_why(request, exc)
    else:
        messages.success(request, _("Asked the club to confirm that you are %(name)s.") % {"name": player.name})
    return redirect(player)


@require_POST
@login_required
def decide_claim(request, pk, answer):
    found = get_object_or_404(selectors.visible_claims(user=request.user), pk=pk)
    try:
        services.decide_claim(actor=request.user, claim=found, confirm=answer == "confirm")
    except (PermissionDenied, ValidationError, NotAllowed, Invalid) as exc:
        _say_why(request, exc)
    else:
        names = {"user": found.user.get_username(), "name": found.player.name}
        if answer == "confirm":
            messages.success(request, _("%(user)s is now the player %(name)s, with its history.") % names)
        else:
            messages.success(request, _("The claim of %(user)s to be %(name)s was refused.") % names)
    return redirect(found.player.created_by_club or "clubs:invitations")


@login_required
@idempotent_page
def bank_account(request):
    """The signed-in player's own bank account, for the transfer codes of what others owe them. Private: shown
    here to them only, and to their payers as a code."""
    player = selectors.player_for_user(request.user)
    if player is None:
        raise PermissionDenied(_("Only a player has a bank account here."))
    if request.method == "POST":
        done = attempt(
            request,
            lambda: services.set_bank_account(
                actor=request.user,
                player=player,
                holder=request.POST.get("holder", ""),
                iban=request.POST.get("iban", ""),
                bic=request.POST.get("bic", ""),
                pay_provider=request.POST.get("pay_provider", ""),
                pay_handle=request.POST.get("pay_handle", ""),
            ),
            _("Saved."),
        )
        if done:
            return redirect("clubs:bank-account")
    account = selectors.bank_account(player=player)
    typed = request.POST if request.method == "POST" else {}
    return render(
        request,
        "clubs/bank_account.html",
        {"player": player, "account": account, "typed": typed, **_providers(typed, account)},
    )


@login_required
@idempotent_page
def display_name(request):
    """The signed-in player's display name: shown instead of their name on public pages (brackets, standings,
    embeds, public downloads); their clubs' directors still see the name. "Show my name" clears it."""
    player = selectors.player_for_user(request.user)
    if player is None:
        raise PermissionDenied(_("Only a player has a display name here."))
    if request.method == "POST":
        clear = request.POST.get("action") == "clear"
        typed = "" if clear else request.POST.get("display_name", "")
        if not clear and not typed.strip():
            typed = " "  # an empty box is a refusal with a message; the button clears
        done = attempt(
            request,
            lambda: services.update_player(actor=request.user, player=player, display_name=typed),
            _("Public pages show your name again.") if clear else _("Saved: public pages show your display name."),
        )
        if done:
            return redirect("clubs:display-name")
    typed = request.POST if request.method == "POST" else {}
    allowing = selectors.clubs_allowing_display_names(player=player)
    return render(request, "clubs/display_name.html", {"player": player, "typed": typed, "allowing": allowing})
