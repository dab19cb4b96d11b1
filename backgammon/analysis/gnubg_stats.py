"""A parser of GNU Backgammon's `show statistics match` text (gnubg 1.07, `gnubg -t`).

The text is a table with one column per player, by section:

    Player                                   gnubg                   root
    Chequerplay statistics
    Unforced moves                            82                      97
    Moves marked doubtful                      1                       3
    Error total EMG (MWC)                         -0.199 ( -1.180%)       -0.337 ( -2.271%)
    Error rate mEMG (MWC)                         -2.4   ( -0.014%)       -3.5   ( -0.023%)
    ...

gnubg writes an error as a negative equity; the figures here are losses, so positive. "Doubtful" is gnubg's
mark for an error, "very bad" for a blunder ("bad" sits between; counted with the errors).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER = r"[+-]?\d+(?:\.\d+)?"
EMG_PAIR = re.compile(rf"({NUMBER})\s*\(\s*({NUMBER})%\)")
INT = re.compile(rf"^\s*({NUMBER})\s+({NUMBER})\s*$")
SECTIONS = ("Chequerplay statistics", "Luck statistics", "Cube statistics", "Overall statistics")


class StatisticsError(ValueError):
    """The text is not gnubg's match statistics (or not of two players)."""


@dataclass(frozen=True)
class PlayerFigures:
    """One player's figures of one analysed match (or game). Error rates in mEMG (milli-EMG per decision),
    totals in EMG, all of them losses (≥ 0); luck is signed (positive: lucky)."""

    name: str
    moves: int
    unforced_moves: int
    cube_decisions: int  # close or actual cube decisions: the ones gnubg counts in the cube error rate
    checker_error_total: float
    checker_error_rate: float
    cube_error_total: float
    cube_error_rate: float
    error_total: float
    error_rate: float
    doubtful: int
    bad: int
    very_bad: int  # blunders
    cube_errors: int  # wrong doubles, takes and passes, missed doubles
    luck_total: float
    luck_rate: float

    @property
    def unforced_decisions(self) -> int:
        return self.unforced_moves + self.cube_decisions

    @property
    def errors(self) -> int:
        """Checker plays marked doubtful or bad, and cube errors (blunders apart)."""
        return self.doubtful + self.bad + self.cube_errors

    @property
    def pr_like(self) -> float | None:
        """500 × the mean error per unforced decision in EMG: a figure on a PR-like scale, not eXtreme
        Gammon's own PR (its decisions and weights differ)."""
        if not self.unforced_decisions:
            return None
        return 500.0 * self.error_total / self.unforced_decisions


def parse(text: str) -> tuple[PlayerFigures, PlayerFigures]:
    """The two players' figures from the statistics text; StatisticsError when a figure is missing."""
    names = _names(text)
    sections = _sections(text)
    try:
        check, luck, cube, overall = (sections[name] for name in SECTIONS)
    except KeyError as missing:
        raise StatisticsError(f"no {missing.args[0]!r} in gnubg's statistics") from None
    out = []
    for side in (0, 1):
        cube_errors = sum(
            int(_ints(cube, label)[side])
            for label in (
                "Missed doubles below CP",
                "Missed doubles above CP",
                "Wrong doubles below DP",
                "Wrong doubles above TG",
                "Wrong takes",
                "Wrong passes",
            )
        )
        out.append(
            PlayerFigures(
                name=names[side],
                moves=int(_ints(check, "Total moves")[side]),
                unforced_moves=int(_ints(check, "Unforced moves")[side]),
                cube_decisions=int(_ints(cube, "Close or actual cube decisions")[side]),
                checker_error_total=abs(_emg(check, "Error total EMG")[side]),
                checker_error_rate=abs(_emg(check, "Error rate mEMG")[side]),
                cube_error_total=abs(_emg(cube, "Error total EMG")[side]),
                cube_error_rate=abs(_emg(cube, "Error rate mEMG")[side]),
                error_total=abs(_emg(overall, "Error total EMG")[side]),
                error_rate=abs(_emg(overall, "Error rate mEMG")[side]),
                doubtful=int(_ints(check, "Moves marked doubtful")[side]),
                bad=int(_ints(check, "Moves marked bad")[side]),
                very_bad=int(_ints(check, "Moves marked very bad")[side]),
                cube_errors=cube_errors,
                luck_total=_emg(luck, "Luck total EMG")[side],
                luck_rate=_emg(luck, "Luck rate mEMG")[side],
            )
        )
    return out[0], out[1]


def _names(text: str) -> tuple[str, str]:
    seen = False  # gnubg's other messages start with "Player" too ("Player 0 is now known as `side0'.")
    for line in text.splitlines():
        if line.startswith("Player "):
            parts = line[len("Player") :].split()
            if len(parts) == 2:
                return parts[0], parts[1]
            seen = True
    if seen:
        raise StatisticsError("gnubg's statistics name other than two players (or a name with a space)")
    raise StatisticsError("no player line in gnubg's statistics")


def _sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped in SECTIONS:
            current = sections[stripped] = []
        elif current is not None and stripped:
            current.append(line.rstrip())
    return sections


def _row(lines: list[str], label: str) -> str:
    for line in lines:
        if line.startswith(label):
            rest = line[len(label) :]
            # labels go on with a parenthesis ("(EMG (MWC))") before the figures
            return re.sub(r"^\s*\([^)]*\)*\)?", "", rest) if rest.lstrip().startswith("(") else rest
    raise StatisticsError(f"no {label!r} line in gnubg's statistics")


def _ints(lines: list[str], label: str) -> tuple[float, float]:
    """Two counts; a count may carry its equity in parentheses ("1 (-0.017 ( -0.082%))"), left out."""
    row = re.sub(r"\([^()]*\([^()]*\)\s*\)", " ", _row(lines, label))
    found = re.findall(NUMBER, re.sub(r"\([^()]*\)", " ", row))
    if len(found) < 2:
        raise StatisticsError(f"{label!r} has no two figures")
    return float(found[0]), float(found[1])


def _emg(lines: list[str], label: str) -> tuple[float, float]:
    found = EMG_PAIR.findall(_row(lines, label))
    if len(found) != 2:
        raise StatisticsError(f"{label!r} has no two figures")
    return float(found[0][0]), float(found[1][0])
