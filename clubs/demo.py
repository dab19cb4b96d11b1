"""The demo club: a director (club admin) and sixteen players, four of them with a login."""

from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player, Role

PLAYER_NAMES = [
    "Anna Becker",
    "Bernd Hoffmann",
    "Clara Wagner",
    "Dieter Schulz",
    "Elif Yilmaz",
    "Felix Braun",
    "Greta Neumann",
    "Hannes Krüger",
    "Ines Hartmann",
    "Jonas Lange",
    "Katrin Wolf",
    "Lukas Schmitt",
    "Mara Zimmermann",
    "Nils Richter",
    "Olga Petrova",
    "Paul Fischer",
]
PLAYERS_WITH_LOGIN = 4


def _user(username: str, password: str, first: str = "", last: str = ""):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username, defaults={"first_name": first, "last_name": last})
    if created:
        user.set_password(password)
        user.save()
    return user


def load(context) -> None:
    club, _ = Club.objects.get_or_create(
        slug="bc-berlin",
        defaults={
            "name": "Backgammon Club Berlin",
            "city": "Berlin",
            "country": "DE",
            "description": "Club nights every Tuesday from 19:00; monthly knockout with consolation.",
            "is_approved": True,  # an established club: its directors' results count in the overall list
        },
    )
    director_user = _user("director", context.password, "Dana", "Direktor")
    director, _ = Player.objects.get_or_create(user=director_user, defaults={"name": "Dana Direktor"})
    Membership.objects.get_or_create(club=club, player=director, defaults={"role": Role.ADMIN})

    players = []
    for index, name in enumerate(PLAYER_NAMES):
        user = None
        if index < PLAYERS_WITH_LOGIN:
            first, last = name.split(" ", 1)
            user = _user(first.lower(), context.password, first, last)
        player = Player.objects.filter(name=name, memberships__club=club).first()
        if player is None:
            # Players without a login are the club's walk-ins: the club registered them and edits them until
            # their person signs up and claims them.
            player = Player.objects.create(name=name, user=user, country="DE", created_by_club=None if user else club)
            Membership.objects.create(club=club, player=player, role=Role.PLAYER)
        players.append(player)

    # A visitor with an account, invited but not yet answered: the Invitations page shows it to them.
    visitor_user = _user("visitor", context.password, "Vera", "Visitor")
    visitor, _ = Player.objects.get_or_create(user=visitor_user, defaults={"name": "Vera Visitor"})
    Membership.objects.get_or_create(
        club=club,
        player=visitor,
        defaults={"status": Membership.Status.INVITED, "is_active": False, "invited_by": director_user},
    )

    context.club, context.director, context.players = club, director_user, players
    context.lines += [
        f"Demo club: {club.name} ({len(players)} players)",
        f"Director login: director / {context.password}",
        f"Player logins: {', '.join(p.user.username for p in players if p.user)} / {context.password}",
        f"Invited, not yet answered: visitor / {context.password} (see /invitations/)",
    ]
