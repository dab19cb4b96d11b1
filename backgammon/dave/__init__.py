"""Short backgammon with "Dave": standard backgammon played for a stake that rises by Daves instead of the cube.
Pure Python, no Django import.

- stake: the progression (geometric or arithmetic, agreed before play) and the stake state machine (who may
  offer, accept, give up; what a won or given-up game is worth).
- record: the `Variation: Short Backgammon with Dave` text record, read and written. verification: its verdict,
  checker play judged by the backgammon rules engine.
- scoring: a session's games as each player's net in stake units (money play, chouette).
- random_play: seeded random games and sessions (tests, the documented example).

docs/variants.md ("Short backgammon with Dave") describes the rules and the record format.
"""
