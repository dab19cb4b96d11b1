"""The bracket engine with no Django import: draws (random or seeded, byes, late entries), bracket layouts
(knockout, fed consolation / progressive consolation / last chance, double elimination), the feed rules that
route losers, placements and payouts. tournaments.services is the one adapter that stores what this decides.
"""
