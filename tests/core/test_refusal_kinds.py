"""A service's refusal (base.errors: Conflict, NotAllowed, NotFound, Invalid) answers exactly as the Django and
DRF exceptions the services raised before: the same status, code, text, field and extra keys, so clients see no
change. Each is held against the body the handler still gives Django's own exception (views and forms raise
those for their own input)."""

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.test import RequestFactory
from django.utils import translation

from base.api import Conflict as ApiConflict
from base.api import exception_handler
from base.errors import Conflict, DomainError, Invalid, NotAllowed, NotFound
from base.middleware import RefusalPageMiddleware


def _answer(exc):
    response = exception_handler(exc, {})
    return response.status_code, response.data


def test_bad_input_reads_as_a_django_validation_error_did():
    assert _answer(Invalid("Give a name.", field="name")) == _answer(DjangoValidationError({"name": ["Give a name."]}))
    coded = Invalid("Daves are played on the standard board only.", code="dave_on_standard", field="stakes")
    old = DjangoValidationError({"stakes": [DjangoValidationError(coded.message, code="dave_on_standard")]})
    assert _answer(coded) == _answer(old)
    assert _answer(Invalid("Not now.")) == _answer(DjangoValidationError("Not now."))
    both = {"a": ["Cannot be changed."], "b": ["Cannot be changed."]}
    several = Invalid("Cannot be changed.", errors=both)
    assert _answer(several) == _answer(DjangoValidationError(both))
    assert several.field == "a" and several.messages == ["Cannot be changed.", "Cannot be changed."]


def test_a_state_refusal_keeps_its_code_field_and_extra_keys():
    status, body = _answer(Conflict("Taken.", code="conflict", field="slug"))
    assert (status, body) == (409, {"code": "conflict", "detail": "Taken.", "field": "slug"})
    no_shows = [{"id": 1, "name": "Ann"}]
    status, body = _answer(Conflict("Confirm.", code="no_shows_need_confirmation", no_shows=no_shows))
    assert (status, body["code"], body["field"]) == (409, "no_shows_need_confirmation", None)
    assert body["no_shows"] == no_shows
    assert ApiConflict is Conflict and isinstance(Conflict("x"), DomainError)


def test_not_allowed_and_not_found_read_as_djangos_did():
    assert _answer(NotAllowed("Sign in to bid.")) == _answer(PermissionDenied("Sign in to bid."))
    with translation.override("en"):  # a test before may leave another language active in this thread
        status, body = _answer(NotFound())
    assert (status, body) == (404, {"code": "not_found", "detail": "Not found.", "field": None})


def test_a_refusal_without_words_speaks_the_readers_language():
    with translation.override("de"):
        german = _answer(Conflict())[1]["detail"]
    assert german and german != "The object is not in a state that allows this."


def test_a_page_answers_not_allowed_with_403_and_not_found_with_404():
    middleware = RefusalPageMiddleware(lambda request: None)
    request = RequestFactory().get("/clubs/x/")
    request.user = AnonymousUser()
    assert middleware.process_exception(request, NotAllowed("Sign in.")).status_code == 403
    assert middleware.process_exception(request, NotFound()).status_code == 404
    assert middleware.process_exception(request, Conflict("Busy table.")).status_code == 409
    assert middleware.process_exception(request, Invalid("x", field="y")) is None  # a form's own message
