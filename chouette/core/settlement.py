"""Money: each game's points in cents at the pairings' stakes, and the fewest transfers that settle a table.

Stakes are per player (cents per point). A pairing plays at the lower of its two stakes, so a member's money
for a game is their points × min(own stake, box side's stake), where the box side's stake is the lower of the
box's and the partner's. The box side's money is minus the members' money — NOT the box's points × its own
stake: with mixed stakes, "box = minus the sum" holds for points and, separately, for money per pairing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from chouette.core.errors import ChouetteError
from chouette.core.scoring import ScoredGame
from chouette.core.table_options import Rules

Player = Hashable
EXACT_LIMIT = 16  # exact minimum up to this many players with money to move (tables seen in practice: 3-10)


@dataclass(frozen=True)
class Transfer:
    payer: Player
    payee: Player
    cents: int


def pairing_stake(a: int, b: int) -> int:
    return min(a, b)


def game_money(scored: ScoredGame, stakes: Mapping[Player, int], rules: Rules) -> dict[Player, int]:
    """Each player's cents for one game (sums to zero)."""
    side_stake = stakes[scored.box]
    if scored.partner is not None:
        side_stake = min(side_stake, stakes[scored.partner])
    money: dict[Player, int] = {}
    for result in scored.results:
        money[result.member] = result.points * pairing_stake(stakes[result.member], side_stake)
    side = -sum(money.values())
    if scored.partner is None:
        money[scored.box] = side
        return money
    side_points = scored.box_side_points
    partner_points = Fraction(scored.points[scored.partner])
    share = Fraction(1, 2) if side_points == 0 else partner_points / side_points
    partner_cents = int(side * share)  # towards zero: any odd cent stays with the box
    money[scored.partner] = partner_cents
    money[scored.box] = side - partner_cents
    return money


def money_from_points(points: Mapping[Player, int], stake: int) -> dict[Player, int]:
    """Totals × one stake (every player at the same stake)."""
    return {player: value * stake for player, value in points.items()}


def fewest_transfers(balances: Mapping[Player, int]) -> list[Transfer]:
    """Transfers that bring every balance to zero, as few as possible.

    The minimum is (players with money to move) − (the most groups they split into that each sum to zero);
    found exactly by a search over subsets up to EXACT_LIMIT such players, greedily beyond. Inside a group the
    largest debtor pays the largest creditor, which needs one transfer fewer than the group has players.
    """
    if sum(balances.values()) != 0:
        raise ChouetteError("unbalanced", "The balances do not add up to zero.", field="balances")
    people = sorted(((p, c) for p, c in balances.items() if c), key=lambda pc: (-abs(pc[1]), str(pc[0])))
    groups = _zero_sum_groups([c for _, c in people]) if len(people) <= EXACT_LIMIT else [list(range(len(people)))]
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy({people[i][0]: people[i][1] for i in group}))
    return transfers


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    n = len(amounts)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
    best = [0] * (1 << n)  # most zero-sum groups a subset splits into (counting itself when it sums to zero)
    for mask in range(1, 1 << n):
        m, top = mask, 0
        while m:
            low = m & -m
            top = max(top, best[mask ^ low])
            m ^= low
        best[mask] = top + (1 if total[mask] == 0 else 0)
    groups, mask = [], full
    while mask:
        # peel off the smallest zero-sum group holding the largest remaining amount that keeps the optimum
        lowest = mask & -mask
        candidates = []
        sub = mask
        while sub:
            if sub & lowest and total[sub] == 0 and best[mask ^ sub] + 1 == best[mask]:
                candidates.append((bin(sub).count("1"), sub))
            sub = (sub - 1) & mask
        chosen = min(candidates)[1]
        groups.append([i for i in range(n) if chosen >> i & 1])
        mask ^= chosen
    return groups


def _greedy(group: dict) -> list[Transfer]:
    balance = dict(group)
    transfers: list[Transfer] = []
    while True:
        debtors = sorted((p for p in balance if balance[p] < 0), key=lambda p: (balance[p], str(p)))
        creditors = sorted((p for p in balance if balance[p] > 0), key=lambda p: (-balance[p], str(p)))
        if not debtors:
            return transfers
        payer, payee = debtors[0], creditors[0]
        cents = min(-balance[payer], balance[payee])
        transfers.append(Transfer(payer, payee, cents))
        balance[payer] += cents
        balance[payee] -= cents


def cash_out(balances: Mapping[Player, int], player: Player) -> list[Transfer]:
    """A player leaving early is settled now: they pay (or are paid by) the players on the other side of
    their balance, largest first, so the rest can settle later among themselves."""
    owed = balances.get(player, 0)
    transfers: list[Transfer] = []
    others = sorted(
        ((p, c) for p, c in balances.items() if p != player and c and (c > 0) != (owed > 0)),
        key=lambda pc: (-abs(pc[1]), str(pc[0])),
    )
    left = abs(owed)
    for other, amount in others:
        if not left:
            break
        cents = min(left, abs(amount))
        transfers.append(Transfer(player, other, cents) if owed < 0 else Transfer(other, player, cents))
        left -= cents
    return transfers


def apply_transfers(balances: Mapping[Player, int], transfers) -> dict[Player, int]:
    """Balances after the transfers were paid (a payer's balance rises, a payee's falls)."""
    result = dict(balances)
    for t in transfers:
        result[t.payer] = result.get(t.payer, 0) + t.cents
        result[t.payee] = result.get(t.payee, 0) - t.cents
    return result


def check_rules_for_partner(players: int, partner: Player | None, rules: Rules) -> None:
    if partner is not None and not rules.partner_allowed(players):
        raise ChouetteError(
            "no_partner",
            f"The box takes a partner only from {rules.partner_from} players on.",
            field="partner",
            n=rules.partner_from,
        )
    if partner is None and rules.partner_needed(players):
        raise ChouetteError(
            "partner_needed", f"With {players} players the box must take a partner.", field="partner", n=players
        )
