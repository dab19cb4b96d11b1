"""Who may do what with a Calcutta's shares (registered with clubs.access).

A share of a lot is money owed, so nobody enters a syndicate without their word: the holder (or the director
for them) proposes; each bidder named consents for themselves, and the director speaks only for the bidders
they registered without a login (guests in the room, who have no other way to answer)."""

from django.utils.translation import gettext_lazy as _

from clubs.access import rule
from tournaments.calcutta.models import Bidder


@rule(
    "calcutta.offer_syndicate",
    _("Only the holder of the lot or a director of the event proposes a syndicate for it."),
)
def offer_syndicate(user, holder: Bidder) -> bool:
    return holder.user_id == user.pk or holder.calcutta.user_is_director(user)


@rule(
    "calcutta.consent_for",
    _("Each bidder answers for themselves; a director answers only for bidders registered without a login."),
)
def consent_for(user, bidder: Bidder) -> bool:
    if bidder.user_id is not None:
        return bidder.user_id == user.pk
    return bidder.calcutta.user_is_director(user)


@rule(
    "calcutta.see_owner_report",
    _("An owner's money (paid in, won, net) is seen only by that owner and the directors of the event."),
)
def see_owner_report(user, bidder: Bidder) -> bool:
    """The board shows the public auction (who bought which lot for how much); what one person paid and won in
    all is their own business and the directors', like a chouette balance."""
    return bidder.user_id == user.pk or bidder.calcutta.user_is_director(user)
