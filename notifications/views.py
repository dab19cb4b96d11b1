"""The notifications pages: the list (and marking read), the per-kind/per-channel choices, the one-click
unsubscribe link of every mail (no sign-in), a club's webhook for its admins, and the language switch that also
remembers the language for what is sent to the person."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponseNotAllowed
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from base.errors import Invalid
from clubs import access
from clubs.models import Club
from notifications import kinds, selectors, services


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


@csrf_exempt  # a mail client's one-click POST (RFC 8058) carries no CSRF token and no session: the signed token is
# the authority, and GET changes nothing
def unsubscribe(request, token: str):
    """GET shows one button (a mail scanner or link preview opening the link unsubscribes nobody); POST, from that
    button or from the mail client's one-click `List-Unsubscribe-Post`, stops that kind of mail."""
    if request.method == "POST":
        kind = services.unsubscribe(token)
    elif request.method in ("GET", "HEAD"):
        kind = services.unsubscribe_kind(token)
    else:
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    context = {"kind": kinds.KINDS[kind] if kind else None, "done": request.method == "POST"}
    return render(request, "notifications/unsubscribe.html", context, status=200 if kind else 400)


def club_webhook(request, slug: str):
    """A club admin sets where the club's public events are posted, sees the signing secret and the last
    deliveries with what became of them."""
    club = get_object_or_404(Club, slug=slug)
    access.require(request.user, "club.webhook", club)
    webhook = selectors.webhook_of(club)
    error, status = None, 200
    if request.method == "POST":
        url = request.POST.get("url", "").strip()
        try:
            if url:
                webhook = services.set_webhook(club=club, url=url, is_active="is_active" in request.POST)
            elif webhook is not None:
                services.remove_webhook(club=club)
                webhook = None
        except (ValidationError, Invalid) as refusal:
            error, status = " ".join(refusal.message_dict.get("url", refusal.messages)), 400
        else:
            messages.success(request, _("The webhook is saved."))
            return redirect("notifications:club-webhook", slug=club.slug)
    deliveries = [
        (row, kinds.KINDS[row.kind].label if row.kind in kinds.KINDS else row.kind)
        for row in selectors.recent_deliveries(club)
    ]
    context = {
        "club": club,
        "webhook": webhook,
        "error": error,
        "url": request.POST.get("url", ""),
        "deliveries": deliveries,
        "max_attempts": services.MAX_ATTEMPTS,
    }
    return render(request, "notifications/webhook.html", context, status=status)


@csrf_exempt
def set_language(request):
    """Django's language switch, which also remembers the choice for the person's notifications.

    A reader who is not signed in switches without a CSRF token: the choice is only a cookie of their own browser,
    and a page without a token is the same for every such reader, so it is served whole from the cache
    (base.pagecache). A signed-in person's switch also changes what is stored for them, so it is checked as
    every other form is."""
    if request.user.is_authenticated:
        refused = CsrfViewMiddleware(lambda _request: None).process_view(request, None, (), {})
        if refused is not None:
            return refused
    response = i18n.set_language(request)
    language = request.POST.get("language")
    if request.method == "POST" and request.user.is_authenticated and language:
        try:
            chosen = translation.get_supported_language_variant(language)
        except LookupError:  # not a language of the site: Django's switch ignored it, and so does this
            return response
        services.set_language(user=request.user, language=chosen)
    return response
