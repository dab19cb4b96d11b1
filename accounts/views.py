"""The account page (API tokens) and a password reset that says when the mail could not be sent."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import MailNotSent, PasswordResetForm, TokenForm


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
    form_class = PasswordResetForm

    def form_valid(self, form):
        try:
            return super().form_valid(form)
        except MailNotSent:
            form.add_error(
                None, _("We could not send the e-mail right now; try again later or ask a club admin.")
            )
            response = self.form_invalid(form)
            response.status_code = 503
            return response
