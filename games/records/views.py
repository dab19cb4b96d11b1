"""Web pages for game records: the list, the upload form, an upload's progress and a record's verdict."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from base.errors import Invalid, NotAllowed
from base.idempotency import idempotent_page
from games.analysis import selectors as analysis_selectors
from games.matchplay import selectors as match_selectors
from games.messages import VERIFICATION
from games.records import selectors, services
from games.records.forms import UploadForm


@login_required
def record_list(request):
    return render(
        request,
        "games/records/record_list.html",
        {
            "records": selectors.records_for_list(user=request.user)[:200],
            "batches": selectors.visible_batches(user=request.user)[:10],
        },
    )


def _match_to_attach(request):
    """The match named by ?match= (the match page's "Upload the record of this match"), when the user may see
    it; the service checks that they may attach records to it."""
    number = request.POST.get("match") or request.GET.get("match")
    if not number or not str(number).isdigit():
        return None
    return match_selectors.visible_matches(user=request.user).filter(pk=int(number)).first()


@login_required
@idempotent_page
def record_upload(request):
    form = UploadForm(request.POST or None, request.FILES or None)
    match = _match_to_attach(request)
    if request.method == "POST" and form.is_valid():
        files = form.cleaned_data["files"]
        text = form.cleaned_data["text"]
        try:
            if files:
                uploads = [services.UploadedFile(f.name, f.read(services.max_upload_bytes() + 1)) for f in files]
                batch = services.upload_records(uploader=request.user, files=uploads, match=match)
            else:
                batch = services.upload_text(uploader=request.user, text=text, match=match)
        except (ValidationError, Invalid) as error:
            messages.error(request, " ".join(error.messages))
        except (PermissionDenied, NotAllowed) as error:
            messages.error(request, str(error))
        else:
            return redirect("games:record-batch", pk=batch.pk)
    return render(request, "games/records/upload.html", {"form": form, "match": match})


@login_required
def record_batch(request, pk):
    batch = get_object_or_404(selectors.visible_batches(user=request.user), pk=pk)
    return render(
        request,
        "games/records/batch.html",
        {"batch": batch, "records": selectors.batch_records(batch=batch)},
    )


def warning_text(warning: dict) -> str:
    """A verdict warning in the reader's language. The verifier's own message is English; the codes are for
    scripts, so the page says what each means instead of showing the code."""
    if warning.get("code") == "player_renamed":
        return _(
            "Game %(game)s writes %(new)s where the games before it have %(old)s: the same column, so the same "
            "player. The record stays valid."
        ) % {"game": warning.get("game"), "new": warning.get("text"), "old": warning.get("player")}
    if warning.get("code") == "starts_mid_match":
        return _(
            "The record starts in the middle of the match (%(score)s): the earlier games are not in it, so only "
            "the games written are checked. The record stays valid."
        ) % {"score": warning.get("text")}
    return warning.get("message", "")


def error_heading(error: dict) -> str:
    """What a verification error is, in the reader's language (by its code; people see no codes). The record's
    own detail, naming the move and the numbers, follows it as the verifier wrote it."""
    heading = VERIFICATION.get(error.get("code", ""))
    return str(heading) if heading is not None else ""


@login_required
def record_detail(request, pk):
    record = get_object_or_404(selectors.visible_records(user=request.user), pk=pk)
    page = selectors.record_page(
        record=record,
        errors_page=request.GET.get("errors"),
        games_page=request.GET.get("games"),
        lines_page=request.GET.get("lines"),
    )
    page["warnings"] = [{**warning, "text": warning_text(warning)} for warning in page["warnings"]]
    page["errors"] = [{**error, "heading": error_heading(error)} for error in page["errors"]]
    return render(
        request,
        "games/records/record_detail.html",
        {
            "record": record,
            "verdict": record.verdict or {},
            **page,
            **analysis_selectors.analysis_panel(record=record, user=request.user),
            "pending": record.status in ("pending", "verifying"),
            "title": _("Game record %(name)s") % {"name": record.name},
        },
    )
