"""Calcutta auctions on a flight (docs/calcutta.md).

The rules live in `core/` (no Django import): settings and payout table, lots and auction order, the live
auction state machine, ownership (syndicates, buy-backs, amounts due) and the settlement to the cent.
"""
