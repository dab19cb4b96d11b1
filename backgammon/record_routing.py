"""Which verifier reads a record: the header names the game, and each game has its own verifier.

Why route by the header and not by trying each reader: a backgammon record must never be replayed on a long
nardy board (nor a Dave session as a cube match), and a file that fails one reader says nothing about the
others. The `Variation` header is the record's own word (docs/variants.md): "Long Nardy" goes to
backgammon.nardy.verification, "Short Backgammon with Dave" to backgammon.dave.verification, everything else (standard,
nackgammon, hypergammon, backward hitting, and every SGF file) to backgammon.verification. All three give the same
verdict shape.

`record_game` names the game of a record the way a match names it (`long_nardy`, `dave`, or the match
variant of the backgammon family), so an upload to a match of another game is refused before it is stored.
`record_settings` names the settings its headers choose (BackwardHits, HeadDoubles and SixBlock, Progression)
the way a match names them, so a record played by other settings than the match's is refused too.
"""

from __future__ import annotations

import re

from backgammon.dave.errors import DaveError
from backgammon.dave.record import VARIATION as DAVE_VARIATION
from backgammon.dave.stake import Progression
from backgammon.dave.verification import check_dave_record
from backgammon.matchfiles.mat import (
    BACKWARD_HEADER,
    BACKWARD_VARIATION,
    HEADER_LINE,
    backward_rule,
    decode_text,
    split_lines,
    variation_key,
)
from backgammon.nardy.errors import NardyRecordError
from backgammon.nardy.record import VARIATION as NARDY_VARIATION
from backgammon.nardy.record import settings_from_headers
from backgammon.nardy.settings import ANY_HEAD_DOUBLES, CLASSIC_HEAD_DOUBLES, BlockRule
from backgammon.nardy.verification import check_nardy_record
from backgammon.variants import BackwardHitting
from backgammon.verification import Verdict, check_record, record_format

LONG_NARDY, DAVE = "long_nardy", "dave"

# An SGF game's rules: `RU[Crawford:NackGammon]` (backgammon.matchfiles.sgf writes and reads the variant there).
_SGF_RULES = re.compile(r"RU\[([^\]]*)\]")
# Only the head of a file is searched: the headers come before ` Game 1`.
HEAD_BYTES = 8192


def _family(variation: str) -> str:
    """A backgammon Variation header as a match variant (as backgammon.matchfiles.mat.MatchRecord.variant reads it,
    with the hypergammon sizes as one variant)."""
    text = variation_key(variation)
    if text.startswith("nack"):
        return "nackgammon"
    if variation_key(BACKWARD_VARIATION) in text or "backward" in text:
        return "backward"
    if text.startswith("hyper"):
        return "hypergammon"
    return "standard"


def record_game(data: bytes | str, *, name: str = "") -> str:
    """The game a record is of: `long_nardy`, `dave`, or standard, nackgammon, hypergammon, backward."""
    if isinstance(data, bytes) and record_format(data, name=name) == "sgf":
        # the backgammon family only; a variant is named in the first game's rules (RU[NackGammon], …)
        rules = _SGF_RULES.search(decode_text(data[:HEAD_BYTES]))
        named = {_family(rule) for rule in rules.group(1).split(":")} if rules else set()
        return next(iter(sorted(named - {"standard"})), "standard")
    variation = next((value for key, value in _headers(data) if key.lower() == "variation"), "")
    if variation_key(variation) == variation_key(NARDY_VARIATION):
        return LONG_NARDY
    if variation_key(variation) == variation_key(DAVE_VARIATION):
        return DAVE
    return _family(variation)


def _head(data: bytes | str) -> str:
    return decode_text(data[:HEAD_BYTES]) if isinstance(data, bytes) else data[:HEAD_BYTES]


def _headers(data: bytes | str) -> list[tuple[str, str]]:
    """The `; [Key "value"]` lines of a record's head, read by the line pattern every reader uses (the first
    Variation among them names the game, for the readers as for the router)."""
    headers = []
    for line in split_lines(_head(data)):
        found = HEADER_LINE.match(line.strip())
        if found:
            headers.append((found.group(1).strip(), found.group(2)))
    return headers


def record_settings(data: bytes | str, *, name: str = "") -> dict[str, str]:
    """The settings a record's headers choose, named as a match's fields (games.models.variants): backward_hits
    for backward hitting, head_doubles and six_block for long nardy, dave_progression for the Dave; {} for the
    other games. Doubles off the head that are neither the classic nor any double keep their written text (no
    match setting names them). A header the reader would refuse gives {}: the verifier names the fault."""
    game = record_game(data, name=name)
    if game not in ("backward", LONG_NARDY, DAVE):
        return {}
    headers = _headers(data)
    values = {key.lower(): value for key, value in headers}
    if game == "backward":
        rule = backward_rule(values.get(BACKWARD_HEADER.lower(), ""))
        return {"backward_hits": "smaller_die" if rule == BackwardHitting.SMALLER_DIE else "any_die"}
    if game == DAVE:
        try:
            return {"dave_progression": Progression.named(values.get("progression", "geometric")).value}
        except DaveError:
            return {}
    try:
        settings = settings_from_headers(tuple(headers))
    except NardyRecordError:
        return {}
    doubles = {CLASSIC_HEAD_DOUBLES: "classic", ANY_HEAD_DOUBLES: "any"}.get(settings.head_doubles)
    block = "ahead" if settings.block_rule == BlockRule.AHEAD else "opponent_home"
    return {"head_doubles": doubles or values.get("headdoubles", "").strip(), "six_block": block}


def check_any_record(data: bytes, *, name: str = "", expect_finished: bool = True) -> tuple[str, Verdict]:
    """Read and verify a record with the verifier of its game: (status, verdict), status valid | invalid |
    unreadable, the verdict in the one shape every verifier gives."""
    game = record_game(data, name=name)
    if game == LONG_NARDY:
        return check_nardy_record(data, expect_finished=expect_finished)
    if game == DAVE:
        return check_dave_record(data, expect_finished=expect_finished)
    return check_record(data, name=name, expect_finished=expect_finished)
