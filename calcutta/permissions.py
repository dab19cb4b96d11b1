"""Who may do what with a Calcutta's shares (registered with clubs.access).

A share of a lot is money owed, so nobody enters a syndicate without their word: the holder (or the director
for them) proposes; each bidder named consents for themselves, and the director speaks only for the bidders
they registered without a login (guests in the room, who have no other way to answer)."""

from django.utils.translation import gettext_lazy as _

from calcutta.models import Bidder, Calcutta
from clubs.access import rule


@rule("calcutta.create", _("Only a director of this event can set up its Calcutta."))
def create(user, flight) -> bool:
    return flight.event.user_is_director(user)


@rule("calcutta.direct", _("Only a director of this event can do this."))
def direct(user, calcutta: Calcutta) -> bool:
    """The auctioneer's work, the lots, the settings, payments and settling: the event's directors."""
    return calcutta.user_is_director(user)


@rule("calcutta.register_bidder", _("Only a director can register someone else as a bidder."))
def register_bidder(user, calcutta: Calcutta) -> bool:
    """Registering someone else (a guest by name, a player of the club); anyone signed in registers themself."""
    return calcutta.user_is_director(user)


@rule("calcutta.bid_as", _("You can only bid as yourself; the auctioneer takes bids from the room."))
def bid_as(user, bidder: Bidder) -> bool:
    return bidder.user_id == user.pk or bidder.calcutta.user_is_director(user)


@rule("calcutta.buy_back", _("Only the owner concerned or a director can do this."))
def buy_back(user, bidder: Bidder) -> bool:
    """A player's buy-back of their own lot, asked by themself or entered by a director."""
    return bidder.user_id == user.pk or bidder.calcutta.user_is_director(user)


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


@rule(
    "calcutta.download_settlement",
    _("Only the event's directors and the Calcutta's bidders can download its settlement."),
)
def download_settlement(user, calcutta: Calcutta) -> bool:
    """The settlement sheet: the directors get every owner's line (their books), a bidder their own line only
    (see_owner_report), like their owner's page; nobody else has a line to download."""
    return calcutta.user_is_director(user) or calcutta.bidders.filter(user=user).exists()
