"""The chouette rules as plain Python: rule options, the starting order, game scoring, rotation, the session
replay and settlement. Nothing here imports Django; the adapter is chouette.services."""
