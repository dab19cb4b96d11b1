"""The ways clubs play a chouette differently, each a setting with the default most clubs use."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from chouette.core.errors import ChouetteError

CUBES = ("multi", "single")
BOX_KEEPS = ("beats_captain", "net_not_loss")
ACTING_CAPTAIN = ("highest_taker", "any_taker")
BOX_MIN_TAKES = ("none", "half", "captain")
PARTNER_SPLIT = ("odd_to_box", "even")
NEWCOMER = ("bottom", "ahead_of_loser")
DAVE = ("", "geometric", "arithmetic")

CHOICES = {
    "cubes": CUBES,
    "box_keeps": BOX_KEEPS,
    "acting_captain": ACTING_CAPTAIN,
    "box_min_takes": BOX_MIN_TAKES,
    "partner_split": PARTNER_SPLIT,
    "newcomer": NEWCOMER,
}


@dataclass(frozen=True)
class Rules:
    cubes: str = "multi"  # one cube per team member, or a single cube for the whole team
    box_keeps: str = "beats_captain"  # box stays when it beats the (acting) captain / when its net is not a loss
    acting_captain: str = "highest_taker"  # after the captain drops: the highest-ranked taker, or any taker
    box_min_takes: str = "none"  # none / at least half of simultaneous initial cubes / must take the captain's
    partner_from: int = 6  # a partner for the box from this many players on (0 = never)
    partner_required: bool = False  # from partner_from on, the box must take a partner
    max_players: int = 10  # table size limit
    partner_split: str = "odd_to_box"  # box side's result: odd point to the box, or an even split (halves)
    newcomer: str = "bottom"  # a newcomer joins at the bottom, or just ahead of the player who just lost
    jacoby: bool = True  # gammons count only against a member whose own cube was turned
    beaver: bool = True
    raccoon: bool = False
    automatic_doubles: int = 0  # most automatic doubles on equal opening dice (0 = none)
    # The box may settle ("deal") with a team member during a game: the member leaves the game for the agreed
    # points. On by default: a deal needs the box and that member to agree, it cannot be worth more than the
    # member's cube could (docs/chouette.md, "Deals"), and a table that does not want them turns it off.
    deals: bool = True
    # Dave stakes instead of cubes: the progression ("geometric" or "arithmetic"), "" for the cube. Set from the
    # session's stake form (ChouetteSession.stakes), never from the rules JSON.
    dave: str = ""

    @classmethod
    def from_dict(cls, data: dict | None) -> Rules:
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ChouetteError(
                "unknown_rule", f"There is no rule called {unknown[0]}.", field="rules", name=unknown[0]
            )
        rules = cls(**data)
        rules.check()
        return rules

    def as_dict(self) -> dict:
        return asdict(self)

    def check(self) -> None:
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ChouetteError(
                    "bad_rule",
                    f"{name} must be one of: {', '.join(allowed)}.",
                    field=name,
                    name=name,
                    allowed=", ".join(allowed),
                )
        if self.dave not in DAVE:
            raise ChouetteError(
                "bad_rule", f"dave must be one of: {', '.join(DAVE)}.", field="dave", name="dave",
                allowed=", ".join(DAVE),
            )  # fmt: skip
        if not 3 <= self.max_players <= 20:
            raise ChouetteError("bad_max_players", "A chouette table seats 3 to 20 players.", field="max_players")
        if self.partner_from and not 4 <= self.partner_from <= self.max_players:
            raise ChouetteError(
                "bad_partner_from",
                "A partner for the box needs at least 4 players and no more than the table size.",
                field="partner_from",
            )
        if not 0 <= self.automatic_doubles <= 6:
            raise ChouetteError(
                "bad_automatic_doubles", "Automatic doubles: between 0 and 6.", field="automatic_doubles"
            )
        if self.raccoon and not self.beaver:
            raise ChouetteError(
                "raccoon_without_beaver", "A raccoon answers a beaver: allow beavers too.", field="raccoon"
            )

    def partner_allowed(self, players: int) -> bool:
        return bool(self.partner_from) and players >= self.partner_from

    def partner_needed(self, players: int) -> bool:
        return self.partner_allowed(players) and self.partner_required
