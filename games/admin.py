from django.contrib import admin

from games.models import GameRecord, UploadBatch


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ["name", "status", "format", "uploader", "match", "created_at", "verified_at"]
    list_filter = ["status", "format"]
    search_fields = ["name", "sha256", "uploader__username"]
    readonly_fields = ["sha256", "size", "status", "verdict", "created_at", "verified_at"]
    raw_id_fields = ["match", "uploader"]


@admin.register(UploadBatch)
class UploadBatchAdmin(admin.ModelAdmin):
    list_display = ["id", "uploader", "created_at"]
    raw_id_fields = ["uploader"]
