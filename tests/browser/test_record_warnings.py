import pytest
from playwright.sync_api import expect

from games.records import services
from tests.clubs.factories import UserFactory
from tests.paths import CORPUS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_phone_sees_the_warning_of_a_valid_record(live_server, page, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    user = UserFactory()
    data = (CORPUS / "untidy" / "player_renamed.mat").read_bytes()
    batch = services.upload_records(uploader=user, files=[services.UploadedFile("club-night.mat", data)])
    record = batch.records.get()
    services.verify_record(record_id=record.pk)
    page.goto(f"{live_server.url}/accounts/login/?next=/records/{record.pk}/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/records/{record.pk}/")
    warning = page.locator(".record-warnings li")
    assert warning.count() == 1 and "Game 2 writes GNU Bg" in warning.inner_text()
    assert page.locator(".record-errors").count() == 0
    # The warning's line link lands on the highlighted header line, and nothing is wider than the phone.
    warning.locator("a").click()
    expect(page.locator("#L34.has-warning")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"{live_server.url}/records/{record.pk}/")
    page.screenshot(path=str(tmp_path / "record-warnings.png"), full_page=False)
