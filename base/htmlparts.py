"""What changed between two versions of a live region, as the parts a page swaps by id.

A public region (the bracket: tens of kB) changes by a slot or two per result. Sending the whole region to every
open page costs its size per socket, in bytes and in the socket's compression; sending the changed parts costs a
few hundred bytes. A region's *parts* are its outermost descendants that carry an `id` (a bracket's slots); the
rest is its *skeleton*. When two versions share the skeleton (the version number on the root aside), the change is
the parts whose HTML differs, and a page showing the older version that swaps those parts shows exactly the newer
one (`patched`, which the tests hold to the page script's swap). Anything else (a round added, a heading changed,
a part added or gone) is no patch: the page is sent the whole region, as before.

Pure: no Django. Void elements and self-closed tags are never parts (they stay in the skeleton, so a change in
one sends the whole region).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

VERSION_ATTRIBUTE = re.compile(r'data-live-version="[0-9]*"')
VOID = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr")
)
MARK = "\x00"


@dataclass(frozen=True)
class Split:
    """A region as its skeleton (each part replaced by MARK + id + MARK) and its parts' HTML by id."""

    skeleton: str
    parts: dict[str, str]


class _Finder(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0]
        for match in re.finditer("\n", text):
            self.line_starts.append(match.end())
        self.seen_root = False
        self.open: tuple[str, str, int, int] | None = None  # (id, tag, start offset, same-tag depth)
        self.spans: list[tuple[str, int, int]] = []
        self.duplicate = False

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.seen_root:
            self.seen_root = True
            return
        if self.open is not None:
            part_id, part_tag, start, depth = self.open
            if tag == part_tag and tag not in VOID:
                self.open = (part_id, part_tag, start, depth + 1)
            return
        if tag in VOID:
            return
        element_id = dict(attrs).get("id")
        if element_id:
            self.open = (element_id, tag, self.position(), 1)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.seen_root:
            self.seen_root = True

    def handle_endtag(self, tag: str) -> None:
        if self.open is None:
            return
        part_id, part_tag, start, depth = self.open
        if tag != part_tag:
            return
        if depth > 1:
            self.open = (part_id, part_tag, start, depth - 1)
            return
        end = self.text.index(">", self.position()) + 1
        self.spans.append((part_id, start, end))
        self.open = None


def split(html: str) -> Split | None:
    """The region's skeleton and parts, or None when it cannot be split safely (an id twice, a part left open)."""
    finder = _Finder(html)
    finder.feed(html)
    finder.close()
    if finder.open is not None:
        return None
    parts: dict[str, str] = {}
    pieces: list[str] = []
    at = 0
    for part_id, start, end in finder.spans:
        if part_id in parts or MARK in part_id:
            return None
        parts[part_id] = html[start:end]
        pieces.append(html[at:start])
        pieces.append(MARK + part_id + MARK)
        at = end
    pieces.append(html[at:])
    skeleton = VERSION_ATTRIBUTE.sub('data-live-version=""', "".join(pieces))
    return Split(skeleton, parts)


def changed_parts(old: Split | None, new: Split | None) -> dict[str, str] | None:
    """The parts of `new` that differ from `old`, by id ({} when none did), or None when the skeletons differ (the
    page needs the whole region)."""
    if old is None or new is None or old.skeleton != new.skeleton:
        return None
    return {part_id: html for part_id, html in new.parts.items() if old.parts.get(part_id) != html}


def patched(old_html: str, parts: dict[str, str], version: int) -> str:
    """`old_html` with each part swapped and the root's version set: what a page shows after the patch (the page
    script does the same with the DOM)."""
    base = split(old_html)
    if base is None:
        raise ValueError("the region cannot be split")
    text = base.skeleton
    for part_id, html in base.parts.items():
        text = text.replace(MARK + part_id + MARK, parts.get(part_id, html), 1)
    return VERSION_ATTRIBUTE.sub(f'data-live-version="{version}"', text, count=1)
