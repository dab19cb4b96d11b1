"""Matching a pasted list of names to a club's members, for a director entering many players at once.

Why a pure core: the director pastes from a phone list, a spreadsheet or an e-mail, so the same player comes as
"José Pérez", "jose perez" or "  JOSE   PEREZ "; the rule that these are one name (case, accents and spaces
ignored) is used by the form, by the preview page and, in the same spelling, by the filter box's script
(static/tournaments/entry_list.js), so it is kept in one small function without Django.

A name that fits two members is never guessed: it is ambiguous and the director picks. A name that fits no
member is unknown. Nothing here enters anyone: the preview shows the result first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

_SEPARATORS = re.compile(r"[\n\r,;]+")


def name_key(name: str) -> str:
    """The form of a name two spellings share when they are the same name: accents dropped (NFKD, combining
    marks removed), case folded, runs of spaces made one and the ends trimmed."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def split_names(text: str) -> list[str]:
    """The names in a pasted text, one a line or separated by commas (or semicolons), each once in the order
    given, with their spaces tidied (the spelling shown back is the director's, not the key)."""
    seen: set[str] = set()
    names = []
    for part in _SEPARATORS.split(text or ""):
        name = " ".join(part.split())
        key = name_key(name)
        if key and key not in seen:
            seen.add(key)
            names.append(name)
    return names


@dataclass(frozen=True)
class NameMatch:
    """What a pasted list comes to: members to enter, members already entered (skipped), names that fit
    several members (each with their ids) and names that fit none. `matched` and `already` hold
    (name as pasted, member id)."""

    matched: list[tuple[str, int]] = field(default_factory=list)
    already: list[tuple[str, int]] = field(default_factory=list)
    ambiguous: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def ids(self) -> list[int]:
        return [pk for _name, pk in self.matched]

    @property
    def is_clean(self) -> bool:
        """Every name found exactly one member."""
        return not self.ambiguous and not self.unknown


def match_names(names: Iterable[str], members: Iterable[tuple[int, str]], entered: Collection[int] = ()) -> NameMatch:
    """Each name to the members (id, name) whose name has the same key; `entered` are the ids already in the
    flight. A member named twice in the list is matched once."""
    by_key: dict[str, list[int]] = {}
    for pk, member_name in members:
        by_key.setdefault(name_key(member_name), []).append(pk)
    result = NameMatch()
    taken: set[int] = set()
    for name in names:
        found = by_key.get(name_key(name), [])
        if not found:
            result.unknown.append(name)
        elif len(found) > 1:
            result.ambiguous.append((name, tuple(found)))
        elif found[0] in taken:
            continue
        elif found[0] in entered:
            taken.add(found[0])
            result.already.append((name, found[0]))
        else:
            taken.add(found[0])
            result.matched.append((name, found[0]))
    return result
