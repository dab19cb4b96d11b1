"""Demo game records, verified on load: a legal match, a legal one whose later games write a player's name
differently (a warning), and a flawed one (wrong points for a resignation in game 3). All three come from
tests/data/corpus (see its README)."""

from pathlib import Path

from games.models import GameRecord
from games.records import services

DEMO_RECORDS = Path(__file__).parent / "demo_records"


def load(context) -> None:
    uploader = context.director
    if uploader is None:
        return
    for path in sorted(DEMO_RECORDS.glob("*.mat")):
        data = path.read_bytes()
        batch = services.upload_records(uploader=uploader, files=[services.UploadedFile(path.name, data)])
        for record in batch.records.all():
            services.verify_record(record_id=record.pk)  # a no-op when it was verified before
    context.lines.append(f"Game records: {GameRecord.objects.count()} (see /records/)")
