"""Turning a game as entered (JSON from the API, the live form) into the core's GameEntry, and back.

The stored payload is this JSON, so a replay reads exactly what was entered."""

from __future__ import annotations

from django.utils.translation import gettext as _

from base.errors import Invalid
from chouette.core import session as core
from chouette.core.scoring import BOX, KINDS, RESPONSES, TEAM, CubeEvent, GameEntry

MAX_DEALS = 20  # a member deals once a game; a table seats at most 20


def _int(value, field: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Invalid(_("Give a player by their id (a whole number)."), field=field) from None


def _optional_player(value, field: str):
    return None if value in (None, "") else _int(value, field)


def entry_from_payload(data) -> GameEntry:
    """A GameEntry from the stored/entered JSON, refusing shapes that are not a game."""
    if not isinstance(data, dict):
        raise Invalid(_("Send the game as an object."), field="game")
    events = []
    for event in data.get("events") or []:
        if not isinstance(event, dict) or event.get("doubler") not in (BOX, TEAM):
            raise Invalid(_("Each double says who doubled: box or team."), field="events")
        responses = []
        for answer in event.get("responses") or []:
            if not isinstance(answer, dict) or answer.get("response") not in RESPONSES:
                raise Invalid(_("Answer each double with take, drop, beaver or raccoon."), field="events")
            responses.append((_int(answer.get("player"), "events"), answer["response"]))
        events.append(CubeEvent(event["doubler"], tuple(responses)))
    member_results = []
    for row in data.get("member_results") or []:
        if not isinstance(row, dict) or row.get("winner") not in (BOX, TEAM) or row.get("kind", "single") not in KINDS:
            raise Invalid(_("Each result names the winner (box/team) and the kind."), field="member_results")
        member_results.append((_int(row.get("player"), "member_results"), row["winner"], row.get("kind", "single")))
    claimed = []
    for row in data.get("claimed") or []:
        if not isinstance(row, dict):
            raise Invalid(_("Each claimed line names a player and their points."), field="claimed")
        claimed.append((_int(row.get("player"), "claimed"), _int(row.get("points"), "claimed")))
    daves = []
    for row in data.get("daves") or []:
        if not isinstance(row, dict) or row.get("gave_up") not in (None, "member", "box"):
            raise Invalid(_("Each Dave line names a member, the final stake and who gave up."), field="daves")
        daves.append((_int(row.get("player"), "daves"), _int(row.get("stake"), "daves"), row.get("gave_up")))
    deals = []
    for row in data.get("deals") or []:
        if not isinstance(row, dict) or not isinstance(row.get("points"), int) or isinstance(row.get("points"), bool):
            raise Invalid(_("Each deal names a team member and their points (a whole number)."), field="deals")
        after = row.get("after")
        if after is not None and (not isinstance(after, int) or isinstance(after, bool) or after < 0):
            raise Invalid(_("A deal's 'after' counts the doubles before it: 0 or more."), field="deals")
        deals.append((_int(row.get("player"), "deals"), row["points"], after))
    if len(deals) > MAX_DEALS:
        raise Invalid(_("At most %(n)s deals in one game.") % {"n": MAX_DEALS}, field="deals")
    winner = data.get("winner") or None
    if winner not in (None, BOX, TEAM):
        raise Invalid(_("Say who won the game: the box or the team."), field="winner")
    kind = data.get("kind") or "single"
    if kind not in KINDS:
        raise Invalid(_("A game ends single, gammon or backgammon."), field="kind")
    automatic = data.get("automatic_doubles") or 0
    if not isinstance(automatic, int) or automatic < 0:
        raise Invalid(_("Automatic doubles: a whole number, 0 or more."), field="automatic_doubles")
    return GameEntry(
        events=tuple(events),
        winner=winner,
        kind=kind,
        member_results=tuple(member_results),
        acting_captain=_optional_player(data.get("acting_captain"), "acting_captain"),
        partner=_optional_player(data.get("partner"), "partner"),
        automatic_doubles=automatic,
        claimed=tuple(claimed),
        daves=tuple(daves),
        deals=tuple(deals),
    )


def payload_from_entry(entry: GameEntry) -> dict:
    return {
        "events": [
            {"doubler": e.doubler, "responses": [{"player": p, "response": r} for p, r in e.responses]}
            for e in entry.events
        ],
        "winner": entry.winner,
        "kind": entry.kind,
        "member_results": [{"player": p, "winner": w, "kind": k} for p, w, k in entry.member_results],
        "acting_captain": entry.acting_captain,
        "partner": entry.partner,
        "automatic_doubles": entry.automatic_doubles,
        "claimed": [{"player": p, "points": v} for p, v in entry.claimed],
        "daves": [{"player": p, "stake": v, "gave_up": g} for p, v, g in entry.daves],
        "deals": [{"player": p, "points": v, "after": a} for p, v, a in entry.deals],
    }


def parse_steps(text: str) -> list[tuple[str, str]]:
    """One member's cube as typed or tapped: steps like "box:take team:beaver box:drop", oldest first. Each step
    names who doubled (box or team) and the answer; unknown words are refused rather than guessed."""
    steps = []
    for token in (text or "").replace(",", " ").split():
        doubler, _sep, response = token.partition(":")
        if doubler not in (BOX, TEAM) or response not in RESPONSES:
            raise Invalid(_("A cube step is who doubled and the answer, e.g. box:take or team:drop."), field="events")
        steps.append((doubler, response))
    return steps


def _events_from_steps(steps: dict[int, list[tuple[str, str]]], team: list[int]) -> list[dict]:
    """Each member's cube steps turned into the core's events: the k-th double of every cube is one moment (the
    box doubling everyone at once, or the whole team doubling together), box doubles before team doubles."""
    events = []
    for k in range(max((len(v) for v in steps.values()), default=0)):
        for doubler in (BOX, TEAM):
            answers = [
                {"player": member, "response": steps[member][k][1]}
                for member in team
                if len(steps.get(member, [])) > k and steps[member][k][0] == doubler
            ]
            if answers:
                events.append({"doubler": doubler, "responses": answers})
    return events


def _legacy_events(data, team: list[int]) -> list[dict]:
    """The older form: one box-double answer and one team-double answer per member, and which came first."""
    box_answers, team_answers = [], []
    for member in team:
        answer = data.get(f"box_double_{member}") or ""
        if answer in RESPONSES:
            box_answers.append({"player": member, "response": answer})
        answer = data.get(f"team_double_{member}") or ""
        if answer in RESPONSES:
            team_answers.append({"player": member, "response": answer})
    box_event = {"doubler": BOX, "responses": box_answers}
    team_event = {"doubler": TEAM, "responses": team_answers}
    ordered = [team_event, box_event] if data.get("first") == TEAM else [box_event, team_event]
    return [e for e in ordered if e["responses"]]


def entry_from_form(data, team: list[int]) -> dict:
    """The live table's form: for each team member the steps of their own cube (`cube_<id>`, any number of
    doubles, redoubles, beavers and drops), per-member board results when they differ, and the board's result.
    Returns the payload JSON."""
    partner = str(data.get("partner") or "")
    team = [member for member in team if str(member) != partner]  # the box's partner has no cube of their own
    daves = _daves_from_form(data, team)
    deals: list[dict] = []
    if any(f"cube_{member}" in data for member in team):
        steps = {m: parse_steps(data.get(f"cube_{m}", "")) for m in team}
        events = _events_from_steps(steps, team)
        deals = _deals_from_form(data, steps, team)
    else:
        events = _legacy_events(data, team)
        deals = _deals_from_form(data, None, team)
    member_results = []
    for member in team:
        own = data.get(f"result_{member}") or ""
        winner, _sep, kind = own.partition(":")
        if winner in (BOX, TEAM) and kind in KINDS:
            member_results.append({"player": member, "winner": winner, "kind": kind})
    return {
        "events": events,
        "winner": data.get("winner") or None,
        "kind": data.get("kind") or "single",
        "member_results": member_results,
        "acting_captain": data.get("acting_captain") or None,
        "partner": data.get("partner") or None,
        "automatic_doubles": int(data.get("automatic_doubles") or 0)
        if str(data.get("automatic_doubles") or "0").isdigit()
        else 0,
        "daves": daves,
        "deals": deals,
    }


def _deals_from_form(data, steps: dict[int, list[tuple[str, str]]] | None, team: list[int]) -> list[dict]:
    """A member's deal (`deal_<id>`: the points they take from the box, negative when the box wins them), made
    right after that member's own cube steps: the k-th steps of all cubes are one moment (_events_from_steps),
    so the deal comes after the events of the moments up to the member's last step. With the older one-answer
    fields (`steps` None) the deal comes after all the doubles."""
    deals = []
    for member in team:
        text = str(data.get(f"deal_{member}") or "").strip().replace("+", "").replace("\u2212", "-")
        if not text:
            continue
        if not text.lstrip("-").isdigit() or len(text) > 7:
            raise Invalid(_("A deal is a whole number of points, e.g. 2 or -3."), field="deals")
        if steps is None:
            after = None
        else:
            own = len(steps.get(member, []))
            after = len(_events_from_steps({m: s[:own] for m, s in steps.items()}, team))
        deals.append({"player": member, "points": int(text), "after": after})
    return deals


def _daves_from_form(data, team: list[int]) -> list[dict]:
    """A Dave table's form: each member's final stake (`dave_<id>`) and who gave up (`gave_up_<id>`)."""
    daves = []
    for member in team:
        if f"dave_{member}" not in data:
            continue
        stake = str(data.get(f"dave_{member}") or "1").strip()
        if not stake.isdigit() or len(stake) > 7:
            raise Invalid(_("A stake is a whole number, 1 or more."), field="daves")
        daves.append({"player": member, "stake": int(stake), "gave_up": data.get(f"gave_up_{member}") or None})
    return daves


def core_event(row) -> core.Event:
    """The core's event for a stored SessionEvent row."""
    if row.kind == core.START:
        return core.Event(core.START, order=tuple(row.payload["order"]))
    if row.kind == core.GAME:
        return core.Event(core.GAME, entry=entry_from_payload(row.payload))
    return core.Event(row.kind, player=row.player_id)


def form_from_payload(payload: dict) -> dict:
    """Initial values of the live form for a stored game (for the correction page): each member's cube steps."""
    initial = {
        "winner": payload.get("winner") or "",
        "kind": payload.get("kind") or "single",
        "partner": payload.get("partner") or "",
        "acting_captain": payload.get("acting_captain") or "",
        "automatic_doubles": payload.get("automatic_doubles") or 0,
    }
    for event in payload.get("events") or []:
        for answer in event.get("responses") or []:
            key = f"cube_{answer.get('player')}"
            step = f"{event.get('doubler')}:{answer.get('response')}"
            initial[key] = f"{initial[key]} {step}" if key in initial else step
    for row in payload.get("member_results") or []:
        initial[f"result_{row.get('player')}"] = f"{row.get('winner')}:{row.get('kind', 'single')}"
    for row in payload.get("deals") or []:
        points = row.get("points")
        initial[f"deal_{row.get('player')}"] = str(points) if isinstance(points, int) else ""
    for row in payload.get("daves") or []:
        initial[f"dave_{row.get('player')}"] = row.get("stake")
        initial[f"gave_up_{row.get('player')}"] = row.get("gave_up") or ""
    return initial
