"""Who may do what with rating pools, seasons and ladders (see clubs.access). What *counts* in a pool is not a
permission but one rule too: ratings.services.pools.rateable_matches."""

from django.utils.translation import gettext_lazy as _

from clubs.access import is_admin, is_director, player_of, rule


@rule("ratings.recompute", _("Only an admin of this club can recompute its ratings."))
def recompute(user, pool) -> bool:
    return pool.club_id is not None and is_admin(user, pool.club)  # the overall pool: site staff only


@rule("ratings.merge_variants", _("Only an admin of this club decides whether its ratings merge the variants."))
def merge_variants(user, pool) -> bool:
    return recompute(user, pool)  # the merge rebuilds every pool of the club: the admins who may rebuild them


@rule("season.create", _("Only a director or admin of this club can add seasons."))
def create_season(user, club) -> bool:
    return is_director(user, club)


@rule("ladder.create", _("Only a director or admin of this club can start a ladder."))
def create_ladder(user, club) -> bool:
    return is_director(user, club)


@rule("ladder.place_player", _("Only a director can put someone else on the ladder."))
def place_player(user, ladder) -> bool:
    return is_director(user, ladder.club)


@rule("ladder.cancel_challenge", _("Only the two players or a director can cancel a challenge."))
def cancel_challenge(user, challenge) -> bool:
    own = player_of(user)
    plays_in_it = own is not None and own.pk in (challenge.challenger_id, challenge.defender_id)
    return plays_in_it or is_director(user, challenge.ladder.club)
