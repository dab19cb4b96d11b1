"""Turning a game as entered (JSON from the API, the live form) into the core's GameEntry, and back.

The stored payload is this JSON, so a replay reads exactly what was entered."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from chouette.core import session as core
from chouette.core.scoring import BOX, KINDS, RESPONSES, TEAM, CubeEvent, GameEntry


def _int(value, field: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationError({field: [_("Give a player by their id (a whole number).")]}) from None


def _optional_player(value, field: str):
    return None if value in (None, "") else _int(value, field)


def entry_from_payload(data) -> GameEntry:
    """A GameEntry from the stored/entered JSON, refusing shapes that are not a game."""
    if not isinstance(data, dict):
        raise ValidationError({"game": [_("Send the game as an object.")]})
    events = []
    for event in data.get("events") or []:
        if not isinstance(event, dict) or event.get("doubler") not in (BOX, TEAM):
            raise ValidationError({"events": [_("Each double says who doubled: box or team.")]})
        responses = []
        for answer in event.get("responses") or []:
            if not isinstance(answer, dict) or answer.get("response") not in RESPONSES:
                raise ValidationError({"events": [_("Answer each double with take, drop, beaver or raccoon.")]})
            responses.append((_int(answer.get("player"), "events"), answer["response"]))
        events.append(CubeEvent(event["doubler"], tuple(responses)))
    member_results = []
    for row in data.get("member_results") or []:
        if not isinstance(row, dict) or row.get("winner") not in (BOX, TEAM) or row.get("kind", "single") not in KINDS:
            raise ValidationError({"member_results": [_("Each result names the winner (box/team) and the kind.")]})
        member_results.append((_int(row.get("player"), "member_results"), row["winner"], row.get("kind", "single")))
    claimed = []
    for row in data.get("claimed") or []:
        if not isinstance(row, dict):
            raise ValidationError({"claimed": [_("Each claimed line names a player and their points.")]})
        claimed.append((_int(row.get("player"), "claimed"), _int(row.get("points"), "claimed")))
    winner = data.get("winner") or None
    if winner not in (None, BOX, TEAM):
        raise ValidationError({"winner": [_("Say who won the game: the box or the team.")]})
    kind = data.get("kind") or "single"
    if kind not in KINDS:
        raise ValidationError({"kind": [_("A game ends single, gammon or backgammon.")]})
    automatic = data.get("automatic_doubles") or 0
    if not isinstance(automatic, int) or automatic < 0:
        raise ValidationError({"automatic_doubles": [_("Automatic doubles: a whole number, 0 or more.")]})
    return GameEntry(
        events=tuple(events),
        winner=winner,
        kind=kind,
        member_results=tuple(member_results),
        acting_captain=_optional_player(data.get("acting_captain"), "acting_captain"),
        partner=_optional_player(data.get("partner"), "partner"),
        automatic_doubles=automatic,
        claimed=tuple(claimed),
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
    }


def entry_from_form(data, team: list[int]) -> dict:
    """The live table's form: for each team member a box-double answer and a team-double answer, which came
    first, and the board's result. Returns the payload JSON."""
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
    return {
        "events": [e for e in ordered if e["responses"]],
        "winner": data.get("winner") or None,
        "kind": data.get("kind") or "single",
        "acting_captain": data.get("acting_captain") or None,
        "partner": data.get("partner") or None,
        "automatic_doubles": int(data.get("automatic_doubles") or 0)
        if str(data.get("automatic_doubles") or "0").isdigit()
        else 0,
    }


def core_event(row) -> core.Event:
    """The core's event for a stored SessionEvent row."""
    if row.kind == core.START:
        return core.Event(core.START, order=tuple(row.payload["order"]))
    if row.kind == core.GAME:
        return core.Event(core.GAME, entry=entry_from_payload(row.payload))
    return core.Event(row.kind, player=row.player_id)


def form_from_payload(payload: dict) -> dict:
    """Initial values of the live form for a stored game (for the correction page)."""
    initial = {
        "winner": payload.get("winner") or "",
        "kind": payload.get("kind") or "single",
        "partner": payload.get("partner") or "",
        "automatic_doubles": payload.get("automatic_doubles") or 0,
        "first": (payload.get("events") or [{}])[0].get("doubler", BOX),
    }
    for event in payload.get("events") or []:
        prefix = "box_double" if event.get("doubler") == BOX else "team_double"
        for answer in event.get("responses") or []:
            initial[f"{prefix}_{answer.get('player')}"] = answer.get("response")
    return initial
