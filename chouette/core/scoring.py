"""One chouette game: the cube actions per team member, the result, and each player's points.

The box plays every team member at once. Each member has their own cube (or the team shares one), so the
game is scored member by member; the box side's points are minus their sum, so every game sums to zero.
Points are ints, except the box/partner halves under an even partner split (Fractions).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from backgammon.cube import may_double
from backgammon.dave import scoring as dave_scoring
from backgammon.dave.stake import Progression
from backgammon.scoring import KIND_MULTIPLIER, GameKind, game_points
from chouette.core.errors import ChouetteError
from chouette.core.table_options import Rules

BOX, TEAM = "box", "team"
TAKE, DROP, BEAVER, RACCOON = "take", "drop", "beaver", "raccoon"
RESPONSES = (TAKE, DROP, BEAVER, RACCOON)
DEAL = "deal"
KINDS = tuple(str(kind) for kind in KIND_MULTIPLIER)  # single, gammon, backgammon: the games rules' own
CUBE_LIMIT = 4096  # no real cube goes near this; a typo that would go beyond is refused
Player = Hashable


@dataclass(frozen=True)
class CubeEvent:
    """Doubles made at one moment. doubler BOX: the box doubles the listed members, each answers.
    doubler TEAM: the listed members double the box, and the box answers each cube."""

    doubler: str
    responses: tuple[tuple[Player, str], ...]


@dataclass(frozen=True)
class GameEntry:
    events: tuple[CubeEvent, ...] = ()
    winner: str | None = None  # BOX or TEAM: how the board ended for members still playing
    kind: str = "single"
    member_results: tuple[tuple[Player, str, str], ...] = ()  # (member, winner, kind) overriding the board
    acting_captain: Player | None = None
    partner: Player | None = None
    automatic_doubles: int = 0
    claimed: tuple[tuple[Player, int], ...] = ()  # points as written on paper, checked when given
    # With Dave stakes (Rules.dave): per member (member, final stake, who gave up: "member", "box" or None);
    # a member not listed played for the first stake, 1. There are no cube events then.
    daves: tuple[tuple[Player, int, str | None], ...] = ()
    # Deals: (member, points, after). The box settles with a member, who leaves the game for `points` (positive:
    # the member wins them from the box). `after` is how many of `events` happened before the deal (None: after
    # all of them); the member's cube at that moment bounds the deal.
    deals: tuple[tuple[Player, int, int | None], ...] = ()


@dataclass(frozen=True)
class MemberResult:
    member: Player
    points: int
    cube: int
    ended_by: str  # "drop" (member dropped), "box_drop" (box dropped), "deal" (settled), or the kind played out
    owner: str | None  # who owned the member's cube at the end: BOX, TEAM or None (centred)


@dataclass(frozen=True)
class ScoredGame:
    box: Player
    partner: Player | None
    captain: Player
    members: tuple[Player, ...]
    acting_captain: Player | None  # set when the captain dropped and someone played on as captain
    captain_dropped: bool  # the captain's game ended before the board did: a drop or a deal
    decisive: Player | None  # whose game against the box decides the rotation (captain or acting captain)
    box_beat_decisive: bool
    results: tuple[MemberResult, ...]
    points: dict = field(default_factory=dict)  # every player at the board -> points (box side included)

    @property
    def box_side_points(self) -> int:
        return -sum(r.points for r in self.results)


@dataclass
class _Cube:
    value: int
    owner: str | None = None
    turned: bool = False  # someone doubled and it was taken (automatic doubles do not turn it): Jacoby asks this
    out: str | None = None  # "drop" / "box_drop" / "deal" once that member's game has ended
    out_value: int = 0


def _err(code, message, field="game", **params):
    return ChouetteError(code, message, field=field, **params)


def score_game(*, box: Player, team: Sequence[Player], entry: GameEntry, rules: Rules) -> ScoredGame:
    """Score a game. `team` is the members in rank order, captain first (the partner is not in it)."""
    members = tuple(team)
    if len(members) < 2 and entry.partner is None or len(members) < 1:
        raise _err("too_few_players", "A chouette needs at least 3 players at the table.", "players")
    if not 0 <= entry.automatic_doubles <= rules.automatic_doubles:
        raise _err(
            "automatic_doubles",
            f"At most {rules.automatic_doubles} automatic doubles are allowed at this table.",
            "automatic_doubles",
            max=rules.automatic_doubles,
        )
    if rules.dave:
        if entry.deals:
            raise _err(
                "deals_at_dave_table",
                "Deals are entered at cube tables: with Daves, enter the member's final stake and who gave up.",
                "deals",
            )
        cubes = _dave_stakes(entry, members, rules)
    else:
        if entry.daves:
            raise _err("daves_at_cube_table", "This table plays with the cube: enter the doubles, not Dave stakes.")
        start = 2**entry.automatic_doubles
        cubes = {m: _Cube(start) for m in members}
        deals = _deals_by_moment(entry, rules)
        for number, event in enumerate(entry.events, start=1):
            _apply_deals(deals.pop(number - 1, ()), cubes)
            _apply_event(event, number, cubes, members, rules)
        _apply_deals(deals.pop(len(entry.events), ()), cubes)
    captain = members[0]
    # A captain who dropped or dealt left the game before the board ended: either way someone who plays on
    # captains (an ended game never comes back, so the last state tells).
    captain_dropped = cubes[captain].out in ("drop", DEAL)

    acting = None
    still_in = [m for m in members if cubes[m].out is None]
    if captain_dropped and still_in:
        acting = entry.acting_captain if entry.acting_captain is not None else still_in[0]
        if acting not in still_in:
            raise _err("acting_captain", "The acting captain must be a team member who took.", "acting_captain")
        if rules.acting_captain == "highest_taker" and acting != still_in[0]:
            raise _err(
                "acting_captain_rank",
                f"The highest-ranked member who took ({still_in[0]}) becomes acting captain.",
                "acting_captain",
                player=str(still_in[0]),
            )
    elif entry.acting_captain is not None and entry.acting_captain != captain:
        raise _err("no_acting_captain", "There is an acting captain only after the captain drops.", "acting_captain")

    overrides: dict[Player, tuple[str | None, str]] = {}
    for member, winner, kind in entry.member_results:
        if member not in cubes:
            raise _err("not_in_team", f"{member} is not on the team this game.", "member_results", player=str(member))
        if cubes[member].out == DEAL:
            raise _err(
                "result_after_deal",
                f"{member} settled with the box; their game has no result.",
                "member_results",
                player=str(member),
            )
        if cubes[member].out is not None:
            raise _err(
                "result_after_drop",
                f"{member}'s game ended with a drop; it has no result.",
                "member_results",
                player=str(member),
            )
        overrides[member] = (winner, kind)

    results = []
    for member in members:
        cube = cubes[member]
        if cube.out == "drop":
            results.append(MemberResult(member, -cube.out_value, cube.out_value, "drop", BOX))
            continue
        if cube.out == "box_drop":
            results.append(MemberResult(member, cube.out_value, cube.out_value, "box_drop", TEAM))
            continue
        if cube.out == DEAL:
            results.append(MemberResult(member, cube.out_value, cube.value, DEAL, cube.owner))
            continue
        board_winner, kind = overrides.get(member, (entry.winner, entry.kind))
        if board_winner not in (BOX, TEAM):
            raise _err("no_result", "Say who won the game: the box or the team.", "winner")
        if kind not in KINDS:
            raise _err("bad_kind", "A game ends single, gammon or backgammon.", "kind")
        if rules.dave:  # a game played out is worth its stake: no gammon with Daves
            value = dave_scoring.scoresheet_stake(progression=Progression(rules.dave), kind=kind, stake=cube.value)
        else:
            value = game_points(kind=kind, cube=cube.value, jacoby=rules.jacoby, turned=cube.turned)
        results.append(MemberResult(member, value if board_winner == TEAM else -value, cube.value, kind, cube.owner))

    # The captain's game decides the rotation; after a captain's drop, the acting captain's. When every member
    # dropped there is nobody left to beat the box.
    decisive = acting if captain_dropped else captain
    by_member = {r.member: r for r in results}
    box_beat = decisive is None or by_member[decisive].points < 0

    points: dict = {r.member: r.points for r in results}
    side = -sum(r.points for r in results)
    if entry.partner is None:
        points[box] = side
    else:
        box_share, partner_share = split_box_side(side, rules)
        points[box], points[entry.partner] = box_share, partner_share
    if sum(points.values()) != 0:  # cannot happen by construction; a guard for future edits
        raise _err("not_zero_sum", "This game does not sum to zero.")
    if entry.claimed:
        _check_claimed(dict(entry.claimed), points)
    return ScoredGame(
        box=box,
        partner=entry.partner,
        captain=captain,
        members=members,
        acting_captain=acting,
        captain_dropped=captain_dropped,
        decisive=decisive,
        box_beat_decisive=box_beat,
        results=tuple(results),
        points=points,
    )


def _dave_stakes(entry: GameEntry, members: tuple, rules: Rules) -> dict:
    """Each member's game against the box with Dave stakes, as the cube state the scoring reads: the final
    stake as the cube's value, and a give-up as a drop (the member gave up: they pay the stake; the box gave
    up: it pays). The stake must be one of the progression's (backgammon.dave.scoring)."""
    if entry.events or entry.automatic_doubles:
        raise _err("cube_at_dave_table", "This table plays with Daves: enter each member's final stake, no cube.")
    progression = Progression(rules.dave)
    cubes = {m: _Cube(1) for m in members}
    seen = set()
    for member, stake, gave_up in entry.daves:
        if member not in cubes:
            raise _err("not_in_team", f"{member} is not on the team this game.", "daves", player=str(member))
        if member in seen:  # a second line would silently replace the first: which stake was meant?
            raise _err(
                "dave_twice",
                f"{member} has two Dave lines: give each member's final stake once.",
                "daves",
                player=str(member),
            )
        seen.add(member)
        if gave_up not in (None, "member", "box"):
            raise _err("bad_give_up", "Who gave up: the member, the box, or nobody.", "daves")
        dave_scoring.scoresheet_stake(progression=progression, kind="single", stake=stake)
        out = {"member": "drop", "box": "box_drop"}.get(gave_up or "")
        cubes[member] = _Cube(stake, owner=None, out=out, out_value=stake if out else 0)
    return cubes


