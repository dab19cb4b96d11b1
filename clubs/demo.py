"""The demo club: a director (club admin), sixteen players who each have a login (so every one of them can try
the site at the board), and two walk-ins the club registered without a login (what a claim is about)."""

from django.contrib.auth import get_user_model

from clubs import services
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
# Walk-ins: players the club registered without a login; not in context.players (the other demos' matches are
# among players who can sign in and confirm them).
WALK_IN_NAMES = ["Quirin Vogel", "Rosa Brandt"]


def _user(username: str, password: str, first: str = "", last: str = ""):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username, defaults={"first_name": first, "last_name": last})
    if created:
        user.set_password(password)
        user.save()
    return user


def _demo_iban(bank: str, account: int) -> str:
    """A German IBAN with correct check digits (mod-97) for a made-up bank code and account."""
    bban = f"{bank}{account:010d}"
    check = 98 - int(bban + "131400") % 97  # "DE" is 13 14, then "00"
    return f"DE{check:02d}{bban}"


DEMO_IBANS = [_demo_iban("37040044", 532013000 + n) for n in range(16)]
DEMO_PAYPAL_HANDLE = "ExampleDemoPlayer"


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
    for name in PLAYER_NAMES:
        first, last = name.split(" ", 1)
        user = _user(first.lower(), context.password, first, last)
        player = Player.objects.filter(name=name, memberships__club=club).first()
        if player is None:
            player = Player.objects.create(name=name, user=user, country="DE")
            Membership.objects.create(club=club, player=player, role=Role.PLAYER)
        elif player.user_id is None:  # a demo loaded before every player had a login
            player.user, player.created_by_club = user, None
            player.save(update_fields=["user", "created_by_club"])
        players.append(player)
    for name in WALK_IN_NAMES:
        # The club's walk-ins: registered by the club, which edits them until their person signs up and claims them.
        if not Player.objects.filter(name=name, memberships__club=club).exists():
            walk_in = Player.objects.create(name=name, country="DE", created_by_club=club)
            Membership.objects.create(club=club, player=walk_in, role=Role.PLAYER)

    # A visitor with an account, invited but not yet answered: the Invitations page shows it to them.
    visitor_user = _user("visitor", context.password, "Vera", "Visitor")
    visitor, _ = Player.objects.get_or_create(user=visitor_user, defaults={"name": "Vera Visitor"})
    Membership.objects.get_or_create(
        club=club,
        player=visitor,
        defaults={"status": Membership.Status.INVITED, "is_active": False, "invited_by": director_user},
    )

    # Bank accounts (test IBANs with valid check digits) for transfer codes: whoever owes these players money in a
    # chouette settlement or a Calcutta sees a GiroCode to scan. The first also stored a PayPal.Me handle (a made-up
    # one): who owes them (last week's chouette table pays them) sees "Pay with PayPal" beside the code.
    for number, (player, iban) in enumerate(zip(players, DEMO_IBANS, strict=False)):
        if player.user_id and not hasattr(player, "bank_account"):
            handle = {"pay_provider": "paypal", "pay_handle": DEMO_PAYPAL_HANDLE} if number == 0 else {}
            services.set_bank_account(actor=player.user, player=player, holder=player.name, iban=iban, **handle)
    if not hasattr(director, "bank_account"):
        services.set_bank_account(actor=director_user, player=director, holder="BC Berlin e.V.", iban=DEMO_IBANS[-1])
    if not hasattr(club, "bank_account"):  # where a Calcutta owner who owes the club is asked to pay
        services.set_club_bank_account(actor=director_user, club=club, holder="BC Berlin e.V.", iban=DEMO_IBANS[-2])

    context.club, context.director, context.players = club, director_user, players
    context.lines += [
        f"Demo club: {club.name} ({len(players)} players)",
        f"Director login: director / {context.password}",
        f"Player logins (password {context.password}):",
        *(f"  {p.user.username:<8} {p.name}" for p in players if p.user),
        f"Invited, not yet answered: visitor / {context.password} (see /invitations/)",
    ]
