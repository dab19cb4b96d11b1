from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs import services
from clubs.models import Club, Membership, Player, WalkInClaim


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["status", "invited_by", "invited_at"]


def _set_approved(request, queryset, approved: bool) -> int:
    """Through the service, so the overall rating pool is recomputed for each club whose flag changes."""
    changed = 0
    for club in queryset:
        if club.is_approved != approved:
            services.set_club_approved(actor=request.user, club=club, approved=approved)
            changed += 1
    return changed


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "is_public", "is_approved"]
    list_filter = ["is_approved", "is_public"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["is_approved"]  # changed by the actions below, which recompute the ratings
    inlines = [MembershipInline]
    actions = ["approve", "withdraw_approval"]

    @admin.action(description=_("Approve: results count in the overall rating list"))
    def approve(self, request, queryset):
        changed = _set_approved(request, queryset, True)
        self.message_user(
            request, ngettext("%d club approved.", "%d clubs approved.", changed) % changed, messages.SUCCESS
        )

    @admin.action(description=_("Withdraw approval: results leave the overall rating list"))
    def withdraw_approval(self, request, queryset):
        changed = _set_approved(request, queryset, False)
        self.message_user(
            request,
            ngettext("Approval withdrawn from %d club.", "Approval withdrawn from %d clubs.", changed) % changed,
            messages.SUCCESS,
        )


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "country", "created_by_club"]
    search_fields = ["name", "user__username"]


@admin.register(WalkInClaim)
class WalkInClaimAdmin(admin.ModelAdmin):
    list_display = ["player", "user", "status", "created_at", "decided_by"]
    list_filter = ["status"]
    raw_id_fields = ["player", "user", "decided_by"]
