"""Error rates of a played match from GNU Backgammon (docs/games.md, "Error rates"): `gnubg_stats` reads the
program's `show statistics match`, `runner` drives the program under limits."""
