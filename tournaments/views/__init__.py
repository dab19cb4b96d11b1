"""The tournaments pages, one module per domain: events, flights and brackets (events), boards and calls
(boards), the pages of a flight played in rounds (rounds). Routed in tournaments/urls.py."""
