"""Extension points of the chouette app (nobody imports chouette): config/pipeline.py lists what runs on each."""

from base.hooks import Hook

# Called as seated(session, players) when players sit down at a table, inside the transaction that seats them.
seated = Hook()
