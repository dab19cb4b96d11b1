"""Read-only admin views: sessions change only through chouette.services (the events are the truth and the
ledger is derived from them), so the admin shows, it does not edit."""

from django.contrib import admin

from chouette.models import ChouetteSession, SessionEvent, Transfer


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class EventInline(ReadOnlyInline):
    model = SessionEvent
    fields = ["seq", "version", "kind", "player", "game_number", "is_current", "retired_reason", "reason"]
    readonly_fields = fields


class TransferInline(ReadOnlyInline):
    model = Transfer
    fields = ["kind", "payer", "payee", "cents", "created_at"]
    readonly_fields = fields


@admin.register(ChouetteSession)
class ChouetteSessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "status", "games_played", "created_at"]
    list_filter = ["status", "club"]
    inlines = [EventInline, TransferInline]

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False
