"""Extension points of the ratings app: later apps add to what counts in the overall pool without ratings
importing them. config/pipeline.py lists the functions each runs (CONDITIONS, EVENTS); a condition is a function
returning a query condition on a Match row (`Exists(...)`, OuterRef(side) being one of its players).

`club_consent.conditions(side)` gives each registered condition for `side` ("player_a" or "player_b"): one way a
player shows they belong to the match's club (besides its membership), so a director's decision about them may
count in the overall pool (see ratings.services.pools.rateable_matches).
"""

from base.hooks import Hook


class Conditions(Hook):
    """Registered functions that each build a query condition; `conditions(*args)` asks every one."""

    def conditions(self, *args) -> list:
        return [callback(*args) for callback in list(self._callbacks)]


club_consent = Conditions()

# `not_rated.conditions()`: conditions on a Match row that keep it out of every pool even when it was played out
# (the tournaments app's consultation and doubles matches: a pair's result is not one player's).
not_rated = Conditions()


# Called as challenge_created(challenge) inside the transaction that creates a ladder challenge.
challenge_created = Hook()
