"""Long nardy: the rules, the scoring, the records and their verification. Pure Python, no Django import.

- board.NardyBoard: both sides move counter-clockwise, one side's point p is the other's p ± 12.
- settings.NardySettings: the readings where the rule texts differ (head doubles, the six-block rule).
- moves: legal plays with the head rule, the six-block rule, forced play and bear-off.
- notation: moves as from/to steps on the mover's numbering. scoring: oin and mars, match play.
- record: the `Variation: Long Nardy` text record, read and written. verification: its verdict.
- random_play: seeded random legal play (tests, benchmarks, example records).

docs/variants.md describes the rules and the record format.
"""
