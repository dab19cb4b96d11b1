"""The demo's long nardy club night: a small event whose one flight plays long nardy to 3 points, every match
reported by its uploaded game record, verified on the long nardy board (oin and mars, no cube).

Why records and not typed scores: it shows the whole road a nardy result takes (a record names its game in
its header, goes to the nardy verifier, and a report by record must be of the match's game), so `make run`
has verified nardy records to open. The records are seeded random legal games with the players' names, so
the night is the same on every load. Idempotent like the other demo events."""

import datetime

from backgammon.nardy.random_play import random_match
from backgammon.nardy.record import write_nardy
from games.matchplay import services as match_services
from games.models.variants import GameVariant
from games.records import services as record_services
from tournaments import services
from tournaments.models import Event, Slot

NARDY_NIGHT = "long-nardy-night"
LENGTH = 3


def load(context, players) -> Event | None:
    """The event (created on the first load), or None when the demo club is missing."""
    club, director = context.club, context.director
    if club is None or director is None or len(players) < 8:
        return None
    event = Event.objects.filter(club=club, slug=NARDY_NIGHT).first()
    if event is not None:
        return event
    event = services.create_event(
        actor=director,
        club=club,
        name="Long Nardy Night",
        slug=NARDY_NIGHT,
        starts_on=datetime.date.today() - datetime.timedelta(days=7),
    )
    flight = services.add_flight(
        actor=director, event=event, name="Nardy", slug="nardy", length=LENGTH, variant=GameVariant.LONG_NARDY
    )
    for player in players[:8]:
        services.register(actor=director, flight=flight, player=player)
    services.draw_flight(actor=director, flight=flight, seed=88)
    services.confirm_draw(actor=director, flight=flight)
    services.release_draw(actor=director, flight=flight)
    while slots := list(Slot.objects.filter(flight=flight, result="ready").select_related("match").order_by("pk")):
        for slot in slots:
            _report_by_record(director, slot.match)
    context.lines.append(f"Long nardy night (records verified): /events/{club.slug}/{NARDY_NIGHT}/")
    event.refresh_from_db()
    return event


def _report_by_record(director, match) -> None:
    """Upload a seeded nardy record of the match, verify it, and report the match by it."""
    names = (match.player_a.name, match.player_b.name)
    text = write_nardy(random_match(seed=match.pk, length=LENGTH, players=names))
    upload = record_services.UploadedFile(f"nardy-{match.pk}.mat", text.encode())
    batch = record_services.upload_records(uploader=director, files=[upload], match=match)
    record = batch.records.get()
    record_services.verify_record(record_id=record.pk)
    match_services.submit_report(
        actor=director, match=match, method="record", game_record_id=record.pk, comment="Demo", as_director=True
    )
