"""Extension points of the chouette app (nobody imports chouette; apps above it register callbacks here)."""

from base.hooks import Hook

# Called as seated(session, players) when players sit down at a table, inside the transaction that seats them.
seated = Hook()
