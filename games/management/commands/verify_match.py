"""verify_match PATH [PATH ...] [--json]: one verdict per record file, for people and for scripts.

Exit status 0 when every file is valid, 1 when any is invalid, 2 when any cannot be read as a record. A valid
record may carry warnings (a renamed player, a record that starts mid-match): listed, never a failure.

The command only reads files, so it runs in a fresh checkout with no environment set: config.settings lets
read-only commands start without SECRET_KEY (see READ_ONLY_COMMANDS there).
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from backgammon.matchfiles.notation import RecordFormatError
from backgammon.record_routing import check_any_record
from backgammon.verification import unreadable

MAX_BYTES = 2 * 1024 * 1024


class Command(BaseCommand):
    help = (
        "Verify match records (.mat or gnubg .sgf; long nardy and Dave records by their Variation header): "
        "every move, cube action, game result and score, with the verifier an upload gets."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--json", action="store_true", help="one JSON object per line")

    def handle(self, *args, paths, **options):
        worst = 0
        for path in paths:
            status, verdict = self._verify(Path(path))
            worst = max(worst, {"valid": 0, "invalid": 1, "unreadable": 2}[status])
            if options["json"]:
                self.stdout.write(json.dumps(verdict.as_dict(file=path), ensure_ascii=False))
            else:
                self._describe(path, status, verdict)
        if worst:
            raise SystemExit(worst)

    def _verify(self, path: Path):
        try:
            if path.stat().st_size > MAX_BYTES:
                return "unreadable", unreadable(RecordFormatError("too_large", "The file is larger than 2 MiB."))
            data = path.read_bytes()
        except OSError as error:
            refusal = RecordFormatError("cannot_read_file", f"Cannot read the file: {error.strerror}.")
            return "unreadable", unreadable(refusal)
        return check_any_record(data, name=path.name)  # the game's own verifier, as for an upload

    def _describe(self, path, status, verdict):
        warned = len(verdict.warnings)
        if status == "valid":
            score = "–".join(str(s) for s in verdict.final_score)
            winner = f", won by {verdict.winner}" if verdict.winner else ""
            warnings = f", {warned} warning{'s' if warned != 1 else ''}" if warned else ""
            self.stdout.write(
                self.style.SUCCESS(f"{path}: valid, {len(verdict.games)} games, {score}{winner}{warnings}")
            )
        else:
            self.stdout.write(self.style.ERROR(f"{path}: {status}, {len(verdict.errors)} error(s)"))
        for problem in (*verdict.errors, *verdict.warnings):
            self.stdout.write(f"  line {problem.line}: [{problem.code}] {problem.message}")
