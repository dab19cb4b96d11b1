"""Demo analysed records: four club-night matches of the demo players whose records GNU Backgammon analysed, so
the players' rating pages show error rates and the club's ranking of error rates has names in it.

The records are corpus games (tests/data/corpus/gnubg, copied to demo_records/) with the demo players' names
written in. Anna and Bernd answered "yes" to the analysis, Clara "only for me" (her figures show to her alone);
the club analyses its records and ranks error rates. Each record is analysed by the real engine at 0-ply while
the demo loads (under a second a record) when the program is installed; without it (a fresh clone's `make run`)
the gnubg-nn package analyses their checker play, as the site does, and the pages say so. Idempotent: a match
is looked up by its players, club and length before it is created.
"""

import re
from datetime import datetime, time, timedelta
from pathlib import Path

from django.utils import timezone

from clubs.models import AnalysisConsent, Club, Player
from games.analysis import services
from games.matchplay import services as match_services
from games.models import GameRecord, Match, MatchContext, RecordStatus
from games.records import services as record_services

DEMO_RECORDS = Path(__file__).parent / "demo_records"
DEMO_PLIES = 0  # gnubg 0-ply: a record in well under a second
# (record, player index of the left column, of the right column, days ago)
DEMO_ANALYSED = [
    ("standard_0034_3p.mat", 0, 1, 26),
    ("standard_0035_5p.mat", 1, 0, 19),
    ("standard_0023_3p.mat", 0, 2, 12),
    ("standard_0012_3p.mat", 0, 1, 5),
]
HEADER = re.compile(r"^ gnubg : (\d+)\s+root : (\d+)", flags=re.MULTILINE)


def load(context) -> None:
    club, director, players = context.club, context.director, context.players
    if club is None or director is None or len(players) < 3:
        return
    consents = {0: AnalysisConsent.YES, 1: AnalysisConsent.YES, 2: AnalysisConsent.ONLY_ME}
    for index, consent in consents.items():
        Player.objects.filter(pk=players[index].pk).update(analysis_consent=consent)
        players[index].analysis_consent = consent
    Club.objects.filter(pk=club.pk).update(analyse_records=True, rank_error_rates=True)
    club.analyse_records = club.rank_error_rates = True
    done = 0
    for name, left, right, days_ago in DEMO_ANALYSED:
        record = _record(context, name, players[left], players[right], days_ago)
        if record is None:
            continue
        analysis = services.request_analysis(record=record, plies=DEMO_PLIES)
        if analysis.status == "queued":
            analysis = services.run_analysis(analysis_id=analysis.pk) or analysis
        done += analysis.status == "done"
    context.lines.append(
        f"Analysed records: {done} of {len(DEMO_ANALYSED)} ({services.engine_name()} {DEMO_PLIES}-ply); error rates on "
        f"/players/{players[0].pk}/rating/ and /clubs/{club.slug}/error-rates/"
    )


def _record(context, name: str, player_a, player_b, days_ago: int) -> GameRecord | None:
    """The demo match of the record (made once, finished `days_ago` days back) and its verified record."""
    text = (DEMO_RECORDS / name).read_text()

    def names(found: re.Match) -> str:
        return f" {player_a.name} : {found.group(1)}".ljust(31) + f"{player_b.name} : {found.group(2)}"

    data = HEADER.sub(names, text).encode()
    length = int(re.search(r"(\d+) point match", text).group(1))
    match = Match.objects.filter(
        club=context.club, player_a=player_a, player_b=player_b, length=length, game_records__name=name
    ).first()
    if match is not None:
        return match.game_records.filter(status=RecordStatus.VALID).first()
    match = match_services.create_match(
        actor=context.director,
        player_a=player_a,
        player_b=player_b,
        length=length,
        context=MatchContext.CLUB_NIGHT,
        club=context.club,
    )
    batch = record_services.upload_records(
        uploader=context.director, files=[record_services.UploadedFile(name, data)], match=match
    )
    record = batch.records.get()
    record_services.verify_record(record_id=record.pk)
    record.refresh_from_db()
    scores = tuple((record.verdict or {}).get("final_score") or ())
    if record.status != RecordStatus.VALID or len(scores) != 2:
        return None
    match_services.submit_report(actor=context.director, match=match, method="final_score", scores=scores)
    start = timezone.make_aware(datetime.combine(timezone.localdate() - timedelta(days=days_ago), time(20, 15)))
    Match.objects.filter(pk=match.pk).update(
        scheduled_at=start, started_at=start, finished_at=start + timedelta(minutes=40), created_at=start
    )
    return record
