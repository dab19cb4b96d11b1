"""English: one date format, "28 Nov 2026", and one date-time format, "28 Nov 2026, 14:30", wherever a page,
a chart or a message shows a date. Django's English has two of each ("Nov. 28, 2026" and "11/28/2026"), and
templates asked for either, so one page read both; here the short and the long form are the same.

Day before month, month as a word: no reader takes 08/09 for the 9th of August or the 8th of September.
Times on the 24-hour clock, as the club's schedules are written. Only what differs from Django's English is
here; the input formats (what a form accepts) stay Django's."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
