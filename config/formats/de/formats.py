"""German: one date format, "28.11.2026", and one date-time format, "28.11.2026, 14:30", wherever a page, a
chart or a message shows a date (Django's German long form, "28. November 2026", is not used). Decimal comma.
Only what differs from Django's German is here; the input formats stay Django's."""

DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "d.m.Y, H:i"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
