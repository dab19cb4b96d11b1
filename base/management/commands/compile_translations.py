"""Compile every locale/*/LC_MESSAGES/django.po of the project to .mo with polib, so a fresh machine needs no
GNU gettext to show the German pages. Each .mo is written beside its target and renamed over it: a process
reading the translations meanwhile (a server, another test worker) sees the old file or the new one, never half."""

import os
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the project's .po translation files to .mo (no gettext tools needed)."

    def handle(self, *args, **options):
        base = Path(settings.BASE_DIR)
        count = 0
        po_paths = [p for p in sorted(base.glob("**/locale/*/LC_MESSAGES/*.po")) if ".venv" not in p.parts]
        for po_path in po_paths:
            target = po_path.with_suffix(".mo")
            partial = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            polib.pofile(str(po_path)).save_as_mofile(str(partial))
            os.replace(partial, target)
            count += 1
        self.stdout.write(f"compiled {count} translation file(s)")
