"""Extension points of the chouette app (nobody imports chouette): config/pipeline.py lists what runs on each."""

from base.hooks import Hook

# Called as seated(session, players) when players sit down at a table, inside the transaction that seats them.
seated = Hook()

# Called as transfer_open(transfer) by the periodic sweep, once, for a settle-up transfer still open a day (the
# setting TRANSFER_REMINDER_HOURS) after it was made: its payer, or its payee once it is marked paid, is reminded.
transfer_open = Hook()
