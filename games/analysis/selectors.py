"""Reads for engine analyses: whether a record may be analysed (and why not), the record page's figures and
biggest errors, and a player's running error rate with the BMAB-style tally (docs/games.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max, Prefetch, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from backgammon.analysis.drawing import drawing
from backgammon.analysis.runner import PLIES
from backgammon.matchfiles.ids import IdFormatError
from clubs import access
from clubs import selectors as clubs
from clubs.models import AnalysisConsent, Membership, public_name_of
from games.models import AnalysisStatus, GameRecord, PlayerAnalysis, RecordAnalysis, RecordStatus
from games.records.selectors import line_page

ANALYSED_GAMES = ("standard", "nackgammon")  # what GNU Backgammon analyses
SHOWN_ERRORS = 5
# BMAB-style tally: an analysed match counts when its PR-like figure is at or under the threshold. BMAB's own
# thresholds (on eXtreme Gammon's PR) are 2.5 / 4 / 6.5 / 10 / 16; these figures are gnubg's, on a PR-like scale.
PR_THRESHOLDS = (2.5, 4.0, 6.5, 10.0, 16.0)


def _same_name(a: str, b: str) -> bool:
    return " ".join(str(a).casefold().split()) == " ".join(str(b).casefold().split())


def sides_of(record: GameRecord) -> tuple:
    """The match's players as the record's side 0 and side 1 (the record's left and right columns), matched by
    name; (None, None) when the names are not the match's players' (no figure is put on the wrong person)."""
    match = record.match
    names = list((record.verdict or {}).get("players") or [])
    if match is None or len(names) != 2:
        return (None, None)
    a, b = match.player_a, match.player_b
    if _same_name(names[0], a.name) and _same_name(names[1], b.name):
        return (a, b)
    if _same_name(names[0], b.name) and _same_name(names[1], a.name):
        return (b, a)
    return (None, None)


def refusal(record: GameRecord) -> str:
    """Why the record may not be analysed, in the reader's language; "" when it may. Nothing is analysed without
    the consent of both players of its match and of the match's club."""
    verdict = record.verdict or {}
    if record.status != RecordStatus.VALID:
        return _("Not analysed: only records verified valid are analysed.")
    if record.format != "mat" or verdict.get("variant", "standard") not in ANALYSED_GAMES:
        return _("Not analysed: the engine reads .mat records of backgammon or nackgammon only.")
    if not verdict.get("match_length"):
        return _("Not analysed: the engine analyses matches, not money sessions.")
    match = record.match
    if match is None:
        return _("Not analysed: the record belongs to no match, so its players cannot be asked for consent.")
    for player in (match.player_a, match.player_b):
        if not player.analyse_records:
            return _("Not analysed: %(name)s has not allowed the analysis of their records.") % {"name": player.name}
    if match.club_id and not match.club.analyse_records:
        return _("Not analysed: %(club)s does not analyse the records of its matches.") % {"club": match.club.name}
    return ""


def figures_shown(figures: PlayerAnalysis, user) -> bool:
    """Whether `user` may see one side's figures: always the player themself; others only while the player's
    answer is a plain yes ("only for me" and a later no keep them to the player). A side that is no match
    player's (the names differ) was analysed with both match players' consent and shows. `figures.player`
    should be loaded with it (select_related), else one query."""
    player = figures.player
    if player is None or player.figures_public:
        return True
    return bool(getattr(user, "is_authenticated", False)) and player.user_id == user.pk


def _sides_queryset():
    return PlayerAnalysis.objects.select_related("player").order_by("side")


def record_analyses(*, record: GameRecord) -> list[RecordAnalysis]:
    """The record's analyses, newest first, with both sides' figures and their players (two queries)."""
    return list(
        RecordAnalysis.objects.filter(record=record)
        .prefetch_related(Prefetch("players", queryset=_sides_queryset()))
        .order_by("-plies", "-requested_at")
    )


def cube_action_names() -> dict[str, str]:
    """The engine's cube actions (backgammon.analysis.review.CUBE_ACTIONS) in the reader's language."""
    return {
        "no-double": _("No double"),
        "double": _("Double"),
        "take": _("Take"),
        "pass": _("Pass"),
    }


@dataclass(frozen=True)
class ShownError:
    kind: str  # "move" or "cube"
    game: int
    side: int
    player: str
    dice: str
    played: str
    best: str
    loss: float
    score: tuple[int, int]
    board: object  # backgammon.analysis.drawing.Drawing, or None for a position that cannot be read
    line: int | None = None  # the decision's line in the record, linked from the page (None: not found)
    lines_page: int = 1


def analysis_panel(*, record: GameRecord, user=None) -> dict:
    """What the record page shows `user`: the analysis to show (the deepest done one, else the latest), the
    figures and biggest errors of the sides whose figures the user may see (figures_shown), with their positions
    drawn, and why the record is not analysed when it is not."""
    analyses = record_analyses(record=record)
    done = [a for a in analyses if a.status == AnalysisStatus.DONE]
    shown = done[0] if done else (analyses[0] if analyses else None)
    sides = list(shown.players.all()) if shown is not None else []
    players = [p for p in sides if figures_shown(p, user)]
    hidden = {p.side for p in sides} - {p.side for p in players}
    names = {p.side: p.name for p in sides} or dict(enumerate((record.verdict or {}).get("players") or []))
    errors = []
    if shown is not None and shown.status == AnalysisStatus.DONE:
        kept = [item for item in shown.biggest_errors if item.get("side") not in hidden]
        actions = cube_action_names()
        for item in kept[:SHOWN_ERRORS]:
            kind = item.get("kind", "move")
            try:
                board = drawing(item.get("position", ""))
            except IdFormatError:
                board = None
            errors.append(
                ShownError(
                    kind=kind,
                    game=item["game"],
                    side=item["side"],
                    player=names.get(item["side"], ""),
                    dice="".join(str(d) for d in item.get("dice") or ()),
                    played=actions.get(item.get("played", ""), "") if kind == "cube" else item.get("played", ""),
                    best=actions.get(item.get("best", ""), "") if kind == "cube" else item.get("best", ""),
                    loss=item["loss"],
                    score=tuple(item.get("score") or (0, 0)),
                    board=board,
                    line=item.get("line"),
                    lines_page=line_page(item.get("line")),
                )
            )
    return {
        "analysis": shown,
        "analysis_others": [a for a in analyses if a is not shown],
        "analysis_deeper": _deeper_plies(record, analyses, user) if shown is not None else [],
        "analysis_players": players,
        "analysis_hidden": [names.get(side, "") for side in sorted(hidden)],
        "analysis_errors": errors,
        "analysis_refusal": "" if shown is not None else refusal(record),
        "analysis_games": _games(shown, names, hidden) if shown is not None else [],
    }


def _deeper_plies(record: GameRecord, analyses: list[RecordAnalysis], user) -> list[int]:
    """The plies deeper than the site's default that `user` may ask for (the uploader, the match's directors)
    and that the record has no analysis at yet (a failed one may be asked for again)."""
    if not access.can(user, "record.analyse_deeper", record):
        return []
    have = {a.plies for a in analyses if a.status != AnalysisStatus.FAILED}
    return [p for p in PLIES if p > int(settings.RECORD_ANALYSIS_PLIES) and p not in have]


def _games(analysis: RecordAnalysis, names: dict, hidden: set) -> list[dict]:
    rows = []
    for game in analysis.games or []:
        sides = game.get("sides") or []
        rows.append(
            {
                "number": game.get("number"),
                "sides": [{**side, "name": names.get(i, "")} for i, side in enumerate(sides) if i not in hidden],
            }
        )
    return rows


def figures_for_api(*, record: GameRecord, user=None) -> list[dict]:
    """The record's done analyses as the API shows them to `user` (the caller has checked that the user sees the
    record; `analyses` prefetched by analyses_prefetch, else three queries): a side whose player keeps the
    figures to themself is left out for anyone else (figures_shown)."""
    out = []
    for analysis in record.analyses.all():
        if analysis.status != AnalysisStatus.DONE:
            out.append(
                {
                    "engine": analysis.engine,
                    "plies": analysis.plies,
                    "status": analysis.status,
                    "reason": analysis.reason,
                }
            )
            continue
        out.append(
            {
                "engine": analysis.engine,
                "version": analysis.version,
                "plies": analysis.plies,
                "met": analysis.met,
                "status": analysis.status,
                "reason": "",
                "players": [
                    {
                        "side": p.side,
                        "name": p.name,
                        "player": p.player_id,
                        "error_rate": p.error_rate,
                        "checker_error_rate": p.checker_error_rate,
                        "cube_error_rate": p.cube_error_rate,
                        "errors": p.errors,
                        "blunders": p.blunders,
                        "luck_rate": p.luck_rate,
                        "pr_like": p.pr_like,
                        "unforced_decisions": p.unforced_decisions,
                    }
                    for p in analysis.players.all()
                    if figures_shown(p, user)
                ],
            }
        )
    return out


def analyses_prefetch() -> Prefetch:
    return Prefetch(
        "analyses",
        queryset=RecordAnalysis.objects.order_by("-plies", "-requested_at").prefetch_related(
            Prefetch("players", queryset=_sides_queryset())
        ),
    )


@dataclass(frozen=True)
class ErrorHistory:
    engine: str
    plies: int
    rows: list  # (PlayerAnalysis, running error rate in mEMG over the matches so far), newest first
    left_out: int  # analyses of other engines or plies, never mixed in
    tally: list[tuple[float, int]]  # (threshold, matches at or under it)


def player_error_history(*, player, user=None) -> ErrorHistory | None:
    """A player's analysed matches of the engine and ply they have most of (figures of different engines or
    plies are never mixed), oldest first, with the BMAB-style tally. One query. None for anyone but the player
    when the player keeps their figures to themself (not a plain yes)."""
    if not player.figures_public and not (getattr(user, "is_authenticated", False) and player.user_id == user.pk):
        return None
    rows = list(
        PlayerAnalysis.objects.filter(player=player, analysis__status=AnalysisStatus.DONE)
        .select_related("analysis__record")
        .defer("analysis__games", "analysis__biggest_errors", "analysis__record__verdict")
        .order_by("analysis__finished_at", "pk")
    )
    if not rows:
        return None
    counts: dict[tuple[str, int], int] = {}
    for row in rows:
        key = (row.analysis.engine, row.analysis.plies)
        counts[key] = counts.get(key, 0) + 1
    engine, plies = max(counts, key=lambda key: (counts[key], key[1]))
    kept = [r for r in rows if (r.analysis.engine, r.analysis.plies) == (engine, plies)]
    tally = [(t, sum(1 for r in kept if r.pr_like is not None and r.pr_like <= t)) for t in PR_THRESHOLDS]
    running, total, decisions = [], 0.0, 0
    for row in kept:  # the running rate weighs each match by its decisions, as gnubg's own rate does
        total, decisions = total + row.error_total, decisions + row.unforced_decisions
        running.append((row, 1000.0 * total / decisions if decisions else 0.0))
    return ErrorHistory(engine=engine, plies=plies, rows=running[::-1], left_out=len(rows) - len(kept), tally=tally)


def consent_page(*, user) -> dict:
    """The analysis settings page: the user's own player switch and the clubs whose switch they may turn."""
    return {
        "consent_choices": AnalysisConsent.choices,
        "player": clubs.player_for_user(user),
        "clubs": [club for club in clubs.directed_clubs(user=user) if clubs.is_club_admin(user=user, club=club)],
    }


# A player is ranked by error rate from this many analysed matches of the ranking's engine and ply on: fewer
# matches say more about the dice than about the player.
MIN_RANKED_MATCHES = 3


@dataclass(frozen=True)
class RankedPlayer:
    rank: int
    player_id: int
    name: str
    matches: int
    decisions: int
    error_rate: float  # mEMG per unforced decision over all the matches (each weighed by its decisions)
    pr_like: float  # 500 × the mean error in EMG


@dataclass(frozen=True)
class ErrorRanking:
    engine: str
    plies: int
    ranked: list[RankedPlayer]
    unranked: int  # members with analysed matches, but fewer than `minimum`
    minimum: int
    kinds: list[tuple[str, int, int]]  # every (engine, plies, analysed sides) in the period, the ranking's too


def club_error_ranking(
    *, club, starts_on=None, ends_on=None, engine: str | None = None, plies: int | None = None
) -> ErrorRanking | None:
    """The club's members ranked by error rate (lowest first) over their analysed matches at the club between
    `starts_on` and `ends_on` (the match's end, else the record's upload), of one engine and ply only: the one
    asked for, else the one with most analyses (figures of different engines or plies are never mixed). Only
    active members whose answer is a plain yes count ("only for me" is not ranked). None when the club does
    not rank error rates. Two queries."""
    if not club.rank_error_rates:
        return None
    sides = PlayerAnalysis.objects.filter(
        analysis__status=AnalysisStatus.DONE,
        analysis__record__match__club=club,
        player__analysis_consent=AnalysisConsent.YES,
        player__memberships__club=club,
        player__memberships__is_active=True,
        player__memberships__status=Membership.Status.ACCEPTED,
    ).annotate(played=Coalesce("analysis__record__match__finished_at", "analysis__record__created_at"))
    if starts_on is not None:
        sides = sides.filter(played__date__gte=starts_on)
    if ends_on is not None:
        sides = sides.filter(played__date__lte=ends_on)
    kinds = [
        (row["analysis__engine"], row["analysis__plies"], row["n"])
        for row in sides.values("analysis__engine", "analysis__plies")
        .annotate(n=Count("pk"))
        .order_by("-n", "-analysis__plies", "analysis__engine")
    ]
    if engine is None or plies is None:
        engine, plies = (kinds[0][0], kinds[0][1]) if kinds else ("gnubg", 1)
    rows = (
        sides.filter(analysis__engine=engine, analysis__plies=plies)
        .values("player_id")
        .annotate(
            name=Max(public_name_of("player__", club="player__memberships__club__")),
            matches=Count("pk"),
            total=Sum("error_total"),
            decisions=Sum("unforced_decisions"),
        )
        .order_by()
    )
    ranked, unranked = [], 0
    for row in rows:
        if row["matches"] < MIN_RANKED_MATCHES or not row["decisions"]:
            unranked += 1
            continue
        mean = row["total"] / row["decisions"]
        ranked.append((1000.0 * mean, 500.0 * mean, row))
    ranked.sort(key=lambda item: (item[0], item[2]["name"]))
    return ErrorRanking(
        engine=engine,
        plies=plies,
        ranked=[
            RankedPlayer(
                rank=place,
                player_id=row["player_id"],
                name=row["name"],
                matches=row["matches"],
                decisions=row["decisions"],
                error_rate=rate,
                pr_like=pr,
            )
            for place, (rate, pr, row) in enumerate(ranked, 1)
        ],
        unranked=unranked,
        minimum=MIN_RANKED_MATCHES,
        kinds=kinds,
    )
