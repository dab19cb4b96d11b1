"""Matches, their games and the reported results."""
