"""Demo chouette sessions at the demo club: last week's table (four players, settled) and tonight's table (mixed
stakes, house rules, still open). Idempotent: sessions are found by name."""

from chouette import selectors, services
from chouette.models import ChouetteSession

FINISHED = "Tuesday table (last week)"
OPEN = "Tuesday table (tonight)"


def _ids(players):
    return [p.pk for p in players]


def load(context) -> None:
    club, actor = context.club, context.director
    if len(context.players) < 6:
        return
    a, b, c, d, e, f = context.players[:6]
    if not ChouetteSession.objects.filter(club=club, name=FINISHED).exists():
        session = services.create_session(
            actor=actor, club=club, players=[a, b, c, d], stake_cents=500, name=FINISHED, order=_ids([a, b, c, d])
        )
        for game in _last_week(a, b, c, d):
            services.record_game(actor=actor, session=session, game=game)
        services.finish_session(actor=actor, session=session)
    if not ChouetteSession.objects.filter(club=club, name=OPEN).exists():
        session = services.create_session(
            actor=actor,
            club=club,
            players=[c, d, e, f],
            stake_cents=200,
            stakes={f.pk: 100},
            name=OPEN,
            rules={"box_min_takes": "half", "newcomer": "ahead_of_loser"},
            order=_ids([e, c, f, d]),
        )
        services.record_game(actor=actor, session=session, game={"winner": "box", "kind": "gammon"})
        session.refresh_from_db()
        team = session.order[1:]
        services.record_game(
            actor=actor,
            session=session,
            game={
                "events": [{"doubler": "box", "responses": [{"player": pid, "response": "take"} for pid in team]}],
                "winner": "team",
            },
        )
    for name in (FINISHED, OPEN):
        session = ChouetteSession.objects.get(club=club, name=name)
        context.lines.append(f"Chouette: {name} — /chouette/{club.slug}/{session.pk}/ ({session.get_status_display()})")
    finished = ChouetteSession.objects.get(club=club, name=FINISHED)
    transfers = ", ".join(f"{t.payer} pays {t.payee} {t.cents / 100:.2f}" for t in selectors.settlement(finished))
    context.lines.append(f"  settled: {transfers}")


def _game(winner, kind="single", events=()):
    return {"winner": winner, "kind": kind, "events": list(events)}


def _answers(doubler, pairs):
    return {"doubler": doubler, "responses": [{"player": p.pk, "response": r} for p, r in pairs]}


def _last_week(a, b, c, d):
    """Seven games in docs/chouette.md's notation (A box, B captain, C, D crew at the start): ends A +11, B -4, C -6,
    D -1 points, i.e. +55.00, -20.00, -30.00, -5.00 at 5.00 a point."""
    return [
        _game("box", "gammon"),  # E2: A +3 (Jacoby: the cubes were never turned); order A, C, D, B
        _game("box", "gammon", [_answers("box", [(c, "drop"), (d, "take"), (b, "drop")])]),  # E3-like: A +6
        _game("box"),  # A +3; order A, B, C, D
        _game("box", "single", [_answers("team", [(b, "take"), (c, "drop")])]),  # E4-like: B -2, C +1, D -1
        _game("team"),  # C captain beats A: C becomes box
        _game("team", "single", [_answers("team", [(d, "take")])]),  # D doubles C, C takes, D wins at 2
        _game("box"),  # D box wins single
    ]
