"""People-facing, translated text for the refusals of the pure core (which speaks English and player ids), by code;
registered in ChouetteConfig.ready, so the API and the pages translate a ChouetteError alike (base.messages)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.messages import translate
from chouette.core.errors import ChouetteError

MESSAGES = {
    "bad_event": gettext_lazy("This table event cannot be read; reload the table."),
    "unknown_rule": gettext_lazy("There is no rule called %(name)s."),
    "bad_rule": gettext_lazy("Choose one of: %(allowed)s."),
    "bad_max_players": gettext_lazy("A chouette table seats 3 to 20 players."),
    "bad_partner_from": gettext_lazy("A partner for the box needs at least 4 players and no more than the table size."),
    "bad_automatic_doubles": gettext_lazy("Automatic doubles: between 0 and 6."),
    "raccoon_without_beaver": gettext_lazy("A raccoon answers a beaver: allow beavers too."),
    "tie": gettext_lazy("%(players)s are tied: only they roll again."),
    "extra_roll": gettext_lazy("%(player)s was not tied and rolls only once."),
    "too_few_players": gettext_lazy("A chouette needs at least 3 players at the table."),
    "no_roll": gettext_lazy("%(player)s has not rolled yet."),
    "bad_roll": gettext_lazy("A roll is a number from 1 to 12 (one die or both)."),
    "automatic_doubles": gettext_lazy("At most %(max)s automatic doubles are allowed at this table."),
    "acting_captain": gettext_lazy("The acting captain must be a team member who took."),
    "acting_captain_rank": gettext_lazy("The highest-ranked member who took (%(player)s) becomes acting captain."),
    "no_acting_captain": gettext_lazy("There is an acting captain only after the captain drops."),
    "not_in_team": gettext_lazy("%(player)s is not on the team this game."),
    "result_after_drop": gettext_lazy("%(player)s's game ended with a drop; it has no result."),
    "no_result": gettext_lazy("Say who won the game: the box or the team."),
    "bad_kind": gettext_lazy("A game ends single, gammon or backgammon."),
    "daves_at_cube_table": gettext_lazy("This table plays with the cube: enter the doubles, not Dave stakes."),
    "cube_at_dave_table": gettext_lazy("This table plays with Daves: enter each member's final stake, no cube."),
    "bad_give_up": gettext_lazy("Who gave up: the member, the box, or nobody."),
    "dave_twice": gettext_lazy("%(player)s has two Dave lines: give each member's final stake once."),
    "not_zero_sum": gettext_lazy("This game does not sum to zero."),
    "claimed_not_zero": gettext_lazy(
        "The points written down add up to %(total)s, not 0: the box's points are minus the team's sum."
    ),
    "claimed_not_playing": gettext_lazy("%(player)s did not play this game."),
    "claimed_mismatch": gettext_lazy(
        "The cube actions and result give %(player)s %(expected)s points, not %(claimed)s."
    ),
    "bad_doubler": gettext_lazy("A double is made by the box or by team members."),
    "empty_double": gettext_lazy("Double %(number)s: say whose cubes were turned."),
    "double_twice": gettext_lazy("A double names %(player)s twice."),
    "double_after_drop": gettext_lazy("%(player)s's game already ended; no more doubles on that cube."),
    "not_cube_owner": gettext_lazy("%(who)s cannot double: the other side owns %(player)s's cube."),
    "cube_limit": gettext_lazy("%(player)s's cube would pass %(limit)s: check the doubles."),
    "bad_response": gettext_lazy("Answer a double with take, drop, beaver or raccoon."),
    "no_beaver": gettext_lazy("Beavers are not allowed at this table."),
    "no_raccoon": gettext_lazy("Raccoons are not allowed at this table."),
    "single_cube_all": gettext_lazy("With one cube, a double involves every member still playing."),
    "single_cube_same": gettext_lazy("With one cube, everyone who plays on keeps the same cube."),
    "must_take_captain": gettext_lazy("The box must take the captain's cube at this table."),
    "must_take_half": gettext_lazy(
        "The box must take at least half of the initial cubes doubled at once: %(need)s of %(of)s."
    ),
    "no_deals": gettext_lazy(
        "This table plays without deals: enter how the member's game ended (a drop or the board's result)."
    ),
    "deals_at_dave_table": gettext_lazy(
        "Deals are entered at cube tables: with Daves, enter the member's final stake and who gave up."
    ),
    "deal_moment": gettext_lazy("A deal comes before, between or after the %(n)s doubles: 'after' is 0 to %(n)s."),
    "deal_not_in_team": gettext_lazy(
        "%(player)s is not on the team this game: the box deals only with a team member still playing."
    ),
    "deal_after_out": gettext_lazy("%(player)s's game already ended: no deal after it."),
    "deal_too_large": gettext_lazy(
        "%(player)s's cube is at %(cube)s: a deal is worth at most %(limit)s points either way (a backgammon); "
        "enter a deal from -%(limit)s to +%(limit)s."
    ),
    "result_after_deal": gettext_lazy("%(player)s settled with the box; their game has no result."),
    "stale_order": gettext_lazy("This game was entered for a different seating; reload the table."),
    "already_seated": gettext_lazy("%(player)s is already at the table."),
    "table_full": gettext_lazy("The table is full (%(max)s players)."),
    "not_seated": gettext_lazy("%(player)s is not at the table."),
    "unbalanced": gettext_lazy("The balances do not add up to zero."),
    "no_partner": gettext_lazy("The box takes a partner only from %(n)s players on."),
    "partner_needed": gettext_lazy("With %(n)s players the box must take a partner."),
    "bad_partner": gettext_lazy("The partner must be another player at the table."),
    "partner_is_captain": gettext_lazy("The captain cannot be the box's partner."),
    "already_started": gettext_lazy("The session already has its starting order."),
    "duplicate_player": gettext_lazy("Each player sits at the table once."),
    "table_size": gettext_lazy("A chouette needs 3 to %(max)s players."),
    "sitting_out": gettext_lazy("%(player)s is sitting out: bring them back instead."),
    "not_sitting_out": gettext_lazy("%(player)s is not sitting out."),
}


def with_names(exc: ChouetteError, names: dict) -> ChouetteError:
    """The refusal with player names in its params instead of ids, so its translated text (base.messages) names
    people; returned for raising on."""
    params = dict(exc.params)
    for key in ("player", "who"):
        if key in params:
            value = params[key]
            params[key] = names.get(_as_id(value), _("the box") if value == "the box" else value)
    if "players" in params:
        params["players"] = ", ".join(names.get(_as_id(p.strip()), p.strip()) for p in params["players"].split(","))
    exc.params = params
    return exc


def readable(exc: ChouetteError, names: dict) -> str:
    """The core's refusal in the reader's language, with player names instead of ids."""
    return translate(with_names(exc, names))


def _as_id(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return value
