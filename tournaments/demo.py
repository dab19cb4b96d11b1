"""Demo events: a finished 16-player open with main, consolation and last chance, a club championship in
progress (with a jackpot: one pod of four playing, two players waiting), a finished Swiss club night (four
rounds, then a knockout of the top eight), a finished doubles cup (eight pairs, knockout) and a finished nations
cup (four teams of three boards). Built through the services and results confirmed through match play, as a
director would. Idempotent: an event that exists is left as it is (its objects are still put on the context)."""

import datetime
from functools import partial

from django.utils import timezone

from games.matchplay import services as match_services
from games.models.matches import Match
from tournaments import demo_nardy, selectors, services
from tournaments.models import Event, Pairing, Slot, TeamBoard
from tournaments.services import boards as board_services

FINISHED, RUNNING, SWISS = "spring-open", "club-championship", "swiss-night"
DOUBLES, NATIONS = "doubles-cup", "nations-cup"
CAPPED = "summer-cup"


def load(context) -> None:
    club, director, players = context.club, context.director, context.players
    if club is None or director is None or len(players) < 16:
        return
    created = []
    finished = Event.objects.filter(club=club, slug=FINISHED).first()
    if finished is None:
        finished = _finished_event(club, director, players, context)
        _fees(director, finished)  # first: the fees paid make the pool, and a prize handed over is the pool's share
        _prize_money(director, finished)
        created.append(finished.name)
    running = Event.objects.filter(club=club, slug=RUNNING).first()
    if running is None:
        running = _running_event(club, director, players[:12])
        created.append(running.name)
    if not Event.objects.filter(club=club, slug=SWISS).exists():
        _swiss_night(club, director, players[:16])
        created.append("Swiss Night")
    if not Event.objects.filter(club=club, slug=DOUBLES).exists():
        _doubles_cup(club, director, players[:16])
        created.append("Doubles Cup")
    if not Event.objects.filter(club=club, slug=NATIONS).exists():
        _nations_cup(club, director, players[:12])
        created.append("Nations Cup")
    if not Event.objects.filter(club=club, slug=CAPPED).exists():
        _capped_event(club, director, players[:12])
        created.append("Summer Cup")
    context.finished_event, context.running_event = finished, running
    demo_nardy.load(context, players[4:12])
    if created:
        context.lines.append(
            f"Demo events: {finished.name} (finished: main, consolation, last chance) and {running.name} "
            f"(in progress): /events/{club.slug}/{finished.slug}/"
        )


def _finished_event(club, director, players, context):
    today = datetime.date.today()
    event = services.create_event(
        actor=director,
        club=club,
        name="Spring Open",
        slug=FINISHED,
        starts_on=today - datetime.timedelta(days=30),
        house_percent=10,
    )
    main = services.add_flight(
        actor=director,
        event=event,
        name="Main",
        slug="main",
        entry_fee=20,
        length=5,
        final_length=7,
        payout_template=[
            {"flight": "main", "place": 1, "percent": 50},
            {"flight": "main", "place": 2, "percent": 25},
            {"flight": "consolation", "place": 1, "percent": 25},
        ],
    )
    add = partial(services.add_flight, actor=director, event=event)
    cons = add(name="Consolation", slug="consolation", kind="consolation", source=main, length=3, final_length=5)
    last = add(
        name="Last Chance", slug="last-chance", kind="last_chance", source=cons, length=3, feed_rule="fresh_draw"
    )
    for player in players[:16]:
        services.register(actor=director, flight=main, player=player)
    _release(director, main, seed=2026)
    for step in context.after_draw_released:  # e.g. the Calcutta, sold after the draw and before the first match
        step(context, event, main)
    played = _play(director, [main, cons])
    _release(director, last, seed=7)
    played += _play(director, [main, cons, last])
    _date_on_event_day(event, played)
    event.refresh_from_db()
    return event


def _prize_money(director, event):
    """The Spring Open's prizes from payout tables that grow with the field: the main by the club's own table
    (a euro per entry to the house, 50 added), the consolation winner-takes-all on 40 added; the main's winner
    has been paid, the rest still wait."""
    own = services.create_payout_table(
        actor=director,
        club=event.club,
        name="Club nights",
        bands=[
            {"from": 2, "to": 8, "percents": ["65", "35"]},
            {"from": 9, "to": 24, "percents": ["50", "30", "10", "10"]},
            {"from": 25, "to": None, "percents": ["40", "25", "10", "10", "5", "5", "2.5", "2.5"]},
        ],
    )
    main, cons = event.flights.get(slug="main"), event.flights.get(slug="consolation")
    services.set_payout_template(actor=director, flight=main, template=[])
    services.set_flight_payouts(actor=director, flight=main, table=f"club-{own.pk}", house_fixed="1", added_money="50")
    services.set_flight_payouts(actor=director, flight=cons, table="winner", added_money="40")
    winner = main.entries.get(place=1).player_id
    services.record_prize_paid(actor=director, flight=main, player_id=winner)


