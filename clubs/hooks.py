"""Extension points of the clubs app (the base layer imports no other app; others register here)."""

from base.hooks import Hook

# approval_changed(club): a club's is_approved flag changed, inside the transaction that changed it.
approval_changed = Hook()
