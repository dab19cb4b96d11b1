from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

from accounts.models import ApiToken, LoginFailureWindow, PasswordResetMail

# DRF's own token table is kept only for the migration that copied its keys into ApiToken; it authenticates
# nothing any more, so it must not look like a place to manage tokens.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


@admin.register(LoginFailureWindow)
class LoginFailureWindowAdmin(admin.ModelAdmin):
    """Deleting a row lifts its lock, e.g. for a player who mistyped their password too often."""

    list_display = ["scope", "username", "address", "failures", "started", "locked_until"]
    list_filter = ["scope"]
    search_fields = ["username", "address"]
    readonly_fields = ["key", "scope", "username", "address", "failures", "started", "locked_until"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "prefix", "created", "last_used"]
    search_fields = ["user__username", "name"]
    readonly_fields = ["user", "name", "digest", "prefix", "created", "last_used"]


@admin.register(PasswordResetMail)
class PasswordResetMailAdmin(admin.ModelAdmin):
    """Reset mails waiting for the mail server, or failed for good with the last error (the person may ask again).
    Sent ones are not kept."""

    list_display = ["address", "delivery", "attempts", "due_at", "last_error"]
    list_filter = ["delivery"]
    search_fields = ["address"]
    readonly_fields = [
        "address",
        "language",
        "delivery",
        "attempts",
        "due_at",
        "claimed_at",
        "last_error",
        "created_at",
    ]