def _capped_event(club, director, players):
    """A coming event whose main is capped at 8 and full: three more signed up onto its waiting list, one of them
    moved up by the director (recorded with the reason), and a withdrawal offered the freed place to the first
    waiting, who has 48 hours to accept it. The event itself is capped at 10 entries, full with its Amateurs
    flight's two, and one more waits on the Amateurs' list."""
    event = services.create_event(
        actor=director,
        club=club,
        name="Summer Cup",
        slug=CAPPED,
        starts_on=datetime.date.today() + datetime.timedelta(days=14),
        registration_open=True,
    )
    main = services.add_flight(actor=director, event=event, name="Main", slug="main", entry_fee=15, length=5)
    services.set_cap(actor=director, flight=main, cap=8, offer_hours=48)
    entered = [services.register(actor=director, flight=main, player=p) for p in players[:8]]
    spots = [services.join_waiting_list(actor=director, flight=main, player=p) for p in players[8:11]]
    services.move_up(actor=director, spot=spots[2], to_place=2, reason="Last year's winner")
    services.withdraw(actor=director, entry=entered[-1])
    # The event is capped at 10 entries across its flights: with the Amateurs' two it is full, and a main player
    # signing up for the Amateurs too (counted twice) waits on the Amateurs' list.
    amateurs = services.add_flight(actor=director, event=event, name="Amateurs", slug="amateurs", length=3)
    for player in (players[7], players[11]):
        services.register(actor=director, flight=amateurs, player=player)
    services.set_event_cap(actor=director, event=event, cap=10)
    services.sign_up(actor=director, flight=amateurs, player=players[0])
    return event


def _fees(director, event):
    """The Spring Open's entry fees at the counter: most paid cash, some by transfer or online, a junior's fee
    waived, and three still owing (the dashboard and the main's payments page list them)."""
    main = event.flights.get(slug="main")
    services.set_fee_settings(actor=director, flight=main, member_fee="15", junior_fee="10")
    entries = list(main.entries.order_by("pk"))
    for index, entry in enumerate(entries[:-3]):
        if index == 0:
            services.set_fee_category(actor=director, entry=entry, category="junior")
            services.record_payment(actor=director, entry=entry, kind="waiver", note="club's junior")
        elif index % 5 == 1:
            services.record_payment(actor=director, entry=entry, method="transfer", amount=entry.fee)
        elif index % 5 == 2:
            reference = f"PAY-{2026 + index}"
            services.record_payment(actor=director, entry=entry, method="online", amount=entry.fee, reference=reference)
        else:
            services.record_payment(actor=director, entry=entry, method="cash", amount=entry.fee)
    services.record_payment(actor=director, entry=entries[-1], method="cash", amount="5")  # part paid


def _date_on_event_day(event, matches):
    """The demo plays the event in one go today; date its matches on the event's day in the order they were
    played, so match lists and the ratings (which the ratings demo rebuilds in date order) read as a real day."""
    start = datetime.datetime.combine(event.starts_on, datetime.time(10), tzinfo=timezone.get_current_timezone())
    for index, match in enumerate(matches):
        started = start + datetime.timedelta(minutes=12 * index)
        Match.objects.filter(pk=match.pk).update(
            scheduled_at=started, started_at=started, finished_at=started + datetime.timedelta(minutes=45)
        )


def _running_event(club, director, players):
    today = datetime.date.today()
    event = services.create_event(actor=director, club=club, name="Club Championship", slug=RUNNING, starts_on=today)
    main = services.add_flight(actor=director, event=event, name="Main", slug="main", length=7, final_length=9)
    add = partial(services.add_flight, actor=director, event=event)
    add(
        name="Consolation",
        slug="consolation",
        kind="consolation",
        source=main,
        length=5,
        feed_rule="progressive",
        feed_rounds=2,
    )
    for player in players:
        services.register(actor=director, flight=main, player=player)
    # A live day: four boards (one with a clock, one step-free) and auto-call, so a confirmed result frees a
    # board and the next waiting match is called to it while the bracket pages update.
    board_services.set_boards(actor=director, event=event, count=4, tags={1: ["clock"], 4: ["step-free"]})
    _release(director, main, seed=12)
    for slot in _ready([main])[:2]:
        _result(director, slot)
    # A jackpot beside the main: pods of four fill from the waiting list as players sign up; six signed up, so
    # one pod is playing (its own bracket and pool) and two players wait for the next.
    jackpot = add(name="Jackpot", slug="jackpot", kind="jackpot", pod_size=4, entry_fee=10, length=3)
    for player in players[6:12]:
        services.register(actor=director, flight=jackpot, player=player)
    board_services.set_auto_call(actor=director, event=event, on=True)
    return event


