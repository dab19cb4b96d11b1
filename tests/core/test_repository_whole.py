"""A clone is whole: no tracked file points outside the repository, to documents a clone does not have, or to
a tracker's issue numbers a reader cannot see. The needles are built from parts so this file does not match
itself."""

import re
import subprocess

from tests.paths import CORPUS, REPO

NEEDLES = [
    "../" + "shared",
    "SHARED" + "_DIR",
    "DOMAIN" + ".md",
    "STYLE" + ".md",
]
ISSUE_REFERENCE = re.compile(rb"\b[Ii]ssue" + rb" #?\d")


def tracked_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name and (REPO / name).is_file()]


def test_no_tracked_file_points_outside_the_repository():
    files = tracked_files()
    assert len(files) > 100
    found = []
    for name in files:
        data = (REPO / name).read_bytes()
        found += [(name, needle) for needle in NEEDLES if needle.encode() in data]
        if ISSUE_REFERENCE.search(data):
            found.append((name, "issue N"))
    assert found == []


def test_the_corpus_the_tests_read_is_tracked():
    files = set(tracked_files())
    records = sorted(path.relative_to(REPO).as_posix() for path in CORPUS.glob("*/*.mat"))
    assert len(records) >= 100
    assert [name for name in records if name not in files] == []
    assert (CORPUS / "README.md").relative_to(REPO).as_posix() in files
