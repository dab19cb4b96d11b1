"""Demo data for the data app: the demo club's members get membership numbers and federation ids (so the
members export and the federation results file have them), and the output names where to try the import
(with its sample file), the exports and the calendar links. The Spring Open's setup is the club's "Club night"
template, to start next week's event from. Running it again sets the same values."""

from clubs import selectors as club_selectors
from clubs import services as club_services
from data import selectors, services

SAMPLE = "/static/data/members-sample.csv"
TEMPLATE = "Club night"


def load(context) -> None:
    club, director = context.club, context.director
    if club is None or director is None:
        return
    for number, membership in enumerate(club_selectors.club_members(club=club), start=1):
        club_services.set_member_details(actor=director, membership=membership, number=f"BC-{number:03d}")
        player = membership.player
        if player.user_id is not None and not player.federation_id:
            player.federation_id = f"DBGV-{10000 + player.pk}"
            player.save(update_fields=["federation_id"])
    source = getattr(context, "finished_event", None)
    names = {t.name for t in selectors.club_event_templates(club=club)}
    if source is not None and TEMPLATE not in names:
        services.save_event_template(actor=director, event=source, name=TEMPLATE)
    context.lines.append(
        f"Data: import members at /clubs/{club.slug}/members/import/ (a file to try: {SAMPLE}); exports on the "
        f"event, bracket, leaderboard and settlement pages (e.g. /export/clubs/{club.slug}/members.csv); "
        "calendar links at /me/calendar/; your data and leaving at /me/data/; start next week's club night from "
        f"the {TEMPLATE!r} template at /clubs/{club.slug}/event-templates/."
    )
