"""The OpenAPI schema that scripts and the interactive docs read is valid and generates without warnings (each
warning is a name or type a client generator would get wrong)."""

from django.core.management import call_command


def test_the_openapi_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = target.read_text()
    for path in ("/api/v1/matches/", "/api/v1/events/", "/api/v1/calcuttas/", "/api/v1/ratings/", "/api/v1/chouette/"):
        assert path in schema
