"""Accessibility: the demo's pages, as the director who uses them, in English and German, pass axe-core's checks
with no critical or serious violation on a 390-pixel phone and a 1366-pixel laptop, and none scrolls sideways at
320 pixels (the width WCAG's reflow criterion names: 1280 pixels at 400 % zoom).

axe-core is vendored (tests/data/axe: only axe.min.js, its licence and version), run in the page; the context
bypasses the site's Content-Security-Policy only so the test can inject it. Set A11Y_REPORT=1 to print every
violation of every impact with the counts per language and width (used to compare before and after a change)."""

import os
from collections import Counter
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.records.selectors import visible_records
from ratings.models import PlayerRating
from tests.browser.test_phone_widths import demo_sweep, sign_in_as_director

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).resolve().parents[1] / "data" / "axe" / "axe.min.js").read_text(encoding="utf-8")
IMPACTS = ("critical", "serious", "moderate", "minor")
FAILING = {"critical", "serious"}
WIDTHS = {390: 844, 1366: 768}
NARROWEST = int(os.environ.get("A11Y_NARROWEST", "320"))  # 195 measures 200 % zoom on a 390-pixel phone

WIDEST = """() => {
  // the innermost elements that reach past the right edge: what makes the page scroll sideways
  const edge = document.documentElement.clientWidth;
  const out = [...document.body.querySelectorAll("*")].filter(e => e.getBoundingClientRect().right > edge + 1 &&
    ![...e.children].some(c => c.getBoundingClientRect().right > edge + 1));
  return out.slice(0, 3).map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\\s+/).join(".") : "") +
    " " + Math.round(e.getBoundingClientRect().right) + "px");
}"""
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(" ") + " :: " +
      (n.failureSummary || "").split("\\n").slice(1).join(" ").trim())
  }));
}"""


def swept_urls(monkeypatch) -> list[str]:
    """The phone-width sweep's pages and the other pages the audit named: the home page (with its "to confirm"
    badge), the club, an event, the dashboard, the record upload and a record's verdict, a rating chart, the
    next-match page and the match list."""
    urls, _table = demo_sweep(monkeypatch)
    director = get_user_model().objects.get(username="director")
    record = visible_records(user=director).first()
    rated = PlayerRating.objects.filter(matches__gt=1).order_by("-matches").first() or PlayerRating.objects.first()
    extra = [
        "/",
        "/clubs/bc-berlin/",
        "/events/bc-berlin/spring-open/",
        "/events/bc-berlin/spring-open/dashboard/",
        "/records/",
        "/records/upload/",
        record.get_absolute_url(),
        f"/players/{rated.player_id}/rating/",
        "/ratings/",
        "/events/next-match/",
        "/matches/",
    ]
    return extra + [url for url in urls if url not in extra]


def test_the_swept_pages_pass_axe_and_reflow_at_320_pixels_in_english_and_german(live_server, browser, monkeypatch):
    urls = swept_urls(monkeypatch)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    counts: dict[tuple[str, int], Counter] = {}
    failures: list[str] = []
    everything: list[str] = []
    sideways: dict[str, int] = {}
    for language in ("en", "de"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        context.add_cookies([{"name": "django_language", "value": language, "domain": host, "path": "/"}])
        page = context.new_page()
        page.set_default_timeout(15000)
        for width, height in WIDTHS.items():  # the sign-in page, as anyone sees it
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_server.url}/accounts/login/")
            _check(page, language, width, "/accounts/login/", counts, failures, everything)
        sign_in_as_director(page, live_server)
        for url in urls:
            response = page.goto(f"{live_server.url}{url}")
            assert response.status == 200, url
            assert f'lang="{language}"' in page.content()[:400], url
            for width, height in WIDTHS.items():
                page.set_viewport_size({"width": width, "height": height})
                _check(page, language, width, url, counts, failures, everything)
            page.set_viewport_size({"width": NARROWEST, "height": 700})
            page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
            scroll, client = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            if scroll > client:
                sideways[f"{language} {url}"] = (scroll, page.evaluate(WIDEST))
        context.close()
    summary = [
        f"{language} {width}px: "
        + ", ".join(
            f"{impact} {counts[language, width][impact]} ({counts[language, width][impact + ' nodes']})"
            for impact in IMPACTS
        )
        for language in ("en", "de")
        for width in WIDTHS
    ]
    if os.environ.get("A11Y_REPORT") == "1":
        print("\naxe-core violations (rule x page; nodes in brackets)\n" + "\n".join(summary))
        print("\n".join(everything))
        print(f"sideways at {NARROWEST}px: {sideways}")
    assert failures == [], "critical or serious axe violations:\n" + "\n".join(failures) + "\n" + "\n".join(summary)
    assert sideways == {}, f"pages wider than {NARROWEST} pixels: {sideways}"


def _check(page, language, width, url, counts, failures, everything) -> None:
    # the page's own resize handlers (site.js marks tables that now scroll) run before the next frame
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE)
    violations = page.evaluate(RUN_AXE)
    tally = counts.setdefault((language, width), Counter())
    for violation in violations:
        impact = violation["impact"] or "minor"
        tally[impact] += 1
        tally[f"{impact} nodes"] += len(violation["nodes"])
        lines = [f"[{impact}] {language} {width}px {url}: {violation['id']}: {violation['help']}"]
        lines += [f"    {node}" for node in violation["nodes"][:5]]
        if len(violation["nodes"]) > 5:
            lines.append(f"    ... and {len(violation['nodes']) - 5} more")
        everything.extend(lines)
        if impact in FAILING:
            failures.extend(lines)
