"""Calcutta auctions on a flight (DOMAIN.md §5, issue 8).

The rules live in `core/` (no Django import): settings and payout table, lots and auction order, the live
auction state machine, ownership (syndicates, buy-backs, amounts due) and the settlement to the cent.
"""
