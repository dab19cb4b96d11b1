"""The doubling cube (docs/games.md, Scoring and the cube): who may double when, take, beaver, raccoon,
Murphy and Holland.

A double is offered at the start of one's own turn, before rolling, with the cube centred or owned by the
doubler; never in the Crawford game. Beavers and raccoons are money-play options only. Every refusal raises
backgammon.scoring.ScoringError with a stable code: double_in_crawford, double_without_access,
double_after_roll, double_before_holland, beaver_not_allowed, cube_limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.scoring import ScoringError, cube_in_play, is_cube_value


def may_double(owner: object | None, side: object) -> bool:
    """Cube access: a centred cube (owner None) may be turned by either side, an owned one only by its owner.
    Sides are whatever the caller names them (0/1 in a match, box/team in a chouette)."""
    return owner is None or owner == side


@dataclass(frozen=True)
class CubeRules:
    """The cube options in force. `murphy_max` is the most automatic doubles per game (0 = no Murphy rule);
    `holland` restricts the trailer after the Crawford game; `limit` is the highest cube value allowed."""

    match_play: bool
    jacoby: bool = False
    beaver: bool = False
    raccoon: bool = False
    murphy_max: int = 0
    holland: bool = False
    limit: int | None = None

    def __post_init__(self) -> None:
        if self.match_play and (self.jacoby or self.beaver or self.raccoon or self.murphy_max):
            raise ScoringError(
                "money_option_in_match", "Jacoby, beavers, raccoons and automatic doubles belong to money play only."
            )
        if self.raccoon and not self.beaver:
            raise ScoringError("raccoon_without_beaver", "Raccoons answer a beaver: allow beavers to allow raccoons.")
        if self.limit is not None and not is_cube_value(self.limit):
            raise ScoringError(
                "bad_cube_limit", f"A cube limit is a cube value (1, 2, 4, …), not {self.limit}.", limit=self.limit
            )
        if self.murphy_max < 0:
            raise ScoringError("bad_automatic_doubles", "The number of automatic doubles cannot be negative.")


@dataclass(frozen=True)
class Cube:
    """The cube's value and owner (None = centred, else side 0 or 1)."""

    value: int = 1
    owner: int | None = None

    def __post_init__(self) -> None:
        if not is_cube_value(self.value):
            raise ScoringError("bad_cube", f"A cube shows 1, 2, 4, 8, … — not {self.value}.", cube=self.value)
        if self.owner not in (None, 0, 1):
            raise ScoringError("bad_cube_owner", "The cube is centred (None) or owned by side 0 or 1.")

    def check_double(
        self,
        rules: CubeRules,
        *,
        side: int,
        has_rolled: bool = False,
        crawford_game: bool = False,
        holland_trailer: bool = False,
        rolls_this_game: tuple[int, int] = (0, 0),
    ) -> None:
        """Refuse a double by `side` that the rules forbid. `holland_trailer`: the doubler trails in a
        post-Crawford game; with the Holland rule they may double only after each side rolled twice."""
        if not cube_in_play(crawford_game=crawford_game):
            raise ScoringError("double_in_crawford", "No doubling in the Crawford game: the cube is out of play.")
        if has_rolled:
            raise ScoringError("double_after_roll", "A double is offered before rolling, not after.")
        if not may_double(self.owner, side):
            raise ScoringError(
                "double_without_access", "The opponent owns the cube: only the owner (or anyone, when centred) doubles."
            )
        if rules.holland and holland_trailer and min(rolls_this_game) < 2:
            raise ScoringError(
                "double_before_holland",
                "Holland rule: after the Crawford game the trailer may double only once each side has rolled twice.",
            )
        self._check_limit(rules, self.value * 2)

    def take(self, rules: CubeRules, *, taker: int) -> Cube:
        """The cube after `taker` accepts a double of this cube."""
        self._check_limit(rules, self.value * 2)
        return Cube(value=self.value * 2, owner=taker)

    def beaver(self, rules: CubeRules, *, taker: int) -> Cube:
        """The taker redoubles at once and keeps the cube (money play with beavers only)."""
        if rules.match_play or not rules.beaver:
            raise ScoringError("beaver_not_allowed", "Beavers are allowed only in money play when agreed.")
        self._check_limit(rules, self.value * 4)
        return Cube(value=self.value * 4, owner=taker)

    def raccoon(self, rules: CubeRules, *, taker: int) -> Cube:
        """The doubler re-redoubles a beaver; the taker keeps the cube (money play with raccoons only)."""
        if rules.match_play or not rules.raccoon:
            raise ScoringError("beaver_not_allowed", "Raccoons are allowed only in money play when agreed.")
        self._check_limit(rules, self.value * 8)
        return Cube(value=self.value * 8, owner=taker)

    def after_tied_opening_rolls(self, rules: CubeRules, *, ties: int) -> Cube:
        """Murphy rule: each tied opening roll doubles the centred cube, up to `rules.murphy_max` times (and the
        cube limit); without the rule the cube is unchanged."""
        doubles = min(ties, rules.murphy_max)
        value = self.value << doubles
        if rules.limit is not None:
            value = min(value, max(rules.limit, self.value))
        return Cube(value=value, owner=self.owner)

    @staticmethod
    def _check_limit(rules: CubeRules, value: int) -> None:
        if rules.limit is not None and value > rules.limit:
            raise ScoringError(
                "cube_limit",
                f"The cube may not pass {rules.limit}; this would make it {value}.",
                limit=rules.limit,
                value=value,
            )
