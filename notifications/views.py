"""The notifications pages: the list (and marking read), the per-kind/per-channel choices, the one-click
unsubscribe link of every mail (no sign-in), a club's webhook for its admins, and the language switch that also
remembers the language for what is sent to the person."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from clubs import access
from clubs.models import Club
from notifications import kinds, selectors, services
from notifications.models import ClubWebhook


@login_required
def notification_list(request):
    page = Paginator(selectors.for_user(request.user), 50).get_page(request.GET.get("page"))
    rows = [(n, kinds.personal(n.kind, n.params)) for n in page.object_list]
    return render(request, "notifications/list.html", {"page": page, "rows": rows})


@login_required
@require_POST
def mark_read(request, pk: int | None = None):
    """Mark one notification read and go where it points (or, without pk, all read and back to the list)."""
    services.mark_read(user=request.user, pk=pk)
    if pk is not None:
        target = selectors.for_user(request.user).filter(pk=pk).values_list("url", flat=True).first()
        if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
            return redirect(target)
    return redirect("notifications:list")


@login_required
def preferences(request):
    stored = services.settings_for(request.user)
    if request.method == "POST":
        services.set_choices(
            user=request.user,
            choices={f"{k}.{c}": f"{k}.{c}" in request.POST for k in kinds.KINDS for c in kinds.CHANNELS},
        )
        messages.success(request, _("Your choices are saved."))
        return redirect("notifications:preferences")
    rows = [
        (kind, [(f"{kind.code}.{c}", services.wants(stored.choices, kind.code, c)) for c in kinds.CHANNELS])
        for kind in kinds.KINDS.values()
    ]
    return render(request, "notifications/preferences.html", {"rows": rows})


@csrf_exempt  # a mail client's one-click POST (RFC 8058) carries no CSRF token; the signed token is the check
def unsubscribe(request, token: str):
    kind = services.unsubscribe(token)
    if kind is None:
        return render(request, "notifications/unsubscribe.html", {"kind": None}, status=400)
    return render(request, "notifications/unsubscribe.html", {"kind": kinds.KINDS[kind]})


def club_webhook(request, slug: str):
    """A club admin sets where the club's public events are posted, and sees the signing secret."""
    club = get_object_or_404(Club, slug=slug)
    if not access.is_admin(request.user, club):
        raise PermissionDenied(_("Only the club's admins set its webhook."))
    webhook = ClubWebhook.objects.filter(club=club).first()
    error, status = None, 200
    if request.method == "POST":
        url = request.POST.get("url", "").strip()
        try:
            if url:
                webhook = services.set_webhook(club=club, url=url, is_active="is_active" in request.POST)
            elif webhook is not None:
                webhook.delete()
                webhook = None
        except ValidationError as refusal:
            error, status = " ".join(refusal.message_dict.get("url", refusal.messages)), 400
        else:
            messages.success(request, _("The webhook is saved."))
            return redirect("notifications:club-webhook", slug=club.slug)
    context = {"club": club, "webhook": webhook, "error": error, "url": request.POST.get("url", "")}
    return render(request, "notifications/webhook.html", context, status=status)


def set_language(request):
    """Django's language switch, which also remembers the choice for the person's notifications."""
    response = i18n.set_language(request)
    language = request.POST.get("language")
    if request.method == "POST" and request.user.is_authenticated and language:
        try:
            chosen = translation.get_supported_language_variant(language)
        except LookupError:  # not a language of the site: Django's switch ignored it, and so does this
            return response
        services.set_language(user=request.user, language=chosen)
    return response
