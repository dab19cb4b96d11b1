"""The ladder core's refusals in the reader's language, by code (registered in RatingsConfig.ready, so the API and
the ladder page read a LadderError alike)."""

from django.utils.translation import gettext_lazy

LADDER_MESSAGES = {
    "challenger_not_on_ladder": gettext_lazy("Join the ladder before you challenge someone."),
    "defender_not_on_ladder": gettext_lazy("This player is not on the ladder."),
    "not_above": gettext_lazy("Challenge a player placed above you."),
    "out_of_reach": gettext_lazy("You can challenge at most %(reach)s places above you."),
}
