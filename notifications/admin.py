from django import forms
from django.contrib import admin

from base.errors import Invalid
from notifications import services
from notifications.models import ClubWebhook, Notification, WebhookDelivery


class ClubWebhookForm(forms.ModelForm):
    url = forms.URLField(max_length=500, assume_scheme="https")

    class Meta:
        model = ClubWebhook
        fields = ["club", "url", "is_active"]

    def clean_url(self):
        """The same refusal as the club's page: no private or loopback address in production."""
        url = self.cleaned_data["url"]
        try:
            services.check_webhook_url(url)
        except (forms.ValidationError, Invalid) as refusal:
            raise forms.ValidationError(refusal.message_dict.get("url", refusal.messages)) from None
        return url


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["kind", "object_key", "recipient", "delivery", "created_at", "read_at"]
    list_filter = ["kind", "delivery"]


@admin.register(ClubWebhook)
class ClubWebhookAdmin(admin.ModelAdmin):
    form = ClubWebhookForm
    list_display = ["club", "url", "is_active"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ["club", "kind", "object_key", "delivery", "attempts", "created_at"]
    list_filter = ["delivery"]
