"""Text from files and requests made safe to store: no NUL, no other control characters.

Pure: no Django import, so the record parsers (pure cores) clean player names and headers with it too.

Why: PostgreSQL refuses a NUL character in text and in jsonb ("unsupported Unicode escape sequence"), so a
NUL in an SGF player name made the verifier's final write fail and left the record "verifying" for ever.
Other C0 control characters are stored, but only ever come from broken or hostile files and garble pages.
Tabs and line ends are kept where text is multi-line.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CONTROL_OR_LINE = re.compile(r"[\x00-\x1f\x7f]")


def clean_text(value: str, *, multiline: bool = False) -> str:
    """`value` with its control characters dropped; in a single-line text, tabs and line ends become spaces.

    Nothing else changes (no stripping), so a text without control characters comes back as it was.
    """
    if multiline:
        return _CONTROL.sub("", value)
    return _CONTROL_OR_LINE.sub(" ", _CONTROL.sub("", value))


def has_nul(value: object, *, depth: int = 0) -> bool:
    """Whether a NUL character hides in `value`: a string, or any key or item of nested lists and dicts."""
    if isinstance(value, str):
        return "\x00" in value
    if depth > 64:  # deeper than any payload here; treat it as suspect rather than recurse further
        return True
    if isinstance(value, dict):
        return any(has_nul(key, depth=depth + 1) or has_nul(item, depth=depth + 1) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(has_nul(item, depth=depth + 1) for item in value)
    return False
