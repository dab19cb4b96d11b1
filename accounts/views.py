"""The account page (API tokens) and the password reset, whose mail is queued (accounts.services)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import PasswordResetForm, TokenForm


def _account_page(request, *, form=None, new_key=None, status=200):
    tokens = [(token, selectors.token_expires(token)) for token in selectors.user_tokens(user=request.user)]
    context = {"tokens": tokens, "form": form or TokenForm(), "new_key": new_key, "token_ttl": settings.TOKEN_TTL}
    return render(request, "accounts/account.html", context, status=status)


@login_required
def account(request):
    return _account_page(request)


@login_required
@require_POST
def create_token(request):
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _account_page(request, form=form, status=400)
    _token, key = services.create_token(user=request.user, name=form.cleaned_data["name"])
    # Shown in this answer only: the key is not stored, so a reload or a redirect could not show it again.
    return _account_page(request, new_key=key)


@login_required
@require_POST
def revoke_token(request, token_id: int):
    if not services.revoke_token(user=request.user, token_id=token_id):
        raise Http404(_("You have no such token."))
    messages.success(request, _("The token was revoked; programs using it can no longer sign in with it."))
    return redirect("account")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's view with the queuing form: every valid address is sent on to the same "a mail is on its way"
    page, so the page cannot tell which addresses have an account."""

    form_class = PasswordResetForm