def _swiss_night(club, director, players):
    """A finished Swiss club night: 16 players, four rounds paired from the results, then the top eight play a
    knockout seeded by the standings."""
    week_ago = datetime.date.today() - datetime.timedelta(7)
    event = services.create_event(actor=director, club=club, name="Swiss Night", slug=SWISS, starts_on=week_ago)
    swiss = services.add_flight(
        actor=director, event=event, name="Swiss", slug="swiss", format="swiss", rounds=4, cut_size=8, length=5
    )
    top = services.add_flight(actor=director, event=event, name="Top 8", slug="top-8", source=swiss, feed_rule="cut")
    for player in players:
        services.register(actor=director, flight=swiss, player=player)
    services.start_round(actor=director, flight=swiss)
    pending = Pairing.objects.filter(flight=swiss, result="pending").select_related("match", "entry_a", "entry_b")
    while tables := list(pending.all()):
        for table in tables:
            _result(director, table)
    for tie in selectors.next_stage(flight=swiss).waiting:  # players tied across the cut's line: the lot decides
        services.decide_by_lot(actor=director, tie=tie.row)
    _play(director, [top])  # the cut's knockout was drawn and released when the last round ended (or the lot)
    return event


def _doubles_cup(club, director, players):
    """A finished doubles knockout: eight pairs (each the captain and a partner, entered by the director), played
    to the final through match play; the captains' matches stand for their pairs and are rated for no one."""
    two_weeks_ago = datetime.date.today() - datetime.timedelta(14)
    event = services.create_event(actor=director, club=club, name="Doubles Cup", slug=DOUBLES, starts_on=two_weeks_ago)
    flight = services.add_flight(
        actor=director, event=event, name="Doubles", slug="doubles", team_kind="doubles", length=5, entry_fee=10
    )
    for captain, partner in zip(players[0::2], players[1::2], strict=True):
        services.register_team(actor=director, flight=flight, players=[captain, partner])
    _release(director, flight, seed=22)
    _date_on_event_day(event, _play(director, [flight]))
    return event


def _nations_cup(club, director, players):
    """A finished nations cup: four teams of three, a knockout whose team matches are three boards each; a team
    match ends as soon as one team has two boards (the third board is still played out)."""
    three_weeks_ago = datetime.date.today() - datetime.timedelta(21)
    event = services.create_event(
        actor=director, club=club, name="Nations Cup", slug=NATIONS, starts_on=three_weeks_ago
    )
    flight = services.add_flight(
        actor=director, event=event, name="Teams", slug="teams", team_kind="team", team_size=3, length=3
    )
    for name, start in (("North", 0), ("South", 3), ("East", 6), ("West", 9)):
        services.register_team(actor=director, flight=flight, players=players[start : start + 3], team_name=name)
    _release(director, flight, seed=3)
    played = []
    while slots := list(Slot.objects.filter(flight=flight, result="ready").order_by("round", "position")):
        for slot in slots:
            for board in TeamBoard.objects.filter(slot=slot).select_related("match").order_by("board"):
                played.append(_report(director, board.match))
    _date_on_event_day(event, played)
    return event


def _report(director, match):
    """Player A wins unless their id is a multiple of 3 (a fixed, repeatable rule), by a varied score."""
    side = 0 if match.player_a_id % 3 else 1
    loser_score = (match.player_a_id + match.player_b_id) % match.length
    scores = (match.length, loser_score) if side == 0 else (loser_score, match.length)
    match_services.submit_report(
        actor=director, match=match, method="final_score", scores=scores, comment="Demo", as_director=True
    )
    return match


def _release(director, flight, *, seed):
    services.draw_flight(actor=director, flight=flight, seed=seed)
    services.confirm_draw(actor=director, flight=flight)
    services.release_draw(actor=director, flight=flight)


def _ready(flights):
    return list(
        Slot.objects.filter(flight__in=flights, result="ready")
        .select_related("match", "entry_a", "entry_b")
        .order_by("flight__order", "section", "round", "position")
    )


def _result(director, slot):
    """The match of a slot of a bracket or a table of a round (both have a match between their players A and B),
    reported by the fixed rule of `_report`."""
    return _report(director, slot.match)


def _play(director, flights):
    played = []
    while slots := _ready(flights):
        played += [_result(director, slot) for slot in slots]
    return played