def _deals_by_moment(entry: GameEntry, rules: Rules) -> dict[int, list[tuple[Player, int]]]:
    """The deals grouped by the moment they were made (how many cube events came before), refusing them at a
    table that plays without deals and a moment that is not in the game."""
    deals: dict[int, list[tuple[Player, int]]] = {}
    if entry.deals and not rules.deals:
        raise _err(
            "no_deals",
            "This table plays without deals: enter how the member's game ended (a drop or the board's result).",
            "deals",
        )
    for member, points, after in entry.deals:
        moment = len(entry.events) if after is None else after
        if not 0 <= moment <= len(entry.events):
            raise _err(
                "deal_moment",
                f"A deal comes before, between or after the {len(entry.events)} doubles: 'after' is 0 to "
                f"{len(entry.events)}.",
                "deals",
                n=len(entry.events),
            )
        deals.setdefault(moment, []).append((member, points))
    return deals


def _apply_deals(deals, cubes: dict) -> None:
    """The box settles with members still playing: each leaves the game for the agreed points. A deal is worth
    at most what that member's game could still be at its cube now, a backgammon (cube × 3) either way: a
    larger number is a typo (or a deal the cube could not have reached)."""
    for member, points in deals:
        if member not in cubes:
            raise _err(
                "deal_not_in_team",
                f"{member} is not on the team this game: the box deals only with a team member still playing.",
                "deals",
                player=str(member),
            )
        cube = cubes[member]
        if cube.out is not None:
            raise _err(
                "deal_after_out",
                f"{member}'s game already ended ({'a deal' if cube.out == DEAL else 'a drop'}): no deal after it.",
                "deals",
                player=str(member),
            )
        limit = cube.value * KIND_MULTIPLIER[GameKind.BACKGAMMON]
        if not isinstance(points, int) or isinstance(points, bool) or abs(points) > limit:
            raise _err(
                "deal_too_large",
                f"{member}'s cube is at {cube.value}: a deal is worth at most {limit} points either way "
                f"(a backgammon); enter a deal from -{limit} to +{limit}.",
                "deals",
                player=str(member),
                cube=cube.value,
                limit=limit,
            )
        cube.out, cube.out_value = DEAL, points


