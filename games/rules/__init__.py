"""The backgammon rules core: pure Python, no Django import. Everything in the site that knows a rule of the
game asks this package."""
