"""The Calcutta rules with no Django import: settings, lots, the live auction, ownership and settlement.

Money is integer cents, percentages Decimal, ownership fractions Fraction — never float.
"""

from .auction import Auction, AuctionResult, AuctionStatus, Bid, Bidder, BidResult, LotPhase, Sale
from .auction_settings import CalcuttaSettings, PayoutTable
from .errors import CalcuttaError
from .lots import FIELD, GroupingStyle, Lot, LotPlan, check_order, group_by_rating, random_order
from .money import allocate_cents, format_money, parse_money, parse_percent, parse_share
from .ownership import Ownership
from .settlement import (
    OwnerLine,
    Results,
    Settlement,
    entrant_shares,
    format_settlement,
    house_take,
    place_for_elimination,
    settle,
)

__all__ = [
    "FIELD",
    "Auction",
    "AuctionResult",
    "AuctionStatus",
    "Bid",
    "BidResult",
    "Bidder",
    "CalcuttaError",
    "CalcuttaSettings",
    "GroupingStyle",
    "Lot",
    "LotPhase",
    "LotPlan",
    "OwnerLine",
    "Ownership",
    "PayoutTable",
    "Results",
    "Sale",
    "Settlement",
    "allocate_cents",
    "check_order",
    "entrant_shares",
    "format_money",
    "format_settlement",
    "group_by_rating",
    "house_take",
    "parse_money",
    "parse_percent",
    "parse_share",
    "place_for_elimination",
    "random_order",
    "settle",
]
