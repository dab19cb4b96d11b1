"""Pure rating, points and ladder algorithms: standard library only, no Django (tests/ratings/test_core_is_pure.py)."""
