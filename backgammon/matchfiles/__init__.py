"""Match record and position formats: Jellyfish .mat, gnubg SGF, GNU Backgammon Position/Match IDs and XGID.
Pure Python, no Django import."""
