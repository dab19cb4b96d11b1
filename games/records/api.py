"""REST endpoints for game records (under /api/v1/): upload, verdicts, and the progress of an upload."""

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from base.api import JSONTypedInput, validated
from base.idempotency import idempotent
from base.parsers import FormParser, JSONParser, MultiPartParser
from games.analysis import selectors as analysis_selectors
from games.matchplay import selectors as match_selectors
from games.models import GameRecord, Match, UploadBatch
from games.records import selectors, services


class GameRecordSerializer(serializers.ModelSerializer):
    uploader = serializers.CharField(source="uploader.get_username", read_only=True)
    url = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = GameRecord
        fields = [
            "id",
            "name",
            "sha256",
            "size",
            "format",
            "status",
            "verdict",
            "uploader",
            "match",
            "created_at",
            "verified_at",
            "url",
        ]
        read_only_fields = fields


class AnalysedPlayerSerializer(serializers.Serializer):
    side = serializers.IntegerField(help_text="0: the record's left column, 1: its right one.")
    name = serializers.CharField()
    player = serializers.IntegerField(
        allow_null=True, help_text="The match's player of this side, when the names agree."
    )
    error_rate = serializers.FloatField(help_text="mEMG per unforced decision, checker play and cube together.")
    checker_error_rate = serializers.FloatField()
    cube_error_rate = serializers.FloatField()
    errors = serializers.IntegerField()
    blunders = serializers.IntegerField()
    luck_rate = serializers.FloatField(help_text="mEMG per roll; positive: lucky.")
    pr_like = serializers.FloatField(allow_null=True, help_text="500 × the mean error in EMG; not eXtreme Gammon's PR.")
    unforced_decisions = serializers.IntegerField()


class RecordAnalysisSerializer(serializers.Serializer):
    engine = serializers.CharField()
    version = serializers.CharField(required=False)
    plies = serializers.IntegerField()
    met = serializers.CharField(required=False, help_text="The match equity table the engine used.")
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    reason = serializers.CharField(allow_blank=True, help_text="Why the analysis failed.")
    players = AnalysedPlayerSerializer(many=True, required=False)


class GameRecordWithAnalysesSerializer(GameRecordSerializer):
    """A record with its engine analyses (only ever shown to whoever may see the record)."""

    analyses = serializers.SerializerMethodField()

    class Meta(GameRecordSerializer.Meta):
        fields = [*GameRecordSerializer.Meta.fields, "analyses"]
        read_only_fields = fields

    @extend_schema_field(RecordAnalysisSerializer(many=True))
    def get_analyses(self, record) -> list[dict]:
        request = self.context.get("request")
        return analysis_selectors.figures_for_api(record=record, user=getattr(request, "user", None))


class UploadBatchSerializer(serializers.ModelSerializer):
    total = serializers.IntegerField(read_only=True)
    done = serializers.IntegerField(read_only=True)
    valid = serializers.IntegerField(read_only=True)
    invalid = serializers.IntegerField(read_only=True)
    unreadable = serializers.IntegerField(read_only=True)
    records = serializers.SerializerMethodField()

    class Meta:
        model = UploadBatch
        fields = ["id", "created_at", "total", "done", "valid", "invalid", "unreadable", "records"]

    def get_records(self, batch) -> list[dict]:
        records = selectors.batch_records(batch=batch)
        return [{"id": r.id, "name": r.name, "status": r.status, "url": r.get_absolute_url()} for r in records]


class UploadInputSerializer(serializers.Serializer):
    file = serializers.FileField(required=False, help_text="A .mat or .sgf record, or a zip of up to 200 records.")
    files = serializers.ListField(child=serializers.FileField(), required=False, help_text="Several files at once.")
    text = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, help_text="A pasted record.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    match = serializers.PrimaryKeyRelatedField(queryset=Match.objects.none(), required=False, allow_null=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Only a match the uploader may see can be named: a private match's id answered "may not attach"
        # where an unknown id answered "does not exist", which told an outsider the private match exists.
        request = self.context.get("request")
        if request is not None:
            self.fields["match"].queryset = match_selectors.visible_matches(user=request.user)


class PastedRecordInputSerializer(UploadInputSerializer):
    """A JSON body carries no file: the pasted text of one record, which must not be empty (the upload answered
    "Paste the text of a .mat record." for what its schema allowed)."""

    file = None
    files = None
    text = serializers.CharField(trim_whitespace=False, help_text="A pasted record.")


def _read(upload) -> services.UploadedFile:
    # Read one byte past the larger limit so the service can name an oversized file instead of storing it.
    data = upload.read(services.max_upload_bytes() + 1)
    return services.UploadedFile(upload.name or "record.mat", data)


class GameRecordViewSet(JSONTypedInput, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = GameRecordWithAnalysesSerializer
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser, JSONParser]  # base.parsers: NUL refused

    def get_queryset(self):
        return selectors.visible_records(user=self.request.user).prefetch_related(
            analysis_selectors.analyses_prefetch()
        )

    @idempotent
    @extend_schema(
        request={"multipart/form-data": UploadInputSerializer, "application/json": PastedRecordInputSerializer},
        responses={201: UploadBatchSerializer},
    )
    def create(self, request, *args, **kwargs):
        """Upload records: a file, several files, a zip, or pasted text. Each is verified in the background."""
        is_json = request.content_type.startswith("application/json")
        values = validated(
            PastedRecordInputSerializer if is_json else UploadInputSerializer, request, context={"request": request}
        )
        uploads = [values["file"]] if values.get("file") else []
        uploads += values.get("files") or []
        match = values.get("match")
        if uploads and values.get("text"):
            raise ValidationError({"text": ["Send either files or pasted text, not both."]})
        if uploads:
            batch = services.upload_records(
                uploader=request.user, files=[_read(upload) for upload in uploads], match=match
            )
        else:
            batch = services.upload_text(
                uploader=request.user, text=values.get("text", ""), name=values.get("name", ""), match=match
            )
        batch = selectors.visible_batches(user=request.user).get(pk=batch.pk)
        return Response(UploadBatchSerializer(batch).data, status=status.HTTP_201_CREATED)


class UploadBatchViewSet(viewsets.ReadOnlyModelViewSet):
    """The progress of an upload: how many of its records are verified, and how."""

    serializer_class = UploadBatchSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return selectors.visible_batches(user=self.request.user)
