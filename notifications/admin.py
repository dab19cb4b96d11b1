from django.contrib import admin

from notifications.models import ClubWebhook, Notification, WebhookDelivery


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["kind", "object_key", "recipient", "delivery", "created_at", "read_at"]
    list_filter = ["kind", "delivery"]


@admin.register(ClubWebhook)
class ClubWebhookAdmin(admin.ModelAdmin):
    list_display = ["club", "url", "is_active"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ["club", "kind", "object_key", "delivery", "attempts", "created_at"]
    list_filter = ["delivery"]
