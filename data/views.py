"""The export downloads (data.exports) and, below, the member import and the pasted entry list."""

from django.views.decorators.http import require_GET

from data import exports


@require_GET
def export(request, key: str, **names):
    """One export as a CSV download: `key` picks the class, the URL's names find its object (404/403 as its page)."""
    return exports.csv_response(exports.EXPORTS[key](request.user, request.GET, **names))
