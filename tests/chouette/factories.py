from chouette import services
from tests.clubs.factories import MembershipFactory


def table(club, names=("A", "B", "C", "D"), *, director=None, rules=None, stake_cents=500, stakes=None, **stake_form):
    """A started session at `club` with members named A, B, C, D seated in that order (A box)."""
    players = [MembershipFactory(club=club, player__name=name).player for name in names]
    actor = director or MembershipFactory(club=club, role="director").player.user
    session = services.create_session(
        actor=actor,
        club=club,
        players=players,
        stake_cents=stake_cents,
        stakes=stakes,
        rules=rules,
        order=[p.pk for p in players],
        **stake_form,
    )
    return session, {p.name: p for p in players}, actor
