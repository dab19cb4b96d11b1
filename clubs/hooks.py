"""Extension points of the clubs app (it imports no app above it): config/pipeline.py lists what runs on each."""

from base.hooks import Hook

# approval_changed(club): a club's is_approved flag changed, inside the transaction that changed it.
approval_changed = Hook()

# player_renamed(player): a player's name or display name changed, inside the transaction that changed it (the
# pages that show it, cached, render again).
player_renamed = Hook()

# display_names_switched(club): the club allowed display names on its pages or stopped allowing them, inside the
# transaction that changed it (the club's cached pages, which show one or the other, render again).
display_names_switched = Hook()