def split_box_side(side: int, rules: Rules) -> tuple:
    """The box side's points shared between box and partner: evenly (halves), or the odd point to the box."""
    if rules.partner_split == "even":
        half = Fraction(side, 2)
        return (int(half) if half.denominator == 1 else half), (int(half) if half.denominator == 1 else half)
    magnitude = (abs(side) + 1) // 2
    box_share = magnitude if side >= 0 else -magnitude
    return box_share, side - box_share


def _check_claimed(claimed: Mapping, points: Mapping) -> None:
    if sum(claimed.values()) != 0:
        total = sum(claimed.values())
        raise _err(
            "claimed_not_zero",
            f"The points written down add up to {total:+d}, not 0: the box's points are minus the team's sum.",
            "claimed",
            total=total,
        )
    for player, value in claimed.items():
        if player not in points:
            raise _err("claimed_not_playing", f"{player} did not play this game.", "claimed", player=str(player))
        if points[player] != value:
            raise _err(
                "claimed_mismatch",
                f"The cube actions and result give {player} {points[player]} points, not {value}.",
                "claimed",
                player=str(player),
                expected=str(points[player]),
                claimed=value,
            )


def _apply_event(event: CubeEvent, number: int, cubes: dict, members: tuple, rules: Rules) -> None:
    if event.doubler not in (BOX, TEAM):
        raise _err("bad_doubler", "A double is made by the box or by team members.", "events")
    if not event.responses:
        raise _err("empty_double", f"Double {number}: say whose cubes were turned.", "events", number=number)
    seen = set()
    for member, response in event.responses:
        if member not in cubes:
            raise _err("not_in_team", f"{member} is not on the team this game.", "events", player=str(member))
        if member in seen:
            raise _err("double_twice", f"Double {number} names {member} twice.", "events", player=str(member))
        seen.add(member)
        cube = cubes[member]
        if cube.out is not None:
            raise _err(
                "double_after_drop",
                f"{member}'s game already ended; no more doubles on that cube.",
                "events",
                player=str(member),
            )
        doubler = BOX if event.doubler == BOX else TEAM
        if not may_double(cube.owner, doubler):
            who = "the box" if doubler == BOX else str(member)
            raise _err(
                "not_cube_owner",
                f"{who} cannot double: the other side owns {member}'s cube.",
                "events",
                player=str(member),
                who=who,
            )
        if response not in RESPONSES:
            raise _err("bad_response", "Answer a double with take, drop, beaver or raccoon.", "events")
        if response in (BEAVER, RACCOON) and not rules.beaver:
            raise _err("no_beaver", "Beavers are not allowed at this table.", "events")
        if response == RACCOON and not rules.raccoon:
            raise _err("no_raccoon", "Raccoons are not allowed at this table.", "events")
    in_game = [m for m in members if cubes[m].out is None]
    if rules.cubes == "single":
        if seen != set(in_game):
            raise _err("single_cube_all", "With one cube, a double involves every member still playing.", "events")
        kept = {r for m, r in event.responses if r != DROP}
        if len(kept) > 1 or (event.doubler == TEAM and len({r for _, r in event.responses}) > 1):
            raise _err("single_cube_same", "With one cube, everyone who plays on keeps the same cube.", "events")
    if event.doubler == TEAM:
        _check_box_min_takes(event, cubes, members, rules)
    for member, response in event.responses:
        cube = cubes[member]
        responder = TEAM if event.doubler == BOX else BOX
        if response == DROP:
            cube.out = "drop" if event.doubler == BOX else "box_drop"
            cube.out_value = cube.value
            continue
        factor = {TAKE: 2, BEAVER: 4, RACCOON: 8}[response]
        if cube.value * factor > CUBE_LIMIT:
            raise _err(
                "cube_limit",
                f"{member}'s cube would pass {CUBE_LIMIT}: check the doubles.",
                "events",
                player=str(member),
                limit=CUBE_LIMIT,
            )
        cube.value *= factor
        cube.owner = responder
        cube.turned = True


def _check_box_min_takes(event: CubeEvent, cubes: dict, members: tuple, rules: Rules) -> None:
    if rules.box_min_takes == "captain":
        in_game = [m for m in members if cubes[m].out is None]
        acting = in_game[0] if in_game else None
        for member, response in event.responses:
            if member == acting and response == DROP:
                raise _err("must_take_captain", "The box must take the captain's cube at this table.", "events")
    elif rules.box_min_takes == "half":
        initial = [(m, r) for m, r in event.responses if not cubes[m].turned]
        if len(initial) >= 2:
            taken = sum(1 for _, r in initial if r != DROP)
            if taken * 2 < len(initial):
                need = (len(initial) + 1) // 2
                raise _err(
                    "must_take_half",
                    f"The box must take at least half of the initial cubes doubled at once: {need} of {len(initial)}.",
                    "events",
                    need=need,
                    of=len(initial),
                )
